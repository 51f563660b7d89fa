/* connection.js: a page's Socket.IO connection with the protocol of docs/protocol.md:
 * `state` (never older than the last one), `sync` after a reconnection or when the page
 * is shown again, acknowledged sends queued while offline and sent again with the same id
 * until answered (the server applies an id once). Knows no game and no page. */
import { clock } from './timer.js';

// The games' screens take fetchJSON from here; the console's plain pages from http.js.
export { fetchJSON } from './http.js';

/** A random id for an action (crypto.randomUUID where the browser has it). */
export function uuid() {
  const c = globalThis.crypto;
  if (c && c.randomUUID) {
    try { return c.randomUUID(); } catch (e) { /* insecure context: fall through */ }
  }
  const b = new Uint8Array(16);
  if (c && c.getRandomValues) c.getRandomValues(b);
  else for (let i = 0; i < 16; i++) b[i] = Math.floor(Math.random() * 256);
  b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
  const x = Array.from(b, (v) => v.toString(16).padStart(2, '0')).join('');
  return x.slice(0, 8) + '-' + x.slice(8, 12) + '-' + x.slice(12, 16) + '-' + x.slice(16, 20) + '-' + x.slice(20);
}

/** The entry `name` of a state's `legal` list (what may be done now, and by whom), or null. */
export const legal = (state, name) => (state && state.legal && state.legal.find((e) => e.do === name)) || null;

/** A connection: {connect, emit, act, seq, state, online, socket, onOnline, onError}.
 *  `opts.io`: the Socket.IO client (window.io), `opts.noAnswer`: the message of a send
 *  never answered, `opts.later(fn, ms)`: a timer (setTimeout). */
export function connection(opts) {
  const o = opts || {};
  const later = o.later || ((fn, ms) => setTimeout(fn, ms));
  const queue = [];
  const online = [];
  const errors = [];
  const C = { seq: -1, state: null, online: false, socket: null };
  /** `fn(online)` runs each time the connection goes up or down. */
  C.onOnline = (fn) => { online.push(fn); };
  /** `fn(error)` runs for each `error` the server sends. */
  C.onError = (fn) => { errors.push(fn); };
  const setOnline = (up, why) => { C.online = up; for (const fn of online) fn(up, why); };

  function deliver(item) {
    const socket = C.socket;
    if (!socket || !socket.connected) { queue.push(item); return; }
    item.tries += 1;
    socket.timeout(item.retry ? 6000 : 10000).emit(item.event, item.payload, (err, ack) => {
      if (item.done) return;                     // answered already: applied once
      if (err) {                                 // no answer: resend the same id (applied once)
        if (item.retry && item.tries < 6) { deliver(item); return; }
        item.done = true;
        item.resolve({ ok: false, error: 'offline', message: o.noAnswer || '' });
        return;
      }
      if (ack && ack.ok === false && ack.error === 'busy' && item.retry && item.tries < 6) {
        later(() => deliver(item), 250 * item.tries);
        return;
      }
      item.done = true;
      item.resolve(ack || { ok: true });
    });
  }

  /** Connect with `auth`; `onState(state)` runs for each state not older than the last. */
  C.connect = function (auth, onState) {
    // WebSocket first: one request instead of a polling handshake, polls and an upgrade
    // (less work for a server that a whole lecture hall reconnects to at once); polling
    // if WebSockets are blocked.
    const socket = (o.io || globalThis.io)({ auth: auth, transports: ['websocket', 'polling'], tryAllTransports: true,
      reconnectionDelay: 800, reconnectionDelayMax: 5000 });
    C.socket = socket;
    // Its state and socket as window.Live: for the
    // browser tests and a look from the developer tools alike.
    if (typeof window !== 'undefined' && !window.Live) window.Live = C;
    socket.on('connect', () => {
      // Queued sends first, in order: what the page sends on return comes after them.
      for (const item of queue.splice(0)) deliver(item);
      setOnline(true);
      if (C.state) socket.emit('sync', { seq: C.seq });   // the server also sends `state` itself
    });
    socket.on('disconnect', (reason) => {
      setOnline(false);
      // A disconnection decided by the server is not retried by socket.io itself.
      if (reason === 'io server disconnect') later(() => socket.connect(), 3000);
    });
    socket.on('connect_error', (err) => {
      setOnline(false, err && err.message);
      if (!socket.active) later(() => socket.connect(), 5000);   // refused: try again later
    });
    socket.on('state', (s) => {
      if (!s || typeof s.seq !== 'number' || s.seq < C.seq) return;   // older: ignore; equal: replace
      C.seq = s.seq;
      clock.set(s.now);
      C.state = s;
      onState(s);
      globalThis.dispatchEvent?.(new CustomEvent('game-state', { detail: s }));   // lib/door.js
    });
    socket.on('error', (e) => { if (e && e.error) for (const fn of errors) fn(e); });
    if (typeof document !== 'undefined') {
      document.addEventListener('visibilitychange', () => {
        if (document.visibilityState === 'visible' && socket.connected) socket.emit('sync', { seq: C.seq });
      });
    }
    return socket;
  };

  /** Send `event` with `payload`; a Promise of the ack. `retry`: safe to send twice. */
  C.emit = (event, payload, retry) => new Promise((resolve) => deliver({ event: event, payload: payload, retry: !!retry, tries: 0, resolve: resolve }));
  /** Send an action; queued while offline and sent again with the same id until acknowledged. */
  C.act = (action, id) => C.emit('act', { id: id || uuid(), action: action }, true);
  return C;
}
