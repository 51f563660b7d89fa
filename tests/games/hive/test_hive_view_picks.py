"""What a screen needs to let a player pick a piece (H-V1.2): each piece's destinations,
and for a piece with none the rule that keeps it where it is (H-W1), so a tap on it
explains itself in one line instead of doing nothing. The other screen decisions (H-W2 to
H-W5) are the pages' own: tests/browser/test_hive_screens.py plays them in Chromium."""
from __future__ import annotations

import re
from pathlib import Path

from facilitator.games import Refusal, Role
from facilitator.games.hive import KIND

W, B, TABLE, WATCHER = Role.of_seat(1), Role.of_seat(2), Role.table(), Role.watcher()


def played(*texts):
    match = KIND.new({}, players={"white": "Ana", "black": "Ben"})
    for text in texts:
        match.play({"do": "move", "move": text}, TABLE)
    return match


def refusal_of(match, move):
    try:
        match.play({"do": "move", "move": move}, TABLE)
    except Refusal as refused:
        return {"rule": refused.rule, "message": refused.message}
    raise AssertionError(f"{move} was accepted")


def test_the_queen_on_the_first_turn_is_explained_as_the_engine_refuses_it():
    match = played()
    view = match.view(TABLE)
    assert view["stuck"] == {"wQ": refusal_of(match, "wQ")}
    assert view["stuck"]["wQ"]["rule"] == "H-P1.5"
    assert set(view["destinations"]) == {"wS1", "wB1", "wG1", "wA1"}


def test_a_piece_before_its_queen_and_a_piece_holding_the_hive_are_explained():
    match = played("wS1", "bS1 wS1-")
    assert match.view(TABLE)["stuck"]["wS1"]["rule"] == "H-P1.7"
    match = played("wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-")
    stuck = match.view(W)["stuck"]
    assert stuck["wS1"] == refusal_of(match, "wS1 bQ-") and stuck["wS1"]["rule"] == "H-O1.2"
    assert "wQ" in match.view(W)["destinations"]


def test_the_fourth_turn_without_a_queen_explains_every_other_piece():
    match = played("wS1", "bS1 wS1-", "wB1 -wS1", "bB1 bS1-", "wG1 -wB1", "bG1 bB1-")
    view = match.view(TABLE)
    assert list(view["destinations"]) == ["wQ"]
    assert {piece: why["rule"] for piece, why in view["stuck"].items()} == {
        name: "H-P1.6" for name in ("wS2", "wB2", "wG2", "wA1", "wS1", "wB1", "wG1")}


def test_only_the_screens_that_may_move_get_picks():
    match = played("wS1")
    assert "stuck" in match.view(B) and "destinations" in match.view(B)
    for audience in (W, WATCHER):
        view = match.view(audience)
        assert "stuck" not in view and "destinations" not in view


def test_the_screens_decisions_are_each_played_by_the_browser_test():
    browser = Path(__file__).resolve().parents[2] / "browser" / "test_hive_screens.py"
    cited = set(re.findall(r"H-W\d", browser.read_text(encoding="utf-8")))
    assert cited >= {"H-W2", "H-W3", "H-W4", "H-W5"}, cited
