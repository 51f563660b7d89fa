/* console_plan.js: what the console computes from a state and from what the GM types,
 * with no page around it (tests/js/console_plan.test.mjs runs it under node). */

/** The actions that are a step of the turn, first the one the game waits for. */
const STEPS = ['declare', 'choose', 'question', 'verdict', 'pick', 'end_turn', 'written', 'argument'];

/** What the game waits for, from `legal`: {step, entry} (both null when nothing). */
export function stepOf(legal) {
  for (const s of STEPS) {
    const entry = (legal || []).find((e) => e.do === s);
    if (entry) return { step: s, entry: entry };
  }
  return { step: null, entry: null };
}

/** What a score correction typed so far would do: {ok, text, bad, action, said}.
 *  `w`: the page's words; `team`: the team's number (as the select gives it), `teamOf(n)`
 *  its entry of the view (its score), `teamText(n)` its name; the points are read in the
 *  page's language, within `bounds` (`{min, max}`: the game's own, from its `adjust`
 *  entry), and a correction needs a reason. */
export function adjustPlan(w, team, pointsText, reasonText, teamOf, teamText, bounds) {
  const n = Number(team);
  const tm = teamOf(n) || { score: 0 };
  const reason = reasonText.trim();
  if (!pointsText.trim()) return { ok: false, text: w.t('adjust.hint'), bad: false };
  const read = w.readNumber(pointsText, bounds || {});
  if (read.error) return { ok: false, text: read.error, bad: true };
  if (read.value === 0) return { ok: false, text: w.t('adjust.zero'), bad: true };
  // Rounded as the server keeps scores: 0.1 + 0.2 is shown 0,3.
  const to = Math.round((tm.score + read.value) * 1e6) / 1e6;
  const text = w.t('adjust.preview', { team: teamText(n), from: w.num(tm.score), to: w.num(to), points: w.signed(read.value) });
  if (!reason) return { ok: false, text: text + ' ' + w.t('adjust.need_reason'), bad: false };
  return { ok: true, text: text, bad: false,
    action: { do: 'adjust', team: n, points: read.value, reason: reason },
    said: w.t('adjust.title') + ' · ' + teamText(n) + ' ' + w.signed(read.value) };
}
