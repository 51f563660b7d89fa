/* confirm_forms.js: a page whose forms marked data-confirm ask before they are sent
 * (deleting a hall and its games). */
import { confirmForms } from './lib/forms.js';

confirmForms();
