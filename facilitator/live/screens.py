"""What the screens of a game receive (``LiveGames``' second job): each audience's view
of the committed state, built once and kept while the game is unchanged; broadcasts
after a commit; a connection's first state; the GM consoles' count of devices; and,
with several processes, what was heard from the others and the catch-up of a game
whose broadcast was lost with its process. A mixin of ``LiveGames`` (live/service.py)."""
from __future__ import annotations

import logging
import threading

from socketio.pubsub_manager import PubSubManager

from ..games import Refusal
from ..store import kept
from ..store.kept import KEPT, MISSING
from . import rooms
from .audience import GM, PROJECTOR, TABLE as TABLE_SCREEN, Audience, audience_of
from .league import ClassScreens
from .seats import seating

log = logging.getLogger("facilitator.live.service")

#: Seconds a GM's "devices connected" count waits, to gather a burst of (re)connections;
#: while devices keep coming it waits again, DEVICES_MAX_WAIT seconds at the most (a
#: restarted server's classroom comes back over several seconds: one update a game,
#: not one every DEVICES_DELAY).
DEVICES_DELAY = 0.3
DEVICES_MAX_WAIT = 2.0
#: With several processes, how long a game this process read is taken as current while
#: no other process announced a change of it (``_loaded``). Bounds what a lost Redis
#: message could cost: a screen connecting later than this reads the database.
HEARD_TRUST_SECONDS = KEPT["games read"].seconds


class GameScreens:
    """What every audience of a game receives (see the module)."""

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
            heard, asked = self._heard.get(game_id, 0), kept.clock()

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
                # Stamped with the changes counted before the read began.
                self._read_after.put(game_id, True, heard, at=asked)
            return loaded

    def _trusted(self, game_id: int, heard: int, asked: float):
        """What this process holds of game ``game_id`` if it is surely current for a
        screen that asked at ``asked``, when ``heard`` changes of it had been heard: it
        was read when as many had been heard, HEARD_TRUST_SECONDS ago at the most.
        Else None."""
        if self._read_after.get(game_id, heard) is MISSING:
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
        stamp = self._snapshots.stamp(game_id)
        if (not isinstance(seq, int) or stamp is MISSING or stamp[0] != seq
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
        self._snapshots.put(row.id, {(a.role, a.team): m for a, m in messages},
                            (match.seq, row.version) + ClassScreens.key(overlay))

    def _from_cache(self, match, row, audience: Audience, info: tuple | None = None) -> dict:
        now = self.clock()
        overlay = self.classes.overlay(match, row.id)       # None without a class
        stamp = (match.seq, row.version) + ClassScreens.key(overlay)
        messages = self._snapshots.get(row.id, stamp)
        if messages is MISSING:
            devices = info or self.presence.device_info(row.id)
            messages = {(a.role, a.team): m
                        for a, m in self._messages(match, row, devices, now, overlay)}
            self._snapshots.put(row.id, messages, stamp)
        message = messages.get((audience.role, audience.team))
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
