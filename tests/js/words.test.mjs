// The words of a page: placeholders, plurals, numbers read and written in its language.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { words } from '../../static/js/lib/words.js';

const catalog = {
  'proj.joined': '✓ {n} dispositivos conectados', 'proj.joined_one': '✓ 1 dispositivo conectado',
  'proj.joined_none': 'Esperando al equipo…', 'team.n_name': 'Equipo {n} ({name})',
  'ui.number.not_a_number': '«{text}» no es un número', 'ui.number.use_point': 'use a point',
  'ui.number.leading_zero': '«{text}»: ¿{a} o {b}?', 'ui.number.whole': '«{text}»: un número entero',
  'ui.number.at_least': 'al menos {n}', 'ui.number.at_most': 'como mucho {n}', 'ui.number.empty': 'vacío',
};
const es = words(catalog, 'es');
const en = words(catalog, 'en');

test('placeholders are filled, unknown ones and missing keys stay as they are', () => {
  assert.equal(es.t('team.n_name', { n: 3, name: 'Sócrates' }), 'Equipo 3 (Sócrates)');
  assert.equal(es.t('team.n_name', { n: 3 }), 'Equipo 3 ({name})');
  assert.equal(es.t('no.such.key'), 'no.such.key');
  assert.equal(es.t('team.n_name', { n: '<b>', name: '{n}' }), 'Equipo <b> ({n})');
});

test('plurals: none, one and many from the catalog, the count in the language', () => {
  assert.equal(es.plural('proj.joined', 0), 'Esperando al equipo…');
  assert.equal(es.plural('proj.joined', 1), '✓ 1 dispositivo conectado');
  assert.equal(es.plural('proj.joined', 7), '✓ 7 dispositivos conectados');
  assert.equal(words({ k: '{n} cosas' }, 'es').plural('k', 1), '1 cosas');   // no _one: the key itself
});

test('numbers are written the language way: 0,5 and a minus sign in Spanish, 0.5 in English', () => {
  assert.equal(es.num(0.5), '0,5');
  assert.equal(es.num(-0.5), '\u22120,5');
  assert.equal(en.num(0.5), '0.5');
  assert.equal(es.signed(2), '+2');
  assert.equal(es.signed(-1.5), '\u22121,5');
  assert.equal(es.num(null), '');
  assert.equal(es.num(-0), '0');
  assert.equal(es.ordinal(1), '1.º');
  assert.deepEqual([1, 2, 3, 4, 11, 12, 13, 21, 22].map(en.ordinal), ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd']);
});

test('dates are written out in the language', () => {
  const d = new Date(2026, 10, 30);
  assert.equal(es.date(d), '30 de noviembre de 2026');
  assert.equal(en.date(d), '30 November 2026');
});

test('typed numbers: Spanish takes 0,5 and 0.5, English refuses 0,5, nothing is guessed', () => {
  assert.deepEqual(es.readNumber('0,5'), { value: 0.5 });
  assert.deepEqual(es.readNumber(' 0.5 '), { value: 0.5 });
  assert.deepEqual(es.readNumber('\u22122'), { value: -2 });
  assert.deepEqual(en.readNumber('0.5'), { value: 0.5 });
  assert.deepEqual(en.readNumber('0,5'), { error: 'use a point' });
  assert.deepEqual(es.readNumber('05'), { error: '«05»: ¿0,5 o 5?' });
  for (const bad of ['1.000,5', '2e3', 'abc', '1,2,3']) {
    assert.deepEqual(es.readNumber(bad), { error: `«${bad}» no es un número` }, bad);
  }
  assert.deepEqual(es.readNumber(''), { error: 'vacío' });
  assert.deepEqual(es.readNumber('1,5', { integer: true }), { error: '«1,5»: un número entero' });
  assert.deepEqual(es.readNumber('0,5', { min: 1 }), { error: 'al menos 1' });
  assert.deepEqual(es.readNumber('12', { max: 10.5 }), { error: 'como mucho 10,5' });
});
