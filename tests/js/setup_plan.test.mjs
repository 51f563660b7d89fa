// What the set-up form computes: the rounds of a schedule, proposed teams, repeated names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { schedule, teamsOf, repeatedNames } from '../../static/js/games/partida/setup_plan.js';

// Default schedules as the server sends them (schedules[n - 1]: a game of n rounds).
const schedules = [
  { modes: [['a']], individual: [1] },
  { modes: [['a'], ['b', 'c']], individual: [2] },
  { modes: [['a'], ['b', 'c'], ['b', 'c']], individual: [3] },
];

test('a schedule is the game\'s default for its number of rounds, with one time for all', () => {
  assert.deepEqual(schedule(schedules, 3, 60), [
    { modes: ['a'], individual: false, seconds: 60 },
    { modes: ['b', 'c'], individual: false, seconds: 60 },
    { modes: ['b', 'c'], individual: true, seconds: 60 }]);
  const rounds = schedule(schedules, 1, 45);
  rounds[0].modes.push('z');                       // a copy: the defaults stay as sent
  assert.deepEqual(schedules[0].modes[0], ['a']);
});

test('a time per round is taken round by round, the last one for rounds beyond it', () => {
  assert.deepEqual(schedule(schedules, 3, [30, 40]).map((r) => r.seconds), [30, 40, 40]);
});

test('rounds the teacher changed are kept; rounds added are defaults and not individual', () => {
  const kept = [{ modes: ['c'], individual: true, seconds: 10 }];
  assert.deepEqual(schedule(schedules, 3, 20, kept), [kept[0],
    { modes: ['b', 'c'], individual: false, seconds: 20 },
    { modes: ['b', 'c'], individual: false, seconds: 20 }]);
  assert.deepEqual(schedule(schedules, 1, 20, [kept[0], { modes: [], individual: false, seconds: 5 }]), [kept[0]]);
});

test('without the server\'s schedules a round allows nothing rather than guessing', () => {
  assert.deepEqual(schedule(undefined, 2, 60), [{ modes: [], individual: false, seconds: 60 },
    { modes: [], individual: false, seconds: 60 }]);
});

test('proposed sizes keep the names typed and name the new teams', () => {
  const teams = [{ name: 'Sócrates', members: 4 }, { name: 'Equipo 2', members: 4 }];
  assert.deepEqual(teamsOf([5, 5, 4], teams, (i) => 'Equipo ' + (i + 1)), [
    { name: 'Sócrates', members: 5 }, { name: 'Equipo 2', members: 5 }, { name: 'Equipo 3', members: 4 }]);
});

test('repeated names are found whatever their case and spacing, and named as first written', () => {
  assert.deepEqual(repeatedNames(['Ana García', 'ana  garcía', 'Luis', 'ANA GARCÍA', 'Luisa']), ['Ana García']);
  assert.deepEqual(repeatedNames(['Ana', 'Luis']), []);
});
