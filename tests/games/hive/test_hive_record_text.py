"""A bare GameString is a record (H-R1.3): read by the kind and by the games' registry,
refused with its move's index and Mzinga's sentence when a move cannot be played."""
from __future__ import annotations

import pytest

from facilitator.games import Refusal, Role, kind, record_of_text

KIND = kind("hive")
PASTED = "Base;InProgress;White[3];wS1;bG1 -wS1;wA1 wS1/"


def test_a_bare_game_string_is_a_record_with_the_players_given():
    """H-R1.3: the written state and turn are not trusted (H-N1.5); the players are given."""
    record = KIND.record_of_text("  " + PASTED + "\n", {"white": "Ana", "black": "Ben"},
                                 {"turn_limit": 30})
    assert record == {"format": "hive/1", "game": PASTED,
                      "players": {"white": "Ana", "black": "Ben"}, "settings": {"turn_limit": 30}}
    match = KIND.replay(record)
    assert match.view(Role.watcher())["to_move"] == "black"
    assert match.record()["game"] == "Base;InProgress;Black[2];wS1;bG1 -wS1;wA1 wS1/"
    assert match.summary()["turn_number"] == 2 and match.summary()["to_move"] == "black"
    assert record_of_text(PASTED) == {"format": "hive/1", "game": PASTED}


@pytest.mark.parametrize("text, rule", [("Bse;NotStarted;White[1]", "H-N1.4"), ("", "format"),
                                        (7, "format"), ("x" * 30_000, "format")])
def test_a_text_that_is_no_game_string_is_refused(text, rule):
    """H-R1.3 and H-N1.4: Mzinga's sentence for a game type that is none."""
    with pytest.raises(Refusal) as caught:
        KIND.record_of_text(text)
    assert caught.value.rule == rule and caught.value.action is None
    assert record_of_text(text if isinstance(text, str) else "") is None


def test_a_move_that_cannot_be_played_is_refused_with_its_index():
    """H-R1.3 and H-P1.5: the second move of the string (index 1) in Mzinga's words."""
    with pytest.raises(Refusal) as caught:
        KIND.replay(KIND.record_of_text("Base;InProgress;Black[1];wS1;bQ wS1-"))
    assert (caught.value.rule, caught.value.action, caught.value.message) == \
        ("H-P1.5", 1, "You can't play your Queen Bee on your first turn.")


def test_a_record_s_game_string_is_bounded_yet_holds_a_game_to_the_longest_turn_limit():
    """H-R1.3 and H-G5: no upload makes the server replay a game without end."""
    from facilitator.games.hive.match import MAX_GAME_STRING, MAX_TURN_LIMIT
    longest_move = "bG3 \\wA3"
    assert len("Base;InProgress;White[501]") + 2 * MAX_TURN_LIMIT * (len(longest_move) + 1) \
        <= MAX_GAME_STRING
    with pytest.raises(Refusal) as caught:
        KIND.replay({"format": "hive/1", "game": "Base;;;" + ";".join(["wS1"] * 4000)})
    assert caught.value.rule == "format" and caught.value.action is None
