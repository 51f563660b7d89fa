/* room.js: what la colmena's hall projector computes before drawing: a finished table's
 * message split into its headline and the rest, and the tiles' grid. Imports nothing:
 * tests/js/colmena_room.test.mjs runs it under node. */

/** A table's closing message ({es, es-ES, en}) in `lang` as {head, rest}: the manual's
 *  messages open with an exclamation, and that part is the headline. */
export function said(message, lang) {
  if (!message) return { head: '', rest: '' };
  const text = message[lang] || message.es || '';
  const cut = text.indexOf('!');
  return cut > 0 ? { head: text.slice(0, cut + 1), rest: text.slice(cut + 1).trim() } : { head: text, rest: '' };
}

/** The columns and rows {cols, rows} of `n` tiles, so that they keep roughly the shape of
 *  a wide screen. */
export function grid(n) {
  const cols = Math.max(1, Math.min(n, Math.ceil(Math.sqrt(n * 1.6))));
  return { cols: cols, rows: Math.max(1, Math.ceil(n / cols)) };
}
