// The Hive board's geometry: where the hexes go, the fit to the frame, the zoom.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { R, MIN_TARGET, ZOOM, centre, hexPoints, bounds, fit, zoomAt } from '../../static/js/games/hive/geometry.js';

const close = (a, b, what, within) => assert.ok(Math.abs(a - b) < (within || 1e-6), `${what}: ${a} ≠ ${b}`);
const dist = ([x0, y0], [x1, y1]) => Math.hypot(x1 - x0, y1 - y0);

test('the six neighbours of a cell are all one hex width away, and the origin is at 0, 0', () => {
  assert.deepEqual(centre(0, 0), [0, 0]);
  const width = Math.sqrt(3) * R;
  for (const [q, r] of [[1, 0], [-1, 0], [0, 1], [0, -1], [1, -1], [-1, 1]]) {
    close(dist([0, 0], centre(q, r)), width, `neighbour ${q},${r}`);
  }
  close(dist([0, 0], centre(1, 1)), 3 * R, 'a cell two steps away (not a neighbour)');
});

test('a hex has six corners at its radius, the first one at the upper right (pointy top)', () => {
  const corners = hexPoints(10).split(' ').map((p) => p.split(',').map(Number));
  assert.equal(corners.length, 6);
  for (const c of corners) close(Math.hypot(...c), 10, 'a corner on the circle', 0.01);   // written to 2 decimals
  assert.deepEqual(corners[0], [8.66, -5]);
  close(corners[5][0], 0, 'the top corner across');
  assert.equal(corners[5][1], -10, 'the top corner: pointy-topped');
});

test('the bounds hold every cell with a ring to spare, and the origin when there is none', () => {
  const one = bounds([]);
  assert.ok(one.x0 < 0 && one.y0 < 0 && one.x1 > 0 && one.y1 > 0);
  close(one.x1, -one.x0, 'centred on the origin');
  const line = bounds([{ q: 0, r: 0 }, { q: 3, r: 0 }]);
  const [far] = centre(3, 0);
  assert.ok(line.x1 - far >= Math.sqrt(3) * R, 'a whole hex beyond the last cell');
  close(line.x1 - line.x0 - far, one.x1 - one.x0, 'wider by the cells between');
});

test('the fit centres the board in the frame and keeps a phone\'s tiles big enough to tap', () => {
  const cells = [{ q: 0, r: 0 }, { q: 1, r: 0 }];
  const f = fit(cells, 400, 300);
  const b = bounds(cells);
  close(f.x + f.scale * (b.x0 + b.x1) / 2, 200, 'centred across');
  close(f.y + f.scale * (b.y0 + b.y1) / 2, 150, 'centred down');
  assert.ok(f.scale <= 1.8, 'a small board is not blown up past its largest');
  // A long line of cells in a narrow frame: never tiles under a finger's width.
  const many = Array.from({ length: 20 }, (_, i) => ({ q: i, r: 0 }));
  const tight = fit(many, 320, 300);
  assert.ok(tight.scale * Math.sqrt(3) * (R - 3) >= MIN_TARGET - 1e-9, 'a tile at least a finger wide');
  // The hall's small boards shrink further, down to the least zoom.
  const mini = fit(many, 320, 300, true);
  assert.ok(mini.scale < tight.scale && mini.scale >= ZOOM.least);
});

test('a zoom keeps the point under the pointer where it is, within the zoom\'s limits', () => {
  const before = { scale: 1, x: 10, y: 20 };
  const after = zoomAt(before, 2, 110, 70);
  assert.equal(after.scale, 2);
  // The board point under (110, 70) before is still under it after.
  const px = (110 - before.x) / before.scale, py = (70 - before.y) / before.scale;
  close(after.x + after.scale * px, 110, 'across');
  close(after.y + after.scale * py, 70, 'down');
  assert.equal(zoomAt(before, 100, 0, 0).scale, ZOOM.most);
  assert.equal(zoomAt(before, 0.001, 0, 0).scale, ZOOM.least);
  assert.deepEqual(before, { scale: 1, x: 10, y: 20 }, 'the pan and zoom given is left as it was');
});
