"""The cap of a game's record (docs/deploy.md, "Flood limits"): actions and bytes.

A full 6-team, 6-round partida is ~700 actions and ~0.2 MB. Past the cap an action
is refused with ``limit``; the GM (and the clock) keep a reserve above the seats'
cap, to correct or end the game, so the record always stays under the re-upload
limit. The size counted is the size of the file the players download (the kind's
record, ``json.dumps(..., ensure_ascii=False, indent=1)``), counted once per action.
"""
from __future__ import annotations

import json

from ..games import Refusal

MAX_ACTIONS = 5_000
MAX_RECORD_BYTES = 1_800_000
GM_RESERVE_ACTIONS, GM_RESERVE_BYTES = 100, 200_000
#: The record's re-upload limit (config MAX_CONTENT_LENGTH and web/results.py): the cap
#: with the reserve stays under it, with room for the upload's envelope.
UPLOAD_LIMIT = 2 * 1024 * 1024
assert MAX_RECORD_BYTES + GM_RESERVE_BYTES < UPLOAD_LIMIT - 50_000


def indented_size(value: object) -> tuple[int, int]:
    """The UTF-8 bytes and lines of ``json.dumps(value, ensure_ascii=False, indent=1)``,
    without writing it that way.

    An indent makes ``json`` use its pure-Python encoder, whose nested functions form
    a reference cycle on every call (two per action, left to the garbage collector).
    The compact C encoding with the same separators holds the same characters but for
    the line breaks and indents, which depend only on the nesting: counted here.
    """
    compact = json.dumps(value, ensure_ascii=False, separators=(",", ": "))
    size, lines = len(compact.encode("utf-8")), 1
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        children = (item.values() if isinstance(item, dict)
                    else item if isinstance(item, (list, tuple)) else None)
        if not children:
            continue
        # Each element on a line of its own, indented one more; the closing one, as deep.
        count = len(children)
        size += count * (depth + 2) + depth + 1
        lines += count + 1
        stack.extend((child, depth + 1) for child in children)
    return size, lines


def action_bytes(data: dict) -> int:
    """Bytes an action takes in the downloaded record (its indented JSON, each line
    indented two more, and its separator)."""
    size, lines = indented_size(data)
    return size + 2 * lines + 2


class RecordBudget:
    """How much of the cap one game's record holds, kept as its actions are stored."""

    __slots__ = ("count", "bytes")

    def __init__(self, empty_record: dict, count: int = 0, stored=()):
        """``empty_record``: the game's record without actions; ``count`` and ``stored``:
        the actions it already holds (their dicts)."""
        # + 1: a list that holds actions closes on a line of its own ("\n ]", not "[]").
        self.bytes = indented_size(empty_record)[0] + 1 + sum(action_bytes(a) for a in stored)
        self.count = count

    def take(self, actions: list[dict], gm: bool) -> None:
        """Count ``actions`` in, or refuse (``limit``) if they go past the cap; ``gm``:
        sent by the GM or the clock, who keep a reserve."""
        most = MAX_ACTIONS + (GM_RESERVE_ACTIONS if gm else 0)
        if self.count + len(actions) > most:
            raise Refusal("limit", f"this game holds {self.count} actions, the most a game "
                                   f"may hold{' for a team' if not gm else ''}: nothing "
                                   "more is stored")
        budget = MAX_RECORD_BYTES + (GM_RESERVE_BYTES if gm else 0)
        size = sum(action_bytes(a) for a in actions)
        if self.bytes + size > budget:
            raise Refusal("limit", f"this game's record is near {budget // 1000} KB, the "
                                   "most a game may hold: nothing more is stored")
        self.count += len(actions)
        self.bytes += size


def check_record_length(record: object) -> None:
    """Refuse (``limit``) a record holding more actions than a game may: checked before
    it is replayed or stored, so an oversized upload costs nothing."""
    actions = record.get("actions") if isinstance(record, dict) else None
    most = MAX_ACTIONS + GM_RESERVE_ACTIONS
    if isinstance(actions, list) and len(actions) > most:
        raise Refusal("limit", f"this record holds {len(actions)} actions; a game holds at "
                               f"most {most}: nothing was stored")
