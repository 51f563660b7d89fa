"""The class tournament's hall rules (H-T1 to H-T7) and the computer's seat (H-G7), pure:
plans, rounds, standings with their tie-breaks, the bell, the projector's boards."""
from __future__ import annotations

import json

import pytest

from facilitator.games import Refusal, Role, kind
from facilitator.games.hive import KIND, HiveHall
from facilitator.games.hive.hall import BOT_NAME

HALL = HiveHall()
NAMES = ["Ana", "Bea", "Carla", "Dani", "Eva", "Fede", "Gil"]


def games_of(plan):
    """The latest round's games, made as the store makes them."""
    return [(game, KIND.new(game["settings"], game["content"])) for game in HALL.round_games(plan)]


def finish(match, result="white", reason="forfeit"):
    match.play({"do": "end", "result": result, "reason": reason}, Role.gm())


def summaries_of(plan, matches):
    return {game["key"]: HALL.summary(match) for game, match in matches}


def test_kind_hive_has_the_tournament_and_its_bounds():
    assert kind("hive").hall is KIND.hall and isinstance(KIND.hall, HiveHall)
    bounds = HALL.bounds()
    assert bounds["odd"]["options"] == ["bye", "bot"] and bounds["round_robin_max"]["default"] == 6


def test_a_small_class_plays_a_round_robin_a_large_one_swiss():        # H-T1
    small = HALL.plan(NAMES[:6], {}, seed=1)
    assert small["system"] == "round_robin" and small["rounds_total"] == 5
    large = HALL.plan([f"P{i}" for i in range(30)], {"swiss_rounds": 9}, seed=1)
    assert large["system"] == "swiss" and large["rounds_total"] == 9
    few = HALL.plan(NAMES, {"round_robin_max": 4}, seed=1)
    assert few["system"] == "swiss" and few["rounds_total"] == 3     # (7 - 1) // 2
    with pytest.raises(Refusal) as refused:
        HALL.plan(["Ana"], {}, seed=1)
    assert refused.value.rule == "H-T1"
    for wrong in ({"odd": "coin"}, {"swiss_rounds": 0}, {"colour": 1}, {"bot_level": True},
                  {"bot_depth": 2}):
        with pytest.raises(Refusal) as refused:
            HALL.plan(NAMES, wrong, seed=1)
        assert refused.value.rule == "format"


def test_seven_with_the_bot_every_game_set_for_the_store():            # H-T3, H-G7
    plan = HALL.plan(NAMES, {"odd": "bot", "bot_level": "casual"}, seed=4)
    assert plan["system"] == "swiss"
    games = HALL.round_games(plan)
    assert [g["key"] for g in games] == ["1.1", "1.2", "1.3", "1.4"]
    bot_games = [g for g in games if g["settings"]["bot"]]
    assert len(bot_games) == 1 and bot_games[0] is games[-1]
    bot = bot_games[0]
    seat = bot["settings"]["bot"]
    colour = ("white", "black")[seat - 1]
    assert bot["content"]["players"][colour] == BOT_NAME and len(bot["players"]) == 1
    assert BOT_NAME in bot["name"]
    json.dumps(plan)
    for game, match in games_of(plan):
        assert match.settings["bot_level"] == "casual" and match.bot == (game["settings"]["bot"] or None)
        assert sorted(match.players.values()) == sorted(game["content"]["players"].values())


def test_the_tournament_plays_the_game_type_chosen():                 # H-S1.4
    assert HALL.bounds()["game_type"]["options"][-1] == "Base+MLP"
    plan = HALL.plan(NAMES[:4], {"game_type": "Base+MLP"}, seed=3)
    for _game, match in games_of(plan):
        assert match.settings["game_type"] == "Base+MLP"
        assert match.board.game_type == "Base+MLP"
    with pytest.raises(Refusal) as refused:
        HALL.plan(NAMES, {"game_type": "Base+Q"}, seed=1)
    assert refused.value.rule == "format"
    # A plan made before the setting existed plays the base game.
    old = HALL.plan(NAMES[:4], {}, seed=3)
    del old["game"]["game_type"]
    assert all(m.board.game_type == "Base" for _g, m in games_of(old))


def test_a_round_follows_when_every_game_is_over_and_not_after_the_last():   # H-T4
    plan = HALL.plan(NAMES[:4], {}, seed=2)
    matches = games_of(plan)
    finish(matches[0][1])
    with pytest.raises(Refusal) as refused:
        HALL.next_round(plan, summaries_of(plan, matches))
    assert refused.value.rule == "H-T4" and "1.2" in refused.value.message
    view = HALL.view(plan, summaries_of(plan, matches), Role.gm(), [])
    assert view["next_round"] == {"ok": False, "rule": "H-T4",
                                  "message": "game 1.2 of this round is still on"}
    all_summaries = {}
    for r in range(3):
        for _game, match in matches:
            if not match.over:
                finish(match, "draw", "agreement")
        all_summaries.update(summaries_of(plan, matches))
        if r < 2:
            plan = HALL.next_round(plan, all_summaries)
            matches = games_of(plan)
    assert len(plan["rounds"]) == 3
    with pytest.raises(Refusal) as refused:
        HALL.next_round(plan, all_summaries)
    assert refused.value.rule == "H-T1"
    pairs = [frozenset((b["white"], b["black"])) for r in plan["rounds"] for b in r]
    assert len(set(pairs)) == 6                                         # H-T2: everyone met


def test_a_bye_scores_a_win_and_standings_break_ties():                # H-T3, H-T5
    plan = HALL.plan(NAMES[:5], {}, seed=3)
    bye = [b["bye"] for b in plan["rounds"][0] if "bye" in b][0]
    matches = games_of(plan)
    finish(matches[0][1], "white")
    finish(matches[1][1], "draw", "agreement")
    table = HALL.standings(plan, summaries_of(plan, matches))
    by_player = {row["player"]: row for row in table}
    assert by_player[bye]["points"] == 1.0 and by_player[bye]["byes"] == 1
    winner = plan["rounds"][0][0]["white"]
    loser = plan["rounds"][0][0]["black"]
    assert by_player[winner] | {} == {**by_player[winner], "wins": 1, "points": 1.0, "played": 1}
    assert by_player[loser]["losses"] == 1 and by_player[loser]["rank"] == 5
    # The winner beat a player with 0 points, the bye beat nobody: level on points and
    # Buchholz (0), level on Sonneborn-Berger too: they share the first rank.
    assert by_player[winner]["rank"] == by_player[bye]["rank"] == 1
    drawn = [plan["rounds"][0][1]["white"], plan["rounds"][0][1]["black"]]
    assert {by_player[p]["rank"] for p in drawn} == {3} and by_player[drawn[0]]["points"] == 0.5


def test_buchholz_orders_players_level_on_points():                   # H-T5
    plan = {"players": list("ABCD"), "system": "swiss", "odd": "bye", "rounds_total": 2,
            "seed": 0, "game": {"turn_limit": 0, "bot_level": "casual"},
            "rounds": [[{"white": 0, "black": 1}, {"white": 2, "black": 3}],
                       [{"white": 3, "black": 0}, {"white": 1, "black": 2}]]}
    results = {"1.1": "white", "1.2": "white", "2.1": "white", "2.2": "white"}
    summaries = {k: {"over": True, "result": v} for k, v in results.items()}
    table = HALL.standings(plan, summaries)
    # A, B, C and D all have 1 point; A beat B (1 point) and lost to D (1): Buchholz 2 all.
    assert {row["points"] for row in table} == {1.0} and {row["buchholz"] for row in table} == {2.0}
    assert {row["sonneborn_berger"] for row in table} == {1.0} and {r["rank"] for r in table} == {1}
    # Round 2 again: D beats A, B and C draw. A and D have 1 point each; D met C (1.5)
    # and A (1), A met B (0.5) and D (1): D's Buchholz 2.5 is above A's 1.5.
    plan["rounds"][1] = [{"white": 3, "black": 0}, {"white": 2, "black": 1}]
    results.update({"2.1": "white", "2.2": "draw"})
    summaries = {k: {"over": True, "result": v} for k, v in results.items()}
    table = HALL.standings(plan, summaries)
    assert [(r["player"], r["points"], r["buchholz"], r["rank"]) for r in table] == [
        (2, 1.5, 1.5, 1), (3, 1.0, 2.5, 2), (0, 1.0, 1.5, 3), (1, 0.5, 2.5, 4)]
    assert table[1]["sonneborn_berger"] == 1.0 and table[2]["sonneborn_berger"] == 0.5


def test_the_bell_ends_a_game_on_as_a_draw():                         # H-T6
    plan = HALL.plan(NAMES[:4], {}, seed=2)
    (_g1, on), (_g2, done) = games_of(plan)
    finish(done, "black", "forfeit: left the room")                    # H-G6's forfeit
    action = HALL.bell(HALL.summary(on))
    assert action == {"do": "end", "result": "draw", "reason": "bell"}
    on.play(action, Role.gm())
    assert on.result == {"result": "draw", "reason": "bell", "rule": "H-G6"}
    assert HALL.bell(HALL.summary(done)) is None


def test_the_projector_shows_four_live_boards_at_most():              # H-T7
    plan = HALL.plan(NAMES[:6], {}, seed=5)
    matches = games_of(plan)
    matches[0][1].play({"do": "move", "move": "wG1"}, Role.of_seat(1))
    summaries = summaries_of(plan, matches)
    watcher = HALL.view(plan, summaries, Role.watcher(), ["1.1"])
    assert list(watcher["boards"]) == ["1.1"] and watcher["boards"]["1.1"]["moves"] == ["wG1"]
    assert watcher["boards"]["1.1"] == matches[0][1].view(Role.watcher())
    assert "earlier" not in watcher and "next_round" not in watcher
    line = watcher["pairings"][0]
    assert line["to_move"] == "black" and line["moves"] == 1 and line["last_move"] == "wG1"
    assert line["white"]["name"] == NAMES[plan["rounds"][0][0]["white"]]
    teacher = HALL.view(plan, summaries, Role.gm(), ["1.1"])
    assert "boards" not in teacher and teacher["teacher"] and teacher["earlier"] == []
    HALL.check_shown(plan, ["1.1", "1.2", "1.3"])
    with pytest.raises(Refusal) as refused:
        HALL.check_shown(plan, ["1.1", "1.2", "1.3", "2.1", "2.2"])
    assert refused.value.rule == "H-T7"
    json.dumps(watcher)


def test_the_projector_shows_the_current_round_only():                    # H-T7
    plan = HALL.plan(NAMES[:4], {}, seed=2)
    matches = games_of(plan)
    for _game, match in matches:
        finish(match, "draw", "agreement")
    summaries = summaries_of(plan, matches)
    plan = HALL.next_round(plan, summaries)
    summaries.update(summaries_of(plan, games_of(plan)))
    # The boards picked in round 1 are no longer shown under «Ronda 2».
    watcher = HALL.view(plan, summaries, Role.watcher(), ["1.1", "1.2", "2.1"])
    assert watcher["round"] == 2 and list(watcher["boards"]) == ["2.1"]
    assert watcher["shown"] == ["2.1"]


# ---- the computer's seat (H-G7) -----------------------------------------------------------

def bot_game(seat=2, depth=1):
    return KIND.new({"bot": seat, "bot_depth": depth}, players={"white": "Ana", "black": "Bot"})


def test_the_computer_moves_when_its_clock_is_due():                  # H-G7
    match = bot_game()
    assert match.deadline() is None and match.due(0.0) is None         # White's turn
    match.play({"do": "move", "move": "wG1"}, Role.of_seat(1))
    assert match.deadline() == 0.0
    action = match.due(0.0)
    assert action["do"] == "move"
    match.play(action, Role.clock())
    assert match.deadline() is None and len(match.board.texts) == 2
    assert match.view(Role.watcher())["bot"] == 2 and match.seats()[1]["bot"] is True
    white_first = bot_game(seat=1)
    assert white_first.deadline() == 0.0
    white_first.play(white_first.due(0.0), Role.clock())
    assert white_first.board.texts and white_first.deadline() is None


def test_nobody_but_the_clock_and_the_teacher_moves_for_the_computer():    # H-G7
    match = bot_game()
    with pytest.raises(Refusal) as refused:
        match.play({"do": "move", "move": "wG1"}, Role.clock())        # not its turn
    assert refused.value.rule == "H-G7"
    match.play({"do": "move", "move": "wG1"}, Role.table())
    for by in (Role.of_seat(2), Role.table()):
        with pytest.raises(Refusal) as refused:
            match.play({"do": "move", "move": "bG1 -wG1"}, by)
        assert refused.value.rule == "H-G7"
    for do in ("ask_undo", "offer_draw"):
        with pytest.raises(Refusal) as refused:
            match.play({"do": do}, Role.of_seat(1))
        assert refused.value.rule == "H-G7"
    assert [e.do for e in match.legal(Role.table())] == []
    assert [e.do for e in match.legal(Role.of_seat(1))] == []
    match.play({"do": "move", "move": "bG1 -wG1"}, Role.gm())          # the teacher may
    assert [e.do for e in match.legal(Role.of_seat(1))] == ["move"]
    match.play({"do": "undo"}, Role.gm())
    assert match.deadline() == 0.0


def test_a_bot_setting_out_of_bounds_is_refused():
    for wrong in (3, -1, "2", True):
        with pytest.raises(Refusal) as refused:
            KIND.new({"bot": wrong})
        assert refused.value.rule == "format" and "bot" in refused.value.message
