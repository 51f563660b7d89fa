"""The game record partida/1 and the replay command (RULES.md section 11).

The worked scenarios (tests/scenarios, ../shared/scenarios) are in test_scenarios.py.
"""
import json
import subprocess
import sys

import pytest

from facilitator.games.partida import Refusal, replay, write_record

from rulebook import act, bank, new_game, play


def run_replay(path):
    proc = subprocess.run([sys.executable, "-m", "facilitator.cli", "replay", str(path)],
                          capture_output=True, text=True, timeout=60)
    return proc.returncode, json.loads(proc.stdout)


def sample_game():
    game = new_game(round_modes=[["normal"], ["simple", "risky"]], points={"pifie": -1},
                    class_name="1ºA")
    play(game, act("declare", mode="normal"), act("spokesperson", team=1, name="Ana"),
         act("choose", author="Kant", type="vf"), act("question", id="kant-vf-1"),
         act("verdict", result="half"), act("pick", team=1, card="type"), act("end_turn"),
         act("adjust", team=2, points=0.5, reason="Buena pregunta"),
         act("declare", mode="normal"), act("undo"), act("undo"), act("redo"))
    return game


def test_a_record_written_from_any_state_replays_to_the_identical_state():
    game = sample_game()
    for cut in range(len(game.log) + 1):
        partial = replay({**write_record(game), "actions": write_record(game)["actions"][:cut]})
        again = replay(json.loads(json.dumps(write_record(partial))))
        assert again.state.to_dict() == partial.state.to_dict()
        assert again.can_redo == partial.can_redo
    assert replay(write_record(game)).state.to_dict() == game.state.to_dict()


def test_record_keeps_settings_questions_and_every_action():
    record = write_record(sample_game())
    assert record["format"] == "partida/1"
    assert record["settings"]["points"]["pifie"] == -1
    assert record["settings"]["class_name"] == "1ºA"
    assert len(record["questions"]) == len(bank())
    assert [a["do"] for a in record["actions"]][-3:] == ["undo", "undo", "redo"]
    assert record["actions"][7] == {"do": "adjust", "team": 2, "points": 0.5,
                                    "reason": "Buena pregunta"}


def test_replay_prints_standings_and_exits_zero_mid_game(tmp_path):
    path = tmp_path / "mid.json"
    path.write_text(json.dumps(write_record(sample_game())), encoding="utf-8")
    code, got = run_replay(path)
    assert code == 0
    row = got["standings"][0]
    assert {"team", "name", "rank", "score", "cards", "pifies", "consolations", "bonuses",
            "adjustments"} <= set(row)
    assert row["team"] == 1 and row["score"] == 1


@pytest.mark.parametrize("record,rule,index", [
    ("not json", "format", None),
    ({"format": "partida/2", "settings": {}}, "format", None),
    ({"format": "partida/1", "settings": {"teams": [{"name": "A", "members": 4}] * 3}},
     "R-T1", None),
    ({"format": "partida/1", "settings": {"teams": [{"name": "A", "members": 4}] * 4,
                                          "rounds": 2, "round_modes": [["normal"]]}},
     "R-O4", None),
    ({"format": "partida/1", "settings": {"teams": [{"name": "A", "members": 4}] * 4},
      "actions": [{"do": "declare", "mode": "normal"}, {"do": "fly"}]}, "format", 1),
    ({"format": "partida/1", "settings": {"teams": [{"name": "A", "members": 4}] * 4},
      "questions": [{"id": "q", "author": "K", "type": "xx", "text": "t", "answer": "a"}]},
     "format", None),
])
def test_replay_refusals_print_rule_and_action_index(tmp_path, record, rule, index):
    path = tmp_path / "bad.json"
    path.write_text(record if isinstance(record, str) else json.dumps(record), encoding="utf-8")
    code, got = run_replay(path)
    assert code != 0
    assert (got["error"], got["action"]) == (rule, index)
    assert got["message"]


def test_replay_of_a_missing_file_is_a_clear_error(tmp_path):
    code, got = run_replay(tmp_path / "nope.json")
    assert code != 0 and got["error"] == "format" and "nope.json" in got["message"]


def test_replay_api_raises_with_the_action_index():
    record = write_record(new_game())
    record["actions"] = [{"do": "declare", "mode": "normal"}, {"do": "declare", "mode": "normal"}]
    with pytest.raises(Refusal) as caught:
        replay(record)
    assert (caught.value.rule, caught.value.action) == ("R-U10", 1)
