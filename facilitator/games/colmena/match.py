"""A table of la colmena: its players, deck and seed, the accepted actions and their fold.

Like python-chess's ``Board``, a Match takes actions one by one (``play``)
and can take them back: ``undo`` and ``redo`` are actions too, the
teacher's, one action at a time back to the deal (C-Z8, as the partida's
R-G1). Every accepted action is kept in ``log`` as the record writes it, so
a record replays to the same table. The state is only ever the deal plus the
fold of the events of the actions not undone; an undo rebuilds it so.
"""
from __future__ import annotations

import copy
from typing import ClassVar

from ..protocol import GM, History, Legal, Refusal, Role
from . import actions as a
from .deal import deal
from .deck import DEFAULT, Deck
from .events import Event, fold
from .legal import legal_entries, legal_for
from .rules import decide
from .scoring import message_of, score
from .state import State
from .views import view_for

FORMAT = "colmena/1"
_GM = Role.gm()


class ColmenaMatch:
    """One table of la colmena, driven by actions (the protocol's Match)."""

    kind: ClassVar[str] = "colmena"

    def __init__(self, players, deck: Deck = DEFAULT, seed: int = 0):
        self.players = tuple(players)
        self.deck = deck
        self.seed = seed
        self._initial: State = deal(deck, self.players, seed)
        self.state: State = self._initial.clone()
        # Every accepted action (``log``: the record's), the applied ones with their
        # events, the undone ones waiting for a redo (C-Z8): the protocol's History.
        self.history = History()

    @property
    def log(self) -> list[dict]:
        """Every accepted action as the record writes it (undo and redo included)."""
        return self.history.log

    @property
    def seq(self) -> int:
        """How many actions were accepted (undo and redo included): the version."""
        return len(self.log)

    @property
    def over(self) -> bool:
        """Whether the game has ended (C-E1, C-E3)."""
        return self.state.over

    @property
    def can_undo(self) -> bool:
        """Whether there is an action to undo (C-Z8)."""
        return self.history.can_undo

    @property
    def can_redo(self) -> bool:
        """Whether there is an undone action to redo (C-Z8)."""
        return self.history.can_redo

    def check(self, action: dict | a.Action, by: Role = _GM) -> a.Action:
        """Parse ``action`` and check that ``by`` may send it now, changing nothing."""
        parsed = a.parse_action(action)
        if isinstance(parsed, (a.Undo, a.Redo)):
            self._history_move(parsed, by)
        else:
            decide(self.state, self.deck, parsed, by)
        return parsed

    def _history_move(self, action: a.Action, by: Role) -> None:
        """A Refusal unless the teacher may undo (redo) now."""
        if by.kind != GM:
            raise Refusal("C-T5", f"only the teacher may {action.do}")
        history = self.history
        if not (history.can_undo if isinstance(action, a.Undo) else history.can_redo):
            raise Refusal("C-R3", f"there is nothing to {action.do}")

    def play(self, action: dict | a.Action, by: Role = _GM) -> list[Event]:
        """Accept ``action`` from ``by`` and return its events, or raise a Refusal.

        A refused action changes nothing. For ``undo`` and ``redo`` the events returned
        are those taken back or put back.
        """
        parsed = a.parse_action(action)
        if isinstance(parsed, a.Undo):
            self._history_move(parsed, by)
            undone = self.history.undo(parsed.to_dict())
            self._rebuild()
            return undone.events
        if isinstance(parsed, a.Redo):
            self._history_move(parsed, by)
            redone = self.history.redo(parsed.to_dict())
            fold(self.state, redone.events)
            return redone.events
        events = decide(self.state, self.deck, parsed, by)
        fold(self.state, events)
        recorded = parsed.to_dict()
        if isinstance(parsed, a.FirstTask) and parsed.player is None:
            recorded["player"] = by.seat            # a player's device names itself
        self.history.apply(recorded, events)
        return events

    def _rebuild(self) -> None:
        # Undo is exact because the state is only ever the deal plus the fold of its events.
        self.state = self._initial.clone()
        fold(self.state, list(self.history.events()))

    def legal(self, by: Role | None = None) -> list[Legal]:
        """What ``by`` may send now (None or the GM: every entry, with who may send it)."""
        entries = legal_entries(self.state, self.deck, can_undo=self.can_undo,
                                can_redo=self.can_redo)
        return legal_for(entries, by)

    def view(self, audience: Role) -> dict:
        """Everything ``audience``'s screen shows, and nothing it may not see (section 10)."""
        entries = legal_entries(self.state, self.deck, can_undo=self.can_undo,
                                can_redo=self.can_redo)
        return self.told(view_for(self.state, self.deck, audience, seq=self.seq,
                                  entries=entries, seed=self.seed))

    def told(self, view: dict) -> dict:
        """``view`` with what the teacher just did to the table's history (C-Z8), when the
        last action was an undo or a redo: ``told`` ``{"do", "seq"}``, which every screen
        says in a line that goes away (a card back in a hand is never unexplained)."""
        last = self.log[-1]["do"] if self.log else None
        view["told"] = {"do": last, "seq": self.seq} if last in ("undo", "redo") else None
        return view

    def deadline(self) -> float | None:
        """La colmena has no clock."""
        return None

    def due(self, now: float) -> dict | None:
        """Nothing happens by itself at a table of la colmena."""
        return None

    def score(self) -> dict:
        """The score with its breakdown, as if the game ended now (C-X1..C-X4)."""
        return score(self.state, self.deck)

    def record(self) -> dict:
        """The table's record (C-R1): ``replay`` of it gives the identical table."""
        return {"format": FORMAT, "settings": {"players": list(self.players)},
                "deck": self.deck.to_record(), "seed": self.seed,
                "actions": copy.deepcopy(self.log)}

    def summary(self) -> dict:
        """What ``facilitator replay`` prints: the breakdown (C-X1..C-X3), the total, the
        tier and its message in English and Spanish (C-X4)."""
        scored = self.score()
        return {"game": "colmena", "players": list(self.players), "over": self.over,
                "ended_early": self.state.ended_early, "turn": self.state.turn,
                "deck": len(self.state.deck), "breakdown": scored, "total": scored["total"],
                "tier": scored["tier"], "message": message_of(scored["tier"])}
