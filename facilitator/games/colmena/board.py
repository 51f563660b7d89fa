"""The table: an unbounded grid of cells, where a card may go, and which tasks are completed.

A board is a dict from a cell ``(x, y)`` to the id of the card on it (C-P1);
the first task is at ``(0, 0)``. Only the four orthogonal neighbours of a cell
count (C-P2). A card can go to an empty cell (C-P1) with no card of its own
kind beside it (C-P6), at least one matching card of the other kind beside it
(C-P3 for a task, C-P4 for a team card), and no mismatching one (C-P5). A
task and a team card match when the task shows the team's icon. The checks
run in that order and the first broken one is named (C-Z5).

>>> from .deck import DEFAULT
>>> board = {(0, 0): "T09"}
>>> legal_cells(DEFAULT, board, "FAC01")
[(0, -1), (-1, 0), (1, 0), (0, 1)]
>>> legal_cells(DEFAULT, board, "MAN01")
[]
"""
from __future__ import annotations

from ..protocol import Refusal
from .deck import Card, Deck

Cell = tuple[int, int]
#: The four sides of a cell (C-P2): no diagonal counts.
SIDES = ((0, -1), (-1, 0), (1, 0), (0, 1))


def neighbours(at: Cell) -> list[Cell]:
    """The four cells beside ``at``, up, left, right, down."""
    x, y = at
    return [(x + dx, y + dy) for dx, dy in SIDES]


def matches(task: Card, team: Card) -> bool:
    """Whether ``team`` can contribute to ``task``: the task shows the team's icon."""
    return team.icon in task.icons


def _name(card: Card) -> str:
    return f"{card.id} ({card.name})"


def placement_refusal(deck: Deck, board: dict[Cell, str], card_id: str,
                      at: Cell) -> Refusal | None:
    """Why ``card_id`` cannot go to ``at`` (C-Z5's order), or None if it can."""
    card = deck.card(card_id)
    if at in board:
        return Refusal("C-P1", f"the cell {list(at)} is taken by {_name(deck.card(board[at]))}")
    beside = [(cell, deck.card(board[cell])) for cell in neighbours(at) if cell in board]
    for cell, other in beside:
        if other.kind == card.kind:
            what = "task" if card.is_task else "team card"
            return Refusal("C-P6", f"{_name(card)} cannot go to {list(at)}: a {what} never "
                                   f"touches another, and {_name(other)} is at {list(cell)}")

    def fit(other: Card) -> bool:
        return matches(card, other) if card.is_task else matches(other, card)

    if not any(fit(other) for _, other in beside):
        if card.is_task:
            return Refusal("C-P3", f"the task {_name(card)} cannot go to {list(at)}: it must "
                                   "touch, side by side, at least one team card that can "
                                   "contribute to it")
        return Refusal("C-P4", f"the team card {_name(card)} cannot go to {list(at)}: it must "
                               "touch, side by side, at least one task it can contribute to "
                               f"(one showing the {card.icon})")
    for cell, other in beside:
        if fit(other):
            continue
        if card.is_task:
            return Refusal("C-P5", f"the task {_name(card)} cannot go to {list(at)}: "
                                   f"{_name(other)} at {list(cell)} prevents it, since the task "
                                   f"does not show its icon ({other.icon})")
        return Refusal("C-P5", f"{_name(card)} cannot go to {list(at)}: although it matches "
                               "a task beside it, it does not match the task "
                               f"{_name(other)} at {list(cell)}, which shows no {card.icon}")
    return None


def fits(deck: Deck, board: dict[Cell, str], card_id: str, at: Cell) -> bool:
    """Whether ``card_id`` can go to ``at``: ``placement_refusal`` is None, found faster
    (the legal cells of every hand card are looked for after every action)."""
    if at in board:
        return False
    card = deck.card(card_id)
    x, y = at
    matched = False
    for dx, dy in SIDES:
        other_id = board.get((x + dx, y + dy))
        if other_id is None:
            continue
        other = deck.card(other_id)
        if other.kind == card.kind:
            return False
        if (other.icon in card.icons) if card.is_task else (card.icon in other.icons):
            matched = True
        else:
            return False
    return matched


def frontier(board: dict[Cell, str]) -> list[Cell]:
    """The empty cells beside some card: the only cells a card can ever go to, in order
    of rows, then columns."""
    found = {cell for at in board for cell in neighbours(at) if cell not in board}
    return sorted(found, key=lambda cell: (cell[1], cell[0]))


def legal_cells(deck: Deck, board: dict[Cell, str], card_id: str) -> list[Cell]:
    """Every cell where ``card_id`` can go now (C-T3), in order of rows, then columns."""
    return [cell for cell in frontier(board) if fits(deck, board, card_id, cell)]


def can_be_played(deck: Deck, board: dict[Cell, str], card_id: str) -> bool:
    """Whether some empty cell is legal for ``card_id`` (C-T3)."""
    return any(fits(deck, board, card_id, cell) for cell in frontier(board))


def teams_around(board: dict[Cell, str], at: Cell) -> list[str]:
    """The ids of the team cards beside the task at ``at``."""
    return [board[cell] for cell in neighbours(at) if cell in board]


def is_completed(board: dict[Cell, str], at: Cell) -> bool:
    """Whether the task at ``at`` has a team card on all four sides (C-P7)."""
    return len(teams_around(board, at)) == 4


def tasks_on(deck: Deck, board: dict[Cell, str]) -> list[tuple[Cell, str]]:
    """The tasks on the board, in the order they were placed."""
    return [(at, card_id) for at, card_id in board.items() if deck.card(card_id).is_task]
