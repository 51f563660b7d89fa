/* turn_plan.js: where the quiz's console and team page stand in a choice of question,
 * with no page around it (tests/js/turn_plan.test.mjs runs it under node). */

/** The author and type a choice of question stands at: {authors, author, types, type}.
 *  `choices`: the `choose` entry's [{author, type, left}]; `picked`: {author, type} as
 *  last chosen (kept when still on offer, else the first on offer). */
export function choiceOf(choices, picked) {
  const authors = Array.from(new Set(choices.map((c) => c.author)));
  const author = authors.includes(picked.author) ? picked.author : authors[0];
  const types = choices.filter((c) => c.author === author);
  const type = types.some((c) => c.type === picked.type) ? picked.type : (types.length ? types[0].type : '');
  return { authors, author, types, type };
}
