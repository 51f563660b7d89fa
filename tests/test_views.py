"""Who sees what (R-V1..R-V4, R-U6): the per-audience views of the engine."""
import json

from facilitator.games.partida.views import gm_view, public_view, team_view

from rulebook import act, new_game, play, to_deliberation

SEALED = "Mi respuesta secreta sellada"


def dumped(view):
    return json.dumps(view, ensure_ascii=False)


def deliberating():
    game = to_deliberation(new_game(round_modes=[["simple"]]), "simple", 3, "Kant", "vf")
    play(game, act("write", team=3, text=SEALED))
    return game


def test_r_v1_the_expected_answer_is_only_in_the_gm_view():
    game = deliberating()
    answer = game.questions["kant-vf-1"].answer
    assert answer in dumped(gm_view(game.state))
    assert game.questions["kant-vf-1"].text in dumped(public_view(game.state))
    for team in range(1, 5):
        assert answer not in dumped(team_view(game.state, team))
    assert answer not in dumped(public_view(game.state))


def test_r_v2_r_u6_the_sealed_answer_is_seen_by_the_gm_and_its_team_until_the_verdict():
    game = deliberating()
    assert SEALED in dumped(gm_view(game.state))
    assert SEALED in dumped(team_view(game.state, 3))
    for team in (1, 2, 4):
        assert SEALED not in dumped(team_view(game.state, team))
    assert SEALED not in dumped(public_view(game.state))
    assert public_view(game.state)["turn"]["has_written"] is True
    play(game, act("verdict", result="full"))
    assert public_view(game.state)["turn"]["written"] == SEALED     # revealed to everyone


def test_r_v2_past_turns_reveal_only_what_was_revealed():
    game = deliberating()
    play(game, act("verdict", result="full"), act("written", correct=True), act("end_turn"))
    view = dumped(public_view(game.state))
    assert SEALED in view
    assert game.questions["kant-vf-1"].answer not in view


def test_r_v3_the_projector_view_has_the_round_order_roles_and_scoreboard():
    game = deliberating()
    view = public_view(game.state)
    assert view["round"] == 1 and view["order"] == [1, 2, 3, 4] and view["position"] == 0
    turn = view["turn"]
    assert (turn["host"], turn["mode"], turn["primary"], turn["secondary"]) == (1, "simple", 1, 3)
    assert (turn["author"], turn["type"]) == ("Kant", "vf")
    assert turn["question"]["text"] == game.questions["kant-vf-1"].text
    assert {"cards", "pifies", "markers", "special", "score"} <= set(view["teams"][0])
    assert view["standings"] is None


def test_r_v4_special_cards_held_are_public():
    game = new_game()
    play(game, act("elijo", team=2))
    assert public_view(game.state)["teams"][1]["special"] == {"desvio": 1, "seguro": 1, "elijo": 0}
