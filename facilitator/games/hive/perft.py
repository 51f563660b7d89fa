"""Perft: how many move sequences of a given length a position has (HIVE.md's table).

perft(0) = 1; perft(d) = the sum of perft(d - 1) after each valid move; a
finished game has no moves. The last level is counted, not played: the
number of valid moves of a position is its perft(1) ("bulk counting").

>>> perft(3)
1440
>>> divide(1)
{'wS1': 1, 'wB1': 1, 'wG1': 1, 'wA1': 1}
"""
from __future__ import annotations

import time

from .board import Board
from .notation import canonical


def perft(depth: int, board: Board | None = None, deadline: float | None = None) -> int:
    """The perft count of ``board`` (a new game when None) to ``depth`` plies;
    TimeoutError past ``deadline`` (``time.perf_counter()``), the board left as given."""
    if depth < 0:
        raise ValueError(f"Unable to calculate perft({depth}).")
    board = Board() if board is None else board
    if deadline is None:
        return _perft(board, depth)
    ply = board.ply
    try:
        return _perft(board, depth, deadline)
    except TimeoutError:
        while board.ply > ply:      # the interrupted count leaves moves pushed
            board.pop()
        raise


def _perft(board: Board, depth: int, deadline: float | None = None) -> int:
    if depth == 0:
        return 1
    if depth == 1:
        return board.count_moves()
    if board.over:
        return 0
    if deadline is not None and time.perf_counter() > deadline:
        raise TimeoutError
    total = 0
    push, pop = board.push, board.pop
    for move in board.valid_moves():
        push(move)
        total += _perft(board, depth - 1, deadline)
        pop()
    return total


def divide(depth: int, board: Board | None = None) -> dict[str, int]:
    """perft(depth - 1) after each valid move, by the move's canonical spelling."""
    board = Board() if board is None else board
    out = {}
    for move in board.valid_moves():
        text = canonical(board, move)
        board.push(move)
        out[text] = _perft(board, depth - 1) if depth > 0 else 1
        board.pop()
    return out
