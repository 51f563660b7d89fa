// Where a choice of question stands, on the console and on a team's page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { choiceOf } from '../../static/js/games/partida/turn_plan.js';

test('a choice keeps the author and type picked while on offer, else the first on offer', () => {
  const choices = [{ author: 'Kant', type: 'vf', left: 2 }, { author: 'Kant', type: 'quien', left: 1 },
    { author: 'Arendt', type: 'abierta', left: 3 }];
  const at = (picked) => { const c = choiceOf(choices, picked); return [c.authors, c.author, c.types.map((x) => x.type), c.type]; };
  assert.deepEqual(at({}), [['Kant', 'Arendt'], 'Kant', ['vf', 'quien'], 'vf']);
  assert.deepEqual(at({ author: 'Kant', type: 'quien' }), [['Kant', 'Arendt'], 'Kant', ['vf', 'quien'], 'quien']);
  assert.deepEqual(at({ author: 'Arendt', type: 'quien' }), [['Kant', 'Arendt'], 'Arendt', ['abierta'], 'abierta']);
  assert.deepEqual(at({ author: 'Marx', type: 'vf' }), [['Kant', 'Arendt'], 'Kant', ['vf', 'quien'], 'vf']);
  assert.deepEqual(choiceOf([], { author: 'Kant' }), { authors: [], author: undefined, types: [], type: '' });
});
