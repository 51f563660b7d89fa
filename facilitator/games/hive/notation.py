"""MoveStrings and GameStrings (H-N1.2 to H-N1.5), read and written as Mzinga does.

Reading a move has two steps: ``parse_move`` reads the text alone (which piece,
which reference piece, which side the direction symbol is on) and ``resolve``
finds the cell and height it names on a board. Any correct spelling is read;
``canonical`` writes the one spelling Mzinga writes (H-N1.3).

>>> parse_move("bS1 wS1-")
Written(piece=15, ref=1, symbol='-', before=False)
>>> parse_move("  PASS ") is PASS_WRITTEN
True
>>> from .board import Board
>>> b = Board()
>>> b.push((1, 0), "wS1")
>>> canonical(b, resolve(b, parse_move("bs1 WS1-"))[:2])
'bS1 wS1-'
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .board import Board
from .hexes import E, NE, NW, ORIGIN, RING, SE, STEP, SW, W
from .pieces import COLOURS, NAMES, parse_game_type, parse_name


class NotationError(ValueError):
    """A text that is no MoveString; its message is Mzinga's."""

    def __init__(self, text: str):
        super().__init__(f'Unable to parse move "{text}".')
        self.text = text


@dataclass(frozen=True, slots=True)
class Written:
    """A MoveString as written: the piece, the reference piece (None: no reference),
    the direction symbol (``""``: on top of the reference) and whether it comes
    before the reference (``-wS1``) or after it (``wS1-``)."""

    piece: int
    ref: int | None = None
    symbol: str = ""
    before: bool = False

    def text(self) -> str:
        """The normalised spelling (names in their proper case, one space)."""
        if self.ref is None:
            return NAMES[self.piece]
        ref = NAMES[self.ref]
        return f"{NAMES[self.piece]} {self.symbol + ref if self.before else ref + self.symbol}"


#: ``pass``, as ``parse_move`` returns it.
PASS_WRITTEN = Written(-1)

_MOVE = re.compile(r"\s*(\w+)(?:\s+([-/\\]?)(\w+)([-/\\]?))?\s*", re.ASCII)

# Where a symbol puts the destination relative to the reference (H-N1.2's table).
_AFTER = {"-": STEP[E], "/": STEP[NE], "\\": STEP[SE]}
_BEFORE = {"-": STEP[W], "/": STEP[SW], "\\": STEP[NW]}
# For each ring direction from the destination to its reference: how to write it.
_WRITE = {NW: ("", "\\"), NE: ("/", ""), E: ("-", ""), SE: ("\\", ""), SW: ("", "/"), W: ("", "-")}


def parse_move(text: str) -> Written:
    """Read a MoveString or ``pass`` (any letter case, spaces around); NotationError if
    it is not one."""
    found = _MOVE.fullmatch(text)
    if not found:
        raise NotationError(text)
    first, before, ref_name, after = found.groups()
    if ref_name is None and first.lower() == "pass":
        return PASS_WRITTEN
    piece = parse_name(first)
    if piece is None or (before and after):
        raise NotationError(text)
    if ref_name is None:
        return Written(piece)
    ref = parse_name(ref_name)
    if ref is None:
        raise NotationError(text)
    return Written(piece, ref, before or after, bool(before))


def resolve(board: Board, written: Written) -> tuple[int, int | None, int]:
    """The (piece, cell, height) a written move names on ``board``, as Mzinga reads it.

    No reference: the origin. A reference in hand: cell None (the piece would
    go back to a hand). A symbol: the ground cell on that side of the
    reference. No symbol: on top of the reference piece itself.
    """
    if written.ref is None:
        return written.piece, ORIGIN, 0
    at = board.pos[written.ref]
    if at is None:
        return written.piece, None, -1
    if not written.symbol:
        return written.piece, at, board.height(written.ref) + 1
    offsets = _BEFORE if written.before else _AFTER
    return written.piece, at + offsets[written.symbol], 0


def canonical(board: Board, move: tuple[int, int]) -> str:
    """Mzinga's spelling of a valid move on ``board`` (before it is made), H-N1.3.

    A move onto a stack names the stack's top piece; otherwise, with the mover
    lifted, the first occupied neighbour of the destination clockwise from the
    north-west; the very first move of the game is the bare name.
    """
    piece, dest = move
    if piece < 0:
        return "pass"
    name = NAMES[piece]
    if board.ply == 0 and dest == ORIGIN:
        return name
    stacks = board.stacks
    below = stacks.get(dest)
    if below:
        return f"{name} {NAMES[below[-1]]}"
    for d in RING:
        stack = stacks.get(dest + STEP[d])
        if not stack:
            continue
        ref = stack[-1]
        if ref == piece:
            # The mover lifted: what it covered is the top there, if anything.
            if len(stack) == 1:
                continue
            ref = stack[-2]
        before, after = _WRITE[d]
        return f"{name} {before}{NAMES[ref]}{after}"
    raise ValueError(f"{name} to {dest} touches no piece")


def turn_text(board: Board) -> str:
    """The GameString's turn field: ``White[3]``."""
    return f"{COLOURS[board.colour]}[{board.turn}]"


def game_string(board: Board) -> str:
    """The GameString of a board (H-N1.4); its moves are the texts given to ``push``."""
    head = f"{board.game_type};{board.state};{turn_text(board)}"
    return ";".join([head, *board.texts])


def split_game_string(text: str) -> tuple[frozenset[str], list[str]]:
    """A GameString's expansions and its move texts, unchecked (H-N1.4).

    As Mzinga does, the state and turn fields are not read: they are
    recomputed by replaying the moves (H-N1.5). ValueError names a game type
    that is none.
    """
    fields = text.strip().split(";")
    expansions = parse_game_type(fields[0].strip())
    if expansions is None:
        raise ValueError(f"Unable to parse '{fields[0]}' in GameString.")
    return expansions, fields[3:]
