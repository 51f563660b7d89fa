// What the console computes: the step a state waits for, and a score correction as typed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { words } from '../../static/js/lib/words.js';
import { stepOf, adjustPlan } from '../../static/js/games/partida/console_plan.js';

const catalog = {
  'adjust.hint': 'Escriban los puntos', 'adjust.zero': 'Cero no cambia nada', 'adjust.need_reason': 'Falta el motivo.',
  'adjust.preview': '{team}: {from} → {to} ({points})', 'adjust.title': 'Corregir',
  'ui.number.not_a_number': '«{text}» no es un número', 'ui.number.use_point': 'use a point',
  'ui.number.at_most': 'como mucho {n}', 'ui.number.at_least': 'al menos {n}', 'ui.number.empty': 'vacío',
  'ui.number.leading_zero': '«{text}»: ¿{a} o {b}?', 'ui.number.whole': 'entero',
};
const es = words(catalog, 'es');
const en = words(catalog, 'en');
const teams = { 1: { team: 1, score: 2.5 }, 2: { team: 2, score: 0.1 } };
const teamOf = (n) => teams[n];
const teamText = (n) => 'Equipo ' + n;

test('the step is the first of the turn\'s steps that legal lists, whatever its order', () => {
  const legal = [{ do: 'undo' }, { do: 'end_turn', seats: [] }, { do: 'verdict', seats: [] }, { do: 'adjust' }];
  assert.deepEqual(stepOf(legal), { step: 'verdict', entry: legal[2] });
  assert.deepEqual(stepOf([{ do: 'undo' }, { do: 'adjust' }]), { step: null, entry: null });
  assert.deepEqual(stepOf(undefined), { step: null, entry: null });
});

test('a correction says what it would do, in the page\'s numbers, and needs a reason', () => {
  assert.deepEqual(adjustPlan(es, '1', '', '', teamOf, teamText), { ok: false, text: 'Escriban los puntos', bad: false });
  const half = adjustPlan(es, '1', '-0,5', '', teamOf, teamText);
  assert.equal(half.ok, false);
  assert.equal(half.bad, false);
  assert.equal(half.text, 'Equipo 1: 2,5 → 2 (\u22120,5) Falta el motivo.');
  const done = adjustPlan(es, '2', '0,2', '  habló fuera de turno ', teamOf, teamText);
  assert.equal(done.ok, true);
  assert.equal(done.text, 'Equipo 2: 0,1 → 0,3 (+0,2)');          // not 0,30000000000000004
  assert.deepEqual(done.action, { do: 'adjust', team: 2, points: 0.2, reason: 'habló fuera de turno' });
  assert.equal(done.said, 'Corregir · Equipo 2 +0,2');
});

test('a correction that cannot be read, of zero, or out of bounds is refused and marked bad', () => {
  assert.deepEqual(adjustPlan(es, '1', '0', 'x', teamOf, teamText), { ok: false, text: 'Cero no cambia nada', bad: true });
  assert.deepEqual(adjustPlan(es, '1', 'dos', 'x', teamOf, teamText), { ok: false, text: '«dos» no es un número', bad: true });
  assert.deepEqual(adjustPlan(es, '1', '101', 'x', teamOf, teamText, { min: -100, max: 100 }), { ok: false, text: 'como mucho 100', bad: true });
  assert.deepEqual(adjustPlan(en, '1', '0,5', 'x', teamOf, teamText), { ok: false, text: 'use a point', bad: true });
  assert.equal(adjustPlan(en, '1', '0.5', 'x', teamOf, teamText).text, 'Equipo 1: 2.5 → 3 (+0.5)');
});
