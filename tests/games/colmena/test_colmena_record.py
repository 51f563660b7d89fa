"""The record colmena/1 (C-R1..C-R4, C-Z1): its form, its actions, the order of checks."""
from __future__ import annotations

import pytest

from colmena_play import GM, new_table, play_random_game, position
from facilitator.games.colmena import KIND
from facilitator.games.colmena.actions import parse_action
from facilitator.games.protocol import Refusal, Role

CENTRE = {(0, 0): "T11"}
HANDS = [["FAC01", "STU01", "MAN01", "T22"], ["FAC02"], ["STU02"]]


def record(**changes) -> dict:
    base = {"format": "colmena/1", "settings": {"players": ["Ana", "Bea", "Carla"]},
            "deck": "default", "seed": 48151,
            "actions": [{"do": "first_task", "player": 2, "card": "T18"},
                        {"do": "keep", "card": "T22"}, {"do": "end_turn"}]}
    base.update(changes)
    return base


def refused(data: dict) -> tuple[str, int | None]:
    with pytest.raises(Refusal) as caught:
        KIND.replay(data)
    return caught.value.rule, caught.value.action


def test_c_r1_the_record_of_a_table():
    match = KIND.replay(record())
    assert match.record() == record()
    assert KIND.replay(match.record()).state.to_dict() == match.state.to_dict()
    assert KIND.replay({k: v for k, v in record().items() if k != "deck"}).record() == record()


def test_c_r1_c_r2_a_whole_random_game_replays_exactly():
    for players, seed in ((1, 11), (2, 12), (3, 13), (4, 14)):
        match = play_random_game(players, seed, seed)
        assert match.over
        again = KIND.replay(match.record())
        assert again.state.to_dict() == match.state.to_dict()
        assert again.summary() == match.summary()


@pytest.mark.parametrize("changes, rule", [
    ({"format": "colmena/2"}, "format"), ({"format": None}, "format"),
    ({"settings": ["Ana"]}, "format"), ({"settings": {"players": ["Ana"] * 5}}, "C-S1"),
    ({"seed": "48151"}, "format"), ({"seed": True}, "format"), ({"seed": None}, "format"),
    ({"deck": "mine"}, "format"), ({"actions": {"do": "keep"}}, "format"),
])
def test_c_z1_a_refused_record_has_no_action_index(changes, rule):
    assert refused(record(**changes)) == (rule, None)


def test_c_z1_actions_are_numbered_from_0():
    actions = record()["actions"] + [{"do": "keep", "card": "T18"}]
    assert refused(record(actions=actions)) == ("C-T5", 3)
    assert refused(record(actions=[{"do": "undo"}])) == ("C-R3", 0)
    assert refused(record(actions=["keep"])) == ("format", 0)


@pytest.mark.parametrize("action", [
    {"do": "first_task", "player": 2, "card": "T18"}, {"do": "first_task", "player": 3},
    {"do": "keep", "card": "STU04"}, {"do": "keep", "card": "STU04", "player": 2},
    {"do": "play", "card": "FAC02", "at": [1, 0]}, {"do": "end_turn"},
    {"do": "communicate", "card": "LIB01"}, {"do": "communicate", "card": "LIB01", "ask": "¿Y?"},
    {"do": "communicate", "card": "LIB01", "ask": {"team": "brain"}}, {"do": "extra"},
    {"do": "place", "at": [-3, 2]}, {"do": "penalty", "player": 1}, {"do": "end_game"},
    {"do": "undo"}, {"do": "redo"},
])
def test_c_r3_every_action_round_trips(action):
    assert parse_action(action).to_dict() == action


@pytest.mark.parametrize("action", [
    {"do": "keep"}, {"do": "keep", "card": 7}, {"do": "keep", "card": "A", "at": [0, 0]},
    {"do": "play", "card": "FAC02"}, {"do": "play", "card": "FAC02", "at": [1]},
    {"do": "play", "card": "FAC02", "at": [1, True]}, {"do": "play", "card": "F", "at": "1,0"},
    {"do": "place", "at": [0.5, 1]}, {"do": "penalty", "player": "1"},
    {"do": "communicate", "card": "X", "ask": {"team": "brain", "task": "book"}},
    {"do": "communicate", "card": "X", "ask": ["team"]}, {"do": "end_turn", "player": True},
    {"do": "undo", "steps": 2}, {"do": "Keep", "card": "A"}, {"card": "A"}, "keep",
])
def test_c_r3_actions_of_the_wrong_form_are_format(action):
    with pytest.raises(Refusal) as caught:
        parse_action(action)
    assert caught.value.rule == "format"


def test_c_r4_the_order_of_checks_format_c_e3_c_t5_then_the_rule():
    match = position(HANDS, board=CENTRE)
    wrong_cell = {"do": "play", "card": "FAC01", "at": [5, 5]}
    assert rule_of(match, wrong_cell) == "C-P4"
    assert rule_of(match, wrong_cell, Role.of_seat(2)) == "C-T5"     # C-T5 before C-P4
    match.play({"do": "end_game"})
    assert rule_of(match, wrong_cell, Role.of_seat(2)) == "C-E3"     # C-E3 before C-T5
    assert rule_of(match, {"do": "play", "card": "FAC01"}) == "format"   # format first


def rule_of(match, action, by=GM) -> str:
    before = match.state.to_dict()
    with pytest.raises(Refusal) as caught:
        match.play(action, by)
    assert match.state.to_dict() == before
    return caught.value.rule


def test_c_r4_a_refused_action_changes_nothing_and_is_not_recorded():
    match = new_table(3)
    match.play({"do": "first_task", "player": 1, "card": "T11"})
    before, log = match.state.to_dict(), list(match.log)
    for action in ({"do": "keep", "card": "ARD02"}, {"do": "play", "card": "ARD04", "at": [1, 0]},
                   {"do": "redo"}, {"do": "penalty", "player": 1}):
        with pytest.raises(Refusal):
            match.play(action)
    assert match.state.to_dict() == before and match.log == log and match.seq == 1


def test_draws_are_events_named_in_the_teachers_history():
    """C-R3: draws are events; an undo puts the cards back on the deck, a redo draws them."""
    match = new_table(3)
    events = match.play({"do": "first_task", "player": 1, "card": "T11"})
    assert [type(e).__name__ for e in events] == ["FirstTaskPlaced", "TurnBegan", "TwoDrawn"]
    assert events[-1].to_dict() == {"event": "TwoDrawn", "seat": 1, "cards": ["MAN08", "T22"]}
    assert events[-1].public() == {"event": "TwoDrawn", "seat": 1, "count": 2}
    match.play({"do": "undo"})
    assert match.state.deck[:2] == ["MAN08", "T22"]
