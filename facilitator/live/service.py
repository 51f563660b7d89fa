"""Live operations: every change of a game, from any device, takes this one path.

parse → the game (its ``act``, inside the store's transaction: who may send what
is the game's rule) → commit → broadcast each audience its view. Nothing is
broadcast that is not committed. This layer knows no game: it hands actions to
the game's match and sends each audience the view the match gives it.
"""
from __future__ import annotations

import copy
import logging
import threading
import time

from socketio.pubsub_manager import PubSubManager

from ..games import Refusal, kind
from ..games.protocol import SEAT, TABLE, WATCHER, Role
from ..store import classes as stored_classes
from ..store.games import Change, GameStore
from ..store.halls import Halls
from . import rooms
from .audience import GM, PROJECTOR, TABLE as TABLE_SCREEN, TEAM, Audience
from .consoles import ConsoleConnections
from .halls import LiveHalls
from .league import ClassScreens, league_time
from .presence import Presence
from .seats import LiveSeats, refuse_device_not_seated, refuse_table_for_held, seating

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


def role_of(audience: Audience) -> Role:
    """The game's role of a connection: the GM, a seat's device, a table's shared
    screen, or a watcher (a projector)."""
    if audience.role == GM:
        return Role.gm()
    if audience.role == TEAM:
        return Role.of_seat(audience.team)
    if audience.role == TABLE_SCREEN:
        return Role.table()
    return Role.watcher()


def audience_of(role: Role, game_id: int) -> Audience:
    """The connections of ``game_id`` that a role's view goes to."""
    if role.kind == SEAT:
        return Audience(TEAM, game_id, role.seat)
    if role.kind == TABLE:
        return Audience(TABLE_SCREEN, game_id)
    if role.kind == WATCHER:
        return Audience(PROJECTOR, game_id)
    return Audience(GM, game_id)


class LiveGames:
    """The live side of the games of this process: acting, timing, broadcasting."""

    def __init__(self, store: GameStore, socketio, presence: Presence, clock=time.time):
        self.store = store
        self.socketio = socketio
        self.presence = presence
        self.clock = clock                           # the time actions are given
        self._snapshots: dict[int, tuple] = {}       # game id → (cache key, messages)
        self._behind: set[int] = set()               # games catch_up found behind once
        self._connect_seqs: dict[str, int] = {}      # connection → seq of its first state
        self._devices_due: dict[int, int] = {}       # game → changes since its count was due
        self._devices_sent: dict[int, tuple] = {}    # game id → the devices the GMs last got
        self._devices_lock = threading.Lock()
        self.classes = ClassScreens(store)           # a class game's screens
        # Several processes: changes of each game heard from the others, and how many had
        # been heard (and when) as this process last read it (``_loaded``).
        self._heard: dict[int, int] = {}
        self._read_after: dict[int, tuple[int, float]] = {}
        self._reading: dict[int, threading.Lock] = {}  # game → held while one screen reads it
        self._reading_guard = threading.Lock()
        self._drafts: dict[tuple[int, int], dict] = {}   # (game, seat) → last draft relayed
        self.halls = LiveHalls(Halls(store), socketio, self.act,   # a hall's own screens
                               self._loaded, lambda: self.sole_process)
        self.seats = LiveSeats(self)                 # who holds each seat
        self.consoles = ConsoleConnections()         # teacher connection → its session

    # -- operations ------------------------------------------------------------------

    def act(self, audience: Audience, action: object, client_id: str | None = None) -> dict:
        """Hand ``action`` sent by ``audience`` to its game; returns the acknowledgement."""
        # Read before the transaction (on SQLite a read inside it would wait for it).
        has_class = self.classes.info(audience.game_id) is not None
        by = role_of(audience)
        now = self.clock()

        def change(c: Change) -> None:
            opening = c.match.seq == 0                # the game's first action
            refuse_device_not_seated(c.match, c.row, audience.role, audience.team,
                                     audience.device, kind(c.match.kind))
            if by.kind == TABLE:
                refuse_table_for_held(c.match, action, c.row.claims, kind(c.match.kind))
            c.act(action, by, now, client_id)
            if opening and c.played and has_class:
                # The game has begun: a league shown before it goes away and the finale
                # comes first when the game ends (the GM may show it again then). A game
                # never gains a class: one without has no league to hide.
                stored_classes.hide_league(c, audience.game_id)
        result = self.store.transact(audience.game_id, by.sent_by, change, client_id)
        if result.duplicate_of is not None:
            # Sent again: the first was stored, but its broadcast may have been lost with
            # the process that stored it; every screen is brought up to the committed state.
            self.broadcast(audience.game_id)
            return {"ok": True, "seq": result.duplicate_of, "duplicate": True}
        if result.unchanged:
            # Nothing stored, nothing for screens to show; unless it is an action stored
            # before, sent again with its id (applied once).
            first = (self.store.seq_of_client_id(audience.game_id, client_id)
                     if client_id else None)
            if first is not None:
                self.broadcast(audience.game_id)
                return {"ok": True, "seq": first, "duplicate": True}
            return {"ok": True, "seq": result.row.seq, "unchanged": True}
        if result.played and result.played[0] == 1 and has_class:
            self.classes.forget(audience.game_id)      # league_shown went back to false
        # The committed match and row are at hand (and nothing ran since the commit).
        self.broadcast(audience.game_id, (result.match, result.row))
        # Not the match's seq: another action may have followed by the time we answer.
        return {"ok": True, "seq": result.played[-1] if result.played else result.row.seq}

    def clock_due(self, game_id: int) -> bool:
        """A game's deadline passed: its clock acts. True if anything changed.

        A game whose ``due`` searches (a computer player's move: ``due_searches``) is
        asked on a copy of its match, in a thread of its own and outside the game's lock,
        so that the other games' screens do not wait for the search; the move is played
        only if the game has not moved meanwhile."""
        now = self.clock()
        planned = self._searched(game_id, now)

        def change(c: Change) -> None:
            if planned is not None and c.match.seq != planned[0]:
                c.unchanged = True               # moved meanwhile: the next tick decides
                return
            action = planned[1] if planned is not None else c.match.due(now)
            if action is None:
                c.unchanged = True
                return
            c.act(action, Role.clock(), now)
        try:
            result = self.store.transact(game_id, "clock", change)
        except Refusal:
            return False
        if not result.unchanged:
            self.broadcast(game_id, (result.match, result.row))
        return bool(result.played)

    def catch_up(self) -> list[int]:
        """Broadcast the games this process has screens of whose stored ``version`` no
        ``state`` message has carried for two calls running (the process that committed
        a change, an action or a timer's, died before its broadcast; every process with a
        message queue calls this every few seconds). The games sent; none without a
        message queue (one process: its screens reconnect to it and get the state then)."""
        seen = getattr(getattr(self.socketio, "server", None), "manager", None)
        seen = getattr(seen, "seen_version", None)
        if seen is None:
            return []
        behind = {game for game, version in self.store.versions(self.presence.games()).items()
                  if version > seen.get(game, -1)}
        due, self._behind = behind & self._behind, behind - self._behind
        for game_id in sorted(due):
            self.broadcast(game_id)
        return sorted(due)

    def clock_searches(self, game_id: int) -> bool:
        """Whether game ``game_id``'s clock searches when due (a computer player's move:
        its kind's ``due_searches``), so the watcher runs it beside the other clocks."""
        loaded = self.store.current(game_id)
        return loaded is not None and loaded[0].due_searches

    def _searched(self, game_id: int, now: float) -> tuple[int, object] | None:
        """``(seq, action)``: what a searching game's clock would play, found on a copy of
        its match off the event loop; None for a game whose ``due`` is quick."""
        loaded = self.store.current(game_id)
        if loaded is None or not loaded[0].due_searches:
            return None
        match = loaded[0]
        twin = copy.deepcopy(match)
        return match.seq, in_thread(twin.due, now)

    def show_league(self, game_id: int, shown: bool) -> dict:
        """The GM shows (or hides) the class's league on a class game's projector: a
        display choice kept with the game's link to its class (it survives a reload), not
        an action of the record. Shown only before the game's first action and once it is
        over (hiding it is always accepted); the first action hides it (``act``)."""
        def change(c: Change) -> None:
            if shown and not league_time(c.match):
                raise Refusal("not_now", "the league is shown before the game's first action "
                                         "or once the game is over")
            if not stored_classes.set_league_shown(c, game_id, shown):
                raise Refusal("not_found", f"game {game_id} was not made from a class")
        result = self.store.transact(game_id, "gm", change)
        self.classes.forget(game_id)
        self.broadcast(game_id, (result.match, result.row))
        return {"ok": True, "shown": shown}

    def class_changed(self, game_id: int) -> None:
        """Game ``game_id``'s class changed (names on the projector or not, the league's
        scheme): its screens show it now, not when the class link held here expires."""
        self.classes.forget(game_id)
        self.broadcast(game_id)

    # -- drafts: what a seat's device is typing, shown on its other devices --------------

    def relay_draft(self, audience: Audience, action: str, key: object, text: str,
                    writer: str, sid: str) -> dict:
        """Show the other devices of ``audience``'s seat what one of them is typing for
        ``action``: relayed, never stored, only while the game lets this seat send that
        action. ``key`` is the client's own; ``writer`` names the tab that types."""
        if audience.role != TEAM:
            raise Refusal("role", "only a seat's devices share what they are typing")
        loaded = self._loaded(audience.game_id)
        if loaded is None:
            raise Refusal("not_found", "this game no longer exists")
        match, _row = loaded
        if not any(entry.do == action for entry in match.legal(role_of(audience))):
            raise Refusal("not_now", f"'{action}' is not open to this device now")
        draft = {"for": action, "key": key, "text": text, "writer": writer,
                 "at": int(self.clock() * 1000)}
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
        match, row = loaded
        if admit is not None and not admit(row):
            return None
        return self._from_cache(match, row, audience)

    def _loaded(self, game_id: int):
        """Game ``game_id``'s match and row as committed, or None if there is no such game.

        The only process (no message queue) holds every committed change of the games
        it knows: those need no query (a reconnection storm asks the database nothing
        for them). With several processes, what this process holds is current while no
        other process announced a change of the game since it was read (every change is
        broadcast to the game's rooms, and every process hears every broadcast: see
        ``count_heard``), for HEARD_TRUST_SECONDS at the most. Otherwise the row is
        read, and the match brought up to it.

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
            loaded = self.store.current(game_id)
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

    def count_heard(self, message: dict, own: str | None) -> None:
        """A broadcast another process sent (``message``, as the message queue carries it;
        ``own``: this process's host id): a change of the games of its rooms. What this
        process changed, it holds as committed, or it dropped what it held; a restarted
        process sends each GM the devices coming back, which must not make the next
        screens of the game read it again."""
        if own is not None and message.get("host_id") == own:
            return
        room = message.get("room")
        for name in room if isinstance(room, (list, tuple)) else (room,):
            game_id = rooms.game_of_room(name)
            if game_id is not None:
                self.heard_change(game_id)   # before the screens here are sent it

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

        Sure when this process's snapshot and match of the game are both at ``seq`` and
        either every change goes through this process (no message queue) or, with several
        processes, one light query of the game row's ``seq`` says so. When unsure: False,
        and the caller loads."""
        entry = self._snapshots.get(game_id)
        if (not isinstance(seq, int) or entry is None or entry[0][0] != seq
                or self.store.held_seq(game_id) != seq):
            return False
        if self.sole_process:
            return True
        return self.store.seq_of(game_id) == seq

    def _messages(self, match, row, devices: tuple, now: float, overlay) -> list:
        """Every audience's ``state`` message of a game: the match's views, with what the
        live game adds (the game's name, the time, connected devices, a class's league)."""
        names = overlay is None or overlay["names"]
        counts, ids = devices
        envelope = {"game": row.id, "name": row.name, "now": int(now * 1000),
                    "version": row.version}
        out = []
        for role, body in match.screens(now, names):
            audience = audience_of(role, row.id)
            message = {**envelope, "role": audience.role, "team": audience.team, **body}
            if audience.role == GM:
                message["devices"], message["device_ids"] = counts, ids
                if match.personal_seats:            # who holds each seat
                    message["seating"] = seating(match, row)
                if overlay is not None:
                    message["league_shown"] = overlay["shown"]
            elif audience.role in (PROJECTOR, TABLE_SCREEN):
                message["devices"] = counts          # the lobby shows seats joining
                if overlay is not None and overlay["league"] is not None:
                    message["league"] = overlay["league"]
            out.append((audience, message))
        return out

    def _remember(self, match, row, messages, overlay=None) -> None:
        self._snapshots[row.id] = ((match.seq, row.version) + ClassScreens.key(overlay),
                                   {(a.role, a.team): m for a, m in messages})

    def _from_cache(self, match, row, audience: Audience, info: tuple | None = None) -> dict:
        cache = self._snapshots
        entry = cache.get(row.id)
        now = self.clock()
        overlay = self.classes.overlay(match, row.id)       # None without a class
        key = (match.seq, row.version) + ClassScreens.key(overlay)
        if entry is None or entry[0] != key:
            devices = info or self.presence.device_info(row.id)
            self._remember(match, row, self._messages(match, row, devices, now, overlay), overlay)
            entry = cache[row.id]
        message = entry[1].get((audience.role, audience.team))
        if message is None:
            raise Refusal("not_found", "this game has no such screen")
        message = {**message, "now": int(now * 1000), **match.timely(now)}
        if audience.role == GM:
            message["devices"], message["device_ids"] = info or self.presence.device_info(row.id)
        elif audience.role in (PROJECTOR, TABLE_SCREEN):
            message["devices"] = info[0] if info else self.presence.devices(row.id)
        return message

    def broadcast(self, game_id: int, loaded=None) -> None:
        """Send every audience of ``game_id`` its own view of the committed state.

        ``loaded``: the (match, row) a transaction just committed, if at hand."""
        loaded = loaded or self._loaded(game_id)
        if loaded is None:
            return
        match, row = loaded
        # Every message is built before the first emit, which may let other greenlets run.
        devices = self._devices_sent[game_id] = self.presence.device_info(game_id)
        overlay = self.classes.overlay(match, game_id)      # None without a class
        messages = self._messages(match, row, devices, self.clock(), overlay)
        self._remember(match, row, messages, overlay)
        emit = self.socketio.emit
        for audience, message in messages:
            emit("state", message, to=rooms.room_of(audience))
        if getattr(row, "hall_id", None) is not None:
            self.halls.changed(row.hall_id)       # the hall's screens show every table

    def devices_changed(self, game_id: int) -> None:
        """A seat's device came or went: update the GM consoles' count once per burst.

        When a process restarts, hundreds of devices come back within a second or
        two; one GM message per game after DEVICES_DELAY, not one per device,
        leaves the server free to answer the connections themselves."""
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
        """Tell the GM consoles which seats have devices connected, and the projectors
        how many (their lobby shows the seats joining). ``info``: the devices, as
        ``presence.device_info`` just gave them."""
        loaded = self._loaded(game_id)       # once for both audiences
        if loaded is None:
            return
        match, row = loaded
        info = info or self.presence.device_info(game_id)
        message = self._from_cache(match, row, Audience(GM, game_id), info)
        public = self._from_cache(match, row, Audience(PROJECTOR, game_id), info)
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
        """Delete a game: every connection of its rooms (GM, seats, projectors) is
        closed, in every process, and nothing of it stays cached. False if there was no
        such game."""
        from ..store.games import BROKEN_ERRORS
        try:
            loaded = self._loaded(game_id)
        except BROKEN_ERRORS:           # stored broken: its seats counted from its codes
            loaded = None
        seats = _seat_count(loaded[0]) if loaded is not None else self.store.team_count(game_id)
        deleted = self.store.delete_game(game_id)
        self.presence.kick(game_id, None, seats)        # the other processes
        self.close_here(game_id, None, seats)
        return deleted

    def remove_device(self, game_id: int, device: str) -> bool:
        """The GM removes a device: its token is refused from now on, and its connections
        (in every process) are closed. False if there is no such game."""
        if not self.store.remove_device(game_id, device):
            return False
        self.presence.kick(game_id, device)
        self.close_here(game_id, device)
        # The teacher's screens see the seat freed and the device gone now, as after any
        # change of hands (LiveSeats): without this they went on listing the removed
        # device as the seat's holder, and the devices' count could stay as it was when a
        # claim's broadcast had already recorded the count the removal comes back to.
        self.broadcast(game_id)
        return True

    def listen_for_kicks(self) -> None:
        """Close this process's connections when another process deletes a game, removes
        a device or ends console sessions (once per process; nothing to do without
        several processes)."""
        self.presence.listen_for_kicks(self.close_here, self.socketio.start_background_task,
                                       self.close_consoles_here)

    def end_consoles(self, key: str) -> None:
        """Console sessions ended (``key``: one session's, or ``"*"`` for every one): close
        their teacher connections, game consoles and hall views, in every process, at
        once, rather than let them receive every hand until they next send something."""
        self.presence.kick_consoles(key)
        self.close_consoles_here(key)

    def close_consoles_here(self, key: str) -> None:
        """Close this process's teacher connections of the session ``key`` (or of every
        session, ``"*"``), and stop trusting it here without waiting for the database."""
        from ..store.sessions import forget_remembered
        forget_remembered(key)
        for sid in self.consoles.sids(key):
            try:
                self.socketio.server.disconnect(sid, namespace="/", ignore_queue=True)
            except Exception:    # one connection that will not close must not keep the others
                log.exception("could not close console connection %s", sid)

    def close_here(self, game_id: int, device: str | None = None, teams: int = 0) -> None:
        """Close this process's connections of one device of ``game_id``, or, with no
        ``device``, of the whole (deleted) game: whoever is in its rooms, authenticated
        or about to be, and forget everything cached of it."""
        self.heard_change(game_id)      # a removed device: its token is checked afresh
        server = self.socketio.server
        sids = set(self.presence.sids(game_id, device))
        if device is None:
            names = [rooms.gm_room(game_id), rooms.public_room(game_id),
                     rooms.table_room(game_id),
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
        GMs were sent, presence entries, drafts, what the store holds."""
        self._snapshots.pop(game_id, None)
        self._read_after.pop(game_id, None)
        for key in [k for k in self._drafts if k[0] == game_id]:
            self._drafts.pop(key, None)
        with self._reading_guard:
            self._reading.pop(game_id, None)
        self.classes.forget(game_id)
        self._devices_sent.pop(game_id, None)
        self.halls.forget(game_id=game_id)
        with self._devices_lock:
            self._devices_due.pop(game_id, None)
        self.presence.forget_game(game_id)
        self.store.forget_game(game_id)


def in_thread(function, *args):
    """``function(*args)`` in a thread of its own (gevent's pool under gevent, so the
    event loop goes on meanwhile); its result."""
    try:
        from gevent import get_hub
        from gevent.monkey import is_module_patched
    except ImportError:        # pragma: no cover - gevent is a dependency
        return function(*args)
    if not is_module_patched("threading"):
        return function(*args)               # threading mode: already off the loop
    return get_hub().threadpool.apply(function, args)


def _seat_count(match) -> int:
    return sum(1 for role in match.audiences() if role.kind == SEAT)
