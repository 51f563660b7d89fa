/* banks.js: the question-bank pages of the GM console, an ES module on lib/ (words, forms,
 * http); no lit-html: these pages are the server's own forms and tables.
 *
 * - forms with data-confirm ask before deleting;
 * - a select with data-autosubmit submits its form when changed;
 * - the import form shows the bank-name field for a new bank and the
 *   add/replace choice for an existing one;
 * - #game-coverage[data-url] refreshes its unused-question counts from
 *   GET /console/banks/game/<id>/coverage every 10 seconds.
 * Every text put in the page comes from the server's catalog or data and is
 * inserted with textContent.
 */
import { W } from './lib/words.js';
import { confirmForms } from './lib/forms.js';
import { fetchJSON } from './lib/http.js';

const { t } = W;

confirmForms();

for (const select of document.querySelectorAll('select[data-autosubmit]')) {
  select.addEventListener('change', () => { if (select.form) select.form.submit(); });
}

for (const target of document.querySelectorAll('select[data-import-target]')) {
  const form = target.form;
  const show = () => {
    const isNew = target.value === 'new';
    for (const el of form.querySelectorAll('[data-import-new]')) el.hidden = !isNew;
    for (const el of form.querySelectorAll('[data-import-existing]')) el.hidden = isNew;
  };
  target.addEventListener('change', show);
  show();
}

const box = document.getElementById('game-coverage');
if (box && box.dataset.url) {
  const minimum = Number(box.dataset.minimum || 2);
  /** A cell's count; none, or fewer than a game needs, marked (its title says which). */
  const fill = (cell, n) => {
    cell.textContent = '';
    if (n === 0 || n < minimum) {
      const mark = document.createElement('span');
      mark.className = n === 0 ? 'check bad' : 'badge warn';
      mark.title = t(n === 0 ? 'banks.cell.none' : 'banks.cell.few');
      mark.textContent = String(n);
      cell.appendChild(mark);
    } else {
      cell.textContent = String(n);
    }
  };
  /** Each author's counts as the server has them now; the totals summed here. */
  const refresh = () => fetchJSON(box.dataset.url).then((table) => {
    if (!table || table.ok === false) return;
    const totals = {};
    let all = 0;
    for (const cell of box.querySelectorAll('td[data-type]')) {
      const author = cell.dataset.author;
      const kind = cell.dataset.type;
      if (author === undefined) continue;          // the footer, done below
      const counts = table[author];
      if (!counts) continue;
      if (kind === 'total') {
        const sum = Object.values(counts).reduce((a, b) => a + Number(b || 0), 0);
        cell.textContent = String(sum);
        all += sum;
      } else {
        const n = Number(counts[kind] || 0);
        totals[kind] = (totals[kind] || 0) + n;
        fill(cell, n);
      }
    }
    for (const cell of box.querySelectorAll('tfoot td[data-type]')) {
      const kind = cell.dataset.type;
      cell.textContent = String(kind === 'total' ? all : (totals[kind] || 0));
    }
  });
  window.setInterval(refresh, 10000);
}
