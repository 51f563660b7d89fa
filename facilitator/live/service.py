"""Live operations: every change of a game, from any device, takes this one path.

parse → authorise → engine (inside the store's transaction) → commit →
broadcast each audience its view. Nothing is broadcast that is not committed.
"""
from __future__ import annotations

import json
import logging
import threading
import time

from socketio.pubsub_manager import PubSubManager
from sqlalchemy import update

from ..games.partida import ACTION_TYPES, Refusal
from ..games.partida.actions import Exchange, parse_action
from ..store.games import Change, GameStore
from ..store.models import ClassGameRow, GameRow
from . import rooms, timers
from .audience import GM, PROJECTOR, TEAM, Audience
from .league import ClassScreens, league_time
from .presence import Presence
from .snapshots import snapshot, snapshots

log = logging.getLogger(__name__)

#: Seconds a GM's "devices connected" count waits, to gather a burst of (re)connections;
#: while devices keep coming it waits again, DEVICES_MAX_WAIT seconds at the most (a
#: restarted server's classroom comes back over several seconds: one update a game,
#: not one every DEVICES_DELAY).
DEVICES_DELAY = 0.3
DEVICES_MAX_WAIT = 2.0
#: With several processes, how long a game this process read is taken as current while
#: no other process announced a change of it (``_loaded``). Bounds what a lost Redis
#: message could cost: a screen connecting later than this reads the database.
HEARD_TRUST_SECONDS = 5.0
#: How long a starting process waits for the message queue before it answers anyway
#: (``listen_to_other_processes``).
SUBSCRIBE_WAIT_SECONDS = 5.0

#: Actions a team device may send for itself; the rest are the GM's (R-G4).
TEAM_ACTIONS = frozenset(name for name, cls in ACTION_TYPES.items() if not cls.gm_only)


def writing_open(game) -> bool:
    """Whether a challenge's secondary team may still write its anticipation (R-U4, R-U5)."""
    turn = game.state.turn
    return timers.deliberating(game) and turn.is_challenge and not turn.locked


class LiveGames:
    """The live side of the games of this process: acting, timing, broadcasting."""

    def __init__(self, store: GameStore, socketio, presence: Presence):
        self.store = store
        self.socketio = socketio
        self.presence = presence
        self._snapshots: dict[int, tuple] = {}       # game id → (cache key, messages)
        self._connect_seqs: dict[str, int] = {}      # connection → seq of its first state
        self._devices_due: dict[int, int] = {}       # game → changes since its count was due
        self._devices_sent: dict[int, tuple] = {}    # game id → the devices the GMs last got
        self._devices_lock = threading.Lock()
        self.classes = ClassScreens(store)           # issue 15: a class game's screens
        # Several processes: changes of each game heard from the others, and how many had
        # been heard (and when) as this process last read it (``_loaded``).
        self._heard: dict[int, int] = {}
        self._read_after: dict[int, tuple[int, float]] = {}
        self._reading: dict[int, threading.Lock] = {}  # game → held while one screen reads it
        self._reading_guard = threading.Lock()
        self._drafts: dict[tuple[int, int], dict] = {}   # (game, seat) → last draft relayed

    # -- authorisation -------------------------------------------------------------

    def authorise(self, audience: Audience, action: dict, change: Change) -> None:
        """R-G4: the GM may do anything; a team device only its own team's part."""
        if audience.role == GM:
            return
        if audience.role != TEAM:
            raise Refusal("R-G4", "the projector only watches")
        parsed = parse_action(action)
        own = audience.team
        if parsed.do not in TEAM_ACTIONS:
            raise Refusal("R-G4", f"only the GM can do '{parsed.do}'")
        team_field = getattr(parsed, "team", None)
        if team_field is not None and team_field != own:
            raise Refusal("R-G4", f"this device belongs to team {own}: it cannot act for "
                                  f"team {team_field}")
        turn = change.game.state.turn
        if parsed.do == "declare" and turn.host != own:
            raise Refusal("R-G4", f"only the host, team {turn.host}, declares this turn")
        if parsed.do == "choose" and turn.chooser != own:
            raise Refusal("R-G4", f"team {turn.chooser} chooses the author and type this turn")

    # -- operations ------------------------------------------------------------------

    def act(self, audience: Audience, action: object, client_id: str | None) -> dict:
        """Apply ``action`` sent by ``audience``; returns the acknowledgement."""
        # Read before the transaction (on SQLite a read inside it would wait for it).
        has_class = self.classes.info(audience.game_id) is not None

        def change(c: Change) -> None:
            self.authorise(audience, action, c)
            now = time.time()
            seen = timers.as_seen(c.row.timer or {}, c.game, now)
            do = action.get("do") if isinstance(action, dict) else None
            # R-G1: an undo puts the screens back as they were just before the action
            # it takes back; a redo, as they were just before that undo.
            back_to = (c.game.undo_target() if do == "undo"
                       else c.game.redo_target() if do == "redo" else None)
            opening = c.game.seq == 0                  # the game's first action (issue 15)
            if do == "verdict" and writing_open(c.game):
                # The room is about to see the written answer: lock it as its own action
                # first, so undoing the verdict leaves it locked (R-G1, R-U5).
                c.play({"do": "time_up"}, timer_before=seen)
            c.play(action, client_id, timer_before=seen)
            self._after_actions(c, back_to, now)
            if opening and c.played and has_class:
                # Issue 15: the game has begun, so a league shown before it goes away and
                # the finale comes first when the game ends (the GM may show it again then).
                # A game never gains a class: one without has no league to hide.
                c.write(update(ClassGameRow).where(
                    ClassGameRow.game_id == audience.game_id, ClassGameRow.league_shown.is_(True))
                    .values(league_shown=False))
        result = self.store.transact(audience.game_id, audience.sent_by, change, client_id)
        if result.duplicate_of is not None:
            return {"ok": True, "seq": result.duplicate_of, "duplicate": True}
        if result.unchanged and not result.played:
            # The same name again (Change.play): nothing stored, nothing for screens to show;
            # unless it is an action stored before, sent again with its id (applied once).
            first = (self.store._seq_of_client_id(audience.game_id, client_id)
                     if client_id else None)
            if first is not None:
                return {"ok": True, "seq": first, "duplicate": True}
            return {"ok": True, "seq": result.row.seq, "unchanged": True}
        if result.played and result.played[0] == 1 and has_class:
            self.classes.forget(audience.game_id)      # league_shown went back to false
        # The committed game and row are at hand (and nothing ran since the commit).
        self.broadcast(audience.game_id, (result.game, result.row))
        # Not result.game.seq: another action may have followed by the time we answer.
        return {"ok": True, "seq": result.played[-1]}

    def _after_actions(self, c: Change, back_to: int | None = None, now: float = 0.0) -> None:
        # A timer belongs to one deliberation; a change of step ends it. After an undo or
        # a redo, the timer kept with action ``back_to`` comes back (time left, running
        # or not), as the screens showed it then.
        kept = self.store.timer_before(c, back_to) if back_to is not None else None
        timer = timers.current(timers.put_back(kept, now) if kept else c.row.timer or {}, c.game)
        c.row.timer = timer
        c.row.timer_deadline = timers.deadline_of(timer)
        if c.played and isinstance(c.game.last_action(), Exchange):
            team = c.game.last_action().team
            c.row.exchange_requests = [r for r in c.row.exchange_requests or []
                                       if r.get("team") != team]

    def timer(self, audience: Audience, op: str, seconds: int) -> dict:
        """A GM timer operation (R-G2); may reopen the writing (R-U5)."""
        if audience.role != GM:
            raise Refusal("R-G4", "only the GM controls the timer")

        def change(c: Change) -> None:
            if not timers.deliberating(c.game):
                raise Refusal("R-U10", "the timer runs only while the teams deliberate")
            now = time.time()
            seen = timers.as_seen(c.row.timer or {}, c.game, now)
            timer, reopen = timers.operate(c.row.timer or {}, c.game, op, now, seconds)
            if reopen:
                c.play({"do": "more_time", "seconds": max(1, int(seconds if op == "extend"
                                                                 else timer["seconds"]))},
                       timer_before=seen)
            c.row.timer = timer
            c.row.timer_deadline = timers.deadline_of(timer)
        self.store.transact(audience.game_id, audience.sent_by, change)
        self.broadcast(audience.game_id)
        return {"ok": True}

    def time_up(self, game_id: int) -> bool:
        """The deadline passed: lock the written answer (R-U5). True if anything changed."""
        now = time.time()

        def change(c: Change) -> None:
            deadline = timers.deadline_of(c.row.timer or {})
            if deadline is None or deadline > now:
                return
            if timers.deliberating(c.game) and not c.game.state.turn.locked:
                c.play({"do": "time_up"}, timer_before=timers.as_seen(c.row.timer, c.game, now))
            c.row.timer = {**c.row.timer, "state": timers.IDLE, "deadline": None}
            c.row.timer_deadline = None
        try:
            result = self.store.transact(game_id, "timer", change)
        except Refusal:
            return False
        self.broadcast(game_id)
        return bool(result.played)

    def request_exchange(self, audience: Audience, give: object, take: object) -> dict:
        """A team asks the GM for an exchange (R-K6); checked now, confirmed by the GM."""
        if audience.role != TEAM:
            raise Refusal("R-G4", "exchange requests come from a team's device")
        action = {"do": "exchange", "team": audience.team, "give": give, "take": take}

        def change(c: Change) -> None:
            c.game.check(action)
            requests = [r for r in c.row.exchange_requests or [] if r.get("team") != audience.team]
            requests.append({"team": audience.team, "give": list(give), "take": take})
            c.row.exchange_requests = requests
        self.store.transact(audience.game_id, audience.sent_by, change)
        self.broadcast(audience.game_id)
        return {"ok": True}

    def dismiss_exchange(self, audience: Audience, team: object) -> dict:
        """The GM drops a team's exchange request."""
        if audience.role != GM:
            raise Refusal("R-G4", "only the GM dismisses exchange requests")

        def change(c: Change) -> None:
            c.row.exchange_requests = [r for r in c.row.exchange_requests or []
                                       if r.get("team") != team]
        self.store.transact(audience.game_id, audience.sent_by, change)
        self.broadcast(audience.game_id)
        return {"ok": True}

    def show_answer(self, audience: Audience, show: bool) -> dict:
        """Issue 13: the GM shows (or hides) the current turn's expected answer on the
        projector. A display choice kept on the game row (it survives a reload), not an
        action of the record (R-V1); the projector gets the answer only once the turn's
        verdicts are given, and no longer once the turn ends (see snapshots.shown_answer)."""
        if audience.role != GM:
            raise Refusal("R-G4", "only the GM shows the expected answer")
        game_id = audience.game_id
        with self.store.lock(game_id), self.store.database.session() as session:
            row = self.store.database.lock_game(session, game_id)
            if row is None:
                raise Refusal("format", f"there is no game {game_id}")
            turn = self.store._current(session, row).state.turn
            if show and (turn.question is None or turn.verdict is None):
                raise Refusal("R-V1", "the expected answer is shown after the verdict")
            # Not a change of the game (no action, no seq): one plain UPDATE of this column.
            session.execute(update(GameRow).where(GameRow.id == game_id)
                            .values(shown_answer_turn=turn.number if show else None))
            self.store.forget_row(game_id)
        self.broadcast(game_id)
        return {"ok": True}

    def show_league(self, game_id: int, shown: bool) -> dict:
        """Issue 15: the GM shows (or hides) the class's league on a class game's projector.
        A display choice kept with the game's link to its class (it survives a reload), not
        an action of the record: ``seq`` does not change. Shown only before the game's first
        action and once it is over (hiding it is always accepted); the first action of the
        game hides it (see ``act``). Persist, then broadcast."""
        with self.store.lock(game_id), self.store.database.session() as session:
            row = self.store.database.lock_game(session, game_id)
            if row is None:
                raise Refusal("not_found", f"there is no game {game_id}")
            if shown and not league_time(self.store._current(session, row)):
                raise Refusal("not_now", "the league is shown before the game's first action "
                                         "or once the game is over")
            # Not a change of the game (no action, no seq): one plain UPDATE of its link.
            if not session.execute(update(ClassGameRow).where(ClassGameRow.game_id == game_id)
                                   .values(league_shown=shown)).rowcount:
                raise Refusal("not_found", f"game {game_id} was not made from a class")
        self.classes.forget(game_id)
        self.broadcast(game_id)
        return {"ok": True, "shown": shown}

    # -- drafts: what a seat's device is typing, shown on its other devices --------------

    def relay_draft(self, audience: Audience, action: str, key: object, text: str,
                    writer: str, sid: str) -> dict:
        """Show the other devices of ``audience``'s seat what one of them is typing for
        ``action`` (one pen per seat, docs/reglas.md): relayed, never stored, only while
        the game lets this seat send that action. ``key`` is the client's own (the turn
        a written answer belongs to); ``writer`` names the tab that types."""
        if audience.role != TEAM:
            raise Refusal("R-G4", "only a team's devices share what they are typing")
        loaded = self._loaded(audience.game_id)
        if loaded is None:
            raise Refusal("format", "this game no longer exists")
        game, _row = loaded
        if not any(entry.do == action and audience.team in entry.teams
                   for entry in game.legal_actions()):
            raise Refusal("R-U10", f"'{action}' is not open to this team now")
        draft = {"for": action, "key": key, "text": text, "writer": writer,
                 "at": int(time.time() * 1000)}
        self._drafts[(audience.game_id, audience.team)] = draft
        self.socketio.emit("draft", draft, to=rooms.room_of(audience), skip_sid=sid)
        return {"ok": True}

    def last_draft(self, audience: Audience) -> dict | None:
        """The last draft relayed for ``audience``'s seat by this process, if any (a
        device that connects sees what another one is typing)."""
        return self._drafts.get((audience.game_id, audience.team))

    # -- what screens receive ----------------------------------------------------------

    def snapshot_for(self, audience: Audience, admit=None) -> dict | None:
        """The current ``state`` message for one audience, or None if there is no such
        game or, with ``admit``, the game's row does not pass it (``admit(row)``)."""
        loaded = self._loaded(audience.game_id)
        if loaded is None:
            return None
        game, row = loaded
        if admit is not None and not admit(row):
            return None
        return self._from_cache(game, row, audience)

    def _loaded(self, game_id: int):
        """Game ``game_id`` and its row as committed, or None if there is no such game.

        The only process (no message queue) holds every committed change of the games
        it knows: those need no query (a reconnection storm asks the database nothing
        for them). With several processes, what this process holds is current while no
        other process announced a change of the game since it was read (every change is
        broadcast to the game's rooms, and every process hears every broadcast: see
        ``hear_changes``), for HEARD_TRUST_SECONDS at the most. Otherwise the row is
        read, and the game brought up to it.

        Why a screen never misses a change: it joined its rooms before asking. A change
        heard before it asked makes it read the database (the change is committed before
        it is broadcast); a change heard after reaches it as that broadcast."""
        sole = self.sole_process
        if sole:
            def current():
                return self.store.held(game_id)
        else:
            heard, asked = self._heard.get(game_id, 0), time.monotonic()

            def current():
                return self._trusted(game_id, heard, asked)
        held = current()
        if held is not None:
            return held
        # The screens of a game that connect together ask while the first of them reads
        # it: one reads, the others wait and take what it read if it passes the same test
        # (with several processes: nothing heard since before they asked).
        with self._reading_lock(game_id):
            held = current()
            if held is not None:
                return held
            loaded = self.store.load(game_id)
            if loaded is not None and not sole:
                self._read_after[game_id] = (heard, asked)  # counted before the read began
            return loaded

    def _trusted(self, game_id: int, heard: int, asked: float):
        """What this process holds of game ``game_id`` if it is surely current for a
        screen that asked at ``asked``, when ``heard`` changes of it had been heard: it
        was read when as many had been heard, HEARD_TRUST_SECONDS ago at the most.
        Else None."""
        read = self._read_after.get(game_id)
        if read is None or read[0] != heard or asked - read[1] >= HEARD_TRUST_SECONDS:
            return None
        return self.store.held(game_id)

    def _reading_lock(self, game_id: int) -> threading.Lock:
        with self._reading_guard:
            return self._reading.setdefault(game_id, threading.Lock())

    def hear_changes(self, manager) -> None:
        """Count, per game, the broadcasts other processes send to its rooms: ``manager``
        (Socket.IO's message-queue manager) hands this process each of them.

        Its own broadcasts pass there too, not counted: what this process changed, it
        holds as committed (``GameStore.transact``), or it dropped what it held. A
        restarted process sends each GM the devices coming back; counted, those made the
        next screens of the game read it again."""
        handle_emit = manager._handle_emit
        own = getattr(manager, "host_id", None)

        def heard_emit(message):
            if own is not None and message.get("host_id") == own:
                return handle_emit(message)
            room = message.get("room")
            for name in room if isinstance(room, (list, tuple)) else (room,):
                game_id = rooms.game_of_room(name)
                if game_id is not None:
                    self.heard_change(game_id)   # before the screens here are sent it
            return handle_emit(message)
        manager._handle_emit = heard_emit

    def listen_to_other_processes(self, wait: float = SUBSCRIBE_WAIT_SECONDS) -> bool:
        """Subscribe to the message queue now, before this process answers anyone; True
        once subscribed (at once without a message queue), False if the queue did not
        answer within ``wait`` seconds (it keeps trying meanwhile).

        python-socketio subscribes at its first connection, in a background task: after
        a restart that task competed with hundreds of connections coming back, and the
        changes other processes broadcast until it ran were lost for the screens that
        had their first state already (the floor of bench/fanout.py lost ~200 state
        messages in some restart runs that way). Subscribed first, every change
        committed after a screen's first state was read reaches it."""
        from socketio import RedisManager
        server = self.socketio.server
        manager = server.manager
        if not isinstance(manager, PubSubManager):
            return True
        if not server.manager_initialized:
            server.manager_initialized = True
            manager.initialize()              # starts the listening task
        if not isinstance(manager, RedisManager):
            return True                       # (another queue: nothing to wait on)
        deadline = time.monotonic() + wait
        while True:
            pubsub = getattr(manager, "pubsub", None)     # RedisManager's subscription
            if pubsub is not None and pubsub.subscribed:  # set once SUBSCRIBE was sent
                return True
            if time.monotonic() >= deadline:
                return False
            self.socketio.sleep(0.005)

    def heard_change(self, game_id: int) -> None:
        """Another process changed game ``game_id`` (or closed some of its connections):
        what this process holds of it is read again before it is used."""
        self._heard[game_id] = self._heard.get(game_id, 0) + 1

    @property
    def sole_process(self) -> bool:
        """Whether this process is the only one serving its games (no message queue):
        then every change of them goes through it."""
        return not isinstance(self.socketio.server.manager, PubSubManager)

    def holds_current(self, game_id: int, seq: object) -> bool:
        """Whether ``seq`` is surely game ``game_id``'s current seq, known without loading
        the game (a repeated ``sync``; docs/deploy.md, "Flood limits").

        Sure when this process's snapshot and engine of the game are both at ``seq`` and
        either every change goes through this process (no message queue) or, with several
        processes, one light query of the game row's ``seq`` says so. When unsure: False,
        and the caller loads.
        """
        entry = self._snapshots.get(game_id)
        game = self.store._games.get(game_id)   # dropped on deletion or a failed change
        if (not isinstance(seq, int) or entry is None or game is None
                or entry[0][0] != seq or game.seq != seq):
            return False
        if self.sole_process:
            return True
        return self.store.seq_of(game_id) == seq

    @staticmethod
    def _cache_key(game, row) -> tuple:
        version = getattr(row, "version", None)
        if version is not None:
            # PostgreSQL: every update of the row gives it a new version, so the version
            # says which name, timer, requests and shown answer the screens show.
            return (game.seq, version)
        return (game.seq, row.name, json.dumps(row.timer or {}, sort_keys=True, default=str),
                json.dumps(row.exchange_requests or [], sort_keys=True, default=str),
                getattr(row, "shown_answer_turn", None))

    def _remember(self, game, row, messages, overlay=None) -> None:
        self._snapshots[row.id] = (self._cache_key(game, row) + ClassScreens.key(overlay),
                         {(a.role, a.team): m for a, m in messages})

    def _from_cache(self, game, row, audience: Audience, info: tuple | None = None) -> dict:
        cache = self._snapshots
        entry = cache.get(row.id)
        now = time.time()
        overlay = self.classes.overlay(game, row.id)       # issue 15; None without a class
        if entry is None or entry[0] != self._cache_key(game, row) + ClassScreens.key(overlay):
            self._remember(game, row, ClassScreens.apply(snapshots(game, row, None, now), overlay),
                           overlay)
            entry = cache[row.id]
        message = entry[1].get((audience.role, audience.team))
        if message is None:
            single = snapshot(game, row, audience, self.presence.devices(row.id), now)
            return ClassScreens.apply([(audience, single)], overlay)[0][1]
        message = {**message, "now": int(now * 1000),
                   "timer": timers.public(row.timer or {}, game, now)}
        if audience.role == GM:
            message["devices"], message["device_ids"] = info or self.presence.device_info(row.id)
        elif audience.role == PROJECTOR:
            message["devices"] = info[0] if info else self.presence.devices(row.id)
        return message

    def broadcast(self, game_id: int, loaded=None) -> None:
        """Send every audience of ``game_id`` its own view of the committed state.

        ``loaded``: the (game, row) a transaction just committed, if at hand.
        """
        loaded = loaded or self._loaded(game_id)
        if loaded is None:
            return
        game, row = loaded
        # Every message is built before the first emit, which may let other greenlets run.
        devices, device_ids = self._devices_sent[game_id] = self.presence.device_info(game_id)
        overlay = self.classes.overlay(game, game_id)      # issue 15; None without a class
        messages = ClassScreens.apply(snapshots(game, row, devices, time.time(), device_ids),
                                      overlay)
        self._remember(game, row, messages, overlay)
        emit = self.socketio.emit
        for audience, message in messages:
            emit("state", message, to=rooms.room_of(audience))

    def devices_changed(self, game_id: int) -> None:
        """A team device came or went: update the GM consoles' count once per burst.

        When a process restarts, hundreds of devices come back within a second or
        two; one GM message per game after DEVICES_DELAY, not one per device,
        leaves the server free to answer the connections themselves.
        """
        with self._devices_lock:
            if game_id in self._devices_due:
                self._devices_due[game_id] += 1
                return
            self._devices_due[game_id] = 0
        self.socketio.start_background_task(self._send_devices_later, game_id)

    def _send_devices_later(self, game_id: int) -> None:
        waited = 0.0
        while True:
            self.socketio.sleep(DEVICES_DELAY)
            waited += DEVICES_DELAY
            with self._devices_lock:
                if not self._devices_due.get(game_id) or waited >= DEVICES_MAX_WAIT:
                    self._devices_due.pop(game_id, None)
                    break
                self._devices_due[game_id] = 0      # more came meanwhile: wait for them
        self.presence.publish(game_id)
        info = self.presence.device_info(game_id)
        if self._devices_sent.get(game_id) == info:
            return               # a device that left and came back: the GMs' count holds
        try:
            self.broadcast_devices(game_id, info)
        except Exception:    # a database hiccup: the next change or sync brings the count
            log.exception("devices update of game %s", game_id)

    def broadcast_devices(self, game_id: int, info: tuple | None = None) -> None:
        """Tell the GM consoles which teams have devices connected, and the projectors
        how many (their lobby shows the teams joining). ``info``: the devices, as
        ``presence.device_info`` just gave them."""
        loaded = self._loaded(game_id)       # once for both audiences
        if loaded is None:
            return
        game, row = loaded
        info = info or self.presence.device_info(game_id)
        message = self._from_cache(game, row, Audience(GM, game_id), info)
        public = self._from_cache(game, row, Audience(PROJECTOR, game_id), info)
        self._devices_sent[game_id] = info
        self.socketio.emit("state", message, to=rooms.gm_room(game_id))
        self.socketio.emit("state", public, to=rooms.public_room(game_id))

    # -- a connection's first state ------------------------------------------------------

    def sent_at_connect(self, sid: str, seq: int) -> None:
        """Connection ``sid`` got its first state, at ``seq`` (loaded after it joined its
        rooms: whatever is committed later reaches it as a broadcast)."""
        self._connect_seqs[sid] = seq

    def just_sent(self, sid: str, seq: object) -> bool:
        """Whether ``seq`` is the seq of the first state connection ``sid`` got, asked
        in its first ``sync`` (a device syncs as it reconnects): up to date without
        asking the database. Asked once per connection."""
        return self._connect_seqs.pop(sid, None) == seq and isinstance(seq, int)

    def forget_connection(self, sid: str) -> None:
        """Connection ``sid`` closed."""
        self._connect_seqs.pop(sid, None)


    # -- a game's devices belong to that game only -------------------------------------

    def delete_game(self, game_id: int) -> bool:
        """Delete a game: every connection of its rooms (GM, teams, projectors) is closed,
        in every process, and nothing of it stays cached. False if there was no such game.

        Its device tokens are refused from then on: they name the game's public id,
        which no other game will ever have.
        """
        row = self.store.row(game_id)
        teams = len(row.settings["teams"]) if row is not None else 0
        deleted = self.store.delete_game(game_id)
        self.presence.kick(game_id, None, teams)        # the other processes
        self.close_here(game_id, None, teams)
        return deleted

    def remove_device(self, game_id: int, device: str) -> bool:
        """The GM removes a device: its token is refused from now on, and its connections
        (in every process) are closed. False if there is no such game."""
        if not self.store.remove_device(game_id, device):
            return False
        self.presence.kick(game_id, device)
        self.close_here(game_id, device)
        return True

    def listen_for_kicks(self) -> None:
        """Close this process's connections when another process deletes a game or removes
        a device (once per process; nothing to do without several processes)."""
        self.presence.listen_for_kicks(self.close_here, self.socketio.start_background_task)

    def close_here(self, game_id: int, device: str | None = None, teams: int = 0) -> None:
        """Close this process's connections of one device of ``game_id``, or, with no
        ``device``, of the whole (deleted) game: whoever is in its rooms, authenticated
        or about to be, and forget everything cached of it."""
        self.heard_change(game_id)      # a removed device: its token is checked afresh
        server = self.socketio.server
        sids = set(self.presence.sids(game_id, device))
        if device is None:
            names = [rooms.gm_room(game_id), rooms.public_room(game_id),
                     *(rooms.team_room(game_id, n) for n in range(1, teams + 1))]
            for room in names:
                sids.update(sid for sid, _ in server.manager.get_participants("/", room))
        for sid in sids:
            try:
                # Only this process's connections: the others close their own (kick).
                server.disconnect(sid, namespace="/", ignore_queue=True)
            except Exception:    # one connection that will not close must not keep the others
                log.exception("could not close connection %s of game %s", sid, game_id)
        if device is None:
            self.forget_game(game_id)

    def forget_game(self, game_id: int) -> None:
        """Drop every cache of a deleted game in this process: snapshots, the devices the
        GMs were sent, presence entries, the store's replayed game."""
        self._snapshots.pop(game_id, None)
        self._read_after.pop(game_id, None)
        for key in [k for k in self._drafts if k[0] == game_id]:
            self._drafts.pop(key, None)
        with self._reading_guard:
            self._reading.pop(game_id, None)
        self.classes.forget(game_id)
        self._devices_sent.pop(game_id, None)
        with self._devices_lock:
            self._devices_due.pop(game_id, None)
        self.presence.forget_game(game_id)
        self.store.forget_game(game_id)
