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

from ..games import Refusal, kind
from ..games.protocol import TABLE, Role
from ..store import classes as stored_classes
from ..store.games import Change, GameStore
from ..store.halls import Halls
from ..store.kept import Kept
from . import rooms
from .audience import TEAM, Audience, audience_of, role_of  # noqa: F401  (audience_of: imported from here)
from .consoles import ConsoleConnections
from .devices import GameDevices
from .screens import GameScreens
from .halls import LiveHalls
from .league import ClassScreens, league_time
from .presence import Presence
from .seats import LiveSeats, refuse_device_not_seated, refuse_table_for_held

log = logging.getLogger(__name__)

class LiveGames(GameScreens, GameDevices):
    """The live side of the games of this process. Its jobs, one module each: here,
    acting and the clock (every change's one path); what the screens receive
    (``GameScreens``, live/screens.py: views, broadcasts, the catch-up across processes);
    a game's devices belonging to it only (``GameDevices``, live/devices.py: a device
    removed, a game deleted, the teacher's consoles closed)."""

    def __init__(self, store: GameStore, socketio, presence: Presence, clock=time.time):
        self.store = store
        self.socketio = socketio
        self.presence = presence
        self.clock = clock                           # the time actions are given
        self._snapshots = Kept("screens")            # game id → every audience's message
        self._behind: set[int] = set()               # games catch_up found behind once
        self._connect_seqs: dict[str, int] = {}      # connection → seq of its first state
        self._devices_due: dict[int, int] = {}       # game → changes since its count was due
        self._devices_sent: dict[int, tuple] = {}    # game id → the devices the GMs last got
        self._devices_lock = threading.Lock()
        self.classes = ClassScreens(store)           # a class game's screens
        # Several processes: changes of each game heard from the others, and how many had
        # been heard (and when) as this process last read it (``_loaded``).
        self._heard: dict[int, int] = {}
        self._read_after = Kept("games read")
        self._reading: dict[int, threading.Lock] = {}  # game → held while one screen reads it
        self._reading_guard = threading.Lock()
        self._drafts: dict[tuple[int, int], dict] = {}   # (game, seat) → last draft relayed
        self.halls = LiveHalls(Halls(store), socketio, self.act,   # a hall's own screens
                               self._loaded, lambda: self.sole_process)
        self.seats = LiveSeats(self)                 # who holds each seat
        self.consoles = ConsoleConnections()         # teacher connection → its session
        #: Called with a game's id when an action or its clock ends it (the marks of a
        #: course's class go to its gradebook then: web/lti.py).
        self.game_over_listeners: list = []

    # -- operations ------------------------------------------------------------------

    def act(self, audience: Audience, action: object, client_id: str | None = None) -> dict:
        """Hand ``action`` sent by ``audience`` to its game; returns the acknowledgement."""
        # Read before the transaction (on SQLite a read inside it would wait for it).
        has_class = self.classes.info(audience.game_id) is not None
        by = role_of(audience)
        now = self.clock()

        was_over = []

        def change(c: Change) -> None:
            opening = c.match.seq == 0                # the game's first action
            was_over.append(c.match.over)
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
        if was_over and not was_over[-1] and result.match.over:
            self._game_over(audience.game_id)
        # Not the match's seq: another action may have followed by the time we answer.
        return {"ok": True, "seq": result.played[-1] if result.played else result.row.seq}

    def _game_over(self, game_id: int) -> None:
        """Tell the listeners that game ``game_id`` has just ended (a listener's failure
        is logged: the game's action stands)."""
        for listener in self.game_over_listeners:
            try:
                listener(game_id)
            except Exception:
                logging.getLogger(__name__).exception("after game %s ended", game_id)

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
            was_over.append(c.match.over)
            c.act(action, Role.clock(), now)
        was_over = []
        try:
            result = self.store.transact(game_id, "clock", change)
        except Refusal:
            return False
        if not result.unchanged:
            self.broadcast(game_id, (result.match, result.row))
            if was_over and not was_over[-1] and result.match.over:
                self._game_over(game_id)
        return bool(result.played)

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
        # The time it was relayed orders every device's drafts the same way (then the
        # writer's id): the last one to type holds the pen on every device (one pen per team).
        return {"ok": True, "at": draft["at"]}

    def last_draft(self, audience: Audience) -> dict | None:
        """The last draft relayed for ``audience``'s seat by this process, if any (a
        device that connects sees what another one is typing)."""
        return self._drafts.get((audience.game_id, audience.team))






























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
