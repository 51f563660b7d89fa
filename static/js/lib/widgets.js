/* widgets.js: what every screen shows the same way: a team's badge, the message area
 * (a refusal, a toast, with "Deshacer" when it can be undone), a button that sends an
 * action, a confirmation, the OFFLINE banner. Drawn from a view's `teams` and the
 * catalogs; knows no game.
 *
 * Test ids: offline (the banner, in base.html), notice (the message area, in base.html). */
import { html, render, nothing, $ } from './dom.js';
import { W } from './words.js';

const { t, has } = W;

/* ---- a team's badge --------------------------------------------------- */
/** The team `n` of `view` (its entry of `view.teams`), or null. */
export const teamOf = (view, n) => (view && view.teams ? view.teams.find((tm) => tm.team === n) : null);
/** The name of team `n`, its number when it has none. */
export const teamName = (view, n) => { const tm = teamOf(view, n); return tm ? tm.name : String(n); };
/** The coloured number chip; the colour never carries meaning alone. */
export const chip = (n, extra) => html`<span class=${'chip c' + n + (extra ? ' ' + extra : '')} aria-hidden="true">${n}</span>`;
/** "[3] Sócrates": chip, number and name together. */
export const teamLabel = (view, n) => html`<span class="teamlabel">${chip(n)}<span class="tname">${teamName(view, n)}</span></span>`;
/** "Equipo 3 (Sócrates)" as plain text. */
export function teamText(view, n) {
  const name = teamName(view, n);
  const m = /^\S+\s+(\d+)$/.exec(name.trim());      // "Equipo 3" needs no "(Equipo 3)"
  return m && Number(m[1]) === n ? name : t('team.n_name', { n: n, name: name });
}

/* ---- the message area ------------------------------------------------- */
/** The errors that are not a rule of a game (their answer names no rule book entry). */
const NOT_RULES = new Set(['format', 'rate', 'busy', 'offline', 'server', 'auth', 'limit',
  'not_found', 'not_now', 'role', 'unauthorized']);
/** Whether a refusal's `error` is an entry of a rule book (the catalog summarises it). */
export const isRule = (rule) => !!rule && !NOT_RULES.has(rule) && has('rule.' + rule);
/** A rule as a link to its entry in the rule book of the page's language; any other error plain. */
export function ruleLink(rule, title, label) {
  if (!isRule(rule)) return html`<strong class="rule" title=${title || nothing}>${label || rule}</strong>`;
  const book = W.lang === 'en' ? '/rules' : '/reglas';
  return html`<a class="rule" href=${book + '#' + rule} target="_blank" rel="noopener" title=${title || nothing}>${label || rule}</a>`;
}
let noticeTimer = null;
function notice(parts, kind, ms) {
  const box = $('notice');
  if (!box) return;
  render(html`<span>${parts}</span><button type="button" class="close" aria-label=${t('ui.close')} @click=${() => { box.hidden = true; }}>×</button>`, box);
  box.className = 'notice ' + kind;
  box.hidden = false;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => { box.hidden = true; }, ms);
}
/** Show a refusal ({error, message}) or a plain text in the message area. */
export function flash(what, kind) {
  if (typeof what === 'string') { notice(what, kind || 'info', 4000); return; }
  const rule = what.error || '';
  const summary = has('rule.' + rule) ? t('rule.' + rule) : '';
  // A game explains a refusal in English: on a page in another language the catalog's
  // summary of the rule is shown, and the English detail only as a tooltip.
  const detail = what.message && what.message !== summary ? what.message : '';
  const inline = detail && (W.lang === 'en' || !summary) ? html`<span class="msg"> — ${detail}</span>` : '';
  // The rule's summary is what a person reads: the rule id stays in the link's tooltip.
  const parts = summary && isRule(rule)
    ? [ruleLink(rule, rule + (detail ? ' — ' + detail : ''), summary), inline]
    : [ruleLink(rule, detail), summary ? ' ' + summary : '', inline];
  notice(parts, kind || 'error', kind === 'info' ? 4000 : 12000);
}
/** A short confirmation (`parts`: text or templates) replacing any message; hidden after
 *  `ms` (5 s). With `undo` (a function), a «Deshacer» button that calls it. */
export function toast(parts, ms, undo) {
  notice(undo ? [parts, ' ', html`<button type="button" class="undo-toast" data-testid="toast-undo" @click=${undo}>↶ ${t('act.undo')}</button>`] : parts,
    'info toast', ms || 5000);
}

/* ---- sending an action ------------------------------------------------ */
/** The actions of a page on connection `conn`: {send, btn}. `send(action, label)` sends
 *  an action once at a time (a double click is not sent twice), shows a refusal and, once
 *  accepted, calls `done(action, label)`; a Promise of the ack (null for a second click).
 *  `btn(testid, label, action, cls, title, said)`: a button that calls `action` (a
 *  function) or sends it, its confirmation naming `said` (else the button's text). */
export function sender(conn, done) {
  const pending = new Set();
  function send(action, label) {
    const key = JSON.stringify(action);
    if (pending.has(key)) return Promise.resolve(null);
    pending.add(key);
    return conn.act(action).then((ack) => {
      pending.delete(key);
      if (ack && ack.ok === false) flash(ack);
      else if (done) done(action, label);
      return ack;
    });
  }
  const btn = (testid, label, action, cls, title, said) => html`<button type="button" data-testid=${testid} class=${cls || ''}
    title=${title || nothing} @click=${(e) => (typeof action === 'function' ? action(e) : send(action, said || e.currentTarget.textContent))}>${label}</button>`;
  return { send, btn };
}

/** Ask before something that cannot be taken back; true when confirmed. */
export const confirmed = (text) => window.confirm(text);

/** The OFFLINE banner follows connection `conn` (not shown before a first attempt fails). */
export function offlineBanner(conn) {
  document.documentElement.classList.add('is-offline');
  conn.onOnline((up, why) => {
    const b = $('offline');
    if (b) {
      b.hidden = up;
      const w = b.querySelector('.why');
      if (w) w.textContent = why ? ' (' + why + ')' : '';
    }
    document.documentElement.classList.toggle('is-offline', !up);
  });
  conn.onError(flash);
}
