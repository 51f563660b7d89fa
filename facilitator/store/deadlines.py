"""When the games this process knows of next act by themselves (their clocks).

The deadlines are in the database (``games.deadline``): a clock survives a restart,
and the watcher (facilitator/live/watcher.py) asks the database for the games due.
This keeps the deadlines this process saw committed or loaded (``clock deadlines`` in
:data:`facilitator.store.kept.KEPT`), so that the watcher asks only when one has passed
(and every few seconds anyway: a clock started through another process).
"""
from __future__ import annotations

from .kept import Kept


class Deadlines:
    """Deadlines by game id, as this process last saw them."""

    def __init__(self) -> None:
        self._by_game = Kept("clock deadlines", limit=100_000)

    def saw(self, game_id: int, deadline: float | None) -> None:
        """Game ``game_id``'s clock now acts at ``deadline`` (None: it does not run)."""
        if deadline is None:
            self._by_game.forget(game_id)
        else:
            self._by_game.put(game_id, deadline)

    def earliest(self) -> float | None:
        """The first deadline among the games this process saw, if any."""
        return min((deadline for _game, deadline in self._by_game.items()), default=None)

    def forget_until(self, now: float) -> None:
        """Drop the deadlines already past (the watcher has just dealt with them)."""
        self._by_game.forget_where(lambda _game, deadline: deadline <= now)

    def forget(self, game_id: int | None = None) -> None:
        """Drop game ``game_id``'s deadline (None: every one)."""
        self._by_game.forget(game_id)
