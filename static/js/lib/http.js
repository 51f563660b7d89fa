/* http.js: a route's JSON over HTTP, for the console's pages that need no socket. */

/** A route's JSON over HTTP: a Promise of the answer, never rejected (a network failure or
 *  a page that is not JSON answers {ok: false, error, message}). `body`: POSTed as JSON. */
export function fetchJSON(url, body, noAnswer) {
  const init = { credentials: 'same-origin', headers: { Accept: 'application/json' } };
  if (body !== undefined) {
    init.method = 'POST';
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  return fetch(url, init)
    .then((r) => r.json().catch(() => ({ ok: false, error: 'HTTP ' + r.status, message: r.statusText })))
    .catch(() => ({ ok: false, error: 'offline', message: noAnswer || '' }));
}
