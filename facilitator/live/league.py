"""A class game on the screens (issue 15): the class's league on the projector, and
students' names kept off the public screens.

A game made from a class (:mod:`facilitator.store.classes`) may show the class's league
on its projector before its first action and once it is over, when the GM asks for it
(``league_shown``, kept with the game's link to its class). The class's
``projector_names`` says whether the projector may show students' names:

- true: the league's students, best first (the first :data:`LEAGUE_ROWS`), with their
  points; the screens get spokespersons' and representatives' names as before;
- false: the league of this game's teams instead, each the sum of the league points of
  the members present in it, and no student's name in any projector's or team's
  ``state``: the spokespersons and representatives of the view (the turn's and the
  history's) are left out, except a team's own in its own view (its page lists its
  members already: they are the names it chooses from).

The GM's ``state`` carries ``league_shown`` in a class game. The engine knows nothing of
classes: all of this is added here to the per-audience messages of
:func:`facilitator.live.snapshots.snapshots`.
"""
from __future__ import annotations

import threading
import time

from ..classes.league import league as league_table
from ..classes.league import number, shared_ranks
from ..store import classes as stored
from .audience import GM, PROJECTOR, TEAM

#: Students the projector's league lists at most (the rest are counted in ``more``).
LEAGUE_ROWS = 10

#: Seconds a class game's link (shown or not, names or not) is taken as read: a burst of
#: connections asks the database once. The GM's own changes forget it at once.
INFO_SECONDS = 2.0

#: Seconds a computed league is reused for the same game at the same seq.
LEAGUE_SECONDS = 10.0

PEOPLE = ("spokespersons", "representatives")


def league_time(game) -> bool:
    """Whether the league may be on the projector: before the game's first action, or
    once the game is over."""
    return game.seq == 0 or game.state.over


def league_payload(klass: dict, summaries: list, game, lineup: list[list[int]]) -> dict:
    """The projector's ``league`` of a class game: ``{"by", "scheme", "games", "rows",
    "more"}``. ``by`` is ``students`` (rows ``{"rank", "name", "points", "games",
    "team"}``: ``team`` the student's team in this game or null) when the class lets the
    projector show names, else ``teams`` (rows ``{"rank", "team", "name", "points"}``:
    this game's teams, each the sum of its present members' league points)."""
    table = league_table(summaries, klass["students"], klass["league_scheme"])
    out = {"scheme": table["scheme"], "games": len(table["games"])}
    if klass["projector_names"]:
        team_of = {sid: number for number, ids in enumerate(lineup, start=1) for sid in ids}
        rows = [{"rank": r["rank"], "name": r["name"], "points": r["points"], "games": r["games"],
                 "team": team_of.get(r["student"])} for r in table["students"]]
        return {"by": "students", **out, "rows": rows[:LEAGUE_ROWS],
                "more": max(0, len(rows) - LEAGUE_ROWS)}
    points = {r["student"]: r["points"] for r in table["students"]}
    rows = []
    for team in game.state.teams:
        ids = lineup[team.number - 1] if len(lineup) >= team.number else []
        rows.append({"team": team.number, "name": team.name,
                     "points": number(sum(points.get(s, 0) for s in ids))})
    rows.sort(key=lambda r: (-r["points"], r["team"]))
    shared_ranks(rows)
    return {"by": "teams", **out,
            "rows": [{"rank": r["rank"], "team": r["team"], "name": r["name"],
                      "points": r["points"]} for r in rows], "more": 0}


def _without_names(view: dict, keep: int | None) -> dict:
    """``view`` with the spokespersons and representatives of its turn and history left
    out, but for team ``keep``'s own (None: every one left out). ``view`` is not changed."""
    own = None if keep is None else str(keep)

    def kept(entry: dict) -> dict:
        out = dict(entry)
        for field in PEOPLE:
            names = entry.get(field) or {}
            out[field] = {k: v for k, v in names.items() if str(k) == own}
        return out
    return {**view, "turn": kept(view["turn"]), "history": [kept(h) for h in view["history"]]}


class ClassScreens:
    """What the screens of this process's class games add to their ``state``."""

    def __init__(self, store):
        self.store = store
        self.database = store.database
        self._info: dict[int, tuple[float, dict | None]] = {}     # game id → (read at, info)
        self._leagues: dict[int, tuple[tuple, float, dict]] = {}  # game id → (key, at, league)
        self._lock = threading.Lock()
        self._reading: dict[int, threading.Lock] = {}                # game id → its read

    # -- what the database says ----------------------------------------------------------

    def info(self, game_id: int) -> dict | None:
        """The game's class link ``{"class_id", "lineup", "league_shown",
        "projector_names"}``, or None for a game made without a class.

        A game never gains a class after it is made (the link is written before anyone
        opens it), so "no class" is remembered until the game is forgotten; a class
        game's link is read again after INFO_SECONDS (another process may change it)."""
        now = time.monotonic()
        with self._lock:
            cached = self._info.get(game_id)
            reading = self._reading.setdefault(game_id, threading.Lock())
        if cached is not None and (cached[1] is None or now - cached[0] < INFO_SECONDS):
            return cached[1]
        # When a process restarts, a game's ten screens come back at once: one of them
        # reads the link, the others wait for it and take what it read.
        with reading:
            with self._lock:
                cached = self._info.get(game_id)
            if cached is not None and (cached[1] is None or now - cached[0] < INFO_SECONDS):
                return cached[1]
            return self._read_info(game_id, now)

    def _read_info(self, game_id: int, now: float) -> dict | None:
        link = stored.game_class(self.database, game_id)
        info = None if link is None else {
            "class_id": link["class_id"], "lineup": link["lineup"],
            "league_shown": bool(link["league_shown"]),
            "projector_names": link["projector_names"]}
        with self._lock:
            self._info[game_id] = (now, info)
            if len(self._info) > 4096:          # games this process no longer serves
                for old in sorted(self._info, key=lambda k: self._info[k][0])[:1024]:
                    self._info.pop(old, None)
                    self._reading.pop(old, None)
        return info

    def forget(self, game_id: int) -> None:
        """Read the game's class link (and its league) afresh next time."""
        with self._lock:
            self._info.pop(game_id, None)
            self._leagues.pop(game_id, None)
            self._reading.pop(game_id, None)

    def league(self, game, game_id: int, info: dict) -> tuple[float, dict] | None:
        """The projector's ``league`` of a class game, with when it was computed (at most
        once per :data:`LEAGUE_SECONDS` for one seq); None if the class is gone.

        Loads the class's games: never call it while holding a game's lock."""
        key = (game.seq, game.state.over, info["projector_names"])
        now = time.monotonic()
        with self._lock:
            cached = self._leagues.get(game_id)
        if cached is not None and cached[0] == key and now - cached[1] < LEAGUE_SECONDS:
            return cached[1], cached[2]
        klass = stored.get_class(self.database, info["class_id"])
        if klass is None:
            return None
        summaries = stored.summaries(self.database, self.store, info["class_id"])
        payload = league_payload(klass, summaries, game, info["lineup"])
        with self._lock:
            self._leagues[game_id] = (key, now, payload)
        return now, payload

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
    def apply(messages: list, overlay: dict | None) -> list:
        """The messages of every audience with what a class game adds: the GM's
        ``league_shown``, the projector's ``league``, and, when the class keeps names off
        the projector, no other team's spokesperson or representative in a team's view
        and none in the projector's."""
        if overlay is None:
            return messages
        out = []
        for audience, message in messages:
            message = dict(message)
            if audience.role == GM:
                message["league_shown"] = overlay["shown"]
            elif audience.role == PROJECTOR and overlay["league"] is not None:
                message["league"] = overlay["league"]
            if audience.role in (TEAM, PROJECTOR) and not overlay["names"]:
                message["view"] = _without_names(
                    message["view"], audience.team if audience.role == TEAM else None)
            out.append((audience, message))
        return out

    @staticmethod
    def key(overlay: dict | None) -> tuple:
        """The part of the snapshot cache's key that the overlay decides."""
        if overlay is None:
            return (None,)
        return (overlay["shown"], overlay["names"], overlay["computed"])
