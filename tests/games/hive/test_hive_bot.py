"""The computer player: legal answers, its time limit, and its strength against chance."""
from __future__ import annotations

import time

import pytest
from hive_cases import read_pgn, recordings

from facilitator.games import Role
from facilitator.games.hive import KIND, bot
from facilitator.games.hive.board import PASS
from facilitator.games.hive.rules import check, load

# Thirty moves into one of Mzinga's recorded games: both sides have many moves.
MIDGAME = ";".join(["Base;InProgress;White[1]",
                    *read_pgn(next(p for p in recordings() if "eebygum" in p.name))[1][:30]])


def test_the_bot_answers_a_valid_move_in_canonical_spelling():
    board = load(MIDGAME)
    before = board.texts[:]
    for depth in (1, 2):
        move = bot.best_move(board, depth=depth)
        assert bot.canonical(board, check(board, move)) == move
    assert board.texts == before        # the search works on a copy


def test_the_bot_plays_for_a_match_at_its_depth_setting():
    match = KIND.new({"bot_depth": 1})
    match.play({"do": "move", "move": bot.best_move(match)}, Role.gm())
    assert match.board.ply == 1


def test_the_bot_keeps_to_its_time():
    board = load(MIDGAME)
    start = time.perf_counter()
    move = bot.best_move(board, time_limit=0.3)
    assert time.perf_counter() - start < 1.0
    check(board, move)
    _move, _value, reached = bot.search(board, time_limit=0.3)
    assert reached >= 1


def test_the_bot_passes_when_it_must_and_refuses_a_finished_game():
    board = load("Base;InProgress;White[1];wS1;bS1 \\wS1;wQ wS1\\;bQ \\bS1;wS2 -wQ;bS2 \\bQ;"
                 "wA1 wQ/;bA1 \\bS2;wA2 /wQ;bA2 \\bA1;wA3 wQ-;bA3 \\bA2;wB1 wQ\\")
    with pytest.raises(ValueError):
        bot.best_move(board)
    moves = read_pgn(next(p for p in recordings() if "guest" in p.name))[1]
    stuck = load(";".join(["Base;InProgress;White[1]", *moves[:moves.index("pass")]]))
    assert stuck.valid_moves() == [PASS] and bot.best_move(stuck) == "pass"


def test_the_default_depth_answers_within_a_second():
    board = load(MIDGAME)
    start = time.perf_counter()
    bot.best_move(board)
    assert time.perf_counter() - start < 1.0


@pytest.mark.slow
def test_the_bot_beats_a_random_player():
    """At least 95 wins in 100 games, colours alternating, a seeded random opponent."""
    result = bot.against_random(games=100, depth=1, seed=2024, max_plies=300)
    assert result["wins"] >= 95, result


def test_the_beginner_beats_random_moves_and_plays_the_expansions():
    """H-G7 (issue 49, item 2): a beginner's slips are a person's, not chance: it wins
    against random moves (bench/hive.py --ladder plays the whole ladder); every level
    plays a Base+MLP game's moves, each within its seconds and a tenth."""
    won = 0
    for game in range(8):
        pair = ("beginner", None) if game % 2 == 0 else (None, "beginner")
        won += bot.play_levels(pair, 100 + game)["result"] == ("white", "black")[game % 2]
    assert won >= 5     # the others: no result within 200 plies, never a loss
    for name in ("beginner", "club"):
        played = bot.play_levels((name, name), 7, frozenset("MLP"), max_plies=12)
        assert played["plies"] == 12
        assert max(played["longest"]) < bot.LEVELS[name].seconds + 0.1
