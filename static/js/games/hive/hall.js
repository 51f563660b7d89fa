/* hall.js: a Hive tournament's hall view for the teacher: the round's pairings with each
 * board's code, state and result, the standings, the next round (or why not yet), a link
 * to each board's console (where it is ended with a reason or undone), the bell, and the
 * boards picked for the projector (four at most, the hall rules say). halls.js holds what
 * the projector's shares, board.js the pieces' icons. */
import { html, render as draw, nothing } from '/static/js/lib/dom.js';
import { W } from '/static/js/lib/words.js';
import * as board from './board.js';
import { COLOURS, because, nameOf, boardState, roundLine, standings, byeLine, hallScreen } from './halls.js';

const { t, num } = W;

function teacher(box, page, conn) {
  let last = null;
  let picked = null;             // the keys ticked for the projector, until sent
  let said = '';
  const consoles = {};
  for (const g of page.games || []) consoles[g.key] = g.console_url;

  function send(payload, done) {
    said = '';
    conn.emit('hall', payload).then((ack) => {
      said = ack && ack.ok === false ? t('hive.refused', { why: because(ack.error, ack.message) })
        : done ? done(ack) : '';
      paint();
    });
  }

  // A column's name: its header, and on a phone (table.stacks) the words before its cell.
  const col = (c) => t('hive.hall.col.' + c);

  function row(p, games) {
    const game = games[p.key] || {};
    const url = consoles[p.key] || (game.game_id ? '/console/' + game.game_id : null);
    const shown = (picked || last.view.shown).indexOf(p.key) >= 0;
    const tick = (e) => {
      const keys = (picked || last.view.shown).filter((k) => k !== p.key);
      if (e.target.checked) keys.push(p.key);
      picked = keys;
      paint();
    };
    return html`<tr data-testid=${'hall-pairing-' + p.key} class=${p.over ? 'over' : nothing}>
      <th scope="row"><span class="hh-phone-only">${col('board')} </span>${num(p.place)}</th>${COLOURS.map((c) => html`<td><span class="hive-side">${board.icon('Q', c)} ${nameOf(p[c])}</span></td>`)}
      <td data-testid=${'hall-state-' + p.key} data-label=${col('state')}>${boardState(p)}</td>
      <td data-label=${col('code')}>${game.table_code ? html`<code class="code" data-testid=${'hall-board-code-' + p.key}>${game.table_code}</code>
        <a href=${'/qr/' + game.table_code + '.svg'} target="_blank" rel="noopener">${t('hive.hall.qr')}</a>` : ''}</td>
      <td>${url ? html`<a class="button small" href=${url} data-testid=${'hall-console-' + p.key}
        aria-label=${t('hive.hall.open_board_n', { n: num(p.place) })}>${t('hive.hall.open_board')}</a>` : ''}</td>
      <td><label class="hive-pick" for=${'hh-show-' + p.key}><input type="checkbox" id=${'hh-show-' + p.key}
        data-testid=${'hall-pick-' + p.key} .checked=${shown} @change=${tick}> ${t('hive.hall.on_projector')}</label></td></tr>`;
  }

  function paint() {
    if (!last) return;
    const view = last.view;
    const games = {};
    for (const g of last.games || []) games[g.key] = g;
    const next = view.next_round || {};
    const keys = picked || view.shown;
    const on = view.pairings.filter((p) => !p.over).length;
    const show = () => send({ do: 'show', keys: keys }, () => { picked = null; return t('hive.hall.shown_done', { n: num(keys.length) }); });
    draw(html`<div class="hive-hall">${roundLine(view)}
      <div class="row"><button type="button" class="primary" data-testid="hall-next-round" ?disabled=${!next.ok}
        aria-describedby=${next.ok ? nothing : 'hh-why-not'}
        @click=${() => send({ do: 'next_round' }, () => t('hive.hall.next_done'))}>${t('hive.hall.next_round')}</button>${
        on ? html`<button type="button" class="bad" data-testid="hall-bell"
          @click=${() => send({ do: 'bell' }, (ack) => (ack.ended ? t('hive.hall.bell_done', { n: num(ack.ended) }) : t('hive.hall.bell_already')))}>${t('hive.hall.bell', { n: num(on) })}</button>` : nothing}</div>
      ${next.ok ? nothing : html`<p class="muted" id="hh-why-not" data-testid="hall-why-not">${because(next.rule, next.message)}</p>`}
      ${said ? html`<p role="status" class="hive-hall-said" data-testid="hall-said">${said}</p>` : nothing}
      <section aria-labelledby="hh-pairings" data-testid="hall-pairings"><h2 id="hh-pairings">${t('hive.hall.pairings')}</h2>
        <div class="scroll" tabindex="0"><table class="stacks"><thead><tr>${['board', 'white', 'black', 'state', 'code', 'console', 'projector']
          .map((c) => html`<th scope="col">${t('hive.hall.col.' + c)}</th>`)}</tr></thead>
          <tbody>${view.pairings.map((p) => row(p, games))}</tbody></table></div>
        ${byeLine(view)}
        <div class="row"><button type="button" data-testid="hall-show" ?disabled=${picked === null} @click=${show}
          >${t('hive.hall.show', { n: num(keys.length) })}</button><span class="muted">${t('hive.hall.show_hint')}</span></div></section>
      ${standings(view)}</div>`, box);
  }
  const socket = conn.connect({ role: 'hall_gm', hall: page.hall }, () => {});
  socket.on('hall', (message) => {
    if (!message || !message.view) return;
    last = message;
    paint();
  });
}

/** Draw the teacher's hall view and keep it live. */
export function start() {
  hallScreen(false, teacher);
}
