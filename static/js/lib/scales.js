/* scales.js: the arithmetic of the charts (charts.js), apart from the page so node can
 * test it: a value axis with whole steps, labels pushed apart, bars' widths. */

/** The value axis of `values` (0 always in): {lo, hi, step, ticks}; a flat line still
 *  spans one unit, and there are at most about eight ticks, each a whole step apart. */
export function axis(values) {
  const all = [0].concat(values || []);
  const lo = Math.min(...all);
  let hi = Math.max(...all);
  if (hi === lo) hi = lo + 1;
  const step = Math.max(1, Math.ceil((hi - lo) / 8));
  const ticks = [];
  for (let v = Math.ceil(lo); v <= hi; v += step) ticks.push(v);
  return { lo, hi, step, ticks };
}

/** `map(v)`: the position of v on a line from `from` (at hi) to `to` (at lo). */
export const scale = (lo, hi, from, to) => (v) => from + (to - from) * (hi - v) / (hi - lo);

/** Labels {y, ...} sorted by y, each at least `gap` below the one above it: teams that
 *  end level would print their labels on top of each other. */
export function spread(labels, gap) {
  const out = labels.map((l) => Object.assign({}, l)).sort((a, b) => a.y - b.y);
  for (let i = 1; i < out.length; i++) if (out[i].y - out[i - 1].y < gap) out[i].y = out[i - 1].y + gap;
  return out;
}

/** The bars of `series` teams in `groups` groups over `width`: {group, bar} widths; a bar
 *  is never thinner than 4. */
export function bars(width, groups, series) {
  const group = width / Math.max(groups, 1);
  return { group, bar: Math.max(4, (group - 10) / Math.max(series, 1)) };
}
