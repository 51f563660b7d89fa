"""A table of la colmena as the live layer serves it: the players' phones (seats), the
table's shared screen (its board), the projector, the teacher's console."""
from __future__ import annotations

from ..protocol import PlainLive, Role
from .match import ColmenaMatch


class ColmenaLive(PlainLive, ColmenaMatch):
    """One table of la colmena, live (its rules are ColmenaMatch's)."""

    def audiences(self) -> list[Role]:
        """The teacher, each player, the table's screen, the projector."""
        return [Role.gm(), *(Role.of_seat(n) for n in range(1, len(self.players) + 1)),
                Role.table(), Role.watcher()]

    def seats(self) -> list[dict]:
        """Each player's seat as a table's chooser lists it (a hand is one person's)."""
        return [{"seat": n, "name": name, "as": None}
                for n, name in enumerate(self.players, start=1)]

    def winner(self) -> str | None:
        """A cooperative game: the table's result tier once it has ended."""
        return self.score()["tier"] if self.over else None
