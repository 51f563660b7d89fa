/* La colmena's hall on the projector: each table's points so far and, once it has
 * finished, its result in words (the engine's message in the page's language). It draws
 * the hall rules' view for the room (no student's name, no hand) and sends nothing but
 * `sync`. The tiles share the screen: the more tables, the smaller each one's type. */
(function () {
  'use strict';
  const L = window.Live;
  const { h, t } = L;
  document.body.classList.add('ch-projector');
  const box = document.getElementById('screen');

  function said(message) {
    if (!message) return { head: '', rest: '' };
    const text = message[L.lang] || message.es || '';
    // The manual's messages open with an exclamation: that part is the headline.
    const cut = text.indexOf('!');
    return cut > 0 ? { head: text.slice(0, cut + 1), rest: text.slice(cut + 1).trim() }
      : { head: text, rest: '' };
  }

  function tile(table) {
    const key = table.key;
    const words = said(table.over ? table.message : null);
    return h('article', { class: 'ch-tile' + (table.over ? ' over tier-' + table.tier : ''),
      testid: 'room-table-' + key, 'aria-labelledby': 'room-title-' + key },
    h('div', { class: 'ch-tile-in' },
      h('h2', { id: 'room-title-' + key }, t('colmenahall.room.table', { n: L.num(table.place) }),
        table.solo ? h('span', { class: 'ch-solo' }, ' · ' + t('colmenahall.room.solo')) : ''),
      h('p', { class: 'ch-big' }, h('span', { class: 'ch-num', testid: 'room-score-' + key }, L.num(table.total)),
        ' ', h('span', { class: 'ch-unit' }, table.over ? t('colmenahall.room.points') : t('colmenahall.room.so_far'))),
      table.over
        ? h('p', { class: 'ch-said', testid: 'room-tier-' + key },
          h('strong', { class: 'ch-head' }, words.head), words.rest ? h('span', { class: 'ch-rest' }, ' ' + words.rest) : '')
        : h('p', { class: 'ch-state', testid: 'room-state-' + key },
          t('colmenahall.room.playing') + ' · ' + t('colmenahall.room.deck', { n: L.num(table.deck) }))));
  }

  function draw(message) {
    const view = message.view;
    const n = view.tables.length;
    // Columns and rows so the tiles keep roughly the screen's shape.
    const cols = Math.max(1, Math.min(n, Math.ceil(Math.sqrt(n * 1.6))));
    const rows = Math.max(1, Math.ceil(n / cols));
    const grid = h('div', { class: 'ch-room', testid: 'room-tables' }, view.tables.map(tile));
    grid.style.setProperty('--cols', String(cols));
    grid.style.setProperty('--rows', String(rows));
    box.replaceChildren(
      h('p', { class: 'ch-room-head', testid: 'room-heading' },
        view.over ? t('colmenahall.room.all_over') : t('colmenahall.room.heading')),
      grid);
  }

  const socket = L.connect({ role: 'hall_watcher', watch: L.readJSON('page', {}).watch }, () => {});
  socket.on('hall', (message) => { if (message && message.view) draw(message); });
}());
