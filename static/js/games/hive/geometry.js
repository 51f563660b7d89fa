/* geometry.js: where a Hive board's hexes go on screen, and how the board is fitted to its
 * frame and zoomed. Pointy-topped hexes on axial coordinates (q, r), as the view sends
 * them. Imports nothing: tests/js/hive_board.test.mjs runs it under node. */

/** A hex's radius in board units. */
export const R = 32;
const W3 = Math.sqrt(3);
/** The smallest drawn tile on a screen that may move, in CSS pixels (a finger's target). */
export const MIN_TARGET = 46;
/** The zoom's limits, as a factor of board units to CSS pixels. */
export const ZOOM = { least: 0.2, most: 4 };

/** The centre [x, y] of cell (q, r), in board units. */
export const centre = (q, r) => [W3 * R * (q + r / 2), 1.5 * R * r];

/** The corners of a pointy-topped hex of `radius` around 0, 0, as an SVG points list. */
export function hexPoints(radius) {
  const out = [];
  for (let i = 0; i < 6; i++) {
    const a = Math.PI / 180 * (60 * i - 30);
    out.push((radius * Math.cos(a)).toFixed(2) + ',' + (radius * Math.sin(a)).toFixed(2));
  }
  return out.join(' ');
}

/** The box {x0, y0, x1, y1} around `cells` ({q, r}; the origin when none), with one
 *  ring more on every side (where a piece may be placed or go) and a hex's size. */
export function bounds(cells) {
  const all = cells && cells.length ? cells : [{ q: 0, r: 0 }];
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const c of all) {
    const [x, y] = centre(c.q, c.r);
    x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
  }
  const pad = W3 * R + R + 4;
  return { x0: x0 - pad, y0: y0 - pad, x1: x1 + pad, y1: y1 + pad };
}

/** The pan and zoom {scale, x, y} that centre `cells` in a frame `width` × `height`
 *  (CSS pixels). A board that may be played never draws a tile smaller than a finger
 *  (it may then need panning); a `mini` board (the hall's projector) shrinks further.
 *  `limits` {least, tile}: a projector's (no one plays on it), a tile at most `tile` of the frame. */
export function fit(cells, width, height, mini, limits) {
  const b = bounds(cells);
  // Never played on: no room kept round it for the cells a piece may go to.
  if (mini || limits) { const m = W3 * R; b.x0 += m; b.x1 -= m; b.y0 += m; b.y1 -= m; }
  let scale = Math.min(width / (b.x1 - b.x0), height / (b.y1 - b.y0));
  const least = limits ? limits.least : mini ? ZOOM.least : MIN_TARGET / (W3 * (R - 3));   // the drawn tile, not the cell
  const most = limits ? limits.tile * Math.min(width, height) / (2 * R) : mini ? 1.6 : 1.8;
  scale = Math.max(least, Math.min(scale, most));
  return { scale: scale, x: width / 2 - scale * (b.x0 + b.x1) / 2, y: height / 2 - scale * (b.y0 + b.y1) / 2 };
}

/** The pan and zoom `view` ({scale, x, y}) zoomed by `factor` around the frame's point
 *  (cx, cy), which stays where it is on screen; the scale stays within ZOOM. */
export function zoomAt(view, factor, cx, cy) {
  const scale = Math.max(ZOOM.least, Math.min(view.scale * factor, ZOOM.most));
  const f = scale / view.scale;
  return { scale: scale, x: cx - f * (cx - view.x), y: cy - f * (cy - view.y) };
}
