"""Actions: what a player, the table screen or the teacher asks a table to do (C-R3).

An action is a small frozen value whose ``to_dict()`` is one entry of a
record's ``actions`` and parses back to itself. Parsing checks only the form
(rule ``format``: a known ``do``, its fields with their types, no field of
another name); whether the table allows it now is for ``rules``.

>>> parse_action({"do": "play", "card": "FAC02", "at": [1, 0]})
Play(card='FAC02', at=(1, 0), player=None)
>>> parse_action({"do": "keep", "card": "STU04"}).to_dict()
{'do': 'keep', 'card': 'STU04'}
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import ClassVar

from ..protocol import Refusal

#: Longest free question ``communicate`` may carry for the table screen (C-T2.2).
MAX_ASK = 200
#: The two questions ``communicate`` may carry as data: a team, or a task needing a team.
ASK_KINDS = ("team", "task")


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every action; ``do`` is its name in the record."""

    do: ClassVar[str] = ""
    #: Whether it belongs to a turn: taken by the active seat (C-T5, C-Z2).
    turn_action: ClassVar[bool] = False

    def to_dict(self) -> dict:
        """The action as one object of a record's ``actions`` list."""
        data: dict = {"do": self.do}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None:
                continue
            data[f.name] = list(value) if isinstance(value, tuple) else value
        return data


@dataclass(frozen=True, slots=True)
class FirstTask(Action):
    """C-S5: name the starting player (the table's answer), or place the first task."""

    do: ClassVar[str] = "first_task"
    player: int | None = None
    card: str | None = None


@dataclass(frozen=True, slots=True)
class Keep(Action):
    """C-T1: keep one of the two cards drawn; the other is discarded face up."""

    do: ClassVar[str] = "keep"
    turn_action: ClassVar[bool] = True
    card: str
    player: int | None = None


@dataclass(frozen=True, slots=True)
class Play(Action):
    """C-T2.1: play a card from hand to a cell."""

    do: ClassVar[str] = "play"
    turn_action: ClassVar[bool] = True
    card: str
    at: tuple[int, int]
    player: int | None = None


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """C-T2.1: managing resources is done (zero cards played is allowed)."""

    do: ClassVar[str] = "end_turn"
    turn_action: ClassVar[bool] = True
    player: int | None = None


@dataclass(frozen=True, slots=True)
class Communicate(Action):
    """C-T2.2: discard one card from hand and ask the group a question."""

    do: ClassVar[str] = "communicate"
    turn_action: ClassVar[bool] = True
    card: str
    ask: object = None
    player: int | None = None


@dataclass(frozen=True, slots=True)
class Extra(Action):
    """C-T2.3: draw two unseen: one to hand, one played at once if it can be."""

    do: ClassVar[str] = "extra"
    turn_action: ClassVar[bool] = True
    player: int | None = None


@dataclass(frozen=True, slots=True)
class Place(Action):
    """C-T3: put the forced card on a cell."""

    do: ClassVar[str] = "place"
    turn_action: ClassVar[bool] = True
    at: tuple[int, int]
    player: int | None = None


@dataclass(frozen=True, slots=True)
class Penalty(Action):
    """C-H2: a player who revealed cards discards the whole hand and draws a new one."""

    do: ClassVar[str] = "penalty"
    player: int


@dataclass(frozen=True, slots=True)
class EndGame(Action):
    """C-E3: the teacher ends the game; it is scored as it stands."""

    do: ClassVar[str] = "end_game"


@dataclass(frozen=True, slots=True)
class Undo(Action):
    """C-Z8: take the last action back."""

    do: ClassVar[str] = "undo"


@dataclass(frozen=True, slots=True)
class Redo(Action):
    """C-Z8: put the last action taken back again."""

    do: ClassVar[str] = "redo"


ACTION_TYPES = {cls.do: cls for cls in (FirstTask, Keep, Play, EndTurn, Communicate, Extra,
                                        Place, Penalty, EndGame, Undo, Redo)}


def _bad(do: str, why: str) -> Refusal:
    return Refusal("format", f"{do}: {why}"[:240])


def _is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _player(data: dict, do: str, required: bool = False) -> int | None:
    value = data.get("player")
    if value is None and not required:
        return None
    if not _is_whole(value):
        raise _bad(do, f"'player' must be a seat number, not {value!r}")
    return value


def _card(data: dict, do: str, required: bool = True) -> str | None:
    value = data.get("card")
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip() or len(value) > 40 \
            or not _is_unicode(value):
        raise _bad(do, f"'card' must be a card id such as \"FAC02\", not {value!r}")
    return value.strip()


def _cell(data: dict, do: str) -> tuple[int, int]:
    value = data.get("at")
    if not isinstance(value, list) or len(value) != 2 or not all(map(_is_whole, value)):
        raise _bad(do, f"'at' must be a cell [x, y] of two whole numbers, not {value!r}")
    return (value[0], value[1])


def _ask(data: dict, do: str):
    value = data.get("ask")
    if value is None:
        return None
    if isinstance(value, str):
        if len(value) > MAX_ASK or not _is_unicode(value):
            raise _bad(do, f"'ask' must be a question of at most {MAX_ASK} characters")
        return value.strip() or None
    if isinstance(value, dict) and len(value) == 1:
        (kind, icon), = value.items()
        if kind in ASK_KINDS and isinstance(icon, str) and icon.strip() and len(icon) <= 40:
            return {kind: icon.strip().lower()}
    raise _bad(do, "'ask' must be text, {\"team\": ICON} (\"Do you have Faculty?\") or "
                   "{\"task\": ICON} (\"Any task that requires Faculty?\")")


def parse_action(data: object) -> Action:
    """Turn one record object (``{"do": ...}``) into an Action, or refuse it as ``format``."""
    if isinstance(data, Action):
        return data
    if not isinstance(data, dict):
        raise Refusal("format", "an action must be an object like {\"do\": \"keep\", ...}")
    do = data.get("do")
    cls = ACTION_TYPES.get(do) if isinstance(do, str) else None
    if cls is None:
        raise Refusal("format", f"unknown action {do!r}"[:200])
    allowed = {"do"} | {f.name for f in fields(cls)}
    for key in data:
        if key not in allowed:
            raise Refusal("format", f"unknown field {key!r}"[:120] + f" in '{do}'")
    if cls is FirstTask:
        return FirstTask(_player(data, do), _card(data, do, required=False))
    if cls is Keep:
        return Keep(_card(data, do), _player(data, do))
    if cls is Play:
        return Play(_card(data, do), _cell(data, do), _player(data, do))
    if cls is Communicate:
        return Communicate(_card(data, do), _ask(data, do), _player(data, do))
    if cls is Place:
        return Place(_cell(data, do), _player(data, do))
    if cls is Penalty:
        return Penalty(_player(data, do, required=True))
    if cls in (EndTurn, Extra):
        return cls(_player(data, do))
    return cls()
