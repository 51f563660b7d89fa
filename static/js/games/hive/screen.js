/* screen.js: what every screen of one Hive game draws (an ES module composing lib/) from
 * the views the server sends: the sides (and the pieces, when not the base game's alone),
 * whose turn, a refusal, the requests and offers, the board (board.js's). Each audience's
 * module (seat.js, table.js, gm.js, watcher.js) starts it with its own part. What may be
 * sent is the `legal` list's; a refusal is the server's, shown in one line with the rule's
 * summary from the catalog (its id only in the tooltip).
 */
import { html, render as draw, nothing, $ } from '/static/js/lib/dom.js';
import { stylesheet } from '/static/js/lib/styles.js';
import { W, readJSON } from '/static/js/lib/words.js';
import { connection, legal } from '/static/js/lib/connection.js';
import { offlineBanner } from '/static/js/lib/widgets.js';
import * as board from './board.js';

const { t, has } = W;
const COLOURS = ['white', 'black'];
/** A seat's colour: 1 White, 2 Black. */
export const colourOfSeat = (n) => COLOURS[n - 1];
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

/** Whose turn it is, in words: the result once over, a pass when it must, else the
 *  audience's own line (`line(n)`, n the side and the turn). */
export function turnText(view, line) {
  if (view.over) return resultText(view);
  const n = { side: who(view, view.to_move), turn: view.turn };
  if (view.must_pass) return t('hive.turn.must_pass', n);
  return line(n, view);
}

/** The pieces of a game that is not the base game's alone, in words («Con el mosquito»),
 *  or nothing. */
export function gameType(view) {
  const key = 'hive.game_type.' + view.game_type;
  if (!view.game_type || view.game_type === 'Base' || !has(key)) return nothing;
  return html`<span class="hive-type muted" data-testid="hive-game-type">${t(key)}</span>`;
}

/** What an audience's module may give `screen()`, and what it is without it. */
const PLAIN = {
  //: The seat this screen is one side's own (a phone's: 1 White, 2 Black), or null.
  seat: null,
  //: Whose turn, when the game goes on and no side must pass (n: side, turn).
  turn: (n) => t('hive.turn.play', n),
  //: What the screen draws under the board (ctx, state) → template.
  below: () => nothing,
  //: Called with the screen's box after each drawing.
  painted: () => {},
};

/** Draw the screen of the audience `name` (a colour's phone `team`, the pair's tablet
 *  `table`, the teacher's console `gm`, the projector `projector`) into #screen, live.
 *  `own(ctx)` gives the audience's part: `auth(page)` and any of PLAIN's options. */
export function screen(name, own) {
  const page = readJSON('page', {});
  styles(false);
  const box = $('screen');
  const conn = connection({ noAnswer: t('live.no_answer') });
  offlineBanner(conn);
  box.classList.add('hive-screen', 'role-' + name);
  let S = null;
  let explained = null;
  const ctx = { page, send, explain, repaint: () => { if (S) paint(S); }, get state() { return S; } };
  const aud = { ...PLAIN, ...own(ctx) };
  const seat = aud.seat;
  const mine = seat ? colourOfSeat(seat) : null;

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
    const other = (n) => who(view, colourOfSeat(3 - n));
    if (pending.undo) {
      out.push(html`<p class="hive-request" data-testid="hive-undo-asked">${seat && pending.undo === seat
        ? t('hive.undo_asked_mine', { side: other(pending.undo) })
        : t('hive.undo_asked', { side: who(view, colourOfSeat(pending.undo)) })}</p>`,
        button(state, 'accept_undo', t('hive.accept_undo'), 'good'), button(state, 'decline_undo', t('hive.decline'), 'bad'));
    }
    if (pending.draw) {
      out.push(html`<p class="hive-request" data-testid="hive-draw-offered">${seat && pending.draw === seat
        ? t('hive.draw_offered_mine', { side: other(pending.draw) })
        : t('hive.draw_offered', { side: who(view, colourOfSeat(pending.draw)) })}</p>`,
        button(state, 'accept_draw', t('hive.accept_draw'), 'good'), button(state, 'decline_draw', t('hive.decline'), 'bad'));
    }
    const last = legal(state, 'ask_undo');
    if (last && (!seat || last.seats.indexOf(seat) >= 0)) {
      out.push(button(state, 'ask_undo', seat ? t('hive.ask_undo_mine')
        : t('hive.ask_undo', { side: who(view, colourOfSeat(last.seats[0])) })));
    }
    if (legal(state, 'offer_draw')) {
      out.push(button(state, 'offer_draw', seat ? t('hive.offer_draw_mine')
        : t('hive.offer_draw', { side: who(view, view.to_move) })));
    }
    return out;
  }

  function paint(state) {
    const view = state.view;
    const line = explained;
    draw(html`<p class="hive-who" data-testid="hive-who">${COLOURS.map((c) => html`<span
        class=${'hive-side ' + c + (c === mine ? ' me' : '')}>${board.icon('Q', c)} ${capital(who(view, c))}${c === mine ? ' ' + t('hive.this_phone') : ''}</span>`)}${gameType(view)}</p>
      <p class=${'hive-status' + (view.over ? ' over' : '') + (mine && !view.over && view.to_move === mine ? ' mine' : '')}
        data-testid="hive-status">${turnText(view, (n) => aud.turn(n, view))}</p>
      <p class="hive-explain" data-testid="hive-explain" role="alert" ?hidden=${!line} title=${line ? line.title : ''}
        >${line ? t('hive.refused', { why: line.text }) : ''}</p>
      <div class="hive-actions row" data-testid="hive-actions">${actions(state)}</div>
      <div class="hive-host"></div>${aud.below(ctx, state)}`, box);
  }

  function render(state) {
    const view = state.view;
    if (!view || view.game === undefined) return;
    S = state;
    if (explained && state.seq !== explained.seq) explained = null;
    paint(state);
    board.render(box.querySelector('.hive-host'), view, {
      t: t,
      limits: aud.limits,
      mine: mine,
      onPlay: (move) => send({ do: 'move', move: move }),
      onExplain: (why) => {
        explain(why ? because(why.rule, why.message) : null);
        if (why) explained.seq = state.seq;
      },
    });
    aud.painted(box);
  }

  conn.connect(aud.auth(page), render);
}
