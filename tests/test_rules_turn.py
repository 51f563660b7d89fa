"""A turn step by step (R-U), the order of rounds (R-O2, R-O3, R-O5) and questions (R-Q)."""
from facilitator.games.partida.order import hosts_of_round

from rulebook import act, new_game, normal_turn, play, refused, to_deliberation


def end_turns(game, count, author="Kant"):
    """Play ``count`` plain normal turns (round 1 is normal)."""
    for _ in range(count):
        q = next(q for q in game.questions.values() if q.id not in game.state.used)
        play(game, act("declare", mode="normal"), act("choose", author=q.author, type=q.type),
             act("question", id=q.id), act("verdict", result="full"), act("end_turn"))
    return game


def test_r_o2_r_o3_serpentine_order_with_five_teams():
    assert hosts_of_round(1, 5) == (1, 2, 3, 4, 5)
    assert hosts_of_round(2, 5) == (5, 4, 3, 2, 1)
    assert hosts_of_round(3, 5) == (1, 2, 3, 4, 5)
    game = new_game(teams=5, per_pair=6, round_modes=[["normal"]] * 3)
    hosts = []
    for _ in range(15):
        hosts.append(game.state.turn.host)
        end_turns(game, 1)
    assert hosts == [1, 2, 3, 4, 5, 5, 4, 3, 2, 1, 1, 2, 3, 4, 5]
    assert [h["round"] for h in game.state.history] == [1] * 5 + [2] * 5 + [3] * 5


def test_r_o5_game_over_after_last_turn_refuses_all_but_undo_redo_adjust():
    game = end_turns(new_game(rounds=1), 4)
    assert game.state.over
    refused(game, act("declare", mode="normal"), "R-O5")
    refused(game, act("spokesperson", team=1, name="Ana"), "R-O5")
    refused(game, act("exchange", team=1, give=["author:Kant"] * 3, take="seguro"), "R-O5")
    play(game, act("adjust", team=1, points=1, reason="buena conducta"))
    play(game, act("undo"), act("undo"))
    assert not game.state.over
    play(game, act("redo"))
    assert game.state.over


def test_r_o5_a_format_error_comes_before_the_game_over():
    game = end_turns(new_game(rounds=1), 4)
    refused(game, act("declare", mode="sideways"), "format")


def test_r_u1_mode_must_be_allowed_in_the_round():
    game = new_game()
    refused(game, act("declare", mode="simple", target=2), "R-U1")
    game = new_game(round_modes=[["simple"], ["risky"]])
    refused(game, act("declare", mode="normal"), "R-U1")
    refused(game, act("declare", mode="risky", target=2), "R-U1")


def test_r_u2_host_cannot_challenge_itself():
    game = new_game(round_modes=[["simple"]])
    refused(game, act("declare", mode="simple", target=1), "R-U2")


def test_r_u2_marker_holder_cannot_be_challenged_in_that_mode_again():
    game = new_game(round_modes=[["simple", "risky"]])
    to_deliberation(game, "simple", 3)
    play(game, act("verdict", result="full"), act("end_turn"))
    assert game.state.team(3).markers == {"simple"}
    refused(game, act("declare", mode="simple", target=3), "R-U2")
    play(game, act("declare", mode="risky", target=3))       # the other mode is fine


def test_r_u3_normal_when_nobody_can_be_challenged():
    game = new_game(round_modes=[["simple"], ["simple"]])
    for host, target in ((1, 2), (2, 3), (3, 4)):
        assert game.state.turn.host == host
        to_deliberation(game, "simple", target)
        play(game, act("verdict", result="full"), act("end_turn"))
    # Team 4 hosts; teams 2, 3 hold the simple marker, team 1 does not yet.
    refused(game, act("declare", mode="normal"), "R-U1")
    to_deliberation(game, "simple", 1)
    play(game, act("verdict", result="full"), act("end_turn"))
    # Round 2 runs 4, 3, 2, 1; after three turns host 1 finds 2, 3, 4 all marked.
    for host, target in ((4, 3), (3, 2), (2, 4)):
        assert game.state.turn.host == host
        to_deliberation(game, "simple", target)
        play(game, act("verdict", result="full"), act("end_turn"))
    assert game.state.turn.host == 1
    refused(game, act("declare", mode="simple", target=2), "R-U2")
    legal = {la.do: la for la in game.legal_actions()}
    assert legal["declare"].options["modes"] == {"normal": []}
    play(game, act("declare", mode="normal"))
    assert game.state.turn.mode == "normal"


def test_r_u4_only_the_secondary_team_writes():
    game = to_deliberation(new_game(round_modes=[["simple", "risky"]]), "simple", 3)
    refused(game, act("write", team=1, text="V"), "R-U4")     # the host answers aloud
    refused(game, act("write", team=2, text="V"), "R-U4")
    play(game, act("write", team=3, text="F"), act("write", team=3, text="V"))
    assert game.state.turn.written == "V"                      # the last one counts


def test_r_u4_in_a_risky_challenge_the_host_writes():
    game = to_deliberation(new_game(round_modes=[["risky"]]), "risky", 3)
    refused(game, act("write", team=3, text="V"), "R-U4")
    play(game, act("write", team=1, text="V"))


def test_r_u5_time_up_locks_the_written_answer_until_more_time():
    game = to_deliberation(new_game(round_modes=[["simple"]]), "simple", 2)
    play(game, act("write", team=2, text="V"), act("time_up"))
    refused(game, act("write", team=2, text="F"), "R-U5")
    refused(game, act("time_up"), "R-U5")
    play(game, act("more_time", seconds=30), act("write", team=2, text="F"))
    assert game.state.turn.written == "F"


def test_r_u5_the_verdict_locks_the_written_answer():
    game = to_deliberation(new_game(round_modes=[["simple"]]), "simple", 2)
    play(game, act("write", team=2, text="V"), act("verdict", result="full"))
    refused(game, act("write", team=2, text="F"), "R-U10")
    assert game.state.turn.written == "V"


def test_r_u5_no_anticipation_counts_as_wrong_and_cannot_be_judged_correct():
    for last_write in (None, "", "   \n"):
        game = to_deliberation(new_game(round_modes=[["simple"]]), "simple", 2)
        if last_write is not None:
            play(game, act("write", team=2, text="V"), act("write", team=2, text=last_write))
        play(game, act("verdict", result="full"))
        refused(game, act("written", correct=True), "R-U5")
        play(game, act("written", correct=False), act("end_turn"))
        assert game.state.team(2).consolations == 0


def test_r_u5_written_may_be_skipped_when_nothing_was_written():
    game = to_deliberation(new_game(round_modes=[["simple"]]), "simple", 2)
    play(game, act("verdict", result="wrong"), act("end_turn"))
    assert game.state.team(1).pifies == 1
    assert game.state.team(2).cards == []


def test_r_u7_spokesperson_at_any_step_does_not_move_the_turn():
    game = new_game()
    play(game, act("spokesperson", team=1, name="Ana"))
    assert game.state.turn.mode is None
    play(game, act("declare", mode="normal"), act("spokesperson", team=1, name="Luis"))
    assert game.state.turn.spokespersons == {1: "Luis"}
    refused(game, act("spokesperson", team=1, name="  "), "format")
    play(game, act("choose", author="Kant", type="vf"), act("question", id="kant-vf-1"),
         act("verdict", result="full"), act("end_turn"))
    assert game.state.history[0]["spokespersons"] == {"1": "Luis"}


def test_r_u9_representatives_only_in_individual_rounds():
    game = new_game(round_modes=[["normal"], ["simple"]])      # round 2 is individual
    refused(game, act("representative", team=2, name="Eva"), "R-U9")
    end_turns(game, 4)
    play(game, act("representative", team=2, name="Eva"))
    assert game.state.turn.representatives == {2: "Eva"}


def test_r_u9_individual_rounds_are_a_setting():
    game = new_game(round_modes=[["normal"], ["simple"]], individual_rounds=[1])
    play(game, act("representative", team=3, name="Eva"))


def test_r_u10_each_action_only_at_its_step():
    game = new_game(round_modes=[["normal"], ["simple", "risky"]])
    refused(game, act("choose", author="Kant", type="vf"), "R-U10")
    refused(game, act("question", id="kant-vf-1"), "R-U10")
    refused(game, act("verdict", result="full"), "R-U10")
    refused(game, act("end_turn"), "R-U10")
    refused(game, act("seguro", team=1), "R-U10")
    refused(game, act("write", team=2, text="V"), "R-U10")
    play(game, act("declare", mode="normal"))
    refused(game, act("declare", mode="normal"), "R-U10")
    refused(game, act("desvio", team=2, target=3), "R-U10")     # a Desvío in a normal turn
    refused(game, act("exchange", team=1, give=[], take="seguro"), "R-U10")
    refused(game, act("end_game"), "R-U10")
    play(game, act("choose", author="Kant", type="vf"))
    refused(game, act("choose", author="Kant", type="quien"), "R-U10")
    refused(game, act("elijo", team=2), "R-U10")
    refused(game, act("seguro", team=1), "R-U10")
    play(game, act("question", id="kant-vf-1"))
    refused(game, act("pick", team=1, card="author"), "R-U10")   # a pick nobody owes
    refused(game, act("written", correct=False), "R-U10")       # normal turn: nothing written
    refused(game, act("argument", result="good"), "R-U10")
    refused(game, act("end_turn"), "R-U10")                     # before the resolution
    play(game, act("verdict", result="half"))
    refused(game, act("end_turn"), "R-U10")
    refused(game, act("verdict", result="full"), "R-U10")


def test_r_q1_question_must_exist_match_and_be_unused():
    game = play(new_game(), act("declare", mode="normal"), act("choose", author="Kant", type="vf"))
    refused(game, act("question", id="nope"), "R-Q1")
    refused(game, act("question", id="marx-vf-1"), "R-Q1")
    refused(game, act("question", id="kant-quien-1"), "R-Q1")
    play(game, act("question", id="kant-vf-1"), act("verdict", result="full"), act("end_turn"),
         act("declare", mode="normal"), act("choose", author="Kant", type="vf"))
    refused(game, act("question", id="kant-vf-1"), "R-Q1")
    play(game, act("question", id="kant-vf-2"))


def test_r_q2_a_choice_with_no_unused_question_is_refused():
    game = new_game(per_pair=1)
    play(game, *normal_turn("Kant", "vf"), act("end_turn"), act("declare", mode="normal"))
    refused(game, act("choose", author="Kant", type="vf"), "R-Q2")
    refused(game, act("choose", author="Platón", type="vf"), "R-Q2")
    play(game, act("choose", author="Kant", type="quien"))       # the chooser chooses again
    choices = {la.do: la for la in new_game(per_pair=1).legal_actions()}
    assert choices["declare"].teams == (1,)


def test_r_q2_legal_choices_list_only_pairs_with_questions_left():
    game = new_game(per_pair=1)
    play(game, *normal_turn("Kant", "vf"), act("end_turn"), act("declare", mode="normal"))
    choose = next(la for la in game.legal_actions() if la.do == "choose")
    pairs = {(c["author"], c["type"]) for c in choose.options["choices"]}
    assert ("Kant", "vf") not in pairs and ("Kant", "quien") in pairs and len(pairs) == 8


def test_r_t4_team_numbers_must_name_a_team():
    game = new_game(round_modes=[["simple"]])
    refused(game, act("declare", mode="simple", target=5), "R-T4")
    refused(game, act("declare", mode="simple", target=0), "R-T4")
    refused(game, act("spokesperson", team=9, name="Ana"), "R-T4")
    refused(game, act("adjust", team=-1, points=1, reason="x"), "R-T4")
    play(game, act("declare", mode="simple", target=2))
    refused(game, act("desvio", team=2, target=7), "R-T4")
