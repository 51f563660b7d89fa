/* forms.js: asking before something that cannot be taken back, for a script and for the
 * server's own forms. Imports nothing: a page of plain forms loads no more than this. */

/** Ask before something that cannot be taken back; true when confirmed. */
export const confirmed = (text) => window.confirm(text);

/** Forms marked data-confirm (under `root`, the page) ask their question before they are sent. */
export function confirmForms(root) {
  for (const form of (root || document).querySelectorAll('form[data-confirm]')) {
    form.addEventListener('submit', (event) => {
      if (!confirmed(form.getAttribute('data-confirm'))) event.preventDefault();
    });
  }
}
