/* turn_words.js: the words of the quiz's team and projector screens, drawn from the view
 * and the catalogs: modes, question types, cards, verdicts and awards with their points. */
import { W } from '../../lib/words.js';
import { teamName } from '../../lib/widgets.js';

const { t } = W;
/** The special cards a team holds, in the order the screens list them. */
export const SPECIALS = ['desvio', 'seguro', 'elijo'];
export const mode = (m) => (m ? t('mode.' + m) : '');
export const qtype = (ty) => (ty ? t('type.' + ty) : '');
export const special = (c) => t('special.' + c);
export const verdict = (v) => t('verdict.' + v);
/** "author:Kant" → "Kant"; "type:vf" → "Verdadero o Falso"; "pifie" → its catalog word. */
export function card(c) {
  if (typeof c !== 'string') return '';
  if (c.slice(0, 7) === 'author:') return c.slice(7);
  if (c.slice(0, 5) === 'type:') return qtype(c.slice(5));
  return t('award.' + c);
}
/** Group a team's cards: [["author:Kant", 2], ...]. */
export function countCards(cards) {
  const m = new Map();
  for (const c of cards || []) m.set(c, (m.get(c) || 0) + 1);
  return Array.from(m.entries());
}
export { legal } from '../../lib/connection.js';

/** The points of award `a` ([team, what, points]): its own, else the view's table, else null. */
export function awardPoints(view, a) {
  if (typeof a[2] === 'number') return a[2];
  const p = view.points || {};
  const key = a[1] === 'pifie' || a[1] === 'consolation' || a[1] === 'risky_bonus' ? a[1] : 'card';
  return typeof p[key] === 'number' ? p[key] : null;
}
/** An award in words: 'María Zambrano gana la carta «Kant» (+1)'. */
export function awardText(view, a) {
  const [n, what] = a;
  const team = teamName(view, n);
  const pts = awardPoints(view, a);
  const p = pts == null ? '' : pts > 0 ? W.signed(pts) : W.num(pts);
  if (what === 'pifie') return t('proj.award_pifie', { team: team, points: p });
  if (what === 'consolation') return t('proj.award_consolation', { team: team, points: p });
  if (what === 'risky_bonus') return t('proj.award_bonus', { team: team, points: p });
  return t('proj.award_card', { team: team, card: card(what), points: p });
}
