// La colmena's hall projector: a finished table's message in two parts, the tiles' grid.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { said, grid } from '../../static/js/games/colmena/room.js';

test('a message opening with an exclamation is split after it, in the page\'s language', () => {
  const message = { es: '¡Excelente! Completaron todo.', 'es-ES': '¡Excelente! Lo habéis completado todo.', en: 'Excellent! All done.' };
  assert.deepEqual(said(message, 'es-ES'), { head: '¡Excelente!', rest: 'Lo habéis completado todo.' });
  assert.deepEqual(said(message, 'en'), { head: 'Excellent!', rest: 'All done.' });
  assert.deepEqual(said({ es: 'Sin exclamación' }, 'en'), { head: 'Sin exclamación', rest: '' }, 'Spanish when the language is missing');
  assert.deepEqual(said(null, 'es'), { head: '', rest: '' });
});

test('the tiles\' grid is wider than tall, and holds every table', () => {
  assert.deepEqual(grid(1), { cols: 1, rows: 1 });
  assert.deepEqual(grid(0), { cols: 1, rows: 1 });
  for (const n of [2, 3, 6, 12, 20, 60]) {
    const { cols, rows } = grid(n);
    assert.ok(cols * rows >= n, `${n} tables fit`);
    assert.ok(cols >= rows, `${n} tables: ${cols}×${rows} is not taller than wide`);
    assert.ok(cols * (rows - 1) < n, `${n} tables: no empty row`);
  }
});
