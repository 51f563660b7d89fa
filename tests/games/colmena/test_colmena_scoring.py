"""Scoring (C-X1..C-X3, C-Z9, C-P8), the tiers and their messages (C-X4), and the rule
book's worked example (C-X5) played onto a board card by card."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from colmena_play import position
from facilitator.games.colmena.board import placement_refusal
from facilitator.games.colmena.deck import DEFAULT
from facilitator.games.colmena.scoring import MESSAGES, message_of, score, tier_of

ROOT = Path(__file__).resolve().parents[3]
CLOSED = {(-1, 0): "FAC01", (0, 1): "STU01", (1, 0): "STU02", (0, -1): "LIB01"}


def scored(board: dict, hands=((), ), **kwargs) -> dict:
    return score(position([list(h) for h in hands], board=board, **kwargs).state, DEFAULT)


def test_c_x1_a_completed_task_scores_its_different_teams():
    """The manual's example: pencil, mortarboard or book (T09), closed by Faculty,
    Students, Students, Library Staff: 3; by four Faculty: 1."""
    assert scored({(0, 0): "T09", **CLOSED})["completed"] == [
        {"card": "T09", "at": [0, 0], "teams": 3, "points": 3}]
    four = {(0, 0): "T09", (-1, 0): "FAC01", (0, 1): "FAC02", (1, 0): "FAC03", (0, -1): "FAC04"}
    assert scored(four)["completed_points"] == 1


def test_c_x2_a_team_with_all_its_cards_on_the_board_scores_its_count():
    board = {(0, 0): "T32", (-1, 0): "LIB01", (1, 0): "LIB02", (0, 1): "LIB03", (0, -1): "LIB04",
             (2, 0): "T25", (3, 0): "LIB05"}
    result = scored(board)
    assert result["bonuses"] == [{"team": "book", "name": {"es": "Personal de biblioteca",
                                                           "en": "Library Staff"},
                                  "cards": 5, "on_board": 5, "points": 5}]
    del board[(3, 0)]                                   # one card off the board loses it
    assert scored(board)["bonus_points"] == 0


def test_c_x3_c_z9_open_tasks_cost_two_and_hand_cards_one():
    """The first task counts as open too; a task in a hand is a hand card; discarded
    cards cost nothing."""
    result = scored({(0, 0): "T09", (-1, 0): "FAC01"}, hands=(["T10", "FAC02"], []),
                    discard=["T11", "T12"])
    assert result["open"] == [{"card": "T09", "at": [0, 0], "sides": 1, "points": -2}]
    assert result["hands"] == [{"seat": 1, "cards": 2, "points": -2},
                               {"seat": 2, "cards": 0, "points": 0}]
    assert result["total"] == -4 and result["tier"] == "do_better"     # negative: lowest


def test_c_p8_completed_wrongly_is_always_zero_and_shown():
    result = scored({(0, 0): "T09", **CLOSED})
    assert result["completed_wrongly"] == 0 and result["completed_wrongly_points"] == 0


@pytest.mark.parametrize("total, tier", [(45, "top"), (30, "top"), (29, "hopeful"),
                                         (20, "hopeful"), (19, "good"), (10, "good"),
                                         (9, "do_better"), (0, "do_better"),
                                         (-30, "do_better")])
def test_c_x4_the_tiers_are_whole_tens_and_30_is_top(total, tier):
    assert tier_of(total) == tier


def rule_book_tiers() -> list[list[str]]:
    """The tier table of docs/colmena.md: key, es-ES, es, en per row."""
    rows = []
    for line in (ROOT / "docs" / "colmena.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[1].startswith("`"):
            rows.append([cells[1].strip("`")] + cells[2:])
    return rows


def test_c_x4_the_messages_are_the_rule_books():
    rows = rule_book_tiers()
    assert [row[0] for row in rows] == ["top", "hopeful", "good", "do_better"]
    for key, es_es, es, en in rows:
        assert message_of(key) == {"es-ES": es_es, "es": es, "en": en}
    assert MESSAGES["good"]["es-ES"].startswith("¡Buen trabajo! Pese a las dificultades, habéis")


def test_c_x4_es_speaks_with_ustedes_and_es_es_as_the_manual():
    vosotros = re.compile(r"\b(sois|habéis|estáis|os|seréis|tenéis|podéis|desfallezcáis)\b",
                          re.IGNORECASE)
    for texts in MESSAGES.values():
        assert not vosotros.search(texts["es"]), texts["es"]
        assert vosotros.search(texts["es-ES"]), texts["es-ES"]
    assert MESSAGES["top"]["es"].startswith("¡Máxima puntuación! Son unas gestoras")
    assert "Han creado" in MESSAGES["top"]["es"]


#: C-X5's board, in an order every card can be played in (C-Z5 is checked for each):
#: five tasks closed by 4, 3, 3, 2 and 1 different teams; every Library Staff and Research
#: and Development card placed; three tasks left open.
C_X5 = [((0, 0), "T05"), ((-1, 0), "FAC01"), ((0, 1), "MAN01"), ((0, -1), "LIB01"),
        ((1, 0), "ARD01"), ((2, 0), "T16"), ((2, 1), "FAC02"), ((2, -1), "LIB02"),
        ((3, 0), "LIB03"), ((4, 0), "T21"), ((4, 1), "ARD02"), ((4, -1), "LIB04"),
        ((5, 0), "STU01"), ((6, 0), "T23"), ((6, 1), "STU02"), ((6, -1), "FAC03"),
        ((7, 0), "FAC04"), ((8, 0), "T25"), ((8, 1), "FAC05"), ((8, -1), "FAC06"),
        ((9, 0), "FAC07"), ((0, 2), "T22"), ((1, 2), "ARD03"), ((2, 2), "T26"),
        ((4, -2), "T32"), ((5, -2), "LIB05"), ((4, -3), "ARD04")]


def test_c_x5_the_worked_example():
    """3 players: 4 + 3 + 3 + 2 + 1 = 13; all Library Staff (5) and Research and
    Development (4), +9; three open tasks, -6; hands of 2, 1 and 0, -3: 13, 'good'."""
    board: dict = {}
    for at, card in C_X5:
        if board:
            assert placement_refusal(DEFAULT, board, card, at) is None, (card, at)
        board[at] = card
    result = scored(board, hands=(["T01", "STU05"], ["MAN05"], []))
    assert [row["points"] for row in result["completed"]] == [4, 3, 3, 2, 1]
    assert result["completed_points"] == 13
    assert [(row["team"], row["points"]) for row in result["bonuses"]] == [("book", 5),
                                                                          ("brain", 4)]
    assert result["bonus_points"] == 9
    assert [row["card"] for row in result["open"]] == ["T22", "T26", "T32"]
    assert result["open_points"] == -6 and result["hand_points"] == -3
    assert result["total"] == 13 and result["tier"] == "good"
    assert message_of(result["tier"])["es-ES"].startswith("¡Buen trabajo!")
