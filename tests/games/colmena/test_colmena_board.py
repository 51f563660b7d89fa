"""Placement (C-P1..C-P8) in C-Z5's order, and what "can be played" means (C-T3)."""
from __future__ import annotations

import pytest

from facilitator.games.colmena.board import (can_be_played, frontier, is_completed, legal_cells,
                                             neighbours, placement_refusal)
from facilitator.games.colmena.deck import DEFAULT


def rule(board: dict, card: str, at: tuple[int, int]) -> str | None:
    refusal = placement_refusal(DEFAULT, board, card, at)
    return refusal.rule if refusal else None


#: T11 (pencil, mortarboard, brain) in the centre with Faculty on its right.
BOARD = {(0, 0): "T11", (1, 0): "FAC01"}


def test_c_p1_a_card_fills_an_empty_cell():
    assert rule(BOARD, "STU01", (1, 0)) == "C-P1"
    assert rule(BOARD, "STU01", (-1, 0)) is None


def test_c_p2_only_orthogonal_neighbours_count():
    assert neighbours((0, 0)) == [(0, -1), (-1, 0), (1, 0), (0, 1)]
    # (1, 1) touches T11 only by a corner, and Faculty beside it: the task sees Faculty only.
    assert rule({(0, 0): "T11"}, "FAC02", (1, 1)) == "C-P4"
    assert rule(BOARD, "T09", (1, 1)) is None          # beside FAC01 only: pencil, shown


def test_c_p3_a_task_must_touch_a_team_card_that_can_contribute():
    assert rule(BOARD, "T22", (2, 0)) == "C-P3"        # KBR: no pencil
    assert rule(BOARD, "T24", (2, 0)) is None          # PK: pencil
    assert rule(BOARD, "T24", (5, 5)) == "C-P3"        # touching nothing


def test_c_p4_a_team_card_must_touch_a_task_it_can_contribute_to():
    assert rule(BOARD, "MAN01", (0, 1)) == "C-P4"      # briefcase beside PMR
    assert rule(BOARD, "ARD01", (0, 1)) is None


def test_c_p5_the_manuals_two_captions():
    """Of a task: Academic Management prevents its placement; of Faculty: it matches the
    task on one side (pencil) but not the task on another."""
    board = {(0, 0): "T23", (1, 0): "FAC01", (2, 0): "T24", (2, 1): "MAN01"}
    # (1, 1) touches Faculty (pencil) and Academic Management (briefcase).
    assert rule(board, "T25", (1, 1)) == "C-P5"        # pencil, book: the briefcase prevents it
    assert "MAN01" in placement_refusal(DEFAULT, board, "T25", (1, 1)).message
    assert rule(board, "T07", (1, 1)) is None          # pencil, mortarboard, briefcase
    caption = {(0, 0): "T11", (1, 0): "ARD01", (1, 1): "T22"}
    # (0, 1) touches T11 (shows the pencil) and T22 (briefcase, book, brain: no pencil).
    assert rule(caption, "FAC02", (0, 1)) == "C-P5"
    assert "does not match the task T22" in placement_refusal(
        DEFAULT, caption, "FAC02", (0, 1)).message
    assert rule(caption, "ARD02", (0, 1)) is None      # the brain matches both


def test_c_p6_two_cards_of_the_same_kind_never_touch():
    assert rule(BOARD, "T24", (0, 1)) == "C-P6"        # beside T11
    assert rule(BOARD, "FAC02", (2, 0)) == "C-P6"      # beside FAC01
    # A team card counts for every task it touches: FAC01 serves T11 and T24.
    assert rule(BOARD, "T24", (2, 0)) is None
    game = {**BOARD, (2, 0): "T24", (2, 1): "MAN01", (1, 1): "T07"}
    assert all((x + y) % 2 == 0 for (x, y), card in game.items() if DEFAULT.card(card).is_task)


def test_c_z5_the_checks_run_in_order():
    """C-P1 before C-P6 before C-P3/C-P4 before C-P5."""
    assert rule(BOARD, "T22", (1, 0)) == "C-P1"        # taken (and beside a task)
    assert rule(BOARD, "MAN01", (2, 0)) == "C-P6"      # beside FAC01 (and no task for it)
    assert rule(BOARD, "T30", (1, 1)) == "C-P3"        # beside FAC01 only, which it lacks
    assert rule(BOARD, "MAN01", (0, 1)) == "C-P4"      # beside T11 only, which lacks it
    caption = {(0, 0): "T11", (1, 0): "ARD01", (1, 1): "T22"}
    assert rule(caption, "FAC02", (0, 1)) == "C-P5"    # one match, one mismatch


def test_c_t3_legal_cells_and_can_be_played():
    board = {(0, 0): "T09"}
    assert frontier(board) == [(0, -1), (-1, 0), (1, 0), (0, 1)]
    assert legal_cells(DEFAULT, board, "FAC01") == frontier(board)
    assert legal_cells(DEFAULT, board, "ARD01") == [] and not can_be_played(DEFAULT, board,
                                                                            "ARD01")
    assert legal_cells(DEFAULT, board, "T10") == [] and not can_be_played(DEFAULT, board, "T10")
    board[(1, 0)] = "FAC01"
    assert legal_cells(DEFAULT, board, "T10") == [(1, -1), (2, 0), (1, 1)]


def test_c_p7_a_task_is_completed_with_four_team_cards():
    board = {(0, 0): "T09", (-1, 0): "FAC01", (0, 1): "STU01", (1, 0): "LIB01"}
    assert not is_completed(board, (0, 0))
    board[(0, -1)] = "STU02"
    assert is_completed(board, (0, 0))


@pytest.mark.parametrize("card", ["MAN01", "ARD01"])
def test_c_p8_a_card_that_does_not_match_cannot_close_a_task(card):
    """C-P8: completed wrongly cannot happen; the side stays empty."""
    board = {(0, 0): "T09", (-1, 0): "FAC01", (0, 1): "STU01", (1, 0): "LIB01"}
    assert rule(board, card, (0, -1)) == "C-P4"
