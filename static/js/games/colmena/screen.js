/* screen.js: what every screen of one table of la colmena draws (an ES module composing
 * lib/), from the views the server sends: the step and whose turn, the score so far and
 * the result, the board, the hands, the two drawn to keep one, the card to place, the
 * discard pile, the players. Each audience's module starts it with what is its own:
 * seat.js a player's phone (its hand, the board to zoom and scroll), table.js the table's
 * shared tablet (who starts, the talking penalty), gm.js the teacher's console (acting
 * for the awaited seat, every hand, the devices, undo and redo, the end, the seating
 * panel and the codes), watcher.js the projector (the public view). An audience gives
 * `screen()` its name (the page's classes), how it joins (`auth`), its layout, and the
 * options below; the parts it lays out are the context's (`ctx`).
 *
 * What a screen may send is its `legal` list's; where a card may go is its view's
 * `playable`; a refusal is the server's, shown in one line with the rule's summary from
 * the catalog (its id only in the tooltip); a hand card that can go nowhere says why
 * beside it, from the view's `blocked` reason and icons. cards.js draws the cards and the
 * board; a board drawn whole gets here the largest type at which every card's words fit.
 *
 * Test ids: colmena-status, colmena-last-turn, colmena-explain, colmena-question,
 * colmena-result, colmena-deck, colmena-discard-count, colmena-score, colmena-discard,
 * colmena-players (colmena-player-N), colmena-hand (a phone's; colmena-hand-of-N on the
 * console) with colmena-hand-CARD (colmena-blocked-CARD: why it can go nowhere), colmena-keep-CARD, colmena-forced, colmena-end-turn,
 * colmena-extra, colmena-communicate, colmena-ask, colmena-starter-N, colmena-penalty-N,
 * colmena-confirm-yes, colmena-confirm-no, colmena-zoom-in, colmena-zoom-out, colmena-fit,
 * colmena-breakdown (colmena-total, colmena-completed-points, colmena-bonus-points,
 * colmena-open-points, colmena-wrong-points, colmena-hand-points, colmena-completed-list);
 * gm.js's and cards.js's their own.
 */
import { html, render, nothing } from '/static/js/lib/dom.js';
import { stylesheet } from '/static/js/lib/styles.js';
import { W, readJSON } from '/static/js/lib/words.js';
import { connection, legal as legalOf } from '/static/js/lib/connection.js';
import { offlineBanner } from '/static/js/lib/widgets.js';
import { board, card, cardName } from './cards.js';

/** What an audience's module may give `screen()`, and what it is without it. */
const PLAIN = {
  //: The seat this screen is (a player's phone's), or null.
  me: null,
  //: The seat whose cards this screen plays now (view) → seat or null.
  acting: () => null,
  //: A seat's hand and where its cards may go, in the view this audience gets.
  handOf: (view) => view.hand || [],
  playableOf: (view) => view.playable || [],
  //: What an action sent for a seat carries besides (the teacher's: the seat).
  forSeat: () => ({}),
  //: Whether the screen asks who starts (the tablet, the teacher).
  starter: false,
  //: Whether the board is drawn to zoom and scroll (a phone), and its cells' least size (px).
  zoom: false,
  least: 0,
  //: Whether the final list of completed tasks opens by itself.
  openCompleted: true,
  //: A seat's line in the players' list: what follows it (ctx, seat) → template.
  playerExtra: () => nothing,
  //: The audience's own buttons under the table's controls (ctx) → [template].
  tools: () => [],
  //: A confirmation of the audience's own (ctx, confirm, view) → {question, yes} or null.
  confirm: () => null,
};

/** Draw the screen of the audience `name` (a player's phone `team`, the tablet `table`, the
 *  teacher's console `gm`, the projector `projector`) and keep it live. `own(ctx)` gives the
 *  audience's part: `auth(page)`, `layout(view)` and any of PLAIN's options. */
export function screen(name, own) {
  const { t, has, num, signed, plural } = W;
  const lang = W.lang;
  const page = readJSON('page', {});
  const box = document.getElementById('screen');
  //: Cell sizes (CSS px) a phone's zoom steps through; the first is where it starts.
  const ZOOMS = [110, 140, 170, 80];

  stylesheet('/static/css/colmena.css');
  box.classList.add('colmena-screen', 'role-' + name);
  document.body.classList.add('colmena-page', 'colmena-' + name);

  const conn = connection({ noAnswer: t('live.no_answer') });
  offlineBanner(conn);

  let S = null;
  const ui = { selected: null, explain: null, confirm: null, ask: '', zoom: -1, sending: false };
  //: A board drawn whole gets the largest type (px) at which every card's words fit their
  //: cell, never below `least` nor above `most`.
  const TYPE = { least: 7, most: 30 };
  // For the tests and a look from the developer tools: the last state this screen drew.
  window.ColmenaScreen = { get state() { return S; } };

  const legal = (name) => legalOf(S, name);
  const playerName = (view, seat) => {
    const p = view.players.find((q) => q.seat === seat);
    return p ? p.name : String(seat);
  };
  const teamName = (view, icon) => {
    const team = view.score.teams.find((tm) => tm.team === icon);
    return team ? team.name[lang.startsWith('es') ? 'es' : 'en'] : icon;
  };

  /** The line of a rule that refused something: its summary in the catalog, or the
   *  engine's own sentence; the rule's id and the engine's words stay in the tooltip. */
  function because(rule, message) {
    const k = 'colmena.rule.' + rule;
    return { text: has(k) ? t(k) : (message || rule), title: rule + (message ? ' — ' + message : '') };
  }

  const iconWord = (icon) => icon.name[lang.startsWith('es') ? 'es' : 'en'] || icon.key;
  const orList = (words) => (typeof Intl.ListFormat === 'function'
    ? new Intl.ListFormat(lang, { type: 'disjunction' }).format(words) : words.join(', '));

  /** Why a hand card can go nowhere, written from the view's reason and icons. */
  function blockedText(stuck) {
    return t('colmena.blocked.' + stuck.reason, {
      icon: stuck.icon ? iconWord(stuck.icon) : '',
      icons: orList((stuck.icons || []).map(iconWord)),
    });
  }

  /** The refusal line of a card that can go nowhere: the reason in words, the rule in the tooltip. */
  function stuckLine(stuck) {
    const k = 'colmena.rule.' + stuck.rule;
    return { text: blockedText(stuck), title: stuck.rule + (has(k) ? ' — ' + t(k) : '') };
  }

  /* The teacher's undo or redo, said on every screen for a few seconds: the state
   * that carries it says it once; a later state, or the time, takes it away. */
  const TOLD_MS = 6000;
  function told(view) {
    const tl = view.told;
    if (!tl || tl.seq !== view.seq) return nothing;
    if (ui.toldSeq !== tl.seq) {
      ui.toldSeq = tl.seq;
      ui.toldUntil = Date.now() + TOLD_MS;
      setTimeout(() => draw(), TOLD_MS + 50);
    }
    if (Date.now() > ui.toldUntil) return nothing;
    return html`<p class="cc-told" role="status" data-testid="colmena-told">${t('colmena.told.' + tl.do)}</p>`;
  }

  const explainLine = () => html`<p class="cc-explain" role="alert" data-testid="colmena-explain"
  title=${ui.explain.title}>${t('colmena.refused', { why: ui.explain.text })}</p>`;

  function explain(line) {
    ui.explain = line;
  }

  function send(action, where) {
    if (ui.sending) return Promise.resolve(null);
    ui.sending = true;
    explain(null);
    return conn.act(action).then((ack) => {
      ui.sending = false;
      // A refused tap on the board is said beside the board, where the eyes are.
      if (ack && ack.ok === false) explain({ ...because(ack.error, ack.message), board: where === 'board' });
      else { ui.selected = null; ui.confirm = null; }
      draw();
      return ack;
    });
  }

  /* ---- whose turn and what is awaited --------------------------------------------- */

  function statusText(view) {
    if (view.over) return t(view.ended_early ? 'colmena.status.ended_early' : 'colmena.status.over', { total: num(view.score.total) });
    const a = view.awaiting;
    const name = a.seat ? playerName(view, a.seat) : '';
    const turn = num(view.turn);
    if (a.step === 'first_task') {
      if (!a.seat) return t('colmena.status.first_task_nobody');
      if (me && a.seat === me) return t('colmena.mine.first_task', { name });
      return t('colmena.status.first_task', { name });
    }
    if (me && a.seat === me) return t('colmena.mine.' + a.step, { name, turn });
    return t('colmena.status.' + a.step, { name, turn });
  }

  function header(view, aside) {
    const mine = !!me && !view.over && view.awaiting.seat === me;
    const facts = [
      html`<span data-testid="colmena-deck">${t('colmena.deck', { n: num(view.deck) })}</span>`,
      html`<span data-testid="colmena-discard-count">${t('colmena.discard_count', { n: num(view.discard.length) })}</span>`,
      html`<span data-testid="colmena-score">${t(view.over ? 'colmena.score_final' : 'colmena.score_so_far', { n: num(view.score.total) })}</span>`,
    ];
    return html`
    <p class=${'cc-status' + (mine ? ' mine' : '') + (view.over ? ' over' : '')} data-testid="colmena-status">${statusText(view)}</p>
    ${view.last_turn ? html`<p class="cc-last" data-testid="colmena-last-turn">${t('colmena.last_turn')}</p>` : nothing}
    <p class="cc-facts">${facts.map((f, i) => (i ? html` · ${f}` : f))}</p>
    ${ui.explain && !ui.explain.board ? explainLine() : nothing}
    ${told(view)}
    ${aside ? nothing : question(view)}`;
  }

  function question(view) {
    if (!view.question || !view.question.text) return nothing;
    return html`<p class="cc-question" data-testid="colmena-question">${t('colmena.asked', { name: playerName(view, view.question.seat), text: view.question.text[lang] || view.question.text.es })}</p>`;
  }

  function players(view) {
    return html`<ul class="cc-players" data-testid="colmena-players" aria-label=${t('colmena.players')}>${view.players.map((p) => html`
    <li class=${(view.awaiting.seat === p.seat && !view.over ? 'now' : '') + (p.seat === me ? ' me' : '')} data-testid=${'colmena-player-' + p.seat}>
      <span class="cc-pname">${p.name}</span>${p.seat === me ? html` <span class="muted">${t('colmena.this_device')}</span>` : nothing}
      <span class="cc-hand-size">${plural('colmena.hand_size', p.hand)}</span>${aud.playerExtra(ctx, p.seat)}</li>`)}</ul>`;
  }


  /* ---- a hand, the two drawn, the forced card ------------------------------------- */


  const actingSeat = (view) => aud.acting(view);
  const playableOf = (view, seat) => aud.playableOf(view, seat);
  const handOf = (view, seat) => aud.handOf(view, seat);

  function cellsOf(view, seat, cardId) {
    const found = playableOf(view, seat).find((p) => p.card === cardId);
    return found ? found.cells : [];
  }

  function pick(view, seat, cardId) {
    explain(null);
    if (ui.selected && ui.selected.card === cardId && ui.selected.seat === seat) ui.selected = null;
    else {
      ui.selected = { seat: seat, card: cardId };
      const stuck = (view.blocked || []).find((b) => b.card === cardId);
      if (stuck && seat === view.awaiting.seat) explain(stuckLine(stuck));
    }
    draw();
    if (ui.selected) showCells(cellsOf(view, seat, cardId), false);
  }

  /** The first of `cells` to the middle of the board's frame; with `page`, the frame itself
   *  into the window too (a card to place after «extra»: its cells must be seen). */
  function showCells(cells, page) {
    const frame = document.querySelector('[data-testid=colmena-board-frame]');
    const b = cells.length && document.querySelector('[data-testid="colmena-cell-' + cells[0][0] + '_' + cells[0][1] + '"]');
    if (!frame || !b) return;
    const f = frame.getBoundingClientRect();
    const r = b.getBoundingClientRect();
    frame.scrollBy({ left: r.left + r.width / 2 - (f.left + f.width / 2), top: r.top + r.height / 2 - (f.top + f.height / 2) });
    if (page) {
      const again = b.getBoundingClientRect();
      if (again.top < 0 || again.bottom > innerHeight) b.scrollIntoView({ block: 'center', inline: 'nearest' });
    }
  }

  function handList(view, seat, testid) {
    const cards = handOf(view, seat);
    if (!cards.length) return html`<p class="muted" data-testid=${testid}>${t('colmena.hand_empty')}</p>`;
    const acting = seat === view.awaiting.seat || (view.awaiting.step === 'first_task' && (view.awaiting.players || []).includes(seat));
    const selectable = !view.over && acting && (legal('play') || legal('communicate') || legal('first_task'));
    return html`<ul class="cc-hand" data-testid=${testid}>${cards.map((c) => {
      const on = ui.selected && ui.selected.card === c.id && ui.selected.seat === seat;
      const can = cellsOf(view, seat, c.id).length > 0;
      const stuck = seat === view.awaiting.seat ? (view.blocked || []).find((b) => b.card === c.id) : null;
      const why = stuck ? html`<span class="cc-cannot" data-testid=${'colmena-blocked-' + c.id} title=${stuck.rule}>${t('colmena.cannot_play')}: ${blockedText(stuck)}</span>` : nothing;
      return html`<li>${selectable
        ? html`<button type="button" class=${'cc-hand-card' + (on ? ' on' : '') + (can ? ' can' : '') + (stuck ? ' stuck' : '')} aria-pressed=${on ? 'true' : 'false'}
          data-testid=${'colmena-hand-' + c.id} @click=${() => pick(view, seat, c.id)}>${card(c, lang)}${can ? html`<span class="cc-can">${t('colmena.can_play')}</span>` : why}</button>`
        : html`<div class="cc-hand-card" data-testid=${'colmena-hand-' + c.id}>${card(c, lang)}</div>`}</li>`;
    })}</ul>`;
  }

  function choosing(view) {
    const keep = legal('keep');
    if (!keep || !view.choosing || !view.choosing.length) return nothing;
    return html`<section class="cc-choose" aria-labelledby="cc-choose-h">
    <h2 id="cc-choose-h">${t('colmena.choose_title')}</h2>
    <ul class="cc-hand">${view.choosing.map((c) => html`<li><button type="button" class="cc-hand-card can" data-testid=${'colmena-keep-' + c.id}
      @click=${() => send({ do: 'keep', card: c.id })}>${card(c, lang)}<span class="cc-can">${t('colmena.keep_this')}</span></button></li>`)}</ul></section>`;
  }

  function forced(view) {
    if (!view.forced) return nothing;
    return html`<section class="cc-forced" data-testid="colmena-forced" aria-labelledby="cc-forced-h">
    <h2 id="cc-forced-h">${t('colmena.forced_title')}</h2><div class="cc-hand-card">${card(view.forced, lang)}</div></section>`;
  }

  /* ---- what this screen may send -------------------------------------------------- */

  function askChoices(view, entry) {
    const ask = (entry.options && entry.options.ask) || {};
    const out = [html`<option value="">${t('colmena.ask.none')}</option>`];
    for (const icon of ask.team || []) out.push(html`<option value=${'team:' + icon}>${t('colmena.ask.team', { team: teamName(view, icon) })}</option>`);
    for (const icon of ask.task || []) out.push(html`<option value=${'task:' + icon}>${t('colmena.ask.task', { team: teamName(view, icon) })}</option>`);
    return out;
  }

  function turnControls(view) {
    const seat = actingSeat(view);
    if (view.over || !seat || seat !== view.awaiting.seat) return nothing;
    const out = [];
    const selected = ui.selected && ui.selected.seat === seat ? handOf(view, seat).find((c) => c.id === ui.selected.card) : null;
    const forSeat = aud.forSeat(seat);
    const communicate = legal('communicate');
    const giving = communicate ? (communicate.options.cards || []) : [];
    if (giving.length) {
      // Offered whether a card is picked or not: the card to discard is chosen here (the one
      // picked in the hand, when it may go), the question beside it.
      const give = selected && giving.includes(selected.id) ? selected.id
        : giving.includes(ui.give) ? ui.give : giving[0];
      const giveCard = handOf(view, seat).find((c) => c.id === give);
      out.push(html`<div class="cc-communicate">
      <label for="cc-give">${t('colmena.give.label')}</label>
      <select id="cc-give" data-testid="colmena-give" @change=${(e) => { ui.give = e.target.value; ui.selected = null; draw(); }}>${giving.map((id) => {
          const c = handOf(view, seat).find((x) => x.id === id);
          return html`<option value=${id} ?selected=${id === give}>${c ? cardName(c, lang) : id}</option>`;
        })}</select>
      <label for="cc-ask">${t('colmena.ask.label')}</label>
      <select id="cc-ask" data-testid="colmena-ask" .value=${ui.ask} @change=${(e) => { ui.ask = e.target.value; }}>${askChoices(view, communicate)}</select>
      <button type="button" data-testid="colmena-communicate" @click=${() => {
          const action = { do: 'communicate', card: give, ...forSeat };
          if (ui.ask) { const [kind, icon] = ui.ask.split(':'); action.ask = { [kind]: icon }; }
          ui.ask = '';
          send(action);
        }}>${t('colmena.communicate', { card: giveCard ? cardName(giveCard, lang) : give })}</button></div>`);
    }
    if (legal('extra')) out.push(html`<button type="button" data-testid="colmena-extra" @click=${() => send({ do: 'extra', ...forSeat })}>${t('colmena.extra')}</button>`);
    if (legal('end_turn')) {
      // Ending without playing is offered, never the step's biggest button.
      const none = view.awaiting.step === 'action';
      const label = none ? t('colmena.end_turn_none') : t('colmena.end_turn');
      out.push(html`<button type="button" class=${none ? '' : 'primary'} data-testid="colmena-end-turn" @click=${() => send({ do: 'end_turn', ...forSeat })}>${label}</button>`);
    }
    return out.length ? html`<div class="cc-actions row">${out}</div>` : nothing;
  }

  /** The table's and the teacher's controls: who starts, the talking penalty (asked first). */
  function tableControls(view) {
    const out = [];
    const first = legal('first_task');
    if (first && aud.starter) {
      out.push(html`<div class="cc-starter"><p>${t('colmena.starter_question')}</p><div class="row">${(first.options.players || []).map((seat) => html`
      <button type="button" class=${first.options.starter === seat ? 'on' : ''} aria-pressed=${first.options.starter === seat ? 'true' : 'false'}
        data-testid=${'colmena-starter-' + seat} @click=${() => send({ do: 'first_task', player: seat })}>${t('colmena.starter', { name: playerName(view, seat) })}</button>`)}</div></div>`);
    }
    const penalty = legal('penalty');
    if (penalty) {
      out.push(html`<div class="cc-penalty"><p class="muted">${t('colmena.penalty_hint')}</p><div class="row">${penalty.options.players.map((seat) => html`
      <button type="button" class="bad" data-testid=${'colmena-penalty-' + seat} @click=${() => { ui.confirm = { do: 'penalty', player: seat }; draw(); }}>${t('colmena.penalty', { name: playerName(view, seat) })}</button>`)}</div></div>`);
    }
    const tools = aud.tools(ctx);
    if (tools.length) out.push(html`<div class="row cc-gm-tools">${tools}</div>`);
    if (ui.confirm) {
      const c = ui.confirm;
      const asked = aud.confirm(ctx, c, view) || {
        question: c.do === 'penalty' ? t('colmena.penalty_confirm', { name: playerName(view, c.player) }) : t('colmena.gm.end_confirm'),
        yes: () => send({ ...c }),
      };
      out.push(html`<div class="cc-confirm" role="group" aria-labelledby="cc-confirm-q"><p id="cc-confirm-q">${asked.question}</p><div class="row">
      <button type="button" class="bad" data-testid="colmena-confirm-yes" @click=${asked.yes}>${t('colmena.confirm_yes')}</button>
      <button type="button" data-testid="colmena-confirm-no" @click=${() => { ui.confirm = null; draw(); }}>${t('colmena.confirm_no')}</button></div></div>`);
    }
    return out.length ? html`<div class="cc-table-controls">${out}</div>` : nothing;
  }

  /* ---- the board ------------------------------------------------------------------ */

  function onCell(view, at) {
    const a = view.awaiting;
    if (a.step === 'place') { send({ do: 'place', at: at, ...aud.forSeat(a.seat) }, 'board'); return; }
    const sel = ui.selected;
    if (!sel) return;
    if (a.step === 'first_task') {
      send({ do: 'first_task', card: sel.card, ...aud.forSeat(sel.seat) }, 'board');
      return;
    }
    send({ do: 'play', card: sel.card, at: at, ...aud.forSeat(sel.seat) }, 'board');
  }

  function boardPart(view) {
    const seat = actingSeat(view);
    const a = view.awaiting;
    let lit = [];
    let what = '';
    let offer = false;
    if (!view.over && seat) {
      if (a.step === 'place' && a.seat === seat && legal('place')) {
        lit = cellsOf(view, seat, view.forced && view.forced.id);
        what = cardName(view.forced, lang);
        offer = true;
      } else if (ui.selected) {
        const c = handOf(view, ui.selected.seat).find((x) => x.id === ui.selected.card);
        if (c) {
          lit = cellsOf(view, ui.selected.seat, c.id);
          what = cardName(c, lang);
          offer = a.step !== 'first_task' && !!legal('play');
        }
      }
    }
    if (!view.over && !seat && ui.selected) {
      // The teacher at the first task: a holder's task, its cell as the view lists it.
      lit = cellsOf(view, ui.selected.seat, ui.selected.card);
      const c = handOf(view, ui.selected.seat).find((x) => x.id === ui.selected.card);
      what = c ? cardName(c, lang) : '';
    }
    const zoomed = ui.zoom >= 0;
    const zoom = zoomed ? html`<div class="cc-zoom row" role="group" aria-label=${t('colmena.zoom')}>
      <button type="button" data-testid="colmena-zoom-out" aria-label=${t('colmena.zoom_out')} @click=${() => { ui.zoom = ui.zoom === 3 ? 3 : ui.zoom === 0 ? 3 : ui.zoom - 1; draw(); }}>−</button>
      <button type="button" data-testid="colmena-zoom-in" aria-label=${t('colmena.zoom_in')} @click=${() => { ui.zoom = ui.zoom === 3 ? 0 : Math.min(2, ui.zoom + 1); draw(); }}>+</button>
      <button type="button" data-testid="colmena-fit" @click=${() => { ui.zoom = -2; draw(); }}>${t('colmena.fit')}</button></div>`
      : aud.zoom ? html`<div class="cc-zoom row"><button type="button" data-testid="colmena-zoom-in" aria-label=${t('colmena.zoom_in')} @click=${() => { ui.zoom = 0; draw(); }}>+</button></div>` : nothing;
    return html`<section class="cc-board"><h2 class="sr-only">${t('colmena.board_title')}</h2>${ui.explain && ui.explain.board ? explainLine() : nothing}${zoom}${board(view, {
      t, num, plural, lang, fit: !zoomed, cell: zoomed ? ZOOMS[ui.zoom] : null, min: aud.least,
      lit, offer, what, onCell: (at) => onCell(view, at), completed: view.score.completed,
    })}</section>`;
  }

  function discardPart(view) {
    const top = view.discard.length ? view.discard[view.discard.length - 1] : null;
    return html`<section class="cc-discard" data-testid="colmena-discard" aria-labelledby="cc-discard-h">
    <h2 id="cc-discard-h">${t('colmena.discard_title', { n: num(view.discard.length) })}</h2>
    ${top ? html`<div class="cc-hand-card">${card(top, lang)}</div>` : html`<p class="muted">${t('colmena.discard_empty')}</p>`}</section>`;
  }

  /* ---- the score: so far, and the breakdown at the end ---------------------------- */

  function breakdown(view) {
    const s = view.score;
    const row = (label, value, testid) => html`<tr><th scope="row">${label}</th><td data-testid=${testid}>${signed(value)}</td></tr>`;
    const bonuses = s.bonuses.map((b) => (typeof b === 'string' ? teamName(view, b) : teamName(view, b.team)));
    const handCards = s.hands.reduce((n, h) => n + h.cards, 0);
    return html`<section class="cc-breakdown" data-testid="colmena-breakdown" aria-labelledby="cc-score-h">
    <h2 id="cc-score-h">${t(view.over ? 'colmena.score.final_title' : 'colmena.score.title')}</h2>
    <table class="cc-score-table"><tbody>
      ${row(t('colmena.score.completed', { n: num(s.completed.length) }), s.completed_points, 'colmena-completed-points')}
      ${row(bonuses.length ? t('colmena.score.bonuses', { teams: bonuses.join(', ') }) : t('colmena.score.no_bonus'), s.bonus_points, 'colmena-bonus-points')}
      ${row(t('colmena.score.open', { n: num(s.open.length) }), s.open_points, 'colmena-open-points')}
      ${row(t('colmena.score.wrongly', { n: num(s.completed_wrongly) }), s.completed_wrongly_points, 'colmena-wrong-points')}
      ${row(t('colmena.score.hands', { n: num(handCards) }), s.hand_points, 'colmena-hand-points')}
      <tr class="total"><th scope="row">${t('colmena.score.total')}</th><td data-testid="colmena-total">${num(s.total)}</td></tr>
    </tbody></table>
    ${s.completed.length ? html`<details class="cc-completed" ?open=${view.over && aud.openCompleted}><summary>${t('colmena.score.completed_list', { n: num(s.completed.length) })}</summary>
      <ul data-testid="colmena-completed-list">${s.completed.map((c) => html`<li>${cardName(c.card && c.card.name ? c.card : cardOnBoard(view, c.at), lang)}: ${t('colmena.score.task_points', { teams: num(c.teams), n: num(c.points) })}</li>`)}</ul></details>` : nothing}
  </section>`;
  }

  function cardOnBoard(view, at) {
    const b = view.board.find((x) => x.at[0] === at[0] && x.at[1] === at[1]);
    return b ? b.card : null;
  }

  function result(view) {
    if (!view.over || !view.result) return nothing;
    const message = view.result.message[lang] || view.result.message.es;
    return html`<p class=${'cc-result tier-' + view.result.tier} data-testid="colmena-result">${message}</p>`;
  }

  /* ---- the screens ---------------------------------------------------------------- */

  function draw() {
    const parts = drawn();
    if (!parts) return;
    render(parts, box);
    fitBoard();
  }

  /** The screen as a template, from the last state (null before a state of la colmena). */
  function drawn() {
    if (!S || !S.view || S.view.game !== 'colmena') return null;
    const view = S.view;
    if (ui.selected && !handOf(view, ui.selected.seat).some((c) => c.id === ui.selected.card)) ui.selected = null;
    if (ui.confirm && ui.confirm.do && !legal(ui.confirm.do)) ui.confirm = null;
    return aud.layout(view);
  }

  /* ---- the type of a board drawn whole ------------------------------------------- */

  const TEXTS = '.cc-name, .cc-icon, .cc-icon-name, .cc-done, .cc-times';

  /** Whether some card's words do not fit its cell (or a word its line), or the rows their
   *  frame, at the grid's type. */
  function overflows(grid) {
    if (grid.scrollHeight > grid.clientHeight + 0.5 || grid.scrollWidth > grid.clientWidth + 0.5) return true;
    for (const face of grid.querySelectorAll('.cc-card .cc-face')) {
      if (face.scrollHeight > face.clientHeight + 0.5 || face.scrollWidth > face.clientWidth + 0.5) return true;
      for (const el of face.querySelectorAll(TEXTS)) {
        if (el.scrollWidth > el.clientWidth + 0.5 || el.scrollHeight > el.clientHeight + 0.5) return true;
      }
    }
    return false;
  }

  /** Sets the grid's type to the largest size at which every card fits; returns it (px). */
  function fitType(grid) {
    if (!grid.querySelector('.cc-card')) return 0;
    let lo = TYPE.least;
    let hi = TYPE.most;
    grid.style.fontSize = hi + 'px';
    if (!overflows(grid)) return hi;
    // Halving the range: a few layouts of the board, each read at once.
    while (hi - lo > 0.25) {
      const mid = (lo + hi) / 2;
      grid.style.fontSize = mid + 'px';
      if (overflows(grid)) hi = mid; else lo = mid;
    }
    grid.style.fontSize = lo + 'px';
    return lo;
  }

  const gridOf = () => box.querySelector('.cc-frame.fit .cc-grid');

  /** The whole board's type fitted to its cells. */
  function fitBoard() {
    const grid = gridOf();
    if (grid) fitType(grid);
  }

  /* A board drawn whole is fitted again when its frame changes size (a window resized). */
  const frameSize = () => {
    const frame = box.querySelector('.cc-frame.fit');
    return frame ? Math.round(frame.clientWidth) + 'x' + Math.round(frame.clientHeight) : '';
  };
  let lastFrame = '';
  new ResizeObserver(() => {
    const now = frameSize();
    if (now && now !== lastFrame) {
      lastFrame = now;
      fitBoard();
    }
  }).observe(box);

  /* What the audience's module lays out and acts with. */
  const ctx = {
    page, ui, lang, legal, draw, send, explain, because, playerName, handList, header, result,
    boardPart, choosing, forced, turnControls, tableControls, players, discardPart, breakdown,
    question, get state() { return S; },
  };
  const aud = { ...PLAIN, ...own(ctx) };
  const me = aud.me;
  if (aud.zoom) ui.zoom = 0;

  conn.connect(aud.auth(page), (state) => {
    const before = S;
    S = state;
    // A refusal's line stays until the table changes.
    if (ui.explain && before && state.seq !== before.seq) ui.explain = null;
    draw();
    // A card to place (after «extra»): its lit cells are brought into view, once.
    const v = state.view;
    const seat = v && v.awaiting && actingSeat(v);
    if (seat && v.awaiting.step === 'place' && legal('place') && ui.shownPlace !== state.seq) {
      ui.shownPlace = state.seq;
      showCells(cellsOf(v, seat, v.forced && v.forced.id), true);
    }
  });
}
