"""Actions: what a GM or a team asks the game to do (RULES.md section 11's table).

An action is a small frozen value with a text form that round-trips:
``parse_action(a.to_dict()) == a``. Parsing checks only the form (check 1 of
section 11, rule ``format``: a known ``do``, its fields, and no field of
another name); whether the game allows it now is for ``rules``.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import ClassVar

from .errors import refuse
from .numbers import exact, is_number, is_unicode, plain
from ...questions.model import QUESTION_TYPES
from .settings import MAX_ADJUST, MAX_EXCHANGE_COST, MODES, SPECIAL_CARDS

VERDICTS = ("full", "half", "wrong")
ARGUMENTS = ("good", "poor")
PICKS = ("author", "type")

#: Longest text a field may hold; a written answer is "a condensed version".
MAX_TEXT = 2000


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every action; ``do`` is its name in the record."""

    do: ClassVar[str] = ""
    #: Actions the GM alone may send (the others a team may send for itself).
    gm_only: ClassVar[bool] = True

    def to_dict(self) -> dict:
        """The action as one object of a record's ``actions`` list."""
        data: dict = {"do": self.do}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None:
                continue
            if f.name == "points":
                value = plain(value)
            elif isinstance(value, tuple):
                value = list(value)
            data[f.name] = value
        return data


@dataclass(frozen=True, slots=True)
class Declare(Action):
    """Step 1: the host declares the mode and, for a challenge, its target."""

    do: ClassVar[str] = "declare"
    gm_only: ClassVar[bool] = False
    mode: str
    target: int | None = None


@dataclass(frozen=True, slots=True)
class Desvio(Action):
    """Step 2: the challenged team sends the challenge on (R-K3)."""

    do: ClassVar[str] = "desvio"
    gm_only: ClassVar[bool] = False
    team: int
    target: int


@dataclass(frozen=True, slots=True)
class Elijo(Action):
    """Steps 1-3: a non-host team takes the choice of author and type (R-K5)."""

    do: ClassVar[str] = "elijo"
    gm_only: ClassVar[bool] = False
    team: int


@dataclass(frozen=True, slots=True)
class Seguro(Action):
    """Steps 2-3: the primary team insures itself against a pifie (R-K4)."""

    do: ClassVar[str] = "seguro"
    gm_only: ClassVar[bool] = False
    team: int


@dataclass(frozen=True, slots=True)
class Choose(Action):
    """Step 4: the chooser names an author and a question type."""

    do: ClassVar[str] = "choose"
    gm_only: ClassVar[bool] = False
    author: str
    type: str


@dataclass(frozen=True, slots=True)
class AskQuestion(Action):
    """Step 5: the GM reads question ``id`` (R-Q1)."""

    do: ClassVar[str] = "question"
    id: str


@dataclass(frozen=True, slots=True)
class Write(Action):
    """Step 6: the secondary team writes its anticipation; the last one counts (R-U4)."""

    do: ClassVar[str] = "write"
    gm_only: ClassVar[bool] = False
    team: int
    text: str


@dataclass(frozen=True, slots=True)
class TimeUp(Action):
    """Step 6 (live game): the deliberation time ran out; the writing locks (R-U5)."""

    do: ClassVar[str] = "time_up"


@dataclass(frozen=True, slots=True)
class MoreTime(Action):
    """Step 6 (live game): the GM gives more time and unlocks the writing (R-U5, R-G2)."""

    do: ClassVar[str] = "more_time"
    seconds: int


@dataclass(frozen=True, slots=True)
class Verdict(Action):
    """Step 7: the GM judges the oral answer: full, half or wrong."""

    do: ClassVar[str] = "verdict"
    result: str


@dataclass(frozen=True, slots=True)
class Pick(Action):
    """Step 8: the team owed one card chooses it: author or type."""

    do: ClassVar[str] = "pick"
    gm_only: ClassVar[bool] = False
    team: int
    card: str


@dataclass(frozen=True, slots=True)
class Written(Action):
    """Step 8: the GM judges the written anticipation."""

    do: ClassVar[str] = "written"
    correct: bool


@dataclass(frozen=True, slots=True)
class Argument(Action):
    """Step 8: the GM judges the secondary team's argument: good or poor."""

    do: ClassVar[str] = "argument"
    result: str


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """Step 8: the GM ends the turn once it is resolved."""

    do: ClassVar[str] = "end_turn"


@dataclass(frozen=True, slots=True)
class Spokesperson(Action):
    """Any step: who answered aloud for a team (R-U7); informational."""

    do: ClassVar[str] = "spokesperson"
    gm_only: ClassVar[bool] = False
    team: int
    name: str


@dataclass(frozen=True, slots=True)
class Representative(Action):
    """Individual turns: who represents a team (R-U9); informational."""

    do: ClassVar[str] = "representative"
    gm_only: ClassVar[bool] = False
    team: int
    name: str


@dataclass(frozen=True, slots=True)
class Exchange(Action):
    """Between turns: a team trades cards for a special card (R-K6), confirmed by the GM."""

    do: ClassVar[str] = "exchange"
    team: int
    give: tuple[str, ...]
    take: str


@dataclass(frozen=True, slots=True)
class Adjust(Action):
    """Any time: the GM changes a team's score, with a reason (R-P3)."""

    do: ClassVar[str] = "adjust"
    team: int
    points: object          # an exact Fraction
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class Undo(Action):
    """The GM takes back the last accepted action (R-G1)."""

    do: ClassVar[str] = "undo"


@dataclass(frozen=True, slots=True)
class Redo(Action):
    """The GM puts back the last undone action (R-G1)."""

    do: ClassVar[str] = "redo"


@dataclass(frozen=True, slots=True)
class EndGame(Action):
    """Between turns: the GM ends the game early (R-G3)."""

    do: ClassVar[str] = "end_game"


ACTION_TYPES: dict[str, type[Action]] = {cls.do: cls for cls in (
    Declare, Desvio, Elijo, Seguro, Choose, AskQuestion, Write, TimeUp, MoreTime,
    Verdict, Pick, Written, Argument, EndTurn, Spokesperson, Representative,
    Exchange, Adjust, Undo, Redo, EndGame)}


#: The fields each action may have (``do`` and its own): any other is refused (``format``).
FIELDS: dict[str, frozenset[str]] = {
    name: frozenset({"do", *(f.name for f in fields(cls))}) for name, cls in ACTION_TYPES.items()}


def _bad(do: str, message: str):
    return refuse("format", f"'{do}' {message}")


def _team(data: dict, do: str, key: str = "team") -> int:
    value = data.get(key)
    if value is None:
        raise _bad(do, f"needs a '{key}' (a team number)")
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(do, f"'{key}' must be a team number, not {value!r}"[:200])
    return value


def _choice(data: dict, do: str, key: str, allowed: tuple[str, ...]) -> str:
    value = data.get(key)
    if value not in allowed or not isinstance(value, str):
        raise _bad(do, f"'{key}' must be one of {', '.join(allowed)}, not {value!r}"[:200])
    return value


def _text(data: dict, do: str, key: str, *, blank_ok: bool = False) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise _bad(do, f"needs '{key}' as text")
    if len(value) > MAX_TEXT:
        raise _bad(do, f"'{key}' is longer than {MAX_TEXT} characters")
    if not is_unicode(value):
        raise _bad(do, f"'{key}' is not valid Unicode text")
    if not blank_ok and not value.strip():
        raise _bad(do, f"'{key}' must not be empty")
    return value


def _give(data: dict) -> tuple[str, ...]:
    give = data.get("give")
    if not isinstance(give, list) or len(give) > MAX_EXCHANGE_COST:
        raise _bad("exchange", "needs 'give': a list of cards like \"author:Kant\" or \"type:vf\"")
    for card in give:
        kind, _, name = card.partition(":") if isinstance(card, str) else ("", "", "")
        if kind == "type" and name in QUESTION_TYPES:
            continue
        if kind == "author" and name.strip() and len(name) <= MAX_TEXT and is_unicode(name):
            continue
        raise _bad("exchange", f"cannot give {card!r}: a card is \"author:NAME\" "
                               f"or \"type:{'|'.join(QUESTION_TYPES)}\""[:200])
    return tuple(give)


def parse_action(data: object) -> Action:
    """Turn one record object (``{"do": ...}``) into an Action, or refuse it as ``format``.

    >>> parse_action({"do": "declare", "mode": "simple", "target": 2})
    Declare(mode='simple', target=2)
    """
    if not isinstance(data, dict):
        raise refuse("format", "an action must be an object like {\"do\": \"declare\", ...}")
    do = data.get("do")
    cls = ACTION_TYPES.get(do) if isinstance(do, str) else None
    if cls is None:
        raise refuse("format", f"unknown action {do!r}"[:200])
    for key in data:
        if key not in FIELDS[do]:
            raise refuse("format", f"unknown field {key!r}"[:120] + f" in '{do}'")
    if cls is Declare:
        mode = _choice(data, do, "mode", MODES)
        target = data.get("target")
        if mode == "normal":
            if target is not None:
                raise _bad(do, "a normal turn names no target")
            return Declare(mode)
        return Declare(mode, _team(data, do, "target"))
    if cls is Desvio:
        return Desvio(_team(data, do), _team(data, do, "target"))
    if cls in (Elijo, Seguro):
        return cls(_team(data, do))
    if cls is Choose:
        return Choose(_text(data, do, "author").strip(), _choice(data, do, "type", QUESTION_TYPES))
    if cls is AskQuestion:
        return AskQuestion(_text(data, do, "id"))
    if cls is Write:
        return Write(_team(data, do), _text(data, do, "text", blank_ok=True))
    if cls is MoreTime:
        seconds = data.get("seconds")
        if isinstance(seconds, bool) or not isinstance(seconds, int) or not 0 < seconds <= 3600:
            raise _bad(do, "needs 'seconds': a whole number from 1 to 3600")
        return MoreTime(seconds)
    if cls is Verdict:
        return Verdict(_choice(data, do, "result", VERDICTS))
    if cls is Pick:
        return Pick(_team(data, do), _choice(data, do, "card", PICKS))
    if cls is Written:
        correct = data.get("correct")
        if not isinstance(correct, bool):
            raise _bad(do, "needs 'correct': true or false")
        return Written(correct)
    if cls is Argument:
        return Argument(_choice(data, do, "result", ARGUMENTS))
    if cls in (Spokesperson, Representative):
        return cls(_team(data, do), _text(data, do, "name").strip())
    if cls is Exchange:
        return Exchange(_team(data, do), _give(data), _choice(data, do, "take", SPECIAL_CARDS))
    if cls is Adjust:
        team, points, reason = _team(data, do), data.get("points"), data.get("reason")
        if not is_number(points) or abs(points) > MAX_ADJUST:
            raise _bad(do, "needs 'points': a number")
        if reason is not None and (not isinstance(reason, str) or len(reason) > MAX_TEXT
                                   or not is_unicode(reason)):
            raise _bad(do, "'reason' must be text")
        return Adjust(team, exact(points), reason)
    return cls()
