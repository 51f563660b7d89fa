"""Teams (R-T), rounds (R-O1, R-O4) and the settings of a record (RULES.md section 11)."""
import random

import pytest

from facilitator.games.partida import (Refusal, deal_students, parse_settings, propose_team_sizes)
from facilitator.games.partida.settings import default_round_modes


def teams(*members):
    return [{"name": f"Equipo {i}", "members": m} for i, m in enumerate(members, start=1)]


def refused_settings(data, rule):
    with pytest.raises(Refusal) as caught:
        parse_settings(data)
    assert caught.value.rule == rule, caught.value
    assert caught.value.action is None
    return caught.value


@pytest.mark.parametrize("count", [3, 7])
def test_r_t1_four_to_six_teams(count):
    refused_settings({"teams": teams(*[4] * count)}, "R-T1")


@pytest.mark.parametrize("count", [4, 5, 6])
def test_r_t1_accepts_four_five_and_six_teams(count):
    assert parse_settings({"teams": teams(*[4] * count)}).team_count == count


def test_r_t2_three_to_six_members():
    refused_settings({"teams": teams(2, 3, 3, 3)}, "R-T2")
    refused_settings({"teams": teams(7, 7, 7, 7)}, "R-T2")
    assert parse_settings({"teams": teams(3, 3, 3, 3)})


def test_r_t2_upper_bound_is_a_setting():
    assert parse_settings({"teams": teams(7, 7, 8, 8), "max_members": 8}).max_members == 8
    refused_settings({"teams": teams(9, 9, 9, 9), "max_members": 8}, "R-T2")


def test_r_t3_no_team_two_members_larger():
    error = refused_settings({"teams": teams(3, 4, 5, 4)}, "R-T3")
    assert "[3, 4, 5, 4]" in error.message
    assert parse_settings({"teams": teams(5, 4, 5, 4)})


def test_r_t5_proposes_sizes_for_a_class():
    assert propose_team_sizes(29) == [6, 6, 6, 6, 5]
    assert propose_team_sizes(12) == [3, 3, 3, 3]
    assert propose_team_sizes(36) == [6] * 6
    for students in range(12, 37):
        sizes = propose_team_sizes(students)
        assert sum(sizes) == students
        parse_settings({"teams": teams(*sizes)})        # R-T1..R-T3 hold


@pytest.mark.parametrize("students,rule", [(11, "R-T1"), (37, "R-T2")])
def test_r_t5_refuses_a_class_that_cannot_split(students, rule):
    with pytest.raises(Refusal) as caught:
        propose_team_sizes(students)
    assert caught.value.rule == rule


def test_r_t5_deals_named_students_at_random():
    names = [f"Alumno {i}" for i in range(29)]
    dealt = deal_students(names, [6, 6, 6, 6, 5], random.Random(1))
    assert [len(t) for t in dealt] == [6, 6, 6, 6, 5]
    assert sorted(sum(dealt, [])) == sorted(names)
    assert dealt != deal_students(names, [6, 6, 6, 6, 5], random.Random(2))


def test_r_o1_a_game_has_at_least_one_round():
    refused_settings({"teams": teams(4, 4, 4, 4), "rounds": 0}, "R-O1")
    refused_settings({"teams": teams(4, 4, 4, 4), "rounds": "six"}, "R-O1")


def test_r_o4_default_schedule():
    settings = parse_settings({"teams": teams(4, 4, 4, 4)})
    assert settings.rounds == 6
    assert settings.round_modes[0] == ("normal",)
    assert all(m == ("simple", "risky") for m in settings.round_modes[1:])
    assert settings.individual_rounds == (6,)
    assert default_round_modes(1) == [["normal"]]


def test_r_o4_rounds_stretch_the_default_schedule():
    settings = parse_settings({"teams": teams(4, 4, 4, 4), "rounds": 3})
    assert settings.round_modes == (("normal",), ("simple", "risky"), ("simple", "risky"))
    assert settings.individual_rounds == (3,)


def test_r_o4_round_modes_give_the_number_of_rounds():
    settings = parse_settings({"teams": teams(4, 4, 4, 4), "round_modes": [["risky"]] * 2})
    assert settings.rounds == 2


def test_r_o4_rounds_and_round_modes_must_agree():
    refused_settings({"teams": teams(4, 4, 4, 4), "rounds": 3,
                      "round_modes": [["normal"], ["simple"]]}, "R-O4")


@pytest.mark.parametrize("modes", [[[]], [["fast"]], [["simple", "simple"]], "normal"])
def test_r_o4_each_round_lists_known_modes(modes):
    refused_settings({"teams": teams(4, 4, 4, 4), "round_modes": modes}, "R-O4")


def test_r_u8_deliberation_seconds_per_round():
    settings = parse_settings({"teams": teams(4, 4, 4, 4), "rounds": 2,
                               "deliberation_seconds": [30, 90]})
    assert (settings.seconds_for(1), settings.seconds_for(2)) == (30, 90)
    assert parse_settings({"teams": teams(4, 4, 4, 4)}).seconds_for(6) == 60
    refused_settings({"teams": teams(4, 4, 4, 4), "deliberation_seconds": -5}, "R-U8")


def test_partial_settings_merge_with_defaults():
    settings = parse_settings({"teams": teams(4, 4, 4, 4), "points": {"pifie": -1},
                               "special_cards": {"desvio": 2}})
    assert float(settings.points.pifie) == -1 and float(settings.points.card) == 1
    assert float(settings.points.consolation) == 0.5
    assert float(settings.points.risky_bonus) == 4
    assert settings.special_cards == {"desvio": 2, "seguro": 1, "elijo": 1}
    assert settings.bank_special_cards == {"desvio": 6, "seguro": 6, "elijo": 6}
    assert settings.exchange_cost == 3 and settings.max_members == 6


def test_settings_round_trip_and_keep_unknown_keys():
    data = {"teams": teams(4, 4, 5, 5), "rounds": 4, "points": {"risky_bonus": 3},
            "deliberation_seconds": 45, "exchange_cost": 2, "class_name": "Filosofía 1ºA"}
    settings = parse_settings(data)
    assert settings.extra == {"class_name": "Filosofía 1ºA"}
    assert parse_settings(settings.to_dict()) == settings


@pytest.mark.parametrize("data", [
    None, [], {"teams": "four"}, {"teams": [{"name": "", "members": 4}] * 4},
    {"teams": [{"name": "A", "members": "4"}] * 4},
    {"teams": teams(4, 4, 4, 4), "points": {"card": "one"}},
    {"teams": teams(4, 4, 4, 4), "special_cards": {"joker": 1}},
    {"teams": teams(4, 4, 4, 4), "exchange_cost": 0},
    {"teams": teams(4, 4, 4, 4), "individual_rounds": [9]},
])
def test_malformed_settings_are_refused_as_format(data):
    refused_settings(data, "format")
