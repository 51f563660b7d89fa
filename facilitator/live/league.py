"""A class game on the screens: the class's league on the projector, and students'
names kept off the public screens.

A game made from a class (:mod:`facilitator.store.classes`) may show the class's league
on its projector before its first action and once it is over, when the GM asks for it
(``league_shown``, kept with the game's link to its class). The class's
``projector_names`` says whether the projector may show students' names: when it may
not, the game's views leave them out (``LiveMatch.screens(names=False)``) and the
league lists this game's teams instead of students
(:func:`facilitator.classes.league.league_payload`).

The GM's ``state`` carries ``league_shown`` in a class game. The games know nothing of
classes: the live layer adds this to the messages of a class game's screens.
"""
from __future__ import annotations

import threading

from ..classes.league import league_payload
from ..store import classes as stored
from ..store.kept import KEPT, MISSING, Kept

#: Seconds a class game's link (shown or not, names or not) is taken as read: a burst of
#: connections asks the database once. The GM's own changes forget it at once.
INFO_SECONDS = KEPT["class links"].seconds

#: Seconds a computed league is reused for the same game at the same seq.
LEAGUE_SECONDS = KEPT["class leagues"].seconds

def league_time(match) -> bool:
    """Whether the league may be on the projector: before the game's first action, or
    once the game is over."""
    return match.seq == 0 or match.over


class ClassScreens:
    """What the screens of this process's class games add to their ``state``."""

    def __init__(self, store):
        self.store = store
        self.database = store.database
        self._classless = Kept("games without a class")
        self._info = Kept("class links")
        self._leagues = Kept("class leagues")
        self._lock = threading.Lock()
        self._reading: dict[int, threading.Lock] = {}                # game id → its read

    # -- what the database says ----------------------------------------------------------

    def info(self, game_id: int) -> dict | None:
        """The game's class link ``{"class_id", "lineup", "league_shown",
        "projector_names"}``, or None for a game made without a class.

        A game never gains a class after it is made (the link is written before anyone
        opens it), so "no class" is remembered until the game is forgotten; a class
        game's link is read again after INFO_SECONDS (another process may change it)."""
        if game_id in self._classless:
            return None
        with self._lock:
            if len(self._reading) > 4096:       # games this process no longer serves
                self._reading = {k: v for k, v in self._reading.items() if k in self._info}
            reading = self._reading.setdefault(game_id, threading.Lock())
        found = self._info.get(game_id)
        if found is not MISSING:
            return found
        # When a process restarts, a game's ten screens come back at once: one of them
        # reads the link, the others wait for it and take what it read.
        with reading:
            found = self._info.get(game_id)
            if found is not MISSING:
                return found
            return self._read_info(game_id)

    def _read_info(self, game_id: int) -> dict | None:
        link = stored.game_class(self.database, game_id)
        if link is None:
            self._classless.put(game_id, True)
            return None
        return self._info.put(game_id, {
            "class_id": link["class_id"], "lineup": link["lineup"],
            "league_shown": bool(link["league_shown"]),
            "projector_names": link["projector_names"]})

    def forget(self, game_id: int) -> None:
        """Read the game's class link (and its league) afresh next time."""
        self._classless.forget(game_id)
        self._info.forget(game_id)
        self._leagues.forget(game_id)
        with self._lock:
            self._reading.pop(game_id, None)

    def league(self, game, game_id: int, info: dict) -> tuple[float, dict] | None:
        """The projector's ``league`` of a class game, with when it was computed (at most
        once per :data:`LEAGUE_SECONDS` for one seq); None if the class is gone.

        Loads the class's games: never call it while holding a game's lock."""
        stamp = (game.seq, game.over, info["projector_names"])
        payload = self._leagues.get(game_id, stamp)
        if payload is not MISSING:
            return self._leagues.read_at(game_id), payload
        klass = stored.get_class(self.database, info["class_id"])
        if klass is None:
            return None
        from ..classes.summaries import summaries
        summaries = summaries(self.database, self.store, info["class_id"])
        payload = self._leagues.put(game_id, league_payload(klass, summaries, game,
                                                            info["lineup"]), stamp)
        return self._leagues.read_at(game_id), payload

    # -- the messages --------------------------------------------------------------------

    def overlay(self, game, game_id: int) -> dict | None:
        """What a class game adds to its screens now (None for a game without a class):
        ``{"shown", "names", "league", "computed"}``; part of the snapshot cache's key."""
        info = self.info(game_id)
        if info is None:
            return None
        computed = (self.league(game, game_id, info)
                    if info["league_shown"] and league_time(game) else None)
        return {"shown": info["league_shown"], "names": info["projector_names"],
                "league": None if computed is None else computed[1],
                "computed": None if computed is None else computed[0]}

    @staticmethod
    def key(overlay: dict | None) -> tuple:
        """The part of the snapshot cache's key that the overlay decides."""
        if overlay is None:
            return (None,)
        return (overlay["shown"], overlay["names"], overlay["computed"])
