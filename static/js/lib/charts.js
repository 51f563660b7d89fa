/* charts.js: charts drawn in the page from data, as SVG templates: light enough for the
 * projector. Team colours are the colour-blind-safe Okabe–Ito palette, and never carry
 * meaning alone: every line ends with the team's number, lines have their own dash
 * pattern, and the legend names each team. Knows no game: a timeline is turns and each
 * series' value after each.
 *   scoreLine(element, timeline, labels)  each series' value after every turn, rounds marked
 *   cardBars(element, cards, labels)      cards each team holds by author and by type */
import { html, svg, render, nothing } from './dom.js';
import { W } from './words.js';
import { axis, scale, spread, bars } from './scales.js';

const { num } = W;
// The Okabe–Ito hues, darkened where needed to a contrast of at least 3:1 on white
// (issue 13: the yellow line was 1.3:1): lines, bars and swatches.
export const COLORS = ['#BC8200', '#4897C3', '#009E73', '#99912A', '#0072B2', '#D55E00'];
const DASHES = ['', '8 4', '2 4', '10 3 2 3', '4 4', '12 6'];
const color = (k) => COLORS[k % COLORS.length];

const frame = (width, height, title, body) => html`<svg viewBox=${'0 0 ' + width + ' ' + height} role="img"
  width="100%" class="chart"><title>${title}</title>${body}</svg>`;

const legend = (teams) => html`<ul class="chart-legend">${teams.map((team, k) => html`<li><span class="swatch"
  style=${'background: ' + color(k)}></span>${team.team + ' · ' + team.name}</li>`)}</ul>`;

/** Draw in `target` each series' value (`timeline.teams[].scores`) after each of
 *  `timeline.turns`, with `timeline.rounds` marked. `labels`: {title, round, turn, big}:
 *  `big` (the projector's: read from the back row) draws the words and numbers `big`
 *  times larger in the same room. */
export function scoreLine(target, timeline, labels) {
  const f = labels.big || 1;
  const WIDTH = 960, HEIGHT = 420 + 60 * (f - 1), L = 56 * f, R = 110 * f, T = 20 * f, B = 46 * f;
  const turns = timeline.turns, teams = timeline.teams;
  const { lo, hi, ticks } = axis(teams.flatMap((tm) => tm.scores));
  const n = Math.max(turns.length - 1, 1);
  const x = (i) => L + (WIDTH - L - R) * i / n;
  const y = scale(lo, hi, T, HEIGHT - B);
  const ends = spread(teams.map((team) => {
    const last = team.scores[team.scores.length - 1];
    return { y: y(last) + 6 * f, text: team.team + ' (' + num(last) + ')' };
  }), 20 * f);
  const body = svg`${ticks.map((v) => svg`<line x1=${L} x2=${WIDTH - R} y1=${y(v)} y2=${y(v)} stroke="#ddd"></line>
    <text x=${L - 8} y=${y(v) + 5 * f} text-anchor="end" font-size=${16 * f}>${num(v)}</text>`)}
    ${(timeline.rounds || []).map((r) => {
    const i = Math.max(turns.indexOf(r.turn) - 1, 0);
    return svg`<line x1=${x(i)} x2=${x(i)} y1=${T} y2=${HEIGHT - B} stroke="#555" stroke-dasharray="4 4"></line>
      <text x=${x(i) + 4} y=${T - 6} font-size=${15 * f} fill="#333">${labels.round + ' ' + r.round}</text>`;
  })}
    <text x=${(L + WIDTH - R) / 2} y=${HEIGHT - 8} text-anchor="middle" font-size=${16 * f}>${labels.turn}</text>
    ${teams.map((team, k) => svg`<polyline points=${team.scores.map((s, i) => x(i) + ',' + y(s)).join(' ')} fill="none"
      stroke=${color(k)} stroke-width=${4 * f} stroke-dasharray=${DASHES[k % DASHES.length]}><title>${team.team + ' · ' + team.name}</title></polyline>`)}
    ${ends.map((end) => svg`<text x=${x(n) + 8} y=${end.y} font-size=${18 * f} font-weight="bold">${end.text}</text>`)}`;
  render(html`${frame(WIDTH, HEIGHT, labels.title, body)}${legend(teams)}`, target);
}

/** Draw in `target` the cards each team holds (`cards.teams[].authors|types`), grouped by
 *  author then by type. `labels`: {title, types: {type: its name}}. */
export function cardBars(target, cards, labels) {
  const groups = cards.authors.map((a) => ({ key: a, kind: 'authors', label: a }))
    .concat(cards.types.map((ty) => ({ key: ty, kind: 'types', label: labels.types[ty] || ty })));
  const teams = cards.teams;
  const WIDTH = 960, HEIGHT = 360, L = 40, T = 20, B = 90;
  const max = Math.max(1, ...teams.flatMap((tm) => groups.map((g) => tm[g.kind][g.key] || 0)));
  const { group: gw, bar: bw } = bars(WIDTH - L, groups.length, teams.length);
  const levels = Array.from({ length: max + 1 }, (_, v) => v);
  const yy = (v) => T + (HEIGHT - T - B) * (1 - v / max);
  const body = svg`${levels.map((v) => svg`<line x1=${L} x2=${WIDTH} y1=${yy(v)} y2=${yy(v)} stroke="#eee"></line>
    <text x=${L - 6} y=${yy(v) + 5} text-anchor="end" font-size="14">${v}</text>`)}
    ${groups.map((g, gi) => {
    const gx = L + gi * gw + 5;
    const cx = gx + gw / 2, cy = HEIGHT - B + 18;
    return svg`${teams.map((tm, k) => {
      const count = tm[g.kind][g.key] || 0;
      if (!count) return nothing;
      const h = (HEIGHT - T - B) * count / max;
      return svg`<rect x=${gx + k * bw} y=${HEIGHT - B - h} width=${bw - 1} height=${h} fill=${color(k)} stroke="#222"><title>${tm.team + ' · ' + tm.name + ': ' + count}</title></rect>
        ${bw >= 14 ? svg`<text x=${gx + k * bw + bw / 2} y=${HEIGHT - B - h - 4} text-anchor="middle" font-size="12">${tm.team}</text>` : nothing}`;
    })}<text x=${cx} y=${cy} text-anchor="end" font-size="14" transform=${'rotate(-35 ' + cx + ' ' + cy + ')'}>${g.label}</text>`;
  })}`;
  render(html`${frame(WIDTH, HEIGHT, labels.title, body)}${legend(teams)}`, target);
}
