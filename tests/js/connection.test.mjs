// The connection's sends: queued while offline, resent with the same id, an ack applied once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connection, legal } from '../../static/js/lib/connection.js';

/** A Socket.IO client socket that records what is sent and lets the test answer. */
function fakeSocket() {
  const handlers = {};
  const s = {
    connected: false, active: true, sent: [],
    on(ev, fn) { (handlers[ev] = handlers[ev] || []).push(fn); return s; },
    fire(ev, ...args) { for (const fn of handlers[ev] || []) fn(...args); },
    timeout(ms) { return { emit: (event, payload, ack) => s.sent.push({ event, payload, ack, ms }) }; },
    emit(event, payload) { s.sent.push({ event, payload }); },
    connect() {},
    up() { s.connected = true; s.fire('connect'); },
    down(reason) { s.connected = false; s.fire('disconnect', reason || 'transport close'); },
  };
  return s;
}
function setUp() {
  const socket = fakeSocket();
  const later = [];
  const conn = connection({ io: () => socket, noAnswer: 'sin respuesta', later: (fn, ms) => later.push({ fn, ms }) });
  const states = [];
  conn.connect({ role: 'team' }, (s) => states.push(s));
  return { socket, conn, states, later };
}
const acts = (socket) => socket.sent.filter((m) => m.event === 'act');

test('an action sent while offline is sent once on reconnect, and its ack resolves it', async () => {
  const { socket, conn } = setUp();
  const ups = [];
  conn.onOnline((up) => ups.push(up));
  let answered = 0;
  const done = conn.act({ do: 'write', text: 'Kant' }, 'id-1').then((ack) => { answered += 1; return ack; });
  assert.equal(acts(socket).length, 0, 'nothing goes out while offline');
  socket.up();
  assert.deepEqual(ups, [true]);
  assert.equal(acts(socket).length, 1);
  assert.deepEqual(acts(socket)[0].payload, { id: 'id-1', action: { do: 'write', text: 'Kant' } });
  socket.up();                                          // a second connect: nothing left to send
  assert.equal(acts(socket).length, 1);
  acts(socket)[0].ack(null, { ok: true, seq: 4 });
  assert.deepEqual(await done, { ok: true, seq: 4 });
  assert.equal(answered, 1);
});

test('coming back, what was asked offline goes out before what the page sends as it comes back', () => {
  const { socket, conn } = setUp();
  conn.act({ do: 'write', text: 'Kant' }, 'id-old');    // sent offline: queued
  // The team's tablet sends the draft typed offline as soon as it is online again.
  conn.onOnline((up) => { if (up) conn.act({ do: 'write', text: 'Immanuel Kant' }, 'id-new'); });
  socket.up();
  assert.deepEqual(acts(socket).map((m) => m.payload.id), ['id-old', 'id-new'],
    'the newer text is the last the server applies');
});

test('no answer: the same id is sent again (after a reconnection if offline), one ack applied once', async () => {
  const { socket, conn } = setUp();
  socket.up();
  let answered = 0;
  const done = conn.act({ do: 'verdict' }, 'id-2').then((ack) => { answered += 1; return ack; });
  const first = acts(socket)[0];
  socket.down();
  first.ack(new Error('timeout'));                      // the timeout of a send that got no ack
  assert.equal(acts(socket).length, 1, 'offline: queued, not sent');
  socket.up();
  const again = acts(socket);
  assert.equal(again.length, 2);
  assert.equal(again[1].payload.id, 'id-2', 'the same id, so the server applies it once');
  again[1].ack(null, { ok: true });
  first.ack(null, { ok: true, late: true });           // a late answer to the first send
  again[1].ack(null, { ok: true, twice: true });
  assert.deepEqual(await done, { ok: true });
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(answered, 1);
});

test('busy: sent again later; six sends without an answer give up with the offline message', async () => {
  const { socket, conn, later } = setUp();
  socket.up();
  const busy = conn.act({ do: 'undo' }, 'id-3');
  acts(socket)[0].ack(null, { ok: false, error: 'busy' });
  assert.equal(later.length, 1);
  assert.equal(later[0].ms, 250);
  later.shift().fn();
  acts(socket)[1].ack(null, { ok: true });
  assert.deepEqual(await busy, { ok: true });

  const lost = conn.act({ do: 'redo' }, 'id-4');
  for (let i = 0; i < 6; i++) acts(socket).at(-1).ack(new Error('timeout'));
  assert.equal(acts(socket).filter((m) => m.payload.id === 'id-4').length, 6);
  assert.deepEqual(await lost, { ok: false, error: 'offline', message: 'sin respuesta' });
});

test('states: an older one is ignored, sync after a reconnection asks from the last seq', () => {
  const { socket, conn, states } = setUp();
  socket.up();
  socket.fire('state', { seq: 5, now: Date.now() });
  socket.fire('state', { seq: 3 });
  socket.fire('state', { seq: 5, again: true });        // equal: replaces
  socket.fire('state', 'nonsense');
  assert.deepEqual(states.map((s) => s.seq), [5, 5]);
  assert.equal(conn.seq, 5);
  socket.down('io server disconnect');
  socket.up();
  assert.deepEqual(socket.sent.filter((m) => m.event === 'sync').map((m) => m.payload), [{ seq: 5 }]);
});

test('what may be done now is read off the state\'s legal list, never guessed', () => {
  const state = { legal: [{ do: 'pass', seats: [2] }, { do: 'offer_draw', seats: [1, 2] }] };
  assert.deepEqual(legal(state, 'pass'), { do: 'pass', seats: [2] });
  assert.equal(legal(state, 'move'), null, 'an action the list does not hold');
  assert.equal(legal({}, 'pass'), null, 'a state without a list');
  assert.equal(legal(null, 'pass'), null, 'no state yet');
});
