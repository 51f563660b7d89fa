"""The resolution of a turn (RULES.md section 5), in one place.

``next_step`` says what a turn is waiting for; ``on_verdict``, ``on_written``,
``on_argument`` and ``on_pick`` say who takes what. Both the refusals of
``rules.py`` and the listing of ``legal.py`` read these, so the table of
section 5 is written once.
"""
from __future__ import annotations

from dataclasses import dataclass

from .events import (BonusWon, CardPicked, CardWon, ConsolationWon, Event, PifieTaken)
from .state import Turn

# What a turn can be waiting for, in the order of section 4 and section 5.
DECLARE = "declare"          # step 1
PREPARE = "prepare"          # steps 2-4: Desvío, Elijo, Seguro, then the choice
QUESTION = "question"        # step 5
DELIBERATE = "deliberate"    # steps 6-7: writing, then the verdict
PICK = "pick"                # a team owes a pick
WRITTEN = "written"          # the GM must judge the written anticipation
ARGUMENT = "argument"        # the GM must judge the argument
END = "end_turn"             # resolution complete


@dataclass(frozen=True, slots=True)
class Step:
    """What a turn waits for; for a pick, which team owes it and under which rule."""

    name: str
    team: int | None = None
    rule: str | None = None
    #: At END of a challenge with no anticipation, `written` false may still be given.
    written_optional: bool = False


def next_step(turn: Turn) -> Step:
    """What the turn waits for now."""
    if not turn.declared:
        return Step(DECLARE)
    if turn.author is None:
        return Step(PREPARE)
    if turn.question is None:
        return Step(QUESTION)
    if turn.verdict is None:
        return Step(DELIBERATE)
    if turn.verdict == "half" and turn.primary_pick is None:
        rule = "R-R5" if turn.is_challenge else "R-R2"
        return Step(PICK, turn.primary, rule)
    if not turn.is_challenge:
        return Step(END)
    if turn.written_correct is None:
        if turn.has_anticipation:
            return Step(WRITTEN)
        return Step(END, written_optional=True)
    if not turn.written_correct or turn.verdict == "full":
        return Step(END)
    if turn.argument is None:
        return Step(ARGUMENT)
    if turn.verdict == "wrong" and turn.argument == "poor" and turn.secondary_pick is None:
        return Step(PICK, turn.secondary, "R-R6")
    return Step(END)


def _card(turn: Turn, which: str) -> str:
    return f"author:{turn.author}" if which == "author" else f"type:{turn.type}"


def _both(turn: Turn, team: int) -> list[Event]:
    return [CardWon(team, _card(turn, "author")), CardWon(team, _card(turn, "type"))]


def on_verdict(turn: Turn, result: str) -> list[Event]:
    """What the oral verdict gives at once (R-R1, R-R3, R-R4 a, R-R6 c)."""
    primary = turn.primary
    if result == "full":
        return _both(turn, primary)                    # R-R1, R-R4
    if result == "wrong" and turn.seguro_by != primary:
        return [PifieTaken(primary)]                   # R-R3, R-R6 (unless Seguro, R-K4)
    return []                                          # half: the primary picks (R-R2, R-R5)


def on_pick(turn: Turn, team: int, which: str) -> list[Event]:
    """A pick: the chosen card goes to the team that owed it."""
    return [CardPicked(team, which), CardWon(team, _card(turn, which))]


def on_written(turn: Turn, correct: bool) -> list[Event]:
    """The written judgement: the consolation in case (a) only (R-R4, R-R8)."""
    if correct and turn.verdict == "full":
        return [ConsolationWon(turn.secondary)]
    return []


def on_argument(turn: Turn, result: str) -> list[Event]:
    """The argument's judgement (R-R5, R-R6, R-R7)."""
    secondary = turn.secondary
    if result == "poor":
        return []                     # (b) nothing, costs nothing; (c) the secondary picks one
    if turn.verdict == "half":        # (b): the card the primary did not keep
        other = "type" if turn.primary_pick == "author" else "author"
        events: list[Event] = [CardWon(secondary, _card(turn, other))]
    else:                             # (c): both cards
        events = _both(turn, secondary)
    if turn.mode == "risky":          # R-R7: only the host argues in a risky challenge
        events.append(BonusWon(secondary))
    return events
