// The charts' arithmetic: the value axis, labels kept apart, bars' widths.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { axis, scale, spread, bars } from '../../static/js/lib/scales.js';

test('the axis takes 0 in, steps by whole numbers, about eight ticks at most', () => {
  assert.deepEqual(axis([3, 5, 2]), { lo: 0, hi: 5, step: 1, ticks: [0, 1, 2, 3, 4, 5] });
  const wide = axis([40, 7]);
  assert.equal(wide.step, 5);
  assert.deepEqual(wide.ticks, [0, 5, 10, 15, 20, 25, 30, 35, 40]);
  assert.deepEqual(axis([-2.5, 1]).ticks, [-2, -1, 0, 1]);
});

test('a flat line (every score 0) still spans one unit', () => {
  assert.deepEqual(axis([0, 0]), { lo: 0, hi: 1, step: 1, ticks: [0, 1] });
  assert.deepEqual(axis([]).ticks, [0, 1]);
});

test('the scale puts hi at the top and lo at the bottom', () => {
  const y = scale(0, 10, 20, 220);
  assert.equal(y(10), 20);
  assert.equal(y(0), 220);
  assert.equal(y(5), 120);
});

test('labels closer than the gap are pushed down, in order, and the input is left alone', () => {
  const given = [{ y: 50, t: 'b' }, { y: 40, t: 'a' }, { y: 45, t: 'c' }, { y: 200, t: 'd' }];
  const out = spread(given, 20);
  assert.deepEqual(out.map((l) => [l.t, l.y]), [['a', 40], ['c', 60], ['b', 80], ['d', 200]]);
  assert.equal(given[0].y, 50);
});

test('bars share their group and are never thinner than 4', () => {
  assert.deepEqual(bars(920, 4, 3), { group: 230, bar: 220 / 3 });
  assert.equal(bars(920, 100, 6).bar, 4);
  assert.equal(bars(920, 0, 0).group, 920);
});
