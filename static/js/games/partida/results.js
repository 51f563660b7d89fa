/* results.js: the results page (templates/results/game.html), an ES module: draws the
 * charts (static/js/lib/charts.js) and lets the GM step through the game turn by turn.
 * Test ids: review-turn, review-scores, print. */
import { html, render, $ } from '../../lib/dom.js';
import { W, readJSON } from '../../lib/words.js';
import { scoreLine, cardBars } from '../../lib/charts.js';

/** Draw the results page's charts and its turn-by-turn review (the page calls it through lib/start.js). */
export function start() {
  const { t, num } = W;
  const data = readJSON('results-data', {});
  const labels = { title: t('results.chart_scores'), round: t('results.round'), turn: t('results.turn'),
    types: { vf: t('type.vf'), quien: t('type.quien'), abierta: t('type.abierta') } };
  scoreLine($('chart-scores'), data.timeline, labels);
  cardBars($('chart-cards'), data.cards, Object.assign({}, labels, { title: t('results.chart_cards') }));

  const slider = $('review-turn');
  function showTurn() {
    const k = Number(slider.value);
    const turn = data.timeline.turns[k];
    $('review-label').textContent = k === 0 ? t('results.start') : String(turn);
    const rows = data.timeline.teams.map((team) => ({ team: team.team, name: team.name, score: team.scores[k] }))
      .sort((a, b) => b.score - a.score || a.team - b.team);
    render(rows.map((row) => html`<li>${row.team + ' · ' + row.name + ': ' + num(row.score)}</li>`), $('review-scores'));
    document.querySelectorAll('tr[data-turn]').forEach((tr) => {
      tr.classList.toggle('current', Number(tr.getAttribute('data-turn')) === turn);
    });
  }
  if (slider) { slider.addEventListener('input', showTurn); showTurn(); }
  const print = $('print');
  if (print) print.addEventListener('click', () => window.print());
}
