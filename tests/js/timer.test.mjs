// The server's clock and a countdown, as a page shows it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clock, countdown } from '../../static/js/lib/timer.js';

test('the clock follows the server: the offset of the time a state brings', () => {
  clock.set(10_000, 7_000);
  assert.equal(clock.offset, 3_000);
  assert.ok(Math.abs(clock.now() - (Date.now() + 3_000)) < 50);
  clock.set(undefined);                  // a state without a time changes nothing
  assert.equal(clock.offset, 3_000);
  clock.offset = 0;
});

test('a running countdown counts to the deadline and says when it is low and over', () => {
  const timer = { state: 'running', deadline: 100_000 };
  assert.deepEqual(countdown(timer, 100_000 - 65_000), {
    ms: 65_000, seconds: 65, state: 'running', text: '1:05', running: true, expired: false });
  assert.equal(countdown(timer, 100_000 - 9_001).text, '0:10');      // rounds up: 0:00 only at the end
  const over = countdown(timer, 100_500);
  assert.equal(over.text, '0:00');
  assert.equal(over.running, false);
  assert.equal(over.expired, true);
});

test('paused, idle, expired and no timer', () => {
  assert.equal(countdown({ state: 'paused', remaining_ms: 30_000 }, 0).text, '0:30');
  assert.equal(countdown({ state: 'idle', seconds: 120 }, 0).text, '2:00');
  assert.equal(countdown({ state: 'expired' }, 0).expired, true);
  assert.deepEqual(countdown(null), { ms: 0, seconds: 0, text: '–:––', state: 'idle', running: false, expired: false });
});
