/* The toy counter's seat screen (tests/counter_game.py): draws the view the server sends
 * and offers the actions its legal list holds; knows nothing else. */
(function () {
  'use strict';
  const L = window.Live;
  const page = L.readJSON('page', {});
  const box = document.getElementById('screen');
  function render(state) {
    const v = state.view;
    const add = (state.legal || []).find((e) => e.do === 'add');
    box.replaceChildren(
      L.h('p', { testid: 'count' }, String(v.count)),
      L.h('p', { testid: 'turn' }, v.over ? 'Ganó: ' + v.winner : 'Turno del jugador ' + v.turn),
      add ? L.h('div', null, add.options.n.map((n) => L.h('button', { type: 'button', testid: 'add-' + n,
        onclick: () => L.do({ do: 'add', n: n }) }, '+' + n))) : L.h('p', { testid: 'wait' }, 'Esperen.'));
  }
  L.connect({ role: 'team', token: page.token }, render);
}());
