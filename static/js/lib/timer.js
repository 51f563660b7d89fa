/* timer.js: the server's clock (the offset each state brings) and a game's countdown
 * ({state, deadline, remaining_ms, seconds}, as docs/protocol.md sends it). Knows no game. */

/** The server's clock as this device sees it: `offset` is server minus device, in ms. */
export const clock = {
  offset: 0,
  /** Take the server's time `now` (ms) of a state just received. */
  set(now, here) { if (typeof now === 'number') clock.offset = now - (here == null ? Date.now() : here); },
  /** The server's time now, in ms. */
  now: () => Date.now() + clock.offset,
};

/** {ms, seconds, text, state, running, expired} of `timer` at the server time `now`. */
export function countdown(timer, now) {
  if (!timer) return { ms: 0, seconds: 0, text: '–:––', state: 'idle', running: false, expired: false };
  let ms;
  if (timer.state === 'running') ms = Math.max(0, (timer.deadline || 0) - (now == null ? clock.now() : now));
  else if (timer.state === 'paused') ms = timer.remaining_ms || 0;
  else if (timer.state === 'expired') ms = 0;
  else ms = (timer.seconds || 0) * 1000;
  const s = Math.ceil(ms / 1000);
  return {
    ms: ms, seconds: s, state: timer.state,
    text: Math.floor(s / 60) + ':' + String(s % 60).padStart(2, '0'),
    running: timer.state === 'running' && ms > 0,
    expired: timer.state === 'expired' || (timer.state === 'running' && ms <= 0),
  };
}

const tickers = [];
let ticking = null;
/** Run `fn` five times a second (a countdown's redraw); an error in one stops no other. */
export function onTick(fn) {
  tickers.push(fn);
  if (!ticking) ticking = setInterval(() => { for (const f of tickers) { try { f(); } catch (e) { console.error(e); } } }, 200);
}
