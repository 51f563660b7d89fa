/* forms.js: the server's own forms that ask before something that cannot be taken back
 * (a script asks with widgets.js's `confirmed`). Imports nothing: a page of plain forms
 * loads no more than this. */

/** Forms marked data-confirm (under `root`, the page) ask their question before they are sent. */
export function confirmForms(root) {
  for (const form of (root || document).querySelectorAll('form[data-confirm]')) {
    form.addEventListener('submit', (event) => {
      if (!window.confirm(form.getAttribute('data-confirm'))) event.preventDefault();
    });
  }
}
