"""Every setting is bounded (RULES.md section 12's table): each bound refused with its
rule, each value just inside accepted (issue 12, item 5)."""
import time

import pytest

from facilitator.games.partida import Refusal, parse_settings
from facilitator.games.partida.settings import (MAX_BANK_SPECIAL_CARDS, MAX_EXTRA_DEPTH,
                                         MAX_MAX_MEMBERS, MAX_POINTS, MAX_ROUNDS,
                                         MAX_SECONDS, MAX_SPECIAL_CARDS, MAX_TEAM_NAME,
                                         MIN_SECONDS)


def teams(*members, name="Equipo"):
    return [{"name": f"{name} {i}", "members": m} for i, m in enumerate(members, start=1)]


def base(**changes):
    return {"teams": teams(4, 4, 4, 4), **changes}


def refused(data, rule):
    with pytest.raises(Refusal) as caught:
        parse_settings(data)
    assert caught.value.rule == rule, caught.value
    return caught.value


def nested(depth):
    value = []
    for _ in range(depth - 1):
        value = [value]
    return value


def test_the_bounds_are_generous_for_a_classroom():
    assert MAX_ROUNDS >= 12 and MAX_SECONDS >= 600 and MAX_TEAM_NAME >= 60


@pytest.mark.parametrize("data, rule", [
    (base(rounds=MAX_ROUNDS + 1), "R-O1"),
    (base(rounds=1_000_000), "R-O1"),
    (base(rounds=0), "R-O1"),
    (base(round_modes=[["normal"]] * (MAX_ROUNDS + 1)), "R-O1"),
    (base(round_modes=[["normal"] * 1000]), "R-O4"),
    ({"teams": teams(*[4] * 7)}, "R-T1"),
    ({"teams": teams(*[4] * 100_000)}, "R-T1"),
    ({"teams": teams(3, 3, 3, 3)[:3]}, "R-T1"),
    (base(max_members=MAX_MAX_MEMBERS + 1), "R-T2"),
    (base(max_members=2), "R-T2"),
    ({"teams": teams(13, 13, 13, 13), "max_members": MAX_MAX_MEMBERS}, "R-T2"),
    (base(deliberation_seconds=MAX_SECONDS + 1), "R-U8"),
    (base(deliberation_seconds=MIN_SECONDS - 1), "R-U8"),
    (base(rounds=2, deliberation_seconds=[60, MAX_SECONDS + 1]), "R-U8"),
    (base(rounds=2, deliberation_seconds=[MIN_SECONDS - 1, 60]), "R-U8"),
    (base(special_cards={"desvio": MAX_SPECIAL_CARDS + 1}), "R-K1"),
    (base(special_cards={"seguro": -1}), "R-K1"),
    (base(bank_special_cards={"elijo": MAX_BANK_SPECIAL_CARDS + 1}), "R-K6"),
    (base(bank_special_cards={"elijo": 10 ** 9}), "R-K6"),
    (base(points={"card": MAX_POINTS + 1}), "R-P1"),
    (base(points={"pifie": -MAX_POINTS - 0.5}), "R-P1"),
    (base(points={"risky_bonus": 1e308}), "R-P1"),
    (base(points={"consolation": 0.001}), "R-P1"),
    # wrong types and lengths: format
    (base(rounds=2, deliberation_seconds=[60] * 3), "format"),
    (base(deliberation_seconds="60"), "format"),
    (base(max_members="6"), "format"),
    (base(special_cards={"desvio": 1.5}), "format"),
    (base(points={"card": "1"}), "format"),
    (base(exchange_cost=21), "format"),
    ({"teams": [{"name": "x" * (MAX_TEAM_NAME + 1), "members": 4}] + teams(4, 4, 4)}, "format"),
    (base(individual_rounds=[1] * 7), "format"),
    (base(class_name="x" * (MAX_TEAM_NAME + 1)), "format"),
    (base(class_name=["not", "text"]), "format"),
    (base(roster=[["Ana"] * (MAX_MAX_MEMBERS + 1)]), "format"),
    (base(roster=[["Ana"]] * 7), "format"),
    (base(roster=[[1, 2]]), "format"),
    (base(x_note=nested(MAX_EXTRA_DEPTH + 1)), "format"),
    (base(x_note=nested(10_000)), "format"),
])
def test_each_bound_is_refused_with_its_rule(data, rule):
    refused(data, rule)


def test_each_value_just_inside_is_accepted():
    most = MAX_MAX_MEMBERS
    settings = parse_settings({
        "teams": [{"name": "x" * MAX_TEAM_NAME, "members": most}] + teams(most, most, most),
        "max_members": most, "rounds": MAX_ROUNDS,
        "deliberation_seconds": [MIN_SECONDS, MAX_SECONDS] * (MAX_ROUNDS // 2),
        "special_cards": {"desvio": MAX_SPECIAL_CARDS, "seguro": 0},
        "bank_special_cards": {"elijo": MAX_BANK_SPECIAL_CARDS, "desvio": 0},
        "points": {"card": MAX_POINTS, "pifie": -MAX_POINTS, "consolation": 0.01,
                   "risky_bonus": 99.99},
        "individual_rounds": list(range(1, MAX_ROUNDS + 1)),
        "class_name": "c" * MAX_TEAM_NAME, "roster": [["Ana"] * most] * 4,
        "x_note": nested(MAX_EXTRA_DEPTH)})
    assert settings.rounds == MAX_ROUNDS and settings.max_members == most
    assert settings.seconds_for(1) == MIN_SECONDS and settings.seconds_for(2) == MAX_SECONDS
    assert parse_settings(settings.to_dict()) == settings
    assert parse_settings(base(round_modes=[["normal"]] * MAX_ROUNDS)).rounds == MAX_ROUNDS
    assert parse_settings(base(rounds=1)).rounds == 1
    assert parse_settings(base(max_members=3, teams=teams(3, 3, 3, 3))).max_members == 3


@pytest.mark.app_config(SAMPLE_BANK=None)
def test_check_settings_refuses_a_million_rounds_quickly(gm):
    client = gm
    started = time.perf_counter()
    answer = client.post("/api/check-settings",
                         json={"settings": base(rounds=1_000_000)}).get_json()
    assert time.perf_counter() - started < 0.5
    assert answer["ok"] is False and answer["error"] == "R-O1"
    assert str(MAX_ROUNDS) in answer["message"]


@pytest.mark.app_config(SAMPLE_BANK=None)
def test_the_set_up_form_gets_the_games_bounds_and_default_schedules(gm):
    """The set-up page carries the game's bounds and, for each number of rounds, the
    schedule a game of that many rounds gets by default: the form draws them and writes
    none of them itself."""
    import json
    import re
    page = gm.get("/console/new/partida").get_data(as_text=True)
    found = re.search(r'<script id="setup-data" type="application/json">(.*?)</script>', page, re.S)
    bounds = json.loads(found.group(1))["bounds"]
    assert bounds["teams"] == {"min": 4, "max": 6}
    assert bounds["rounds"] == {"min": 1, "max": MAX_ROUNDS}
    assert bounds["deliberation_seconds"] == {"min": MIN_SECONDS, "max": MAX_SECONDS}
    assert bounds["points"] == {"min": -MAX_POINTS, "max": MAX_POINTS}
    assert len(bounds["schedules"]) == MAX_ROUNDS
    for rounds, default in enumerate(bounds["schedules"], start=1):
        settings = parse_settings(base(rounds=rounds))
        assert [list(m) for m in settings.round_modes] == default["modes"], rounds
        assert list(settings.individual_rounds) == default["individual"], rounds
