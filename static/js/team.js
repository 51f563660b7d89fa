/* team.js: a team's tablet or phone (templates/team/play.html).
 *
 * Shows the team its role this turn and only what `legal` lets it do (the
 * server sends a team only its own entries). The anticipation being written
 * is kept in localStorage and sent again after a reconnection while the time
 * is not up.
 *
 * Test ids:
 *   (template) team-head, team-name, team-score, team-role (data-role: host,
 *     challenged, adjunct, over), team-actions, team-now, team-mine,
 *     team-exchange, team-speaker, team-board
 *   act: declare-normal, declare-simple-N, declare-risky-N, desvio-N, elijo, seguro,
 *     choose-author, choose-type, choose-send, write-true, write-false, write-text,
 *     write-send, write-status, pick-author, pick-type
 *   now: round, order-N, mode, team-waiting, choice, question-text, team-timer, written-reveal, verdict
 *   mine: my-cards, my-special, my-pifies
 *   exchange: exchange-card-I, exchange-take, exchange-request, exchange-pending
 *   speaker: spokesperson-name, spokesperson-send, representative-name, representative-send
 *   board: score-team-N, rank-I (at the end)
 */
(function () {
  'use strict';
  const L = window.Live;
  const { t, h } = L;
  const page = L.readJSON('page', {});
  const me = page.team;
  const $ = (id) => document.getElementById(id);
  const store = {
    get(k) { try { return JSON.parse(localStorage.getItem(k)); } catch (e) { return null; } },
    set(k, v) { try { localStorage.setItem(k, JSON.stringify(v)); } catch (e) { /* private mode */ } },
  };
  const DRAFT = 'facilitator:draft:' + page.game + ':' + me;
  const AUTHORS = 'facilitator:authors:' + page.game;

  let S = null;
  let V = null;
  let resend = true;            // after loading or reconnecting, an unsent draft goes out
  const ui = { exPick: [], version: 0 };
  const pending = new Set();
  const authors = new Set(store.get(AUTHORS) || []);

  // Socket.IO hands a reconnected page its first state before it says "connected": the
  // draft typed offline is looked at once the page is online again.
  L.onlineHooks.push((online) => { if (!online) resend = true; else if (resend && S) render(S); });

  function bump() { ui.version += 1; if (S) render(S); }
  function send(action) {
    const key = JSON.stringify(action);
    if (pending.has(key)) return Promise.resolve(null);
    pending.add(key);
    return L.do(action).then((ack) => { pending.delete(key); return ack; });
  }
  function btn(testid, label, action, cls) {
    return h('button', { type: 'button', testid: testid, class: cls || '',
      onclick: () => (typeof action === 'function' ? action() : send(action)) }, label);
  }
  /** A card or a challenge: said in one line, confirmed before it is spent. */
  function confirmed(action, text) {
    return () => { if (window.confirm(text)) send(action); };
  }
  const teamText = (n) => L.teamText(V, n);
  const sigOf = (...p) => JSON.stringify([S.seq, ui.version, ...p]);
  const mine = () => L.teamOf(V, me) || { cards: [], special: {}, markers: [] };

  /* ---- the written anticipation: one pen per team --------------------
   * Each tab keeps its own draft (sessionStorage: a reload keeps it, a second tab of the
   * same browser has its own). What a tab types goes to the team's other devices as a
   * `draft`: they show it, read-only, and may take the pen ("Escribir aquí"), going on
   * from that text. Only a sent text counts (the last `write`), and every device of the
   * team says which one, before and after the time is up; nothing is sent by itself but a
   * draft this tab typed while offline, and only if no other device sent since it began. */
  const TAB = (function () {
    try {
      let id = sessionStorage.getItem('facilitator:tab');
      if (!id) { id = L.uuid(); sessionStorage.setItem('facilitator:tab', id); }
      return id;
    } catch (e) { return L.uuid(); }
  }());
  const tabStore = {
    get(k) { try { return JSON.parse(sessionStorage.getItem(k)); } catch (e) { return null; } },
    set(k, v) { try { sessionStorage.setItem(k, JSON.stringify(v)); } catch (e) { /* private mode */ } },
  };
  function draft() {
    const d = tabStore.get(DRAFT);
    return d && d.turn === V.turn.number ? d : null;
  }
  /** This tab's draft; `base` is the team's sent text when the draft began. */
  function saveDraft(text, sent) {
    const d = draft();
    tabStore.set(DRAFT, { turn: V.turn.number, text: text, sent: sent,
      base: d && !d.sent ? d.base : (V.turn.written == null ? null : V.turn.written) });
  }
  /** Another tab or device of the team holds the pen: its last draft of this turn. */
  function penElsewhere() {
    const p = ui.pen;
    return p && p.key === V.turn.number && p.writer !== TAB ? p : null;
  }
  let draftTimer = null;
  function shareDraft(text, now) {
    clearTimeout(draftTimer);
    const go = () => L.socket && L.socket.connected &&
      L.socket.emit('draft', { for: 'write', key: V.turn.number, text: text, writer: TAB }, () => {});
    if (now) go(); else draftTimer = setTimeout(go, 300);
  }
  function sendWrite(text) {
    const turn = V.turn.number;
    saveDraft(text, false);
    ui.pen = null;                     // sending takes the pen
    shareDraft(text, true);
    ui.writing = text;                 // queued while offline: not sent a second time
    return send({ do: 'write', team: me, text: text }).then((ack) => {
      if (ui.writing === text) ui.writing = null;
      if (ack && ack.ok && V.turn.number === turn) { const d = draft(); if (!d || d.text === text) saveDraft(text, true); bump(); }   // a late ack must not undo a newer draft
    });
  }
  function unsent() {
    const d = draft();
    return d && !d.sent && d.text.trim() && d.text !== V.turn.written && d.text !== ui.writing ? d : null;
  }
  /** The sentence every device of the team shows: which text counts now. */
  function countsText() {
    const written = V.turn.written;
    return written != null && written.trim() ? t('write.counts', { text: written }) : t('write.counts_none');
  }

  function writeBlock() {
    const type = V.turn.type;
    const d = draft();
    const written = V.turn.written;
    const other = penElsewhere();
    const status = h('p', { testid: 'write-status', class: 'small' });
    const counts = h('p', { testid: 'write-counts', class: 'counts' }, countsText());
    const showStatus = () => {
      const u = unsent();
      const sent = written != null && written.trim();
      status.className = 'small ' + (u ? 'unsent' : 'sent');
      // Nothing sent and nothing typed: the line of what counts says it already.
      status.hidden = !u && !sent;
      status.textContent = u ? t('write.unsent') : (sent ? t('write.sent', { text: written }) : '');
    };
    const out = [h('h2', null, t('team.act.write')), h('p', { class: 'hint' }, t('write.hint.' + type))];
    if (type === 'vf') {
      out.push(h('div', { class: 'choices' },
        btn('write-true', t('write.true'), () => sendWrite('V'), written === 'V' ? 'on big' : 'big'),
        btn('write-false', t('write.false'), () => sendWrite('F'), written === 'F' ? 'on big' : 'big')));
    } else {
      const attrs = { testid: 'write-text', maxlength: 2000, placeholder: t('write.placeholder.' + type), 'aria-label': t('team.act.write') };
      if (type === 'quien') { attrs.list = 'authors-list'; attrs.autocomplete = 'off'; }
      if (other) { attrs.readonly = true; attrs['aria-describedby'] = 'write-pen'; }
      const box = h(type === 'abierta' ? 'textarea' : 'input', attrs);
      box.value = other ? other.text : (d ? d.text : (written || ''));
      box.addEventListener('input', () => { saveDraft(box.value, false); shareDraft(box.value); showStatus(); });
      if (other) {
        out.push(h('p', { class: 'pen', id: 'write-pen', testid: 'write-pen', role: 'status' }, t('write.pen_elsewhere')));
      }
      out.push(box);
      if (type === 'quien') out.push(h('datalist', { id: 'authors-list' }, Array.from(authors).sort().map((a) => h('option', { value: a }))));
      out.push(h('div', { class: 'choices' }, other
        ? btn('write-take', t('write.take'), () => {
          // Going on from the other device's text: nothing typed there is lost.
          saveDraft(other.text, false);
          ui.pen = null;
          shareDraft(other.text, true);
          bump();
          const again = document.querySelector('[data-testid="write-text"]');
          if (again) { again.focus(); try { again.setSelectionRange(again.value.length, again.value.length); } catch (e) { /* */ } }
        }, 'primary big')
        : btn('write-send', t('write.send'), () => sendWrite(box.value), 'primary big')));
    }
    showStatus();
    out.push(status, counts);
    if (ui.conflict) out.push(h('p', { class: 'unsent', testid: 'write-conflict', role: 'alert' }, t('write.conflict', { text: ui.conflict })));
    return out;
  }

  /* ---- what this team may do now ------------------------------------------- */
  function actBlocks() {
    const out = [];
    const turn = V.turn;
    const declare = L.legal(S, 'declare');
    if (declare) {
      const modes = declare.options.modes || {};
      out.push(h('h2', null, t('team.act.declare')));
      if ('normal' in modes) out.push(h('div', { class: 'choices' }, btn('declare-normal', L.mode('normal'), { do: 'declare', mode: 'normal' }, 'primary big')));
      for (const mode of ['simple', 'risky']) {
        if (!modes[mode]) continue;
        const bonus = L.signed((V.points || {}).risky_bonus);     // this game's bonus
        out.push(h('h3', null, L.mode(mode)), h('p', { class: 'hint what' }, t('team.what.' + mode, { bonus: bonus })), h('div', { class: 'choices' }, modes[mode].map((n) =>
          btn('declare-' + mode + '-' + n, [L.chip(n), ' ', L.teamName(V, n)],
            confirmed({ do: 'declare', mode: mode, target: n }, t('team.confirm.' + mode, { team: teamText(n), bonus: bonus })), 'big'))));
      }
    }
    const desvio = L.legal(S, 'desvio');
    if (desvio) {
      out.push(h('h2', null, t('team.act.desvio')), h('p', { class: 'hint' }, t('team.act.desvio_hint')),
        h('div', { class: 'choices' }, desvio.options.targets.map((n) =>
          btn('desvio-' + n, [L.chip(n), ' ', L.teamName(V, n)],
            confirmed({ do: 'desvio', team: me, target: n }, t('team.confirm.desvio', { team: teamText(n) })), 'big'))));
    }
    const seguro = L.legal(S, 'seguro');
    const elijo = L.legal(S, 'elijo');
    if (seguro || elijo) {
      // Each card: what it does in one line, and a confirmation before it is spent.
      const card = (c) => h('div', { class: 'special' }, h('p', { class: 'what' }, h('strong', null, L.special(c)), ': ', t('team.what.' + c)),
        btn(c, L.special(c), confirmed({ do: c, team: me }, t('team.confirm.' + c)), 'big'));
      out.push(h('h2', null, t('team.act.specials')), h('div', { class: 'specials' },
        elijo && (mine().special.elijo || 0) > 0 ? card('elijo') : null,
        seguro && (mine().special.seguro || 0) > 0 ? card('seguro') : null));
    }
    const choose = L.legal(S, 'choose');
    if (choose) {
      const choices = choose.options.choices || [];
      for (const c of choices) authors.add(c.author);
      const names = Array.from(new Set(choices.map((c) => c.author)));
      let author = L.drafts['choose-author'];
      if (!names.includes(author)) author = names[0];
      L.drafts['choose-author'] = author;
      const types = choices.filter((c) => c.author === author);
      const typeSel = L.field('select', { testid: 'choose-type', value: types.length ? types[0].type : '', 'aria-label': t('team.act.type') },
        types.map((c) => h('option', { value: c.type }, L.qtype(c.type) + ' (' + c.left + ')')));
      if (!types.some((c) => c.type === typeSel.value) && types.length) typeSel.value = types[0].type;
      out.push(h('h2', null, t('team.act.choose')),
        h('label', null, t('team.act.author')),
        h('select', { testid: 'choose-author', value: author, 'aria-label': t('team.act.author'),
          onchange: (e) => { L.drafts['choose-author'] = e.target.value; delete L.drafts['choose-type']; bump(); } },
        names.map((a) => h('option', { value: a }, a))),
        h('label', null, t('team.act.type')), typeSel,
        h('div', { class: 'choices' }, btn('choose-send', t('act.choose'),
          () => send({ do: 'choose', author: author, type: typeSel.value }), 'primary big')));
    }
    if (L.legal(S, 'write')) out.push(writeBlock());
    const pick = L.legal(S, 'pick');
    if (pick) {
      out.push(h('h2', null, t('team.act.pick')), h('div', { class: 'choices' },
        btn('pick-author', t('pick.author', { name: turn.author }), { do: 'pick', team: me, card: 'author' }, 'primary big'),
        btn('pick-type', t('pick.type', { name: L.qtype(turn.type) }), { do: 'pick', team: me, card: 'type' }, 'primary big')));
    }
    return out;
  }

  /* ---- role and what the game waits for -----------------------------------
   * Drawn from the team's view: the turn's roles, the step the engine says the turn
   * waits for (view.turn.step), this team's own legal entries and the timer. */
  function roleOf() {
    const turn = V.turn;
    if (V.over) return 'over';
    if (turn.host === me) return 'host';
    if (turn.target === me) return 'challenged';
    if (turn.elijo_by === me) return 'chooser';
    return 'adjunct';
  }
  /** Whether this team has a part in the turn (it acts, answers, writes or chooses). */
  function inTurn() {
    const turn = V.turn;
    return roleOf() !== 'adjunct' || turn.primary === me || turn.secondary === me ||
      S.legal.some((e) => e.do !== 'spokesperson' && e.do !== 'representative');
  }
  function roleText() {
    const turn = V.turn;
    if (V.over) return t('wait.over');
    const parts = [t('team.role.' + roleOf())];
    if (turn.mode) {
      if (turn.primary === me) parts.push(t('team.you_answer'));
      else if (turn.secondary === me) parts.push(t('team.you_write'));
    }
    if (V.individual) parts.push(t('round.individual'));
    return parts.join(' · ');
  }
  /** The team playing ``n`` as text, "ustedes" when it is this team. */
  const who = (n) => teamText(n);
  function waitText() {
    const turn = V.turn;
    const step = turn.step || { name: null };
    const look = inTurn() ? '' : ' ' + t('team.look_projector');
    const c = L.countdown(S.timer);
    switch (step.name) {
      case 'over': return '';
      case 'declare':
        return turn.host === me ? t('team.wait.you_declare') : t('wait.declare', { team: who(turn.host) }) + look;
      case 'prepare': {
        if (turn.chooser === me) return t('team.wait.you_choose');
        const extra = [];
        if (L.legal(S, 'desvio')) extra.push(t('team.wait.may_desvio'));
        if (L.legal(S, 'seguro')) extra.push(t('team.wait.may_seguro'));
        if (L.legal(S, 'elijo')) extra.push(t('team.wait.may_elijo'));
        return [t('wait.choose', { team: who(turn.chooser) })].concat(extra).join(' ') + look;
      }
      case 'question':
        return t('wait.question') + (turn.primary === me ? ' ' + t('team.wait.then_answer')
          : turn.secondary === me ? ' ' + t('team.wait.then_write') : look);
      case 'write':
      case 'verdict': {
        const up = turn.locked || c.expired;
        if (step.name === 'write' && turn.secondary === me) {
          if (S.timer && S.timer.state === 'idle') return t('team.wait.write_before_clock');
          return t('team.wait.you_write');
        }
        if (up) {
          return t('team.wait.time_up') + ' ' + (turn.primary === me ? t('team.wait.you_answer_now')
            : t('wait.verdict', { team: who(turn.primary) }));
        }
        if (!S.timer || S.timer.state === 'idle') {
          return t('team.wait.clock_idle') + (turn.primary === me ? ' ' + t('team.wait.you_answer') : look);
        }
        if (S.timer.state === 'paused') return t('team.wait.clock_paused') + (turn.primary === me ? ' ' + t('team.wait.you_answer') : '');
        if (turn.primary === me) return t('team.wait.you_answer');
        return t('team.wait.deliberate') + look;
      }
      case 'pick':
        return step.team === me ? t('team.wait.you_pick') : t('wait.pick', { team: who(step.team) });
      case 'written': return t('wait.written', { team: who(turn.secondary) });
      case 'argument':
        return turn.secondary === me ? t('team.wait.you_argue') : t('wait.argument', { team: who(turn.secondary) });
      case 'end_turn': return t('team.wait.resolving');
      default: return '';
    }
  }

  function renderNow() {
    const c0 = L.countdown(S.timer);
    L.section($('now'), sigOf(S.timer && S.timer.state, c0.expired), () => {
      const turn = V.turn;
      const out = [h('p', { class: 'row' },
        h('strong', { testid: 'round' }, V.over ? t('game.over') : t('round.n_of', { n: V.round, total: V.rounds })),
        h('span', { class: 'row', role: 'group', 'aria-label': t('order.title') }, V.order.map((n) => h('span', {
          testid: 'order-' + n, class: n === turn.host && !V.over ? 'host-mark' : 'dim' }, L.chip(n, n === turn.host && !V.over ? 'host' : '')))),
        turn.mode ? h('span', { class: 'badge', testid: 'mode' }, L.mode(turn.mode)) : null)];
      const wt = waitText();
      if (wt) out.push(h('p', { testid: 'team-waiting' }, wt));
      if (turn.mode && turn.mode !== 'normal') {
        out.push(h('p', { class: 'small' }, t('role.host') + ': ' + teamText(turn.host) + ' · ' + t('role.challenged') + ': ' + teamText(turn.target)));
      }
      // The cards this team played this turn, and what they do now.
      const played = [['desvio', turn.desvio_by], ['elijo', turn.elijo_by], ['seguro', turn.seguro_by]]
        .filter(([, by]) => by === me).map(([c]) => t('team.played.' + c));
      if (played.length) out.push(h('p', { class: 'played', testid: 'team-played' }, played.join(' ')));
      if (turn.author) out.push(h('p', { testid: 'choice' }, h('strong', null, turn.author), ' · ', L.qtype(turn.type)));
      if (turn.question) out.push(L.rich('div', { class: 'question', testid: 'question-text' }, turn.question, page.game));
      if (turn.question && !turn.verdict) out.push(h('p', { class: 'timer', testid: 'team-timer', id: 'team-timer' }, ''));
      // The writing closed, the verdict still to come: the writers keep seeing what counts.
      if (turn.question && !turn.verdict && turn.secondary === me && !L.legal(S, 'write')) {
        out.push(h('p', { class: 'counts', testid: 'write-counts' }, countsText()));
      }
      if (turn.verdict) {
        out.push(h('p', { testid: 'verdict' }, t('turn.verdict') + ': ', h('strong', null, L.verdict(turn.verdict))));
        if (turn.secondary) {
          out.push(h('p', { testid: 'written-reveal' }, t('written.by', { team: teamText(turn.secondary) }) + ': ',
            h('strong', null, turn.written != null && turn.written.trim() ? turn.written : t('written.none'))));
        }
      }
      if (turn.awards.length) {
        out.push(h('p', { class: 'small' }, t('turn.awards') + ': ' + turn.awards.map(awardText).join(' · ')));
      }
      return out;
    });
    tick();
  }

  /* ---- after a verdict: what this team won or lost, big -------------------
   * Each award carries its points in this game's settings (the view's third field). */
  const pointsOf = (a) => (typeof a[2] === 'number' ? a[2] : 0);
  function awardText(a) {
    const [n, what] = a;
    const team = L.teamName(V, n);
    const pts = pointsOf(a);
    const p = pts > 0 ? L.signed(pts) : L.num(pts);
    if (what === 'pifie') return t('proj.award_pifie', { team: team, points: p });
    if (what === 'consolation') return t('proj.award_consolation', { team: team, points: p });
    if (what === 'risky_bonus') return t('proj.award_bonus', { team: team, points: p });
    return t('proj.award_card', { team: team, card: L.card(what), points: p });
  }
  function renderResult() {
    const turn = V.turn;
    const box = $('result');
    const involved = turn.verdict && (turn.primary === me || turn.secondary === me || turn.awards.some((a) => a[0] === me));
    box.hidden = !involved || V.over;
    if (box.hidden) return;
    L.section(box, sigOf(), () => {
      const mineA = turn.awards.filter((a) => a[0] === me);
      const total = mineA.reduce((sum, a) => sum + pointsOf(a), 0);
      // Until the turn is resolved, what was won so far is not the result: no "you won
      // nothing" above "which card do you keep?".
      const settled = turn.step && turn.step.name === 'end_turn';
      let head;
      if (!settled) head = turn.step && turn.step.name === 'pick' && turn.step.team === me
        ? t('team.result_pick', { verdict: L.verdict(turn.verdict) }) : t('team.result_pending');
      else head = total > 0 ? t('team.result_won', { points: L.signed(total) }) : total < 0
        ? t('team.result_lost', { points: L.num(total) }) : t('team.result_none');
      box.className = 'panel result ' + (!settled ? 'even' : total > 0 ? 'won' : total < 0 ? 'lost' : 'even');
      return [h('p', { class: 'big-result', testid: 'team-result-total' }, head),
        mineA.length ? h('ul', { class: 'result-list' }, mineA.map((a) => h('li', null, awardText(a)))) : null];
    });
  }

  function renderMine() {
    const tm = mine();
    $('my-score').textContent = L.num(tm.score);
    L.section($('mine'), sigOf(), () => [
      h('h2', null, t('team.mine')),
      tm.cards.length ? h('ul', { class: 'cards', testid: 'my-cards' },
        L.countCards(tm.cards).map(([c, k]) => h('li', null, L.card(c) + (k > 1 ? ' ×' + k : ''))))
        : h('p', { class: 'muted', testid: 'my-cards' }, t('team.no_cards')),
      h('ul', { class: 'cards', testid: 'my-special' }, ['desvio', 'seguro', 'elijo'].map((c) =>
        h('li', null, L.special(c) + ': ' + (tm.special[c] || 0)))),
      h('p', { class: 'small', testid: 'my-pifies' },
        t('score.pifies') + ': ' + tm.pifies + ' · ' + t('award.consolation') + ': ' + tm.consolations +
        ' · ' + t('award.risky_bonus') + ': ' + tm.bonuses +
        (tm.markers.length ? ' · ' + t('score.markers') + ': ' + tm.markers.map(L.mode).join(', ') : '')),
    ]);
  }

  function renderExchange() {
    const ex = L.legal(S, 'request_exchange');
    const reqs = (S.exchange_requests || []).filter((r) => r.team === me);
    const box = $('exchange');
    box.hidden = !ex && !reqs.length;
    if (box.hidden) return;
    L.section(box, sigOf(reqs), () => {
      const out = [h('h2', null, t('exchange.title', { n: ex ? ex.options.cost : 3 }))];
      if (reqs.length) {
        const r = reqs[0];
        out.push(h('p', { class: 'unsent', testid: 'exchange-pending' },
          t('exchange.pending', { give: r.give.map(L.card).join(', '), take: L.special(r.take) })));
      }
      if (!ex) return out;
      const cost = ex.options.cost;
      const cards = (ex.options.cards && ex.options.cards[String(me)]) || mine().cards.slice().sort();
      ui.exPick = ui.exPick.filter((i) => i < cards.length);
      const take = L.field('select', { testid: 'exchange-take', value: ex.options.take[0], 'aria-label': t('exchange.take') },
        ex.options.take.map((c) => h('option', { value: c }, L.special(c))));
      out.push(h('p', { class: 'hint' }, t('exchange.hint', { n: cost })),
        h('div', { class: 'choices' }, cards.map((c, i) => h('button', {
          type: 'button', testid: 'exchange-card-' + i, class: ui.exPick.includes(i) ? 'on' : '',
          'aria-pressed': ui.exPick.includes(i) ? 'true' : 'false',
          onclick: () => {
            ui.exPick = ui.exPick.includes(i) ? ui.exPick.filter((x) => x !== i) : ui.exPick.concat([i]).slice(-cost);
            bump();
          } }, L.card(c)))),
        h('p', { class: 'row' }, t('exchange.take'), take),
        h('div', { class: 'choices' }, h('button', {
          type: 'button', testid: 'exchange-request', class: 'primary', disabled: ui.exPick.length !== cost,
          onclick: () => L.emit('request_exchange', { id: L.uuid(), give: ui.exPick.map((i) => cards[i]), take: take.value }, true)
            .then((ack) => {
              if (ack && ack.ok === false) L.flash(ack);
              else { L.flash(t('exchange.requested')); ui.exPick = []; bump(); }
            }) }, t('exchange.request'))));
      return out;
    });
  }

  function renderSpeaker() {
    const kinds = ['spokesperson', 'representative'].filter((k) => L.legal(S, k));
    const box = $('speaker');
    box.hidden = !kinds.length;
    if (box.hidden) return;
    L.section(box, sigOf(), () => kinds.map((kind) => {
      const current = V.turn[kind === 'spokesperson' ? 'spokespersons' : 'representatives'][String(me)];
      const members = page.members || [];
      const f = members.length
        ? L.field('select', { testid: kind + '-name', 'aria-label': t('people.' + kind), value: current || '' },
          [h('option', { value: '' }, '—')].concat(members.map((m) => h('option', { value: m }, m))))
        : L.field('input', { testid: kind + '-name', maxlength: 200, placeholder: t('people.name'), 'aria-label': t('people.' + kind) });
      const go = () => {
        if (!f.value.trim()) return;
        send({ do: kind, team: me, name: f.value.trim() }).then((ack) => {
          if (ack && ack.ok) { L.drafts[kind + '-name'] = ''; f.value = ''; }
        });
      };
      if (members.length) { const d = L.drafts[kind + '-name']; f.value = d !== undefined ? d : (current || ''); }
      if (!members.length) f.addEventListener('keydown', (e) => { if (e.key === 'Enter') go(); });
      return h('div', null, h('h3', null, t('people.' + kind) + (current ? ': ' : ''), current ? h('strong', null, current) : null),
        h('div', { class: 'row' }, f, btn(kind + '-send', t('people.save'), go)));
    }));
  }

  function renderBoard() {
    L.section($('board'), sigOf(), () => {
      if (V.over && V.standings) {
        return [h('h2', null, t('rank.title')), h('ol', { class: 'board' }, V.standings.map((r, i) =>
          h('li', { testid: 'rank-' + (i + 1), 'data-team': r.team, class: r.team === me ? 'me' : '' },
            h('strong', null, L.ordinal(r.rank)), ' ', L.teamLabel(V, r.team), ' — ', L.num(r.score),
            r.team === me ? h('span', { class: 'you' }, ' (' + t('team.you') + ')') : null)))];
      }
      return [h('h2', null, t('score.title')), h('ul', { class: 'cards' }, V.teams.map((tm) =>
        h('li', { testid: 'score-team-' + tm.team, class: tm.team === me ? 'me' : '' }, L.chip(tm.team), ' ', L.num(tm.score),
          tm.team === me ? h('span', { class: 'you' }, ' (' + t('team.you') + ')') : null)))];
    });
  }

  function tick() {
    const el = $('team-timer');
    if (!el || !S) return;
    const c = L.countdown(S.timer);
    el.textContent = V.turn.locked || c.expired ? t('timer.up') : (S.timer && S.timer.state !== 'idle' ? c.text : '');
    el.className = 'timer' + (c.running && c.seconds <= 10 ? ' low' : '');
  }
  L.onTick(tick);

  function render(state) {
    const first = !S;
    S = state;
    V = state.view;
    if (first || V.turn.number !== ui.turnNo) { ui.turnNo = V.turn.number; ui.conflict = null; }
    for (const h0 of V.history) if (h0.author) authors.add(h0.author);
    if (V.turn.author) authors.add(V.turn.author);
    for (const c of mine().cards) if (c.slice(0, 7) === 'author:') authors.add(c.slice(7));
    store.set(AUTHORS, Array.from(authors).slice(0, 300));

    const role = $('role');
    role.textContent = roleText();
    role.setAttribute('data-role', roleOf());
    role.className = 'role' + (roleOf() === 'adjunct' ? ' idle' : '');
    const blocks = actBlocks();
    $('act').hidden = !blocks.length;
    L.section($('act'), sigOf(), () => blocks);
    renderNow();
    renderResult();
    renderMine();
    renderExchange();
    renderSpeaker();
    renderBoard();
    if (resend && L.online && L.legal(S, 'write')) {
      // Back online (or reloaded) with a draft this tab typed: sent while the writing is
      // open, unless another device of the team sent meanwhile (then kept, and said).
      const u = unsent();
      const current = V.turn.written == null ? null : V.turn.written;
      if (u && !penElsewhere() && (u.base === undefined || u.base === current)) sendWrite(u.text);
      else if (u && u.base !== current) { ui.conflict = u.text; L.section($('act'), sigOf('conflict'), () => actBlocks()); }
    }
    if (L.online) resend = false;    // a redraw while offline leaves it for the return
  }

  const socket = L.connect({ role: 'team', token: page.token }, render);
  // What another device of the team is typing (one pen per team): shown read-only with "Escribir aquí".
  socket.on('draft', (d) => {
    if (!d || d.for !== 'write' || typeof d.text !== 'string' || d.writer === TAB) return;
    ui.pen = d;
    const mineNow = document.activeElement && document.activeElement.getAttribute('data-testid') === 'write-text';
    if (S && L.legal(S, 'write')) {
      if (mineNow) document.activeElement.blur();
      bump();
    }
  });
  // A token the server no longer takes (the game was deleted, the GM removed this device,
  // or the game ended long ago): back to the join page, even mid-game.
  socket.on('connect_error', (err) => {
    if (err && /^auth/.test(err.message || '')) window.location.href = '/join';
  });
}());
