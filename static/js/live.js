/* live.js: what the console, the team tablets and the projector share.
 *
 * window.Live: t() (the page's catalog), h() (DOM builder: user text always
 * goes in as text nodes, never as HTML), connect() (Socket.IO with the
 * protocol of docs/protocol.md), act() / emit() (acknowledged sends, queued
 * while offline), the server clock, countdown(), labels, flash().
 *
 * Test ids created here:
 *   offline   the OFFLINE banner (shown while the socket is down)
 *   notice    the message area (refusals: rule id and message)
 */
(function () {
  'use strict';
  const L = window.Live = {};

  function readJSON(id, fallback) {
    const el = document.getElementById(id);
    if (!el) return fallback;
    try { return JSON.parse(el.textContent); } catch (e) { return fallback; }
  }

  const catalog = readJSON('i18n', {});
  L.lang = document.documentElement.lang || 'es';
  L.readJSON = readJSON;

  /** The text of `key` with {name} placeholders filled (the key itself when missing). */
  L.t = function (key, params) {
    let text = Object.prototype.hasOwnProperty.call(catalog, key) ? catalog[key] : key;
    if (params) {
      text = text.replace(/\{(\w+)\}/g, (m, k) => (params[k] === undefined ? m : String(params[k])));
    }
    return text;
  };
  const t = L.t;
  L.has = (key) => Object.prototype.hasOwnProperty.call(catalog, key);

  const PROPS = { value: 1, checked: 1, disabled: 1, selected: 1, hidden: 1, open: 1 };

  function append(el, kids) {
    for (const kid of kids) {
      if (kid == null || kid === false) continue;
      if (Array.isArray(kid)) append(el, kid);
      else el.appendChild(kid instanceof Node ? kid : document.createTextNode(String(kid)));
    }
  }

  /** h('button', {class, testid, onclick, ...}, children...): a DOM element.
   *  Strings become text nodes, so a team called "<script>" stays a name. */
  L.h = function (tag, attrs, ...kids) {
    const el = document.createElement(tag);
    const props = [];
    if (attrs) {
      for (const k of Object.keys(attrs)) {
        const v = attrs[k];
        if (v == null || v === false) continue;
        if (k.slice(0, 2) === 'on' && typeof v === 'function') el.addEventListener(k.slice(2), v);
        else if (k === 'class') el.className = v;
        else if (k === 'testid') el.setAttribute('data-testid', v);
        else if (PROPS[k]) props.push([k, v]);
        else el.setAttribute(k, v === true ? '' : String(v));
      }
    }
    append(el, kids);
    for (const [k, v] of props) el[k] = v;      // after the children: a select's value needs its options
    return el;
  };
  const h = L.h;

  /* Formatted question text (issue 14). The server sanitises it (nh3, an allow-list);
   * here it is parsed inertly with DOMParser and only allowed elements and attributes
   * are copied into the page with createElement (no HTML string is ever assigned). Images only from
   * this server's /g/<game>/img/<id>, shown with their alt text, bounded by CSS. */
  const RICH_TAGS = new Set(['p', 'br', 'em', 'i', 'strong', 'b', 'u', 'sub', 'sup', 'ul', 'ol',
    'li', 'code', 'pre', 'blockquote', 'span']);
  const IMG_SRC = /^\/g\/[A-Za-z0-9_-]+\/img\/\d+$/;
  function richNodes(source, into) {
    for (const node of Array.from(source.childNodes)) {
      if (node.nodeType === 3) { into.appendChild(document.createTextNode(node.nodeValue)); continue; }
      if (node.nodeType !== 1) continue;
      const tag = node.tagName.toLowerCase();
      if (tag === 'img') {
        const src = node.getAttribute('src') || '';
        const alt = node.getAttribute('alt') || '';
        if (!IMG_SRC.test(src)) { if (alt) into.appendChild(h('span', { class: 'img-alt' }, '[' + alt + ']')); continue; }
        const img = h('img', { class: 'qimg', src, alt, loading: 'lazy', decoding: 'async' });
        for (const dim of ['width', 'height']) {
          const v = node.getAttribute(dim);
          if (v && /^\d{1,4}$/.test(v)) img.setAttribute(dim, v);
        }
        img.addEventListener('error', () => {
          img.replaceWith(h('span', { class: 'img-alt' }, '[' + (alt || t('question.image_missing')) + ']'));
        });
        into.appendChild(img);
      } else if (RICH_TAGS.has(tag)) {
        richNodes(node, into.appendChild(document.createElement(tag)));
      } else {
        richNodes(node, into);               // anything else: its text only
      }
    }
    return into;
  }
  /** Fill element ``el`` with sanitised HTML ``html``; false (``el`` untouched) when empty. */
  L.fillRich = function (el, html) {
    if (!html || typeof DOMParser === 'undefined') return false;
    const doc = new DOMParser().parseFromString(String(html), 'text/html');
    const box = document.createElement('div');
    richNodes(doc.body, box);
    el.textContent = '';
    while (box.firstChild) el.appendChild(box.firstChild);
    el.classList.add('rich');
    return true;
  };
  const richCache = {};
  /** h(tag, attrs, plain text) of a question of game ``game``, filled with its formatted
   *  form (``field``: 'html' or 'answer_html') from q[field] or, once fetched, from
   *  GET /g/<game>/rich/<ref>; the plain text stays when there is none. */
  L.rich = function (tag, attrs, q, game, field, fallback) {
    const key = field || 'html';
    const el = h(tag, attrs, fallback != null ? fallback : (key === 'html' ? q.text : q.answer));
    if (q[key]) { L.fillRich(el, q[key]); return el; }
    if (!q.ref || !game || typeof fetch === 'undefined') return el;
    const id = game + ':' + q.ref;
    const got = richCache[id];
    if (got && !got.then) { L.fillRich(el, got[key]); return el; }
    const pending = got || (richCache[id] = fetch('/g/' + encodeURIComponent(game) + '/rich/' + q.ref,
      { credentials: 'same-origin', headers: { Accept: 'application/json' } })
      .then((r) => (r.ok ? r.json() : {}))
      .catch(() => ({}))
      .then((body) => { richCache[id] = body || {}; return richCache[id]; }));
    pending.then((body) => { if (el.isConnected) L.fillRich(el, body[key]); });
    return el;
  };

  /* Text typed into inputs survives re-rendering: fields keep their value here by test id. */
  L.drafts = {};
  /** An input/textarea/select whose value is kept in L.drafts[testid] across renders. */
  L.field = function (tag, attrs, ...kids) {
    const id = attrs.testid;
    const el = h(tag, Object.assign({}, attrs, {
      value: L.drafts[id] !== undefined ? L.drafts[id] : (attrs.value !== undefined ? attrs.value : ''),
    }), ...kids);
    el.addEventListener('input', () => { L.drafts[id] = el.value; });
    el.addEventListener('change', () => { L.drafts[id] = el.value; });
    return el;
  };

  /** Re-render `box` only when `sig` changed; the focused field and its caret survive. */
  L.section = function (box, sig, render) {
    if (!box || box._sig === sig) return;
    box._sig = sig;
    const active = document.activeElement;
    const focusId = active && box.contains(active) ? active.getAttribute('data-testid') : null;
    let sel = null;
    try { sel = focusId ? [active.selectionStart, active.selectionEnd] : null; } catch (e) { sel = null; }
    const kids = render();
    box.replaceChildren();
    append(box, Array.isArray(kids) ? kids : [kids]);
    if (focusId) {
      const again = box.querySelector('[data-testid="' + focusId + '"]');
      if (again) {
        again.focus();
        try { if (sel && sel[0] != null) again.setSelectionRange(sel[0], sel[1]); } catch (e) { /* not a text field */ }
      }
    }
  };

  /* ---- labels -------------------------------------------------------- */
  L.mode = (m) => (m ? t('mode.' + m) : '');
  L.qtype = (ty) => (ty ? t('type.' + ty) : '');
  L.special = (c) => t('special.' + c);
  L.verdict = (v) => t('verdict.' + v);
  /** "author:Kant" → "Kant"; "type:vf" → "Verdadero o Falso"; "pifie" → "pifie". */
  L.card = function (c) {
    if (typeof c !== 'string') return '';
    if (c.slice(0, 7) === 'author:') return c.slice(7);
    if (c.slice(0, 5) === 'type:') return L.qtype(c.slice(5));
    return t('award.' + c);
  };
  /** A number as the page's language writes it: 0,5 and −0,5 (es, es-ES), 0.5 and −0.5 (en). */
  L.num = (x) => (typeof x === 'number' ? x.toLocaleString(L.lang).replace(/^-/, '\u2212') : String(x == null ? '' : x));
  /** A number a person typed, read in the page's language: {value} or {error} (a
   *  sentence of the catalog). Spanish takes `0,5` and `0.5`; English takes `0.5` and
   *  refuses `0,5` (a thousands comma there). Nothing is guessed: `05`, `1.000,5`, `2e3`,
   *  `abc` are refused, never read as something else. `opts`: {integer, min, max}. */
  L.readNumber = function (text, opts) {
    const o = opts || {};
    const raw = String(text == null ? '' : text).trim().replace(/^\u2212/, '-');
    if (!raw) return { error: t('ui.number.empty') };
    const sep = L.lang === 'en' ? '\\.' : '[.,]';
    const m = new RegExp('^([+-]?)(\\d+)(?:(' + sep + ')(\\d+))?$').exec(raw);
    if (!m) {
      if (L.lang === 'en' && /^[+-]?\d+,\d+$/.test(raw)) return { error: t('ui.number.use_point') };
      return { error: t('ui.number.not_a_number', { text: raw }) };
    }
    if (m[2].length > 1 && m[2][0] === '0') {
      return { error: t('ui.number.leading_zero', { text: raw, a: L.num(Number('0.' + m[2].slice(1))), b: L.num(Number(m[2])) }) };
    }
    const value = Number((m[1] === '-' ? '-' : '') + m[2] + (m[4] ? '.' + m[4] : ''));
    if (o.integer && m[4]) return { error: t('ui.number.whole', { text: raw }) };
    if (o.min != null && value < o.min) return { error: t('ui.number.at_least', { n: L.num(o.min) }) };
    if (o.max != null && value > o.max) return { error: t('ui.number.at_most', { n: L.num(o.max) }) };
    return { value: value };
  };

  /** A place in a ranking: 1.º (es, es-ES), 1st (en). */
  L.ordinal = function (n) {
    if (L.lang !== 'en') return n + '.º';
    const d = n % 10, dd = n % 100;
    return n + (dd >= 11 && dd <= 13 ? 'th' : d === 1 ? 'st' : d === 2 ? 'nd' : d === 3 ? 'rd' : 'th');
  };
  /** A date written out: 30 de noviembre de 2026 (es, es-ES), 30 November 2026 (en). */
  L.date = (d) => d.toLocaleDateString(L.lang === 'en' ? 'en-GB' : L.lang, { day: 'numeric', month: 'long', year: 'numeric' });
  L.signed = (x) => (x > 0 ? '+' : '') + L.num(x);
  L.teamOf = (view, n) => (view && view.teams ? view.teams.find((tm) => tm.team === n) : null);
  L.teamName = function (view, n) {
    const tm = L.teamOf(view, n);
    return tm ? tm.name : String(n);
  };
  /** The coloured number chip; the colour never carries meaning alone. */
  L.chip = (n, extra) => h('span', { class: 'chip c' + n + (extra ? ' ' + extra : ''), 'aria-hidden': 'true' }, String(n));
  /** "[3] Sócrates": chip, number and name together. */
  L.teamLabel = (view, n) => h('span', { class: 'teamlabel' }, L.chip(n),
    h('span', { class: 'tname' }, L.teamName(view, n)));
  /** "Equipo 3 (Sócrates)" as plain text. */
  L.teamText = function (view, n) {
    const name = L.teamName(view, n);
    const m = /^\S+\s+(\d+)$/.exec(name.trim());      // "Equipo 3" needs no "(Equipo 3)"
    return m && Number(m[1]) === n ? name : t('team.n_name', { n: n, name: name });
  };
  /** Group a team's cards: [["author:Kant", 2], ...]. */
  L.countCards = function (cards) {
    const m = new Map();
    for (const c of cards || []) m.set(c, (m.get(c) || 0) + 1);
    return Array.from(m.entries());
  };

  L.legal = (state, name) => (state && state.legal ? state.legal.find((e) => e.do === name) : null);

  /* ---- clock and countdown ------------------------------------------- */
  L.offset = 0;                      // server clock minus this device's clock, in ms
  L.serverNow = () => Date.now() + L.offset;
  /** {ms, seconds, text, state, running, expired} for a `timer` of the state. */
  L.countdown = function (timer) {
    if (!timer) return { ms: 0, seconds: 0, text: '–:––', state: 'idle', running: false, expired: false };
    let ms;
    if (timer.state === 'running') ms = Math.max(0, (timer.deadline || 0) - L.serverNow());
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
  };
  const tickers = [];
  L.onTick = (fn) => { tickers.push(fn); };
  setInterval(() => { for (const fn of tickers) { try { fn(); } catch (e) { console.error(e); } } }, 200);

  /* ---- messages ------------------------------------------------------ */
  /** The errors that are not a rule of the game (their answer names no rule book entry). */
  const NOT_RULES = new Set(['format', 'rate', 'busy', 'offline', 'server', 'auth', 'limit',
    'not_found', 'not_now', 'role', 'unauthorized']);
  /** Whether a refusal's ``error`` is a rule of the rule book: the catalog summarises it. */
  const isRule = (rule) => !!rule && !NOT_RULES.has(rule) && L.has('rule.' + rule);
  /** A rule as a link to its entry in the rule book of the page's language (/reglas#id,
   *  /rules#id); any other error stays plain text. */
  L.ruleLink = function (rule, title, label) {
    if (!isRule(rule)) return h('strong', { class: 'rule', title: title || null }, label || rule);
    const book = L.lang === 'en' ? '/rules' : '/reglas';
    return h('a', { class: 'rule', href: book + '#' + rule, target: '_blank', rel: 'noopener',
      title: title || null }, label || rule);
  };
  let flashTimer = null;
  /** Show a refusal ({error, message}) or a plain text in the message area. */
  L.flash = function (what, kind) {
    const box = document.getElementById('notice');
    if (!box) return;
    let parts;
    if (typeof what === 'string') parts = [what];
    else {
      const rule = what.error || '';
      const summary = L.has('rule.' + rule) ? t('rule.' + rule) : '';
      // The engine explains a refusal in English: on a page in another language the
      // catalog's summary of the rule is shown, and the English detail only as a tooltip.
      const detail = what.message && what.message !== summary ? what.message : '';
      const inline = detail && (L.lang === 'en' || !summary);
      // The rule's summary is what a teacher reads: the rule id stays in the tooltip of
      // the link to its entry in the rule book (issue 13: no rule ids on screen).
      parts = summary && isRule(rule)
        ? [L.ruleLink(rule, rule + (detail ? ' — ' + detail : ''), summary),
          inline ? h('span', { class: 'msg' }, ' — ' + detail) : '']
        : [L.ruleLink(rule, detail), summary ? ' ' + summary : '',
          inline ? h('span', { class: 'msg' }, ' — ' + detail) : ''];
    }
    box.replaceChildren(h('span', null, parts),
      h('button', { type: 'button', class: 'close', 'aria-label': t('ui.close'), onclick: () => { box.hidden = true; } }, '×'));
    box.className = 'notice ' + (kind || (typeof what === 'string' ? 'info' : 'error'));
    box.hidden = false;
    clearTimeout(flashTimer);
    flashTimer = setTimeout(() => { box.hidden = true; }, kind === 'info' || typeof what === 'string' ? 4000 : 12000);
  };
  /** A short confirmation (`kids`: nodes or text) in the message area, replacing any
   *  message there (a stale refusal too); hidden after `ms` (5 s). */
  L.toast = function (kids, ms) {
    const box = document.getElementById('notice');
    if (!box) return;
    box.replaceChildren(h('span', null, kids),
      h('button', { type: 'button', class: 'close', 'aria-label': t('ui.close'), onclick: () => { box.hidden = true; } }, '×'));
    box.className = 'notice info toast';
    box.hidden = false;
    clearTimeout(flashTimer);
    flashTimer = setTimeout(() => { box.hidden = true; }, ms || 5000);
  };

  function setOffline(off, why) {
    L.online = !off;
    const b = document.getElementById('offline');
    if (b) {
      b.hidden = !off;
      const w = b.querySelector('.why');
      if (w) w.textContent = why ? ' (' + why + ')' : '';
    }
    document.documentElement.classList.toggle('is-offline', !!off);
    for (const fn of L.onlineHooks) fn(!off);
  }
  L.onlineHooks = [];

  /* ---- the socket ---------------------------------------------------- */
  L.seq = -1;
  L.state = null;
  L.online = false;
  const queue = [];

  /** Connect with `auth`; `onState(state)` runs for each state not older than the last. */
  L.connect = function (auth, onState) {
    /* global io */
    // WebSocket first: one request instead of a polling handshake, polls and an upgrade
    // (less work for a server that a whole lecture hall reconnects to at once, and with
    // several processes any of them may take it); polling if WebSockets are blocked.
    const socket = io({ auth: auth, transports: ['websocket', 'polling'], tryAllTransports: true,
                        reconnectionDelay: 800, reconnectionDelayMax: 5000 });
    L.socket = socket;
    socket.on('connect', () => {
      setOffline(false);
      if (L.state) socket.emit('sync', { seq: L.seq });   // the server also sends `state` itself
      const waiting = queue.splice(0);
      for (const item of waiting) deliver(item);
    });
    socket.on('disconnect', (reason) => {
      setOffline(true);
      // A disconnection decided by the server is not retried by socket.io itself.
      if (reason === 'io server disconnect') setTimeout(() => socket.connect(), 3000);
    });
    socket.on('connect_error', (err) => {
      setOffline(true, err && err.message);
      if (!socket.active) setTimeout(() => socket.connect(), 5000);   // refused: try again later
    });
    socket.on('state', (s) => {
      if (!s || typeof s.seq !== 'number' || s.seq < L.seq) return;   // older: ignore; equal: replace
      L.seq = s.seq;
      if (typeof s.now === 'number') L.offset = s.now - Date.now();
      L.state = s;
      onState(s);
    });
    socket.on('error', (e) => { if (e && e.error) L.flash(e); });
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible' && socket.connected) socket.emit('sync', { seq: L.seq });
    });
    setOffline(true);
    const b = document.getElementById('offline');
    if (b) b.hidden = true;                   // not "offline" before the first attempt fails
    return socket;
  };

  function deliver(item) {
    const socket = L.socket;
    if (!socket || !socket.connected) { queue.push(item); return; }
    item.tries += 1;
    socket.timeout(item.retry ? 6000 : 10000).emit(item.event, item.payload, (err, ack) => {
      if (err) {                                 // no answer: resend the same id (applied once)
        if (item.retry && item.tries < 6) { deliver(item); return; }
        item.resolve({ ok: false, error: 'offline', message: t('live.no_answer') });
        return;
      }
      if (ack && ack.ok === false && ack.error === 'busy' && item.retry && item.tries < 6) {
        setTimeout(() => deliver(item), 250 * item.tries);
        return;
      }
      item.resolve(ack || { ok: true });
    });
  }

  /** A random id for an action (crypto.randomUUID where the browser has it). */
  L.uuid = function () {
    if (window.crypto && crypto.randomUUID) {
      try { return crypto.randomUUID(); } catch (e) { /* insecure context: fall through */ }
    }
    const b = new Uint8Array(16);
    if (window.crypto && crypto.getRandomValues) crypto.getRandomValues(b);
    else for (let i = 0; i < 16; i++) b[i] = Math.floor(Math.random() * 256);
    b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
    const x = Array.from(b, (v) => v.toString(16).padStart(2, '0')).join('');
    return x.slice(0, 8) + '-' + x.slice(8, 12) + '-' + x.slice(12, 16) + '-' + x.slice(16, 20) + '-' + x.slice(20);
  };

  /** A console route's JSON over HTTP: a Promise of the answer, never rejected (a network
   *  failure or a page that is not JSON answers {ok: false, error, message}). `body`:
   *  POSTed as JSON; none: a GET. */
  L.fetchJSON = function (url, body) {
    const init = { credentials: 'same-origin', headers: { Accept: 'application/json' } };
    if (body !== undefined) {
      init.method = 'POST';
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    return fetch(url, init)
      .then((r) => r.json().catch(() => ({ ok: false, error: 'HTTP ' + r.status, message: r.statusText })))
      .catch(() => ({ ok: false, error: 'offline', message: t('live.no_answer') }));
  };

  /** Send `event` with `payload`; a Promise of the ack. `retry`: safe to send twice. */
  L.emit = function (event, payload, retry) {
    return new Promise((resolve) => deliver({ event: event, payload: payload, retry: !!retry, tries: 0, resolve: resolve }));
  };

  /** Send an action; queued while offline and sent again with the same id until acknowledged. */
  L.act = function (action, id) {
    return L.emit('act', { id: id || L.uuid(), action: action }, true);
  };

  /** act() that shows a refusal in the message area; resolves to the ack. */
  L.do = function (action) {
    return L.act(action).then((ack) => {
      if (ack && ack.ok === false) L.flash(ack);
      return ack;
    });
  };
}());
