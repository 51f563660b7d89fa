/* setup_plan.js: what the set-up form computes, with no page around it
 * (tests/js/setup_plan.test.mjs runs it under node). */

/** The rounds of a game of `n` rounds: {modes, individual, seconds} each, from the game's
 *  default schedules (`schedules[n - 1]`: {modes, individual}, as the server sends them).
 *  `seconds`: one time for every round, or one per round (the last one for the rest).
 *  `kept`: the rounds the teacher already changed, kept; only the rounds added are the
 *  game's defaults (and none of them individual). */
export function schedule(schedules, n, seconds, kept) {
  const d = (schedules && schedules[n - 1]) || { modes: [], individual: [] };
  const secs = (i) => (Array.isArray(seconds) ? (i < seconds.length ? seconds[i] : seconds[seconds.length - 1]) : seconds);
  const out = [];
  for (let i = 0; i < n; i++) {
    if (kept && i < kept.length) { out.push(kept[i]); continue; }
    out.push({ modes: (d.modes[i] || []).slice(), individual: !kept && d.individual.includes(i + 1), seconds: secs(i) });
  }
  return out;
}

/** The teams of proposed `sizes`: the names already typed kept, the others `defaultName(i)`. */
export const teamsOf = (sizes, teams, defaultName) =>
  sizes.map((members, i) => ({ name: teams[i] ? teams[i].name : defaultName(i), members: members }));

/** The names a pasted class list repeats (case and spacing aside), as first written. */
export function repeatedNames(names) {
  const seen = new Map();
  for (const name of names) {
    const key = name.split(/\s+/).join(' ').toLowerCase();
    const entry = seen.get(key) || { name: name, n: 0 };
    entry.n += 1;
    seen.set(key, entry);
  }
  return Array.from(seen.values()).filter((e) => e.n > 1).map((e) => e.name);
}
