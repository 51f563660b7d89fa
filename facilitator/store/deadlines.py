"""When the games this process knows of next act by themselves (their clocks).

The deadlines are in the database (``games.deadline``): a clock survives a restart,
and the watcher (facilitator/live/watcher.py) asks the database for the games due.
This keeps the deadlines this process saw committed or loaded, so that the watcher
asks only when one has passed (and once in a while anyway).
"""
from __future__ import annotations

import threading


class Deadlines:
    """Deadlines by game id, as this process last saw them."""

    def __init__(self) -> None:
        self._by_game: dict[int, float] = {}
        self._lock = threading.Lock()

    def saw(self, game_id: int, deadline: float | None) -> None:
        """Game ``game_id``'s clock now acts at ``deadline`` (None: it does not run)."""
        with self._lock:
            if deadline is None:
                self._by_game.pop(game_id, None)
            else:
                self._by_game[game_id] = deadline

    def earliest(self) -> float | None:
        """The first deadline among the games this process saw, if any."""
        return min(self._by_game.values(), default=None)

    def forget_until(self, now: float) -> None:
        """Drop the deadlines already past (the watcher has just dealt with them)."""
        with self._lock:
            for game_id in [g for g, d in self._by_game.items() if d <= now]:
                del self._by_game[game_id]

    def forget(self, game_id: int | None = None) -> None:
        """Drop game ``game_id``'s deadline (None: every one)."""
        with self._lock:
            if game_id is None:
                self._by_game.clear()
            else:
                self._by_game.pop(game_id, None)
