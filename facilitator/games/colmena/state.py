"""The state of a table: what the deal and the fold of its events have built.

Plain mutable data owned by one Match; only events change it
(``events.py``). Nothing here decides anything. Every card of the deck is in
exactly one place: the central deck (top first), a hand, the discard pile
(bottom first), the board, the two drawn while choosing, or the forced card
waiting for its cell.
"""
from __future__ import annotations

from dataclasses import dataclass, field

#: The steps a table can await (the ``awaiting`` of every view).
FIRST_TASK = "first_task"   # C-S5: the first task, after the table's answer
KEEP = "keep"               # C-T1: keep one of the two drawn
ACTION = "action"           # C-T2: one of the three actions
MANAGE = "manage"           # C-T2.1 under way: more cards, or end_turn
PLACE = "place"             # C-T3: the forced card awaits its cell
BETWEEN = "between"         # inside one decision only: a turn has ended, the next not begun
OVER = "over"               # C-E1..C-E3

#: Where a forced card came from: the second card of ``extra`` (C-T2.3) or a solo turn's
#: last draw (C-O2.3).
FROM_EXTRA, FROM_SOLO = "extra", "solo"


@dataclass(slots=True)
class State:
    """Everything a table is at one moment."""

    players: tuple[str, ...]
    deck: list[str]                                   # the central deck, top first
    hands: list[list[str]]                            # seat N's hand is hands[N - 1]
    deals: int = 1                                    # deals made (C-S4, C-O1)
    discard: list[str] = field(default_factory=list)  # face up, bottom first
    board: dict[tuple[int, int], str] = field(default_factory=dict)   # in the order placed
    step: str = FIRST_TASK
    seat: int | None = None                           # the active player
    turn: int = 0                                     # turns begun
    starter: int | None = None                        # the table's answer to C-S5
    drawn: list[str] = field(default_factory=list)    # the two to keep one of
    forced: str | None = None
    forced_from: str | None = None
    question: dict | None = None                      # the last communicate's question
    history: list = field(default_factory=list)       # every event, in order
    over: bool = False
    ended_early: bool = False

    @property
    def solo(self) -> bool:
        """Whether one person plays (section 9)."""
        return len(self.players) == 1

    def hand(self, seat: int) -> list[str]:
        """Seat ``seat``'s hand (1-based)."""
        return self.hands[seat - 1]

    def is_seat(self, seat: object) -> bool:
        """Whether ``seat`` is a seat of this table (C-S1)."""
        return isinstance(seat, int) and not isinstance(seat, bool) \
            and 1 <= seat <= len(self.players)

    def next_seat(self, seat: int) -> int:
        """The player on the left of ``seat`` (C-S1, C-T4)."""
        return seat % len(self.players) + 1

    def pending(self) -> list[str]:
        """The cards drawn and not yet in a hand, the discard pile or the board."""
        return self.drawn + ([self.forced] if self.forced else [])

    def holder(self, card_id: str) -> int | None:
        """The seat whose hand holds ``card_id``, or None."""
        for seat, hand in enumerate(self.hands, start=1):
            if card_id in hand:
                return seat
        return None

    def clone(self) -> "State":
        """An independent copy (events are immutable, so the history is shared by value)."""
        return State(players=self.players, deck=list(self.deck),
                     hands=[list(h) for h in self.hands], deals=self.deals,
                     discard=list(self.discard), board=dict(self.board), step=self.step,
                     seat=self.seat, turn=self.turn, starter=self.starter,
                     drawn=list(self.drawn), forced=self.forced, forced_from=self.forced_from,
                     question=dict(self.question) if self.question else None,
                     history=list(self.history), over=self.over, ended_early=self.ended_early)

    def to_dict(self) -> dict:
        """The whole state as JSON data; two states are equal when these are equal."""
        return {"players": list(self.players), "deck": list(self.deck),
                "hands": [list(h) for h in self.hands], "deals": self.deals,
                "discard": list(self.discard),
                "board": [[x, y, card] for (x, y), card in self.board.items()],
                "step": self.step, "seat": self.seat, "turn": self.turn,
                "starter": self.starter, "drawn": list(self.drawn), "forced": self.forced,
                "forced_from": self.forced_from, "question": self.question,
                "history": [event.to_dict() for event in self.history],
                "over": self.over, "ended_early": self.ended_early}
