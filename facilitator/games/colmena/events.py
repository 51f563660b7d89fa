"""Events: what happened at a table, in the past tense. The state is their fold.

``fold(state, events)`` is the only code that changes a State. Events are
decided by ``rules.py`` (which may refuse) and never fail to apply, so a
refused action leaves the state untouched and the same events always rebuild
the same state. Draws are events (C-R3) and name the cards drawn, so an undo
puts them back on top of the deck and a redo draws the same ones.

``public()`` is what a screen that is not the card's holder may know of an
event: a card going into a hand is counted, never named (C-V2).
"""
from __future__ import annotations

from dataclasses import dataclass

from .state import ACTION, BETWEEN, KEEP, MANAGE, OVER, PLACE, State


def _take_from_deck(state: State, cards) -> None:
    for card in cards:
        state.deck.remove(card)


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every event."""

    def apply(self, state: State) -> None:  # pragma: no cover - abstract
        """Change ``state`` as this event says."""
        raise NotImplementedError

    def to_dict(self) -> dict:
        """The event as JSON data, named by its class: what the teacher's console shows."""
        data = {"event": type(self).__name__}
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            if isinstance(value, tuple):
                value = list(value)
            elif isinstance(value, dict):
                value = dict(value)
            data[name] = value
        return data

    def public(self) -> dict:
        """The event as every screen may see it."""
        return self.to_dict()


@dataclass(frozen=True, slots=True)
class StarterNamed(Event):
    """The table answered who starts (C-S5)."""

    seat: int

    def apply(self, state):
        state.starter = self.seat


@dataclass(frozen=True, slots=True)
class FirstTaskPlaced(Event):
    """The starting player put the first task in the centre, at (0, 0) (C-S5, C-P1)."""

    seat: int
    card: str

    def apply(self, state):
        state.hand(self.seat).remove(self.card)
        state.board[(0, 0)] = self.card
        state.starter = self.seat


@dataclass(frozen=True, slots=True)
class TurnBegan(Event):
    """Seat ``seat`` is the active player of turn ``turn`` (C-S6, C-T4)."""

    seat: int
    turn: int

    def apply(self, state):
        state.seat, state.turn, state.step = self.seat, self.turn, ACTION


@dataclass(frozen=True, slots=True)
class TwoDrawn(Event):
    """The active player drew the top two cards to look at (C-T1)."""

    seat: int
    cards: tuple[str, ...]

    def apply(self, state):
        _take_from_deck(state, self.cards)
        state.drawn = list(self.cards)
        state.step = KEEP

    def public(self):
        return {"event": "TwoDrawn", "seat": self.seat, "count": len(self.cards)}


@dataclass(frozen=True, slots=True)
class CardKept(Event):
    """The active player kept one drawn card and discarded the other face up (C-T1)."""

    seat: int
    card: str
    discarded: str

    def apply(self, state):
        state.drawn = []
        state.hand(self.seat).append(self.card)
        state.discard.append(self.discarded)
        state.step = ACTION

    def public(self):
        return {"event": "CardKept", "seat": self.seat, "discarded": self.discarded}


@dataclass(frozen=True, slots=True)
class CardsToHand(Event):
    """Cards went from the top of the deck into a hand unseen by the others: the last card
    at a draw (C-T1), the first of ``extra`` (C-T2.3), a new hand (C-H2)."""

    seat: int
    cards: tuple[str, ...]
    why: str          # "draw", "extra" or "penalty"

    def apply(self, state):
        _take_from_deck(state, self.cards)
        state.hand(self.seat).extend(self.cards)

    def public(self):
        return {"event": "CardsToHand", "seat": self.seat, "count": len(self.cards),
                "why": self.why}


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """The active player played a card from hand (C-T2.1, section 5)."""

    seat: int
    card: str
    at: tuple[int, int]

    def apply(self, state):
        state.hand(self.seat).remove(self.card)
        state.board[tuple(self.at)] = self.card
        state.step = MANAGE


@dataclass(frozen=True, slots=True)
class Communicated(Event):
    """The active player discarded a card and asked the group a question (C-T2.2)."""

    seat: int
    card: str
    ask: object = None

    def apply(self, state):
        state.hand(self.seat).remove(self.card)
        state.discard.append(self.card)
        state.question = {"seat": self.seat, "turn": state.turn, "ask": self.ask}


@dataclass(frozen=True, slots=True)
class ExtraRequested(Event):
    """The active player asked for extra resources (C-T2.3)."""

    seat: int

    def apply(self, state):
        state.step = BETWEEN


@dataclass(frozen=True, slots=True)
class ForcedDrawn(Event):
    """A card was drawn to be played at once, where it can be (C-T2.3, C-O2.3, C-T3)."""

    seat: int
    card: str
    source: str       # FROM_EXTRA or FROM_SOLO

    def apply(self, state):
        _take_from_deck(state, (self.card,))
        state.forced, state.forced_from = self.card, self.source
        state.step = PLACE


@dataclass(frozen=True, slots=True)
class ForcedPlaced(Event):
    """The forced card went where its player chose (C-T3)."""

    seat: int
    card: str
    at: tuple[int, int]

    def apply(self, state):
        state.board[tuple(self.at)] = self.card
        state.forced = state.forced_from = None
        state.step = BETWEEN


@dataclass(frozen=True, slots=True)
class ForcedDiscarded(Event):
    """The forced card could go nowhere: the facilitator discarded it (C-T3)."""

    seat: int
    card: str

    def apply(self, state):
        state.discard.append(self.card)
        state.forced = state.forced_from = None
        state.step = BETWEEN


@dataclass(frozen=True, slots=True)
class HandDiscarded(Event):
    """A player who revealed cards put the whole hand face up on the discard pile (C-H2)."""

    seat: int
    cards: tuple[str, ...]

    def apply(self, state):
        hand = state.hand(self.seat)
        for card in self.cards:
            hand.remove(card)
        state.discard.extend(self.cards)


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    """The active player's turn ended (C-T4)."""

    seat: int

    def apply(self, state):
        state.step = BETWEEN


@dataclass(frozen=True, slots=True)
class PendingDiscarded(Event):
    """The game ended early: the cards drawn and not placed went face up to the discard
    pile, so every card stays somewhere (C-Z7)."""

    cards: tuple[str, ...]

    def apply(self, state):
        state.discard.extend(self.cards)
        state.drawn = []
        state.forced = state.forced_from = None


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """The game is over: the deck ran out (C-E1) or the teacher ended it (C-E3)."""

    early: bool

    def apply(self, state):
        state.over, state.ended_early, state.step = True, self.early, OVER


def fold(state: State, events) -> None:
    """Apply ``events`` to ``state`` in order, keeping each in its history."""
    for event in events:
        event.apply(state)
        state.history.append(event)
