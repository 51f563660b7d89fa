/* Forms marked data-confirm ask before they are sent (deleting a hall and its games). */
(function () {
  'use strict';
  for (const form of document.querySelectorAll('form[data-confirm]')) {
    form.addEventListener('submit', (event) => {
      if (!window.confirm(form.getAttribute('data-confirm'))) event.preventDefault();
    });
  }
}());
