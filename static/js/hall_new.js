/* The form that makes a hall: the game, who plays (a class or a pasted list) and the
 * hall's settings, drawn from the bounds the server sends for each game. */
(function () {
  'use strict';
  const L = window.Live;
  const h = L.h;
  const data = L.readJSON('hall-data', { kinds: [] });
  const form = document.getElementById('hall-form');
  const box = document.getElementById('hall-settings');
  const error = document.getElementById('hall-error');

  function chosen() {
    const input = form.querySelector('input[name=kind]:checked');
    return data.kinds.find((k) => input && k.kind === input.value) || data.kinds[0];
  }

  function field(name, bound) {
    const id = 'hall-setting-' + name;
    const text = label(name);
    let input;
    if (Array.isArray(bound.options)) {
      input = h('select', { id: id, name: name, testid: id },
        bound.options.map((o) => h('option', { value: String(o), selected: o === bound.default ? '' : null },
          L.has('hall.option.' + o) ? L.t('hall.option.' + o) : String(o))));
    } else if (typeof bound.default === 'boolean') {
      return h('label', null, h('input', { type: 'checkbox', id: id, name: name, testid: id,
        checked: bound.default ? '' : null }), ' ', text);
    } else if (typeof bound.min === 'number') {
      input = h('input', { id: id, name: name, testid: id, inputmode: 'numeric', size: '4',
        value: bound.default == null ? '' : String(bound.default) });
    } else {
      return null;
    }
    return h('p', null, h('label', { for: id }, text), ' ', input);
  }

  function drawSettings() {
    const kind = chosen();
    const bounds = (kind && kind.bounds) || {};
    box.replaceChildren(...Object.keys(bounds).map((name) => field(name, bounds[name])).filter(Boolean));
  }

  function settings() {
    const kind = chosen();
    const bounds = (kind && kind.bounds) || {};
    const out = {};
    for (const name of Object.keys(bounds)) {
      const el = form.elements[name];
      if (!el) continue;
      const bound = bounds[name];
      if (el.type === 'checkbox') out[name] = el.checked;
      else if (Array.isArray(bound.options)) {
        const o = bound.options.find((x) => String(x) === el.value);
        out[name] = o === undefined ? el.value : o;
      } else if (el.value.trim() !== '') {
        const n = L.readNumber(el.value, { integer: true, min: bound.min, max: bound.max });
        if (n.error) throw new Error(label(name) + ': ' + n.error);
        out[name] = n.value;
      }
    }
    return out;
  }

  function label(name) {
    // A game's own hall settings are named in its catalog (``<kind>hall.setting.<name>``).
    const own = chosen().kind + 'hall.setting.' + name;
    if (L.has(own)) return L.t(own);
    return L.has('hall.setting.' + name) ? L.t('hall.setting.' + name) : name;
  }

  form.addEventListener('change', (e) => { if (e.target.name === 'kind') drawSettings(); });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const klass = form.elements.class_id ? form.elements.class_id.value : '';
    let body;
    try {
      body = { kind: chosen().kind, name: form.elements.name.value, settings: settings() };
    } catch (problem) {
      error.textContent = problem.message;
      error.hidden = false;
      return;
    }
    if (klass) body.class_id = Number(klass);
    else body.players = form.elements.players.value;
    error.hidden = true;
    L.fetchJSON('/console/halls', body).then((ack) => {
      if (ack && ack.ok) { window.location.assign(ack.url); return; }
      error.textContent = (ack && ack.message) || L.t('live.no_answer');
      error.hidden = false;
    });
  });
  drawSettings();
}());
