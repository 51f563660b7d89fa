"""A table of la colmena as the live layer serves it: the players' phones (seats), the
table's shared screen (its board), the projector, the teacher's console."""
from __future__ import annotations

from ..protocol import GM, PlainLive, Role
from .legal import legal_entries, legal_for
from .match import ColmenaMatch
from .views import public_view, view_for


class ColmenaLive(PlainLive, ColmenaMatch):
    """One table of la colmena, live (its rules are ColmenaMatch's)."""

    #: A hand is one player's.
    personal_seats = True

    def audiences(self) -> list[Role]:
        """The teacher, each player, the table's screen, the projector."""
        return [Role.gm(), *(Role.of_seat(n) for n in range(1, len(self.players) + 1)),
                Role.table(), Role.watcher()]

    def screens(self, now: float, names: bool = True) -> list[tuple[Role, dict]]:
        """Every audience's screen (as ``screen`` gives each), the table's legal list and
        its public view worked out once for all of them: every view starts from both."""
        entries = legal_entries(self.state, self.deck, can_undo=self.can_undo,
                                can_redo=self.can_redo)
        public = public_view(self.state, self.deck, seq=self.seq, entries=entries)
        out = []
        for role in self.audiences():
            gm = role.kind == GM
            out.append((role, {
                "seq": self.seq,
                "view": self.told(view_for(self.state, self.deck, role, seq=self.seq,
                                           entries=entries, seed=self.seed, public=public)),
                "legal": [entry.to_dict() for entry in legal_for(entries, role)],
                "can_undo": self.can_undo if gm else None,
                "can_redo": self.can_redo if gm else None}))
        return out

    def seats(self) -> list[dict]:
        """Each player's seat as a table's chooser lists it (a hand is one person's)."""
        return [{"seat": n, "name": name, "as": None}
                for n, name in enumerate(self.players, start=1)]

    def winner(self) -> str | None:
        """A cooperative game: the table's result tier once it has ended (none for a table
        ended before its first task was laid: it was not played)."""
        return self.score()["tier"] if self.over and self.state.board else None
