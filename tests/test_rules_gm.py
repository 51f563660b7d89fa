"""The GM's hand on the game (R-G1, R-G3) and the refusal order of section 11."""
from rulebook import act, new_game, normal_turn, play, refused, to_deliberation


def test_r_g1_undo_restores_the_state_exactly_and_redo_puts_it_back():
    game = new_game(round_modes=[["simple", "risky"]] * 2)
    states = [game.state.to_dict()]
    actions = [act("declare", mode="simple", target=2), act("desvio", team=2, target=3),
               act("choose", author="Kant", type="vf"), act("question", id="kant-vf-1"),
               act("write", team=3, text="V"), act("verdict", result="wrong"),
               act("written", correct=True), act("argument", result="poor"),
               act("pick", team=3, card="type"), act("end_turn")]
    for action in actions:
        play(game, action)
        states.append(game.state.to_dict())
    for expected in reversed(states[:-1]):
        play(game, act("undo"))
        assert game.state.to_dict() == expected
    refused(game, act("undo"), "R-G1")
    for expected in states[1:]:
        play(game, act("redo"))
        assert game.state.to_dict() == expected
    refused(game, act("redo"), "R-G1")


def test_r_g1_undo_makes_the_question_unused_again():
    game = play(new_game(), *normal_turn("Kant", "vf"))
    play(game, act("undo"), act("undo"))
    assert "kant-vf-1" not in game.state.used
    play(game, act("question", id="kant-vf-1"))


def test_r_g1_undo_across_turns_and_rounds_back_to_the_start():
    game = new_game(round_modes=[["normal"], ["normal"]])
    start = game.state.to_dict()
    for _ in range(5):
        q = next(q for q in game.questions.values() if q.id not in game.state.used)
        play(game, act("declare", mode="normal"), act("choose", author=q.author, type=q.type),
             act("question", id=q.id), act("verdict", result="full"), act("end_turn"))
    assert game.state.turn.round == 2
    for _ in range(25):
        play(game, act("undo"))
    assert game.state.to_dict() == start


def test_r_g1_a_new_action_after_undo_drops_the_redo():
    game = play(new_game(), act("declare", mode="normal"), act("undo"))
    play(game, act("spokesperson", team=1, name="Ana"))
    refused(game, act("redo"), "R-G1")


def test_r_g1_undo_and_redo_are_not_themselves_undone():
    game = play(new_game(), act("declare", mode="normal"), act("elijo", team=2),
                act("undo"), act("undo"))
    assert game.state.turn.mode is None
    refused(game, act("undo"), "R-G1")
    assert len(game.log) == 4


def test_r_g3_the_gm_ends_the_game_early_between_turns():
    game = play(new_game(), *normal_turn(), act("end_turn"), act("declare", mode="normal"))
    refused(game, act("end_game"), "R-U10")
    play(game, act("undo"), act("end_game"))
    assert game.state.over and game.state.ended_early
    refused(game, act("declare", mode="normal"), "R-O5")
    play(game, act("adjust", team=1, points=1, reason="participación"))
    play(game, act("undo"), act("undo"))
    assert not game.state.over


def test_refusal_order_format_before_game_over_before_step_before_team_before_rule():
    game = new_game(round_modes=[["simple"]])
    refused(game, act("desvio", team="2", target=3), "format")
    refused(game, act("dance"), "format")
    refused(game, act("declare", mode="simple"), "format")            # lacks target
    refused(game, act("declare", mode="normal", target=2), "format")  # normal names none
    refused(game, act("desvio", team=9, target=3), "R-U10")           # step before team
    play(game, act("declare", mode="simple", target=2))
    refused(game, act("desvio", team=9, target=3), "R-T4")            # team before rule
    refused(game, act("desvio", team=3, target=4), "R-K3")


def test_the_state_and_log_are_untouched_by_any_refusal():
    game = to_deliberation(new_game(round_modes=[["simple"]]), "simple", 2)
    for bad in (act("write", team=3, text="x"), act("verdict", result="meh"),
                act("pick", team=1, card="author"), {"do": None}, "not an object", 42):
        refused(game, bad, refused_rule(bad))


def refused_rule(bad):
    if not isinstance(bad, dict) or bad.get("do") is None or bad.get("result") == "meh":
        return "format"
    return {"write": "R-U4", "pick": "R-U10"}[bad["do"]]
