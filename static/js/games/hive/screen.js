/* screen.js: the screens of one Hive game, an ES module composing lib/ (connection,
 * words, dom, widgets) and drawing the views the server sends. seat.js, table.js, gm.js
 * and watcher.js start it; the page's data says which screen it is: a colour's phone
 * (`team`), the pair's shared tablet (`table`), the teacher's console (`gm`) or the
 * projector (`projector`). The board is board.js's; what may be sent is the `legal`
 * list's; a refusal is the server's, shown in one line with the rule's summary from the
 * catalog (its id only in the tooltip).
 */
import { html, render as draw, nothing, $, drafts, keep } from '/static/js/lib/dom.js';
import { stylesheet } from '/static/js/lib/styles.js';
import { W, readJSON } from '/static/js/lib/words.js';
import { connection, fetchJSON, legal } from '/static/js/lib/connection.js';
import { offlineBanner } from '/static/js/lib/widgets.js';
import * as board from './board.js';

const { t, has } = W;
const COLOURS = ['white', 'black'];
const colourOfSeat = (n) => COLOURS[n - 1];
const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
/** A side in words: "blancas (Ana)". */
export const who = (view, colour) => board.side(t, view, colour);

/** Add the Hive screens' styles to the page (once); a projector's (`projector`) its own too. */
export function styles(projector) {
  stylesheet('/static/css/hive.css');
  if (projector) stylesheet('/static/css/hiveprojector.css');
}

/** The line of a rule that refused something: its summary in the catalog, or the
 *  engine's own sentence; the rule's id stays in the tooltip. */
export function because(rule, message) {
  const key = 'hive.rule.' + rule;
  return { text: has(key) ? t(key) : (message || rule), title: rule + (message ? ' — ' + message : '') };
}

/** The result in words: who won (or a draw) and why. */
export function resultText(view) {
  const res = view.result;
  const head = res.result === 'draw' ? t('hive.result.draw') : t('hive.result.won', { side: who(view, res.result) });
  const key = 'hive.reason.' + res.rule;
  // A board a hall's bell ended carries the reason 'bell' (data, not words): a phone wrote
  // «el docente terminó la partida: bell»; it is the round's end, as the hall view says it.
  const why = res.reason === 'bell' && has('hive.hall.bell_reason') ? t('hive.hall.bell_reason')
    : res.rule && has(key) ? t(key, { reason: res.reason }) : res.reason;
  return head + ' — ' + why;
}

/** Whose turn it is, in words, as the screen `role` (and `mine`, a phone's colour) reads it. */
export function turnText(view, role, mine) {
  if (view.over) return resultText(view);
  const n = { side: who(view, view.to_move), turn: view.turn };
  if (view.must_pass) return t('hive.turn.must_pass', n);
  if (role === 'team') return view.to_move === mine ? t('hive.turn.mine', n) : t('hive.turn.wait', n);
  if (role === 'projector') return t('hive.turn.watch', n);
  return t('hive.turn.play', n);
}

/** Draw the screen the page's data names into #screen, live. */
export function start() {
  const page = readJSON('page', {});
  const role = page.role;
  styles(role === 'projector');
  // The teacher's seating panel (lib/seating.js), loaded on the teacher's screen only.
  let seatingPanel = () => nothing;
  if (role === 'gm') import('/static/js/lib/seating.js').then((m) => { seatingPanel = m.seatingPanel; if (S) paint(S); });
  const box = $('screen');
  const mine = role === 'team' ? colourOfSeat(page.team) : null;
  const conn = connection({ noAnswer: t('live.no_answer') });
  offlineBanner(conn);
  box.classList.add('hive-screen', 'role-' + role);
  // The projector takes la partida's projector's dark theme and the whole screen (hive.css).
  if (role === 'projector') document.body.classList.add('hive-projector');
  let S = null;
  let explained = null;
  let codes = null;              // the teacher's codes: null (not asked), 'loading', or the answer

  let reasonMissing = false;       // the teacher tried to end the game without a reason
  function explain(line) {
    explained = line;
    if (S) paint(S);
  }
  function send(action) {
    explain(null);
    return conn.act(action).then((ack) => {
      if (ack && ack.ok === false) explain(because(ack.error, ack.message));
      return ack;
    });
  }
  const button = (state, name, label, cls, action) => (legal(state, name)
    ? html`<button type="button" class=${cls || ''} data-testid=${'hive-' + name.replace('_', '-')}
        @click=${() => send(action || { do: name })}>${label}</button>` : nothing);

  function actions(state) {
    const view = state.view;
    const out = [];
    if (legal(state, 'pass')) out.push(button(state, 'pass', t('hive.pass'), 'primary big'));   // the status line says why
    const pending = view.pending || {};
    // A request this phone's own player made is told as theirs, waiting for the other side;
    // a phone acts for its own colour only, so its buttons name no side.
    const other = (seat) => who(view, colourOfSeat(3 - seat));
    if (pending.undo) {
      out.push(html`<p class="hive-request" data-testid="hive-undo-asked">${pending.undo === page.team && role === 'team'
        ? t('hive.undo_asked_mine', { side: other(pending.undo) })
        : t('hive.undo_asked', { side: who(view, colourOfSeat(pending.undo)) })}</p>`,
        button(state, 'accept_undo', t('hive.accept_undo'), 'good'), button(state, 'decline_undo', t('hive.decline'), 'bad'));
    }
    if (pending.draw) {
      out.push(html`<p class="hive-request" data-testid="hive-draw-offered">${pending.draw === page.team && role === 'team'
        ? t('hive.draw_offered_mine', { side: other(pending.draw) })
        : t('hive.draw_offered', { side: who(view, colourOfSeat(pending.draw)) })}</p>`,
        button(state, 'accept_draw', t('hive.accept_draw'), 'good'), button(state, 'decline_draw', t('hive.decline'), 'bad'));
    }
    const last = legal(state, 'ask_undo');
    if (last && (role !== 'team' || last.seats.indexOf(page.team) >= 0)) {
      out.push(button(state, 'ask_undo', role === 'team' ? t('hive.ask_undo_mine')
        : t('hive.ask_undo', { side: who(view, colourOfSeat(last.seats[0])) })));
    }
    if (legal(state, 'offer_draw')) {
      out.push(button(state, 'offer_draw', role === 'team' ? t('hive.offer_draw_mine')
        : t('hive.offer_draw', { side: who(view, view.to_move) })));
    }
    return out;
  }

  /* The teacher's part: the game's codes and QR codes, the projector, the teacher's
   * undo and redo, and an end with its result and reason. */
  function teacher(state) {
    if (codes === null) {
      codes = 'loading';
      fetchJSON('/api/games/' + page.game + '/codes', undefined, t('live.no_answer')).then((data) => {
        codes = data && data.teams ? data : 'none';
        if (S) paint(S);
      });
    }
    const end = legal(state, 'end');
    const result = drafts['hive-end-result'] || 'draw';
    const submit = (e) => {
      e.preventDefault();
      // Without a reason the end is not sent: the console says what is missing, here.
      if (!(drafts['hive-end-reason'] || '').trim()) {
        reasonMissing = true;
        if (S) paint(S);
        const field = document.getElementById('hive-end-reason');
        if (field) field.focus();
        return;
      }
      reasonMissing = false;
      send({ do: 'end', result: drafts['hive-end-result'] || 'draw', reason: drafts['hive-end-reason'] || '' }).then((ack) => {
        if (ack && ack.ok) drafts['hive-end-reason'] = '';
      });
    };
    return html`<div class="hive-gm"><div class="row">${legal(state, 'undo')
      ? html`<button type="button" data-testid="hive-gm-undo" @click=${() => send({ do: 'undo' })}>${t('hive.gm.undo')}</button>` : nothing}${
      legal(state, 'redo')
        ? html`<button type="button" data-testid="hive-gm-redo" @click=${() => send({ do: 'redo' })}>${t('hive.gm.redo')}</button>` : nothing}</div>${
      end ? html`<form class="hive-end" data-testid="hive-end" @submit=${submit}><h2>${t('hive.gm.end')}</h2>
        <label for="hive-end-result">${t('hive.gm.result')}</label>
        <select data-testid="hive-end-result" id="hive-end-result" @change=${keep('hive-end-result')}>${end.options.results.map((r) => html`<option
          value=${r} ?selected=${r === result}>${r === 'draw' ? t('hive.result.draw') : t('hive.result.won', { side: who(state.view, r) })}</option>`)}</select>
        <label for="hive-end-reason">${t('hive.gm.reason')}</label>
        <input data-testid="hive-end-reason" id="hive-end-reason" maxlength="200" placeholder=${t('hive.gm.reason_hint')}
          aria-describedby=${reasonMissing ? 'hive-end-missing' : nothing} aria-invalid=${reasonMissing ? 'true' : nothing}
          .value=${drafts['hive-end-reason'] || ''} @input=${(e) => { keep('hive-end-reason')(e); reasonMissing = false; }}>
        ${reasonMissing ? html`<p class="hive-explain" id="hive-end-missing" role="alert" data-testid="hive-end-missing">${t('hive.gm.reason_missing')}</p>` : nothing}
        <button type="submit" class="bad" data-testid="hive-end-submit">${t('hive.gm.end_button')}</button></form>` : nothing}${
      seatingPanel(state, t, (n) => who(state.view, colourOfSeat(n)), () => { if (S) paint(S); })}${codeList(state.view)}</div>`;
  }

  function codeList(view) {
    const label = (n) => (n === 0 ? t('hive.gm.table_code') : n < 0 ? t('seatpick.screen_code') : who(view, colourOfSeat(n)));
    const body = codes === 'loading' ? t('hive.gm.loading') : codes === 'none' ? t('hive.gm.no_codes')
      : html`<h2>${t('hive.gm.codes')}</h2><div class="hive-code-grid">${codes.teams.map((c) => html`<figure class="hive-code"
        data-testid=${'hive-code-' + c.team}><img src=${'/qr/' + c.code + '.svg'} alt=${t('hive.gm.qr_alt', { who: label(c.team) })}
        width="132" height="132" loading="lazy"><figcaption><strong>${label(c.team)}</strong><br><code class="code"
        data-testid=${'hive-join-code-' + c.team}>${c.code}</code><br><a href=${c.join_url} target="_blank" rel="noopener"
        class="small">${c.join_url}</a></figcaption></figure>`)}</div>
        <p><a href=${'/projector/' + codes.watch} target="_blank" rel="noopener" data-testid="hive-projector-link">${t('hive.gm.projector')}</a></p>`;
    return html`<section class="hive-codes" data-testid="hive-codes" aria-label=${t('hive.gm.codes')}>${body}</section>`;
  }

  function paint(state) {
    const view = state.view;
    const line = explained;
    draw(html`<p class="hive-who" data-testid="hive-who">${COLOURS.map((c) => html`<span
        class=${'hive-side ' + c + (c === mine ? ' me' : '')}>${board.icon('Q', c)} ${capital(who(view, c))}${c === mine ? ' ' + t('hive.this_phone') : ''}</span>`)}</p>
      <p class=${'hive-status' + (view.over ? ' over' : '') + (role === 'team' && !view.over && view.to_move === mine ? ' mine' : '')}
        data-testid="hive-status">${turnText(view, role, mine)}</p>
      <p class="hive-explain" data-testid="hive-explain" role="alert" ?hidden=${!line} title=${line ? line.title : ''}
        >${line ? t('hive.refused', { why: line.text }) : ''}</p>
      <div class="hive-actions row" data-testid="hive-actions">${actions(state)}</div>
      <div class="hive-host"></div>${role === 'gm' ? teacher(state) : nothing}`, box);
  }

  function render(state) {
    const view = state.view;
    if (!view || view.game === undefined) return;
    S = state;
    if (explained && state.seq !== explained.seq) explained = null;
    paint(state);
    board.render(box.querySelector('.hive-host'), view, {
      t: t,
      mine: role === 'team' ? colourOfSeat(page.team) : null,
      onPlay: (move) => send({ do: 'move', move: move }),
      onExplain: (why) => {
        explain(why ? because(why.rule, why.message) : null);
        if (why) explained.seq = state.seq;
      },
    });
  }

  const auth = role === 'gm' ? { role: 'gm', game: page.game }
    : role === 'projector' ? { role: 'projector', watch: page.watch }
      : { role: role, token: page.token };
  conn.connect(auth, render);
}
