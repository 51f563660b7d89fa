/* words.js: the page's catalog, {name} placeholders, plurals, and numbers, places and
 * dates written the page's language's way (0,5 in Spanish, 0.5 in English). Knows no game. */

/** Words of `catalog` in language `lang`: {lang, t, has, plural, num, signed, ordinal, date, readNumber}. */
export function words(catalog, lang) {
  const has = (key) => Object.prototype.hasOwnProperty.call(catalog, key);
  /** The text of `key` with {name} placeholders filled (the key itself when missing). */
  const t = (key, params) => {
    const text = has(key) ? catalog[key] : key;
    return params ? text.replace(/\{(\w+)\}/g, (m, k) => (params[k] === undefined ? m : String(params[k]))) : text;
  };
  /** A number as the language writes it: 0,5 and −0,5 (es, es-ES), 0.5 and −0.5 (en); never −0. */
  const num = (x) => (typeof x === 'number' ? (x === 0 ? 0 : x).toLocaleString(lang).replace(/^-/, '\u2212') : String(x == null ? '' : x));
  /** `key` for `n` things: `key_none` for 0 and `key_one` for 1 when the catalog has them; {n} filled. */
  const plural = (key, n, params) => t(n === 0 && has(key + '_none') ? key + '_none'
    : n === 1 && has(key + '_one') ? key + '_one' : key, Object.assign({ n: num(n) }, params));
  const signed = (x) => (x > 0 ? '+' : '') + num(x);
  /** A place in a ranking: 1.º (es, es-ES), 1st (en). */
  const ordinal = (n) => {
    if (lang !== 'en') return n + '.º';
    const d = n % 10, dd = n % 100;
    return n + (dd >= 11 && dd <= 13 ? 'th' : d === 1 ? 'st' : d === 2 ? 'nd' : d === 3 ? 'rd' : 'th');
  };
  /** A date written out: 30 de noviembre de 2026 (es, es-ES), 30 November 2026 (en). */
  const date = (d) => d.toLocaleDateString(lang === 'en' ? 'en-GB' : lang, { day: 'numeric', month: 'long', year: 'numeric' });
  /** A number a person typed, read in the language: {value} or {error} (a sentence of the
   *  catalog). Spanish takes `0,5` and `0.5`; English takes `0.5` and refuses `0,5`. Nothing
   *  is guessed: `05`, `1.000,5`, `2e3`, `abc` are refused. `opts`: {integer, min, max}. */
  const readNumber = (text, opts) => {
    const o = opts || {};
    const raw = String(text == null ? '' : text).trim().replace(/^\u2212/, '-');
    if (!raw) return { error: t('ui.number.empty') };
    const m = new RegExp('^([+-]?)(\\d+)(?:(' + (lang === 'en' ? '\\.' : '[.,]') + ')(\\d+))?$').exec(raw);
    if (!m) {
      if (lang === 'en' && /^[+-]?\d+,\d+$/.test(raw)) return { error: t('ui.number.use_point') };
      return { error: t('ui.number.not_a_number', { text: raw }) };
    }
    if (m[2].length > 1 && m[2][0] === '0') {
      return { error: t('ui.number.leading_zero', { text: raw, a: num(Number('0.' + m[2].slice(1))), b: num(Number(m[2])) }) };
    }
    const value = Number((m[1] === '-' ? '-' : '') + m[2] + (m[4] ? '.' + m[4] : ''));
    if (o.integer && m[4]) return { error: t('ui.number.whole', { text: raw }) };
    if (o.min != null && value < o.min) return { error: t('ui.number.at_least', { n: num(o.min) }) };
    if (o.max != null && value > o.max) return { error: t('ui.number.at_most', { n: num(o.max) }) };
    return { value: value };
  };
  return { lang, t, has, plural, num, signed, ordinal, date, readNumber };
}

/** The JSON in the page's <script type="application/json" id=…> (`fallback` when absent or bad). */
export function readJSON(id, fallback) {
  const el = typeof document === 'undefined' ? null : document.getElementById(id);
  if (!el) return fallback;
  try { return JSON.parse(el.textContent); } catch (e) { return fallback; }
}

/** The page's own words: its catalog (#i18n) in its language (<html lang>). */
export const W = words(readJSON('i18n', {}), (typeof document !== 'undefined' && document.documentElement.lang) || 'es');
