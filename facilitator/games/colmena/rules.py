"""The rules: what an action does to a table, or the rule it breaks.

``decide(state, deck, action, by)`` checks an action in C-R4's order (its
form, C-E3, who may act and when, C-T5, then the action's own rules) and
returns the events it causes, or raises a Refusal naming the first rule
broken; it never changes ``state``. An action also sets off what follows by
itself: the end of a turn (C-T4), the next player's draw (C-T1), the forced
card of a request for extra resources or of a solo turn (C-T3, C-O2), the
end of the game (C-E1). Each of those events is applied to a working copy
as it is decided, so the next one sees the table as it will be.
"""
from __future__ import annotations

from ..protocol import GM, SEAT, TABLE, Refusal, Role
from . import actions as a
from .board import can_be_played, placement_refusal
from .deck import Deck
from .events import (CardKept, CardPlayed, CardsToHand, Communicated, Event, ExtraRequested,
                     FirstTaskPlaced, ForcedDiscarded, ForcedDrawn, ForcedPlaced, GameEnded,
                     HandDiscarded, PendingDiscarded, StarterNamed, TurnBegan, TurnEnded,
                     TwoDrawn, fold)
from .state import ACTION, FIRST_TASK, FROM_EXTRA, FROM_SOLO, KEEP, MANAGE, PLACE, State

#: What each step awaits, by action name (the ``awaiting`` of the views).
AWAITED = {FIRST_TASK: ("first_task",), KEEP: ("keep",),
           ACTION: ("play", "end_turn", "communicate", "extra"),
           MANAGE: ("play", "end_turn"), PLACE: ("place",)}


class Chain:
    """The events of one decision, each applied to a working copy of the state as it is
    decided (the original is never touched)."""

    def __init__(self, state: State):
        self.state = state.clone()
        self.events: list[Event] = []

    def add(self, event: Event) -> None:
        """Decide ``event``: apply it to the working copy and keep it."""
        fold(self.state, [event])
        self.events.append(event)


def awaited(state: State) -> tuple[str, ...]:
    """The action names the table awaits now (solo: no ``communicate``, C-O2)."""
    names = AWAITED.get(state.step, ())
    if state.solo:
        names = tuple(n for n in names if n != "communicate")
    return names


def _who(state: State, seat: int | None) -> str:
    return f"seat {seat} ({state.players[seat - 1]})" if state.is_seat(seat) else f"seat {seat}"


def _awaiting_words(state: State) -> str:
    if state.over:
        return "the game is over"
    if state.step == FIRST_TASK:
        return "the table awaits the first task (first_task)"
    return f"the table awaits {' or '.join(awaited(state))} from {_who(state, state.seat)}"


def _active(state: State, action: a.Action, by: Role, steps: tuple[str, ...]) -> int:
    """The active seat, once C-T5 lets ``by`` send ``action`` now (C-Z2, C-Z3)."""
    if by.kind not in (GM, SEAT):
        raise Refusal("C-T5", f"'{action.do}' comes from the active player's device or the "
                              "teacher's console, not from a shared screen")
    if state.step not in steps:
        raise Refusal("C-T5", f"'{action.do}' is not awaited now: {_awaiting_words(state)}")
    seat = state.seat
    if by.kind == SEAT and by.seat != seat:
        raise Refusal("C-T5", f"it is {_who(state, seat)}'s turn, not seat {by.seat}'s")
    if action.player is not None and action.player != seat:
        raise Refusal("C-T5", f"it is {_who(state, seat)}'s turn, not seat {action.player}'s")
    return seat


def _held(state: State, seat: int, card: str) -> None:
    if card not in state.hand(seat):
        raise Refusal("C-T5", f"{_who(state, seat)} holds no card {card!r}: a player plays "
                              "only cards of their own hand")


def _check_form(deck: Deck, action: a.Action, by: Role) -> None:
    """The form checks that depend on the sender or the deck (rule ``format``)."""
    if isinstance(action, a.FirstTask) and action.player is None and by.kind != SEAT:
        raise Refusal("format", "first_task: needs 'player', the seat who starts")
    if isinstance(action, a.Communicate) and isinstance(action.ask, dict):
        icon = next(iter(action.ask.values()))
        if icon not in deck.icons:
            raise Refusal("format", f"communicate: no team of this deck shows the icon {icon!r}")


def decide(state: State, deck: Deck, action: a.Action, by: Role) -> list[Event]:
    """The events ``action`` from ``by`` causes, or a Refusal (C-R4); ``state`` is unchanged.

    Undo and redo are the Match's (they act on its history, not on the table).
    """
    _check_form(deck, action, by)
    if state.over:
        raise Refusal("C-E3", "the game is over: only the teacher's undo and redo are accepted")
    chain = Chain(state)
    HANDLERS[type(action)](chain, deck, action, by)
    return chain.events


# ------------------------------------------------------------------ set-up

def _first_task(chain: Chain, deck: Deck, action: a.FirstTask, by: Role) -> None:
    state = chain.state
    if by.kind not in (GM, SEAT, TABLE):
        raise Refusal("C-T5", "a screen that only watches cannot act")
    if state.step != FIRST_TASK:
        raise Refusal("C-T5", "the first task is already on the table")
    player = action.player
    if by.kind == SEAT:
        if player is None:
            player = by.seat
        elif player != by.seat:
            raise Refusal("C-T5", f"seat {by.seat}'s device answers for itself, not for "
                                  f"seat {player}")
    if not state.is_seat(player):
        raise Refusal("C-T5", f"there is no seat {player} at this table")
    if action.card is None:
        if not any(deck.card(c).is_task for c in state.hand(player)):
            raise Refusal("C-S5", f"{_who(state, player)} holds no task: the table chooses "
                                  "among the players holding one")
        chain.add(StarterNamed(player))
        return
    if state.starter is not None and player != state.starter:
        raise Refusal("C-T5", f"the table chose {_who(state, state.starter)} to start")
    _held(state, player, action.card)
    if not deck.card(action.card).is_task:
        raise Refusal("C-S5", f"{action.card} is a team card: the first card in the centre "
                              "is a task")
    chain.add(FirstTaskPlaced(player, action.card))
    _begin_turn(chain, player)                                    # C-S6


# ------------------------------------------------------------------ a turn

def _begin_turn(chain: Chain, seat: int) -> None:
    """C-T1: the active player draws two to choose from; one left goes to the hand by
    itself; none, and the draw is skipped (C-Z3)."""
    state = chain.state
    chain.add(TurnBegan(seat, state.turn + 1))
    if len(state.deck) >= 2:
        chain.add(TwoDrawn(seat, tuple(state.deck[:2])))
    elif state.deck:
        chain.add(CardsToHand(seat, (state.deck[0],), "draw"))


def _after_action(chain: Chain, deck: Deck, seat: int) -> None:
    """The turn's action is done: solo, the top card is played at once or discarded
    (C-O2.3, a step skipped with nothing to draw, C-O3); then the turn ends."""
    state = chain.state
    if state.solo and state.deck:
        if _force(chain, deck, seat, state.deck[0], FROM_SOLO):
            return
    _end_turn(chain, seat)


def _force(chain: Chain, deck: Deck, seat: int, card: str, source: str) -> bool:
    """Draw ``card`` to be played at once; True if it awaits its cell, False if the
    facilitator discarded it because no cell is legal (C-T3)."""
    chain.add(ForcedDrawn(seat, card, source))
    if can_be_played(deck, chain.state.board, card):
        return True
    chain.add(ForcedDiscarded(seat, card))
    return False


def _end_turn(chain: Chain, seat: int) -> None:
    """C-T4: the turn passes to the left; C-E1: unless the deck ran out in this turn."""
    state = chain.state
    chain.add(TurnEnded(seat))
    if not state.deck:
        chain.add(GameEnded(early=False))
    else:
        _begin_turn(chain, state.next_seat(seat))


def _keep(chain: Chain, deck: Deck, action: a.Keep, by: Role) -> None:
    state = chain.state
    seat = _active(state, action, by, (KEEP,))
    if action.card not in state.drawn:
        raise Refusal("C-T5", f"keep names one of the two cards just drawn, not "
                              f"{action.card!r}")
    other = next(card for card in state.drawn if card != action.card)
    chain.add(CardKept(seat, action.card, other))


def _play(chain: Chain, deck: Deck, action: a.Play, by: Role) -> None:
    state = chain.state
    seat = _active(state, action, by, (ACTION, MANAGE))
    _held(state, seat, action.card)
    refusal = placement_refusal(deck, state.board, action.card, action.at)
    if refusal is not None:
        raise refusal
    chain.add(CardPlayed(seat, action.card, action.at))


def _end_turn_action(chain: Chain, deck: Deck, action: a.EndTurn, by: Role) -> None:
    seat = _active(chain.state, action, by, (ACTION, MANAGE))
    _after_action(chain, deck, seat)


def _communicate(chain: Chain, deck: Deck, action: a.Communicate, by: Role) -> None:
    state = chain.state
    seat = _active(state, action, by, (ACTION,))
    _held(state, seat, action.card)
    if state.solo:
        raise Refusal("C-O2", "playing solo, the two actions are managing resources and "
                              "requesting extra resources: there is no one to ask")
    chain.add(Communicated(seat, action.card, action.ask))
    _end_turn(chain, seat)                                        # C-Z3


def _extra(chain: Chain, deck: Deck, action: a.Extra, by: Role) -> None:
    state = chain.state
    seat = _active(state, action, by, (ACTION,))
    if not state.deck:
        raise Refusal("C-T2", "the central deck is empty: there are no extra resources to "
                              "draw")
    chain.add(ExtraRequested(seat))
    chain.add(CardsToHand(seat, (state.deck[0],), "extra"))
    if state.deck and _force(chain, deck, seat, state.deck[0], FROM_EXTRA):   # C-Z4
        return
    _after_action(chain, deck, seat)


def _place(chain: Chain, deck: Deck, action: a.Place, by: Role) -> None:
    state = chain.state
    seat = _active(state, action, by, (PLACE,))
    card, source = state.forced, state.forced_from
    refusal = placement_refusal(deck, state.board, card, action.at)
    if refusal is not None:
        raise refusal                                             # C-Z4: it stays pending
    chain.add(ForcedPlaced(seat, card, action.at))
    if source == FROM_EXTRA:
        _after_action(chain, deck, seat)
    else:
        _end_turn(chain, seat)


# ------------------------------------------------------------------ at any step

def _penalty(chain: Chain, deck: Deck, action: a.Penalty, by: Role) -> None:
    state = chain.state
    player = action.player
    if by.kind not in (GM, TABLE):
        raise Refusal("C-T5", "the table screen or the teacher applies a penalty")
    if not state.is_seat(player):
        raise Refusal("C-T5", f"there is no seat {player} at this table")
    if state.step == FIRST_TASK:
        raise Refusal("C-T5", "the game begins once the first task is on the table (C-S6): "
                              "no penalty before")
    if player == state.seat and state.step in (KEEP, PLACE):
        raise Refusal("C-H2", f"{_who(state, player)} has a card drawn and pending "
                              f"({state.step}): the penalty waits until it is settled")
    hand = tuple(state.hand(player))
    if not hand:
        raise Refusal("C-H2", f"{_who(state, player)} has no card in hand: there is no hand "
                              "to discard")
    chain.add(HandDiscarded(player, hand))
    new = tuple(state.deck[:len(hand)])                           # fewer if the deck runs out
    if new:
        chain.add(CardsToHand(player, new, "penalty"))


def _end_game(chain: Chain, deck: Deck, action: a.EndGame, by: Role) -> None:
    state = chain.state
    if by.kind != GM:
        raise Refusal("C-T5", "only the teacher ends a game early")
    pending = tuple(state.pending())
    if pending:
        chain.add(PendingDiscarded(pending))                      # C-Z7
    chain.add(GameEnded(early=True))


HANDLERS = {a.FirstTask: _first_task, a.Keep: _keep, a.Play: _play, a.EndTurn: _end_turn_action,
            a.Communicate: _communicate, a.Extra: _extra, a.Place: _place,
            a.Penalty: _penalty, a.EndGame: _end_game}
