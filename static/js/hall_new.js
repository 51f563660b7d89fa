/* hall_new.js: the form that makes a hall (templates/console/hall_new.html), an ES module
 * on lib/: the game, who plays (a class or a pasted list) and the hall's settings, drawn
 * from the bounds the server sends for each game. Test ids: hall-setting-NAME. */
import { html, render, nothing, $ } from './lib/dom.js';
import { W, readJSON } from './lib/words.js';
import { fetchJSON } from './lib/http.js';

const { t, has, readNumber } = W;
const data = readJSON('hall-data', { kinds: [] });
const form = $('hall-form');
const box = $('hall-settings');
const error = $('hall-error');

/** The game chosen on the form (the first one when none is). */
function chosen() {
  const input = form.querySelector('input[name=kind]:checked');
  return data.kinds.find((k) => input && k.kind === input.value) || data.kinds[0];
}

/** A setting's name: a game's own hall settings are named in its catalog
 *  (`<kind>hall.setting.<name>`), the shared ones in the hall's. */
function label(name) {
  const own = chosen().kind + 'hall.setting.' + name;
  if (has(own)) return t(own);
  return has('hall.setting.' + name) ? t('hall.setting.' + name) : name;
}

/** The field of setting `name` within `bound` ({options} | {default: bool} | {min, max, default}). */
function field(name, bound) {
  const id = 'hall-setting-' + name;
  const text = label(name);
  if (typeof bound.default === 'boolean' && !Array.isArray(bound.options)) {
    return html`<label><input type="checkbox" id=${id} name=${name} data-testid=${id} ?checked=${bound.default}> ${text}</label>`;
  }
  let input;
  if (Array.isArray(bound.options)) {
    input = html`<select id=${id} name=${name} data-testid=${id}>${bound.options.map((o) => html`<option value=${String(o)}
      ?selected=${o === bound.default}>${has('hall.option.' + o) ? t('hall.option.' + o) : String(o)}</option>`)}</select>`;
  } else if (typeof bound.min === 'number') {
    input = html`<input id=${id} name=${name} data-testid=${id} inputmode="numeric" size="4"
      value=${bound.default == null ? '' : String(bound.default)}>`;
  } else {
    return nothing;
  }
  return html`<p><label for=${id}>${text}</label> ${input}</p>`;
}

/** The chosen game's settings at their defaults (drawn anew: another game's fields go). */
function drawSettings() {
  const bounds = (chosen() || {}).bounds || {};
  render(nothing, box);
  render(Object.keys(bounds).map((name) => field(name, bounds[name])), box);
}

/** The settings as the form holds them, numbers read in the page's language; an error
 *  names the setting that cannot be read. */
function settings() {
  const bounds = (chosen() || {}).bounds || {};
  const out = {};
  for (const name of Object.keys(bounds)) {
    const el = form.elements[name];
    if (!el) continue;
    const bound = bounds[name];
    if (el.type === 'checkbox') out[name] = el.checked;
    else if (Array.isArray(bound.options)) {
      const o = bound.options.find((x) => String(x) === el.value);
      out[name] = o === undefined ? el.value : o;
    } else if (el.value.trim() !== '') {
      const n = readNumber(el.value, { integer: true, min: bound.min, max: bound.max });
      if (n.error) throw new Error(label(name) + ': ' + n.error);
      out[name] = n.value;
    }
  }
  return out;
}

/** Show `text` under the form (none: hide it). */
function problem(text) {
  error.textContent = text || '';
  error.hidden = !text;
}

form.addEventListener('change', (e) => { if (e.target.name === 'kind') drawSettings(); });
form.addEventListener('submit', (e) => {
  e.preventDefault();
  const klass = form.elements.class_id ? form.elements.class_id.value : '';
  let body;
  try {
    body = { kind: chosen().kind, name: form.elements.name.value, settings: settings() };
  } catch (why) {
    problem(why.message);
    return;
  }
  if (klass) body.class_id = Number(klass);
  else body.players = form.elements.players.value;
  problem(null);
  fetchJSON('/console/halls', body, t('live.no_answer')).then((ack) => {
    if (ack && ack.ok) { window.location.assign(ack.url); return; }
    problem((ack && ack.message) || t('live.no_answer'));
  });
});
drawSettings();
