"""The live side of halls: the teacher's hall view and the hall's projector, kept current
as the hall's games change.

A hall's screens are not a game's: they join rooms of their own (``rooms.hall_room``)
and get ``hall`` messages, each the hall rules' view built from every game's summary.
A change of one of its games sends them at once, right after the game's own screens;
changes that come while one is being built and sent make one message after it, not one
each (a burst of the tables' actions on a busy server is gathered so). Each message reads the hall and its games' rows once,
and the games as the live layer holds them. The teacher's hall actions (the next round, the games on
the projector, the bell) go through the store's halls and are answered like actions.
"""
from __future__ import annotations

import logging
import threading

from ..games import Refusal, Role
from ..store.halls import Halls
from ..store.kept import Kept
from . import rooms
from .audience import GM, Audience
from .seats import open_asks

log = logging.getLogger(__name__)

#: The hall's screens' roles: the teacher's hall view and the hall's projector.
HALL_GM, HALL_WATCHER = "hall_gm", "hall_watcher"
HALL_ROLES = frozenset({HALL_GM, HALL_WATCHER})


class LiveHalls:
    """The halls' screens of this process."""

    def __init__(self, halls: Halls, socketio, act, current=None, sole=lambda: False):
        self.halls = halls
        self.socketio = socketio
        self._act = act                  # LiveGames.act: a game's action, as any other
        self._current = current          # a game's (match, row) as the live layer holds it
        # The only process (no message queue) changes a hall only through ``act``: it keeps
        # each hall's row and its games' list read once (``_read``), their rows as held.
        self._sole = sole
        self._read_once = Kept("hall reads")     # hall id → (hall, its games)
        self._due: set[int] = set()      # halls whose screens are being sent their views
        self._again: set[int] = set()    # ... and changed meanwhile: once more after
        self._lock = threading.Lock()
        # The hall screens connected to this process (connection → audience): not in the
        # games' presence, whose ids are games'.
        self._connected: dict[str, Audience] = {}

    def add(self, sid: str, audience: Audience) -> None:
        """Connection ``sid`` is one of a hall's screens."""
        self._connected[sid] = audience

    def get(self, sid: str) -> Audience | None:
        """The hall screen connection ``sid`` is, or None."""
        return self._connected.get(sid)

    def remove(self, sid: str) -> Audience | None:
        """Connection ``sid`` closed; the hall screen it was, if one."""
        return self._connected.pop(sid, None)

    def message(self, audience: Audience) -> dict | None:
        """The hall message for one of its screens, or None when there is no such hall."""
        found = self._messages(audience.game_id, [audience.role])
        return found[0][1] if found else None

    def _messages(self, hall_id: int, roles: list[str]) -> list[tuple[str, dict]]:
        """Each of ``roles``' hall message, from one read of the hall; [] without it."""
        found = self._read(hall_id)
        if found is None:
            return []
        screens, games = self.halls.screens_of(
            *found, [Role.gm() if role == HALL_GM else Role.watcher() for role in roles],
            self._current)
        for role, message in zip(roles, screens):
            if role == HALL_GM:
                message["games"] = games
                message["asks"] = self._asks(games)
        return list(zip(roles, screens))

    def _asks(self, games: list[dict]) -> list[dict]:
        """Every open request of a second device for a seat of the hall's games (the
        teacher answers each from the hall view)."""
        out = []
        for game in games:
            if not game.get("asks"):
                continue
            loaded = self._current(game["game_id"]) if self._current else None
            if loaded is not None:
                out.extend({"game": game["game_id"], "key": game["key"], **ask}
                           for ask in open_asks(loaded[0], game["asks"]))
        return out

    def _read(self, hall_id: int) -> tuple[dict, list[dict]] | None:
        """Hall ``hall_id`` and its games, as the database has them: read, or, in the only
        process, kept since it was read, each game's name, seats' devices and last action
        as this process holds its row. None when there is no such hall."""
        if not self._sole():
            return self.halls.read(hall_id)
        kept = self._read_once.get(hall_id, default=None)
        if kept is None:
            kept = self.halls.read(hall_id)
            if kept is None:
                return None
            self._read_once.put(hall_id, kept)
        hall, games = kept
        fresh = []
        for game in games:
            loaded = self._current(game["game_id"]) if self._current else None
            if loaded is None:                  # a game gone: read the hall again
                self.forget(hall_id)
                return self.halls.read(hall_id)
            row = loaded[1]
            fresh.append({**game, "name": row.name, "claims": dict(row.claims or {}),
                          "asks": dict(row.asks or {}), "acted_at": row.acted_at})
        return hall, fresh

    def forget(self, hall_id: int | None = None, game_id: int | None = None) -> None:
        """Read hall ``hall_id`` (or the hall of game ``game_id``) again before its next
        message: it changed otherwise than through its games' actions."""
        self._read_once.forget_where(lambda kept_id, kept: kept_id == hall_id or any(
            g["game_id"] == game_id for g in kept[1]))

    def changed(self, hall_id: int) -> None:
        """A game of hall ``hall_id`` changed (its own screens were just sent theirs): the
        hall's screens are sent the hall's view now, by the caller, or, while another
        caller is sending them one, by that caller once more right after it."""
        with self._lock:
            if hall_id in self._due:
                self._again.add(hall_id)
                return
            self._due.add(hall_id)
        self._send(hall_id)

    def _send(self, hall_id: int) -> None:
        while True:
            try:
                self.broadcast(hall_id)
            except Exception:     # a database hiccup: the next change or sync brings the view
                log.exception("hall %s update", hall_id)
            with self._lock:
                if hall_id not in self._again:
                    self._due.discard(hall_id)
                    return
                self._again.discard(hall_id)

    def broadcast(self, hall_id: int) -> None:
        """Send the hall's screens (teacher's and projector's) their views."""
        for role, message in self._messages(hall_id, [HALL_GM, HALL_WATCHER]):
            self.socketio.emit("hall", message, to=rooms.hall_room(hall_id, role == HALL_GM))

    def act(self, hall_id: int, payload: dict) -> dict:
        """The teacher's hall action: ``{"do": "next_round"}``, ``{"do": "show",
        "keys": [...]}`` or ``{"do": "bell"}`` (every game of the hall still on is
        ended as its rules end a game at the bell). The acknowledgement."""
        do = payload.get("do")
        if do == "next_round":
            made = self.halls.next_round(hall_id)
            self.forget(hall_id)                # its row and its games changed
            self.broadcast(hall_id)
            return {"ok": True, "games": made}
        if do == "show":
            self.halls.set_shown(hall_id, payload.get("keys"))
            self.forget(hall_id)
            self.broadcast(hall_id)
            return {"ok": True}
        if do == "bell":
            ended = self.bell(hall_id)
            self.broadcast(hall_id)
            return {"ok": True, "ended": ended}
        raise Refusal("format", "a hall action is next_round, show or bell")

    def bell(self, hall_id: int) -> int:
        """End every game of the hall still on, as its rules end one at the bell; how
        many were ended."""
        hall = self.halls.hall(hall_id)
        if hall is None:
            raise Refusal("not_found", f"there is no hall {hall_id}")
        rules = self.halls.rules(hall["kind"])
        ended = 0
        for game in self.halls.games_of(hall_id):
            summary = rules.summary(self.halls.store.current(game["game_id"])[0])
            action = rules.bell(summary)
            if action is None:
                continue
            try:
                ack = self._act(Audience(GM, game["game_id"]), action)
            except Refusal:
                # Another bell (a second teacher, another process) ended it first: it is
                # ended, which is what was asked. Anything else is still refused.
                if rules.bell(rules.summary(self.halls.store.current(game["game_id"])[0])):
                    raise
                continue
            ended += bool(ack.get("ok"))
        return ended
