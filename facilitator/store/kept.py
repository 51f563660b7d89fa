"""What a server process keeps of the database between requests: every such cache is
named here, in :data:`KEPT`, and each is kept fresh the one way this module implements.

The one way. A kept value carries the *stamp* of the stored state it was made from and
the time it was read, and it is used only

- while the stamp the caller brings is the same (a game's actions are only ever
  appended, so its seq and its row's version name one state of it: a value made from
  another state is not used), and
- for at most the cache's ``seconds`` after it was read, where the stored thing can
  change without a stamp this process sees (a logout, a teacher's switch, written by
  another process); ``seconds`` is None only where the stored thing never changes once
  written, or where nothing but this process writes it.

A change this process makes forgets what it changed at once (:meth:`Kept.forget`); a
change another process makes is seen by its stamp, or after ``seconds`` at the latest
(a message through the Redis queue, docs/deploy.md, may forget it sooner). The tests of
``tests/test_kept_fresh.py`` make each change in another process and look for it here.

What a process keeps that is not a copy of stored state (the connections it serves,
the drafts it relayed, flood buckets, timers) is not a cache of the store and is not
named here; nor are the package's own files read once (rule books, compressed
static files).
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Hashable, Iterator

#: The clock every kept value's age is measured by (a test may move it).
clock: Callable[[], float] = time.monotonic

#: The value :meth:`Kept.get` answers when nothing fresh is kept.
MISSING: Any = object()


@dataclass(frozen=True)
class Freshness:
    """How one cache is kept fresh: what it holds, the stamp its values carry (``""``
    for none), how long a value is trusted without asking (None: for as long as the
    stamp holds), why that is enough, and the module that keeps it."""

    holds: str
    stamp: str
    seconds: float | None
    why: str
    where: str          # the module that makes it (under facilitator/)


#: Every cache of stored state a process keeps, by name.
KEPT: dict[str, Freshness] = {
    "console sessions": Freshness(
        "a console session's expiry, by the hash of its secret", "", 5.0,
        "a logout through another process is seen within the seconds (or at once, through "
        "the queue); the process asks about every session it keeps twice as often",
        "store/sessions.py"),
    "game names": Freshness(
        "a game's id, by its public id and by its watch code", "", None,
        "a game's public id and watch code never change and never name another game; a "
        "game made by another process is learnt when its name is first asked for",
        "store/names.py"),
    "held games": Freshness(
        "a game's match and row, by the game's id", "the game row's version", None,
        "every write of a game bumps its row's version; another process's write is seen "
        "when the row is read (its version differs) before the game is acted on or shown",
        "store/games.py"),
    "games read": Freshness(
        "that this process read a game's row and brought its match up to it, by the game's "
        "id (with several processes)", "the count of the game's changes heard from the "
        "other processes", 5.0,
        "every change is broadcast to the game's rooms, which every process hears: what "
        "was read is used while nothing was heard since, and not past the seconds in case "
        "a broadcast was lost on its way", "live/service.py"),
    "screens before": Freshness(
        "what a game's screens showed before one of its actions, by the game's id and the "
        "action's seq", "", None,
        "stored with the action and never changed: an action's seq names it for good (an "
        "undo is one more action)", "store/games.py"),
    "clock deadlines": Freshness(
        "when each game's clock next acts, as this process last saw it committed",
        "", 1.0,
        "a hint for the clock watcher only: it asks the database for the games due "
        "whenever a deadline kept here passes, and every this many seconds anyway, so a "
        "clock started through another process runs out on time", "store/deadlines.py"),
    "hall summaries": Freshness(
        "a hall game's summary for the hall's standings, by the game's id", "the game's seq",
        None, "a game's seq names one state of it", "store/halls.py"),
    "games without a class": Freshness(
        "that a game was made without a class, by the game's id", "", None,
        "a game never gains a class after it is made", "live/league.py"),
    "class links": Freshness(
        "a class game's link to its class (league shown, names on the projector), by the "
        "game's id", "", 2.0,
        "the teacher's switch through another process is seen within the seconds; one "
        "made here forgets it at once", "live/league.py"),
    "class leagues": Freshness(
        "the league a class game's projector shows, by the game's id",
        "the game's seq, whether it is over, and whether names are shown", 10.0,
        "a student renamed or a game of the class played elsewhere shows within the seconds",
        "live/league.py"),
    "screens": Freshness(
        "every audience's message of a game, by the game's id",
        "the game's seq, its row's version and what its class adds", None,
        "any write of the game changes its version, a class's change its overlay",
        "live/service.py"),
    "hall reads": Freshness(
        "a hall's row and the list of its games, by the hall's id", "", None,
        "kept only by the only process serving the halls (no message queue), through "
        "which every change of a hall passes and forgets it; with a queue it is read "
        "each time", "live/halls.py"),
}


class Kept:
    """One cache named in :data:`KEPT`: values by key, each with its stamp and the time it
    was read, at most ``limit`` of them (the oldest read go first)."""

    def __init__(self, name: str, limit: int = 4096):
        self.name = name
        self.freshness = KEPT[name]       # a cache not named there is a mistake
        self.limit = limit
        self._entries: dict[Hashable, tuple[Any, float, Any]] = {}   # key → (stamp, at, value)
        self._lock = threading.Lock()

    def get(self, key: Hashable, stamp: Any = None, default: Any = MISSING) -> Any:
        """The value kept for ``key`` if it was made from the state ``stamp`` names and is
        no older than the cache's seconds; else ``default``."""
        entry = self._entries.get(key)
        if entry is None or entry[0] != stamp or not self._young(entry[1]):
            return default
        return entry[2]

    def stamp(self, key: Hashable) -> Any:
        """The stamp of the value kept for ``key`` (fresh or not), or :data:`MISSING`."""
        entry = self._entries.get(key)
        return MISSING if entry is None else entry[0]

    def read_at(self, key: Hashable) -> float | None:
        """When the value kept for ``key`` was read (on :data:`clock`), or None."""
        entry = self._entries.get(key)
        return None if entry is None else entry[1]

    def put(self, key: Hashable, value: Any, stamp: Any = None, at: float | None = None) -> Any:
        """Keep ``value`` for ``key``, made from the state ``stamp`` names and read at ``at``
        (now by default); returns the value."""
        with self._lock:
            if key not in self._entries and len(self._entries) >= self.limit:
                self._make_room()
            self._entries[key] = (stamp, clock() if at is None else at, value)
        return value

    def forget(self, key: Hashable | None = None) -> None:
        """Forget the value of ``key`` (the stored thing changed here), or every value."""
        with self._lock:
            if key is None:
                self._entries.clear()
            else:
                self._entries.pop(key, None)

    def forget_where(self, gone: Callable[[Hashable, Any], bool]) -> None:
        """Forget every value for which ``gone(key, value)`` is true."""
        with self._lock:
            for key in [k for k, (_s, _a, v) in self._entries.items() if gone(k, v)]:
                self._entries.pop(key, None)

    def keys(self) -> list:
        """The keys of every value kept, fresh or not."""
        return list(self._entries)

    def items(self) -> Iterator[tuple[Hashable, Any]]:
        """Each key with its value, fresh or not (for a pass over what is kept)."""
        return ((k, v) for k, (_s, _a, v) in list(self._entries.items()))

    def __contains__(self, key: Hashable) -> bool:
        return key in self._entries

    def __len__(self) -> int:
        return len(self._entries)

    def _young(self, at: float) -> bool:
        seconds = self.freshness.seconds
        return seconds is None or clock() - at < seconds

    def _make_room(self) -> None:
        # Stale values go first; then the quarter read longest ago.
        for key in [k for k, (_s, at, _v) in self._entries.items() if not self._young(at)]:
            self._entries.pop(key, None)
        if len(self._entries) >= self.limit:
            oldest = sorted(self._entries, key=lambda k: self._entries[k][1])
            for key in oldest[:max(1, self.limit // 4)]:
                self._entries.pop(key, None)
