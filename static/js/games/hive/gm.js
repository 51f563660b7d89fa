/* gm.js: Hive on the teacher's console of one game: the board and the requests as every
 * screen has them (screen.js, board.js), and under them the teacher's undo and redo, an
 * end with its result and reason, the seating panel (lib/seating.js, loaded here only)
 * and the game's codes with their QR codes and the projector's link.
 */
import { html, nothing, drafts, keep } from '/static/js/lib/dom.js';
import { W } from '/static/js/lib/words.js';
import { fetchJSON, legal } from '/static/js/lib/connection.js';
import { screen, who, colourOfSeat } from './screen.js';

/** Draw the teacher's console of this game and keep it live. */
export function start() {
  const { t } = W;
  screen('gm', (c) => {
    // The teacher's seating panel, loaded on the teacher's screen only.
    let seatingPanel = () => nothing;
    import('/static/js/lib/seating.js').then((m) => { seatingPanel = m.seatingPanel; c.repaint(); });
    let codes = null;              // the game's codes: null (not asked), 'loading', or the answer
    let reasonMissing = false;     // the teacher tried to end the game without a reason

    /* The game's codes and QR codes, the projector, the teacher's undo and redo, and an
     * end with its result and reason. */
    function teacher(state) {
      if (codes === null) {
        codes = 'loading';
        fetchJSON('/api/games/' + c.page.game + '/codes', undefined, t('live.no_answer')).then((data) => {
          codes = data && data.teams ? data : 'none';
          c.repaint();
        });
      }
      const end = legal(state, 'end');
      const result = drafts['hive-end-result'] || 'draw';
      const submit = (e) => {
        e.preventDefault();
        // Without a reason the end is not sent: the console says what is missing, here.
        if (!(drafts['hive-end-reason'] || '').trim()) {
          reasonMissing = true;
          c.repaint();
          const field = document.getElementById('hive-end-reason');
          if (field) field.focus();
          return;
        }
        reasonMissing = false;
        c.send({ do: 'end', result: drafts['hive-end-result'] || 'draw', reason: drafts['hive-end-reason'] || '' }).then((ack) => {
          if (ack && ack.ok) drafts['hive-end-reason'] = '';
        });
      };
      return html`<div class="hive-gm"><div class="row">${legal(state, 'undo')
        ? html`<button type="button" data-testid="hive-gm-undo" @click=${() => c.send({ do: 'undo' })}>${t('hive.gm.undo')}</button>` : nothing}${
        legal(state, 'redo')
          ? html`<button type="button" data-testid="hive-gm-redo" @click=${() => c.send({ do: 'redo' })}>${t('hive.gm.redo')}</button>` : nothing}</div>${
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
        seatingPanel(state, t, (n) => who(state.view, colourOfSeat(n)), c.repaint)}${codeList(state.view)}</div>`;
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

    return {
      auth: (page) => ({ role: 'gm', game: page.game }),
      below: (_c, state) => teacher(state),
    };
  });
}
