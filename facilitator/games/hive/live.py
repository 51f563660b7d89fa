"""A game of Hive as the live layer serves it: a phone per colour (seats 1 and 2, White
and Black), or one tablet shared by the pair (the table), the projector, the teacher."""
from __future__ import annotations

from ..protocol import PlainLive, Role
from .match import HiveMatch


class HiveLive(PlainLive, HiveMatch):
    """One game of Hive, live (its rules are HiveMatch's)."""

    #: The computer's move (H-G7) is a search: the live layer asks for it off the game's
    #: lock, on a copy of the match (LiveGames.clock_due).
    due_searches = True
    #: White's and Black's seats are each one player's.
    personal_seats = True

    def stored_actions(self) -> list[dict]:
        """The actions it logged as it was played or replayed (its record is a
        GameString, not a list of actions)."""
        return [dict(action) for action in self.log]

    def audiences(self) -> list[Role]:
        """The teacher, White's and Black's phones, the pair's shared tablet, the projector."""
        return [Role.gm(), Role.of_seat(1), Role.of_seat(2), Role.table(), Role.watcher()]

    def seats(self) -> list[dict]:
        """White's and Black's seats as a board's chooser lists them (``as``: the
        catalog's word for the colour; ``bot``: the computer's seat, no device's, H-G7)."""
        return [{"seat": n, "name": self.players[colour], "as": f"colour.{colour}",
                 **({"bot": True} if n == self.bot else {})}
                for n, colour in enumerate(("white", "black"), start=1)]

    def winner(self) -> str | None:
        """The player who won (by name), "draw", or None while it goes on."""
        result = self.result
        if result is None:
            return None
        if result["result"] == "draw":
            return "draw"
        return self.players.get(result["result"]) or result["result"]
