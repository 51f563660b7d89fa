"""Checking a move and saying which rule refuses it, with Mzinga's own words.

``check`` accepts a written move when it is one of the board's valid moves.
Otherwise it finds the reason as Mzinga's ``Board.Play`` does, testing the
rules in the order HIVE.md lists them, and raises ``IllegalMove`` with the
rule id of the rule book (docs/hive.md) and Mzinga's reason text, so the UHP
engine can print ``invalidmove <reason>`` exactly as Mzinga would.

>>> from .board import Board
>>> b = Board()
>>> play(b, "wq")
Traceback (most recent call last):
...
facilitator.games.hive.rules.IllegalMove: H-P1.5: You can't play your Queen Bee on your first turn.
>>> play(b, "wS1"), play(b, "bG1 -ws1")
('wS1', 'bG1 -wS1')
"""
from __future__ import annotations

from typing import Callable

from .board import PASS, Board, NotEnabled
from .notation import PASS_WRITTEN, NotationError, Written, canonical, parse_move, resolve, \
    split_game_string
from .pieces import COLOUR, KIND, enabled

#: The movement rule of each kind: the rule a move breaks when its piece cannot go there.
KIND_RULE = {"Q": "H-M1.1", "S": "H-M1.2", "A": "H-M1.3", "G": "H-M1.4", "B": "H-M1.5",
             "M": "H-M1.8", "L": "H-M1.9", "P": "H-M1.10"}

GAME_OVER = "You can't play, the game is over."
NOT_YOUR_TURN = "It's not that player's turn."
NOT_ENABLED = "That piece is not enabled in this game."
BACK_TO_HAND = "You can't put a piece back into your hand."
NO_QUEEN_FIRST = "You can't play your Queen Bee on your first turn."
QUEEN_BY_FOURTH = "You must play your Queen Bee on or before your fourth turn."
QUEEN_BEFORE_MOVING = "You can't move a piece in play until you've played your Queen Bee."
IN_ORDER = ("When there are multiple pieces of the same bug type, "
            "you must play the pieces in order.")
OCCUPIED = "You can't move there because a piece already exists at that position."
COVERED = "You can't move that piece because it has another piece on top of it."
BREAKS_HIVE = "You can't move that piece because it will break the hive."
CANNOT_GO = "You can't move that piece there."
PASS_OVER = "You can't pass, the game is over."
PASS_WITH_MOVES = "You can't pass when you have valid moves."


class IllegalMove(ValueError):
    """A move the rules refuse: ``rule`` is its id in docs/hive.md, ``reason`` Mzinga's text."""

    def __init__(self, rule: str, reason: str):
        super().__init__(f"{rule}: {reason}")
        self.rule = rule
        self.reason = reason


def read(text_or_written: str | Written) -> Written:
    """A written move from text (IllegalMove under H-N1.2 when it cannot be read)."""
    if isinstance(text_or_written, Written):
        return text_or_written
    try:
        return parse_move(text_or_written)
    except NotationError as error:
        raise IllegalMove("H-N1.2", str(error)) from None


def check(board: Board, move: str | Written) -> tuple[int, int]:
    """The board move a written move stands for, if valid; IllegalMove otherwise."""
    written = read(move)
    if written is PASS_WRITTEN:
        if board.over:
            raise IllegalMove("H-E1.5", PASS_OVER)
        if board.valid_moves() != [PASS]:
            raise IllegalMove("H-E1.3", PASS_WITH_MOVES)
        return PASS
    if board.over:
        raise IllegalMove("H-E1.5", GAME_OVER)
    piece, dest, height = resolve(board, written)
    if dest is not None and (piece, dest) in board.valid_moves():
        # A valid destination has one height: on the stack there, or the ground.
        stack = board.stacks.get(dest)
        if height == (len(stack) if stack else 0):
            return piece, dest
    raise IllegalMove(*_reason(board, piece, dest, height))


def _reason(board: Board, piece: int, dest: int | None, height: int) -> tuple[str, str]:
    # Mzinga's order of reasons (Board.Play), each with the rule it applies.
    kind = KIND[piece]
    in_play = board.pos[piece] is not None
    if COLOUR[piece] != board.colour:
        return "H-P1.1", NOT_YOUR_TURN
    if not enabled(piece, board.expansions):
        return "H-S1.4", NOT_ENABLED
    if dest is None:
        return "H-P1.4", BACK_TO_HAND
    queen = _queen_reason(board, kind, in_play)
    if queen:
        return queen
    if not board.in_order(piece):
        return "H-P1.8", IN_ORDER
    stack = board.stacks.get(dest)
    if stack and height < len(stack):
        if not in_play:
            return "H-P1.4", OCCUPIED
        return ("H-M1.7" if dest == board.pos[piece] else KIND_RULE[kind]), OCCUPIED
    if in_play:
        if not board.on_top(piece):
            return "H-M1.6", COVERED
        if not board.can_lift(piece):
            return "H-O1.2", BREAKS_HIVE
        if piece == board.last_piece():
            return "H-M1.12", CANNOT_GO
        return KIND_RULE[kind], CANNOT_GO
    if height > 0:
        return "H-P1.4", CANNOT_GO   # a placement on top of a stack
    return ("H-P1.2" if board.ply < 2 else "H-P1.3"), CANNOT_GO


def _queen_reason(board: Board, kind: str, in_play: bool) -> tuple[str, str] | None:
    # The Queen Bee's rules, which refuse a piece wherever it would go.
    if board.turn == 1 and kind == "Q":
        return "H-P1.5", NO_QUEEN_FIRST
    if not board.queen_in_play(board.colour):
        if board.turn == 4 and kind != "Q":
            return "H-P1.6", QUEEN_BY_FOURTH
        if in_play:
            return "H-P1.7", QUEEN_BEFORE_MOVING
    return None


def stuck(board: Board, piece: int) -> tuple[str, str]:
    """Why a piece of the side to move, on top of the board or next in its hand, has no
    valid move at all: the rule and Mzinga's text a screen shows when it is picked."""
    kind = KIND[piece]
    in_play = board.pos[piece] is not None
    queen = _queen_reason(board, kind, in_play)
    if queen:
        return queen
    if not in_play:
        # Every free cell touches the other colour (H-P1.3).
        return "H-P1.3", CANNOT_GO
    if not board.can_lift(piece):
        return "H-O1.2", BREAKS_HIVE
    if piece == board.last_piece():
        return "H-M1.12", CANNOT_GO
    return KIND_RULE[kind], CANNOT_GO


def play(board: Board, move: str | Written) -> str:
    """Check a move, make it, and return its canonical spelling (kept in the history)."""
    found = check(board, move)
    text = canonical(board, found)
    board.push(found, text)
    return text


class GameStringError(ValueError):
    """A GameString that cannot be loaded: ``index`` is the 0-based move that failed
    (None: the game type), ``rule`` and ``reason`` why."""

    def __init__(self, message: str, index: int | None, rule: str, reason: str):
        super().__init__(message)
        self.index = index
        self.rule = rule
        self.reason = reason


def load(text: str, after: Callable[[Board], None] | None = None) -> Board:
    """The board a GameString describes: its moves replayed and checked (H-N1.5);
    ``after`` is called with the board after each move (the UHP engine's draw by
    repetition, H-E1.6, so a later move of a drawn game is refused)."""
    try:
        expansions, moves = split_game_string(text)
    except ValueError as error:
        raise GameStringError(str(error), None, "H-N1.4", str(error)) from None
    try:
        board = Board(expansions)
    except NotEnabled as error:
        raise GameStringError(str(error), None, "H-S1.4", str(error)) from None
    for index, move in enumerate(moves):
        try:
            play(board, move)
        except IllegalMove as error:
            verb = "parse" if error.rule == "H-N1.2" else "play"
            raise GameStringError(f"Unable to {verb} '{move}' in GameString. {error.reason}",
                                  index, error.rule, error.reason) from None
        if after is not None:
            after(board)
    return board
