"""Resolving a turn (R-R), challenge markers (R-C) and scoring (R-P)."""
import pytest

from rulebook import act, new_game, normal_turn, play, refused, scores, to_deliberation

CHALLENGES = [["simple", "risky"], ["simple", "risky"]]


def challenge(mode, target=3, write="V"):
    """Round 1, host 1 challenges ``target`` in ``mode``; the secondary wrote ``write``."""
    game = to_deliberation(new_game(round_modes=CHALLENGES), mode, target, "Kant", "vf")
    if write is not None:
        secondary = game.state.turn.secondary
        play(game, act("write", team=secondary, text=write))
    return game


def test_r_r1_normal_full_takes_both_cards():
    game = play(new_game(), *normal_turn("Kant", "vf", "full"), act("end_turn"))
    assert game.state.team(1).cards == ["author:Kant", "type:vf"]
    assert scores(game)[1] == 2


@pytest.mark.parametrize("card,expected", [("author", "author:Kant"), ("type", "type:vf")])
def test_r_r2_normal_half_takes_one_card_of_its_choice(card, expected):
    game = play(new_game(), *normal_turn("Kant", "vf", "half"))
    refused(game, act("pick", team=2, card=card), "R-R2")
    play(game, act("pick", team=1, card=card), act("end_turn"))
    assert game.state.team(1).cards == [expected]


def test_r_r3_normal_wrong_takes_a_pifie_unless_seguro():
    game = play(new_game(), *normal_turn("Kant", "vf", "wrong"), act("end_turn"))
    assert game.state.team(1).pifies == 1 and scores(game)[1] == -0.5
    game = play(new_game(), act("declare", mode="normal"), act("seguro", team=1),
                act("choose", author="Kant", type="vf"), act("question", id="kant-vf-1"),
                act("verdict", result="wrong"), act("end_turn"))
    assert game.state.team(1).pifies == 0 and scores(game)[1] == 0


@pytest.mark.parametrize("mode,primary,secondary", [("simple", 1, 3), ("risky", 3, 1)])
def test_r_r4_case_a_full_with_correct_anticipation_gives_consolation(mode, primary, secondary):
    game = play(challenge(mode), act("verdict", result="full"), act("written", correct=True))
    refused(game, act("argument", result="good"), "R-U10")      # R-R8: no argument in case (a)
    play(game, act("end_turn"))
    assert game.state.team(primary).cards == ["author:Kant", "type:vf"]
    assert game.state.team(secondary).consolations == 1
    assert scores(game)[secondary] == 0.5


def test_r_r4_case_a_wrong_anticipation_gives_nothing():
    game = play(challenge("simple"), act("verdict", result="full"), act("written", correct=False),
                act("end_turn"))
    assert game.state.team(3).consolations == 0 and scores(game)[3] == 0


@pytest.mark.parametrize("mode,primary,secondary,bonus",
                         [("simple", 1, 3, 0), ("risky", 3, 1, 4)])
def test_r_r5_case_b_good_argument_wins_the_other_card(mode, primary, secondary, bonus):
    game = play(challenge(mode), act("verdict", result="half"))
    refused(game, act("written", correct=True), "R-U10")       # the primary picks first
    refused(game, act("pick", team=secondary, card="type"), "R-R5")
    play(game, act("pick", team=primary, card="type"), act("written", correct=True),
         act("argument", result="good"), act("end_turn"))
    assert game.state.team(primary).cards == ["type:vf"]
    assert game.state.team(secondary).cards == ["author:Kant"]
    assert scores(game)[secondary] == 1 + bonus                 # R-R7 in risky


def test_r_r5_case_b_poor_argument_wins_and_costs_nothing():
    game = play(challenge("simple"), act("verdict", result="half"),
                act("pick", team=1, card="author"), act("written", correct=True),
                act("argument", result="poor"))
    refused(game, act("pick", team=3, card="type"), "R-U10")
    play(game, act("end_turn"))
    team = game.state.team(3)
    assert (team.cards, team.pifies, team.consolations) == ([], 0, 0)


def test_r_r5_case_b_wrong_anticipation_gives_nothing():
    game = play(challenge("simple"), act("verdict", result="half"),
                act("pick", team=1, card="author"), act("written", correct=False))
    refused(game, act("argument", result="good"), "R-U10")
    play(game, act("end_turn"))
    assert scores(game)[3] == 0


@pytest.mark.parametrize("mode,primary,secondary,bonus",
                         [("simple", 1, 3, 0), ("risky", 3, 1, 4)])
def test_r_r6_case_c_good_argument_wins_both_cards(mode, primary, secondary, bonus):
    game = play(challenge(mode), act("verdict", result="wrong"), act("written", correct=True),
                act("argument", result="good"), act("end_turn"))
    assert game.state.team(primary).pifies == 1
    assert game.state.team(secondary).cards == ["author:Kant", "type:vf"]
    assert scores(game) [secondary] == 2 + bonus
    assert scores(game)[primary] == -0.5


def test_r_r6_case_c_poor_argument_wins_one_card_of_the_secondary_choice():
    game = play(challenge("simple"), act("verdict", result="wrong"), act("written", correct=True),
                act("argument", result="poor"))
    refused(game, act("end_turn"), "R-U10")
    refused(game, act("pick", team=1, card="type"), "R-R6")
    play(game, act("pick", team=3, card="type"), act("end_turn"))
    assert game.state.team(3).cards == ["type:vf"]


def test_r_r6_case_c_seguro_spares_the_primary_the_pifie():
    game = new_game(round_modes=CHALLENGES)
    play(game, act("declare", mode="risky", target=3), act("seguro", team=3),
         act("choose", author="Kant", type="vf"), act("question", id="kant-vf-1"),
         act("write", team=1, text="V"), act("verdict", result="wrong"),
         act("written", correct=False), act("end_turn"))
    assert game.state.team(3).pifies == 0


def test_r_r6_case_c_wrong_anticipation_gives_nothing():
    game = play(challenge("risky"), act("verdict", result="wrong"), act("written", correct=False))
    refused(game, act("argument", result="good"), "R-U10")
    play(game, act("end_turn"))
    assert scores(game) == {1: 0, 2: 0, 3: -0.5, 4: 0}


def test_r_r7_risky_bonus_only_for_the_host_with_a_good_argument():
    game = play(challenge("risky"), act("verdict", result="half"), act("pick", team=3, card="author"),
                act("written", correct=True), act("argument", result="poor"), act("end_turn"))
    assert game.state.team(1).bonuses == 0
    game = play(challenge("risky"), act("verdict", result="wrong"), act("written", correct=True),
                act("argument", result="good"), act("end_turn"))
    assert game.state.team(1).bonuses == 1


def test_r_r8_no_consolation_outside_case_a():
    for verdict in ("half", "wrong"):
        game = play(challenge("simple"), act("verdict", result=verdict))
        if verdict == "half":
            play(game, act("pick", team=1, card="author"))
        play(game, act("written", correct=True), act("argument", result="poor"))
        if verdict == "wrong":
            play(game, act("pick", team=3, card="author"))
        play(game, act("end_turn"))
        assert game.state.team(3).consolations == 0
        assert game.state.team(3).bonuses == 0


def test_r_c1_only_the_team_that_ends_up_challenged_takes_the_marker():
    game = new_game(round_modes=CHALLENGES)
    play(game, act("declare", mode="simple", target=2), act("desvio", team=2, target=3))
    assert game.state.team(3).markers == set()                  # handed out at the end
    play(game, act("choose", author="Kant", type="vf"), act("question", id="kant-vf-1"),
         act("verdict", result="full"), act("end_turn"))
    assert game.state.team(2).markers == set()
    assert game.state.team(3).markers == {"simple"}
    assert game.state.history[0]["challenged"] == 3


def test_r_c2_markers_go_back_to_the_bank_when_the_round_ends():
    game = new_game(round_modes=CHALLENGES)
    for target in (3, 4, 1, 2):
        to_deliberation(game, "simple", target)
        play(game, act("verdict", result="full"), act("end_turn"))
        if target != 2:
            assert any(t.markers for t in game.state.teams)
    assert game.state.turn.round == 2
    assert all(not t.markers for t in game.state.teams)
    play(game, act("declare", mode="simple", target=3))          # round 2: host 4 again


def test_r_p1_point_values_are_settings():
    game = new_game(round_modes=CHALLENGES, points={"card": 2, "risky_bonus": 10, "pifie": -1})
    to_deliberation(game, "risky", 3)
    play(game, act("write", team=1, text="V"), act("verdict", result="wrong"),
         act("written", correct=True), act("argument", result="good"), act("end_turn"))
    assert scores(game) == {1: 2 * 2 + 10, 2: 0, 3: -1, 4: 0}


def test_r_p2_score_is_the_sum_of_everything_behind_it():
    game = play(challenge("simple"), act("verdict", result="full"), act("written", correct=True),
                act("end_turn"), act("adjust", team=3, points=1.5, reason="Pregunta anulada"))
    row = next(r for r in game.standings() if r["team"] == 3)
    assert row["consolations"] == 1 and row["adjustments"] == 1.5 and row["score"] == 2


def test_r_p3_adjustment_needs_a_reason_kept_in_the_log():
    game = new_game()
    refused(game, act("adjust", team=2, points=1), "R-P3")
    refused(game, act("adjust", team=2, points=1, reason="   "), "R-P3")
    play(game, act("adjust", team=2, points=-0.5, reason="Ruido durante la respuesta"))
    assert game.state.adjust_log == [{"turn": 1, "team": 2, "points": -0.5,
                                      "reason": "Ruido durante la respuesta"}]
    assert scores(game)[2] == -0.5


def test_r_p3_adjustments_are_exact():
    game = new_game()
    for _ in range(10):
        play(game, act("adjust", team=1, points=0.1, reason="décimas"))
    play(game, act("adjust", team=2, points=1, reason="uno"))
    rows = game.standings()
    assert [r["rank"] for r in rows[:2]] == [1, 1]               # 10 × 0.1 == 1 exactly
    assert rows[0]["score"] == 1


def test_r_p4_ranking_score_then_cards_then_pifies_then_shared():
    game = new_game()
    play(game, act("adjust", team=1, points=2, reason="a"))      # 2, no cards
    play(game, *normal_turn("Kant", "vf", "full"), act("end_turn"))   # team 1 now 4
    play(game, *normal_turn("Marx", "vf", "full"), act("end_turn"))   # team 2: 2, two cards
    play(game, *normal_turn("Arendt", "vf", "wrong"), act("end_turn"))  # team 3: -0.5
    play(game, act("adjust", team=3, points=2.5, reason="b"))    # team 3: 2, no cards
    play(game, act("adjust", team=4, points=2, reason="c"))      # team 4: 2, no cards, no pifie
    rows = game.standings()
    assert [(r["team"], r["rank"]) for r in rows] == [(1, 1), (2, 2), (4, 3), (3, 4)]
    game = new_game()
    rows = game.standings()
    assert [(r["team"], r["rank"]) for r in rows] == [(1, 1), (2, 1), (3, 1), (4, 1)]
    play(game, act("adjust", team=3, points=1, reason="x"))
    assert [(r["team"], r["rank"]) for r in game.standings()] == [(3, 1), (1, 2), (2, 2), (4, 2)]
