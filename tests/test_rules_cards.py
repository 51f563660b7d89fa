"""Special cards (R-K): Desvío, Seguro, Elijo autor y pregunta, and exchanges."""
from rulebook import act, new_game, normal_turn, play, refused

CHALLENGES = [["simple", "risky"], ["simple", "risky"]]


def test_r_k1_each_team_is_dealt_its_special_cards():
    game = new_game()
    assert all(t.special == {"desvio": 1, "seguro": 1, "elijo": 1} for t in game.state.teams)
    game = new_game(special_cards={"desvio": 0, "elijo": 2})
    assert game.state.team(1).special == {"desvio": 0, "seguro": 1, "elijo": 2}


def test_r_k2_a_played_card_goes_to_the_discard_and_does_not_come_back():
    game = new_game(round_modes=CHALLENGES)
    play(game, act("declare", mode="simple", target=2), act("desvio", team=2, target=3))
    assert game.state.team(2).special["desvio"] == 0
    assert game.state.discard["desvio"] == 1 and game.state.bank["desvio"] == 6


def test_r_k3_desvio_sends_the_challenge_on():
    game = new_game(round_modes=CHALLENGES)
    play(game, act("declare", mode="risky", target=2), act("desvio", team=2, target=4))
    turn = game.state.turn
    assert (turn.target, turn.primary, turn.secondary) == (4, 4, 1)


def test_r_k3_only_the_challenged_team_and_one_per_turn():
    game = new_game(round_modes=CHALLENGES)
    play(game, act("declare", mode="simple", target=2))
    refused(game, act("desvio", team=3, target=4), "R-K3")
    refused(game, act("desvio", team=2, target=1), "R-K3")       # not the host
    refused(game, act("desvio", team=2, target=2), "R-K3")       # not itself
    play(game, act("desvio", team=2, target=3))
    refused(game, act("desvio", team=3, target=4), "R-K3")       # cannot pass it on
    refused(game, act("desvio", team=2, target=4), "R-K3")


def test_r_k3_desvio_target_must_be_allowed_by_r_u2():
    game = new_game(round_modes=CHALLENGES)
    play(game, act("declare", mode="simple", target=3), act("choose", author="Kant", type="vf"),
         act("question", id="kant-vf-1"), act("verdict", result="full"), act("end_turn"))
    play(game, act("declare", mode="simple", target=4))
    refused(game, act("desvio", team=4, target=3), "R-U2")      # 3 holds the simple marker
    play(game, act("desvio", team=4, target=1))


def test_r_k3_desvio_closes_with_seguro_or_the_choice():
    game = new_game(round_modes=CHALLENGES)
    play(game, act("declare", mode="simple", target=2), act("seguro", team=1))
    refused(game, act("desvio", team=2, target=3), "R-U10")
    game = new_game(round_modes=CHALLENGES)
    play(game, act("declare", mode="simple", target=2), act("elijo", team=4))
    play(game, act("desvio", team=2, target=3))                  # Elijo does not close it
    game = new_game(round_modes=CHALLENGES)
    play(game, act("declare", mode="simple", target=2), act("choose", author="Kant", type="vf"))
    refused(game, act("desvio", team=2, target=3), "R-U10")


def test_r_k4_seguro_only_for_the_primary_once_before_the_choice():
    game = new_game(round_modes=CHALLENGES)
    play(game, act("declare", mode="risky", target=2))
    refused(game, act("seguro", team=1), "R-K4")                 # risky: the challenged answers
    play(game, act("seguro", team=2))
    refused(game, act("seguro", team=2), "R-K4")
    assert game.state.team(2).special["seguro"] == 0


def test_r_k4_seguro_follows_the_desvio():
    game = new_game(round_modes=CHALLENGES)
    play(game, act("declare", mode="risky", target=2), act("desvio", team=2, target=3))
    refused(game, act("seguro", team=2), "R-K4")
    play(game, act("seguro", team=3))


def test_r_k4_seguro_is_discarded_even_when_not_needed():
    game = new_game()
    play(game, act("declare", mode="normal"), act("seguro", team=1),
         act("choose", author="Kant", type="vf"), act("question", id="kant-vf-1"),
         act("verdict", result="full"), act("end_turn"))
    assert game.state.team(1).special["seguro"] == 0 and game.state.discard["seguro"] == 1


def test_r_k5_elijo_gives_a_non_host_team_the_choice():
    game = new_game(round_modes=CHALLENGES)
    play(game, act("elijo", team=3))                             # step 1, before the declaration
    assert game.state.turn.chooser == 3
    refused(game, act("elijo", team=4), "R-K5")                  # one per turn
    game = new_game(round_modes=CHALLENGES)
    refused(game, act("elijo", team=1), "R-K5")                  # not the host
    play(game, act("declare", mode="simple", target=2), act("elijo", team=2))
    assert game.state.turn.chooser == 2                          # the challenged one included
    choose = next(la for la in game.legal_actions() if la.do == "choose")
    assert choose.teams == (2,)


def test_r_k6_exchange_cards_for_a_special_card_between_turns():
    game = new_game(per_pair=3, round_modes=[["normal"]] * 2)
    play(game, *normal_turn("Kant", "vf"), act("end_turn"))                      # team 1
    play(game, act("declare", mode="normal"), act("elijo", team=1),
         act("choose", author="Marx", type="quien"), act("question", id="marx-quien-1"),
         act("verdict", result="half"), act("pick", team=2, card="author"), act("end_turn"))
    refused(game, act("exchange", team=1, give=["author:Kant", "type:vf"], take="desvio"),
            "R-K6")                                                              # 2, not 3
    play(game, act("adjust", team=1, points=1, reason="Aporte"))
    refused(game, act("exchange", team=1, give=["author:Kant", "type:vf", "author:Marx"],
                      take="desvio"), "R-K6")                                    # not held
    play(game, *normal_turn("Kant", "quien", "full"), act("end_turn"))         # team 3
    play(game, *normal_turn("Kant", "abierta", "full"), act("end_turn"))       # team 4
    play(game, *normal_turn("Kant", "vf", "full", qid="kant-vf-2"), act("end_turn"))  # 4 again
    game2 = new_game(per_pair=3, exchange_cost=2)
    play(game2, *normal_turn("Kant", "vf"), act("end_turn"))
    play(game2, act("exchange", team=1, give=["type:vf", "author:Kant"], take="desvio"))
    team = game2.state.team(1)
    assert team.cards == [] and team.special["desvio"] == 2 and game2.state.bank["desvio"] == 5
    assert team.exchanged == ["type:vf", "author:Kant"]
    assert next(r for r in game2.standings() if r["team"] == 1)["score"] == 0
    refused(game2, act("exchange", team=1, give=["type:vf", "author:Kant"], take="seguro"),
            "R-K6")
    play(game2, act("declare", mode="normal"))
    refused(game2, act("exchange", team=1, give=[], take="seguro"), "R-U10")


def test_r_k6_the_bank_must_have_the_card_left():
    game = new_game(bank_special_cards={"seguro": 0}, exchange_cost=1)
    play(game, *normal_turn("Kant", "vf"), act("end_turn"))
    refused(game, act("exchange", team=1, give=["type:vf"], take="seguro"), "R-K6")
    play(game, act("exchange", team=1, give=["type:vf"], take="elijo"))
    assert game.state.team(1).cards == ["author:Kant"]
    assert next(r for r in game.standings() if r["team"] == 1)["score"] == 1   # given cards no longer count


def test_r_k7_only_a_held_card_can_be_played():
    game = new_game(round_modes=CHALLENGES, special_cards={"desvio": 0, "seguro": 0, "elijo": 0})
    refused(game, act("elijo", team=2), "R-K7")
    play(game, act("declare", mode="simple", target=2))
    refused(game, act("desvio", team=2, target=3), "R-K7")
    refused(game, act("seguro", team=1), "R-K7")
    assert [la.do for la in game.legal_actions()][:1] == ["choose"]
