"""Mzinga's own base-game test cases, row by row (tests/data/mzinga/).

Valid moves: every move Mzinga lists is accepted, and the piece's destinations
are exactly the listed ones. Invalid moves: refused with the reason that heads
the row's group in Mzinga's file, and the rule id of docs/hive.md that reason
belongs to (H-E1.5, H-P1.1, H-S1.4, H-P1.5, H-P1.6, H-P1.7, H-P1.8, H-M1.5,
H-M1.6, H-O1.2, H-E1.3). Perft: Mzinga's counts. Recorded games: every move
plays and the result is Mzinga's.
"""
from __future__ import annotations

import pytest
from hive_cases import params, read_pgn, recordings

from facilitator.games import Role
from facilitator.games.hive import KIND, bot
from facilitator.games.hive.board import Board
from facilitator.games.hive.notation import canonical, game_string
from facilitator.games.hive.perft import perft
from facilitator.games.hive.pieces import parse_game_type
from facilitator.games.hive.rules import IllegalMove, check, load, play

VALID_FILES = ["Board_ValidMovesForQueenBeeTest.csv", "Board_ValidMovesForSpiderTest.csv",
               "Board_ValidMovesForBeetleTest.csv", "Board_ValidMovesForGrasshopperTest.csv",
               "Board_ValidMovesForSoldierAntTest.csv", "Board_ValidMovesForMosquitoTest.csv",
               "Board_ValidMovesForLadybugTest.csv", "Board_ValidMovesForPillbugTest.csv"]
VALID = [p for name in VALID_FILES for p in params(name)]

#: Mzinga's reason -> the rule of docs/hive.md it applies (for the rows of this file).
RULE_OF_REASON = {
    "You can't play, the game is over.": "H-E1.5",
    "It's not that player's turn.": "H-P1.1",
    "That piece is not enabled in this game.": "H-S1.4",
    "You can't play your Queen Bee on your first turn.": "H-P1.5",
    "You must play your Queen Bee on or before your fourth turn.": "H-P1.6",
    "You can't move a piece in play until you've played your Queen Bee.": "H-P1.7",
    "When there are multiple pieces of the same bug type, you must play the pieces in order.":
        "H-P1.8",
    # Both rows move a beetle onto a ground cell that is taken (a climb names the stack).
    "You can't move there because a piece already exists at that position.": "H-M1.5",
    "You can't move that piece because it has another piece on top of it.": "H-M1.6",
    "You can't move that piece because it will break the hive.": "H-O1.2",
    "You can't pass, the game is over.": "H-E1.5",
    "You can't pass when you have valid moves.": "H-E1.3",
}


@pytest.mark.parametrize("heading,game,moves", VALID)
def test_mzinga_valid_moves(heading, game, moves):
    board = load(game)
    listed = moves.split(";")
    found = {check(board, m) for m in listed}
    assert len(found) == len(listed)
    # Each row lists one piece's moves: they are all of that piece's moves.
    (piece,) = {p for p, _cell in found}
    assert {(piece, c) for c in board.destinations(piece)} == found
    # And they are spelled as Mzinga spells them.
    assert sorted(canonical(board, m) for m in found) == sorted(listed)


@pytest.mark.parametrize("heading,game,move", params("Board_InvalidMovesByRuleTest.csv"))
def test_mzinga_invalid_moves(heading, game, move):
    board = load(game)
    before = game_string(board), board.key()
    with pytest.raises(IllegalMove) as refused:
        check(board, move)
    assert refused.value.reason == heading
    assert refused.value.rule == RULE_OF_REASON[heading]
    assert (game_string(board), board.key()) == before


def test_the_invalid_move_file_has_every_reason_but_one():
    # "You can't put a piece back into your hand." heads an empty group in Mzinga's file.
    headings = {p.values[0] for p in params("Board_InvalidMovesByRuleTest.csv")}
    assert headings == set(RULE_OF_REASON)
    board = load("Base;InProgress;White[2];wS1;bS1 wS1-")
    with pytest.raises(IllegalMove) as refused:
        check(board, "wA1 wG1-")     # wG1 is in hand: the move would put wA1 "back"
    assert (refused.value.rule, refused.value.reason) == (
        "H-P1.4", "You can't put a piece back into your hand.")


#: Mzinga's perft tables: the base game and the seven game types with expansions (H-S1.4).
PERFT = [p for letters in ("", "M", "L", "P", "ML", "MP", "LP", "MLP")
         for p in params(f"Board_Base{letters}_PerftTest.csv")]


@pytest.mark.parametrize("heading,game,depth,nodes",
                         [p for p in PERFT if int(p.values[3]) <= 25_000])
def test_mzinga_perft(heading, game, depth, nodes):
    assert perft(int(depth), load(game)) == int(nodes)


@pytest.mark.slow
@pytest.mark.parametrize("heading,game,depth,nodes",
                         [p for p in PERFT if 25_000 < int(p.values[3]) <= 13_000_000])
def test_mzinga_perft_deep(heading, game, depth, nodes):
    # Up to the base game's depth 6 and the expansions' depth 5; deeper counts
    # (181 641 900 leaves and more) take hours in Python.
    assert perft(int(depth), load(game)) == int(nodes)


#: Recorded games that ended with no queen surrounded: a draw agreed (H-E1.4) or, the one
#: ``U!`` game of Base+P, a resignation. The engine's state is still in progress.
UNFINISHED = {"HV-Dumbot-guest-2018-10-31-1402", "T!HV-Jewdoka-Quodlibet-2020-12-08-2330",
              "U!HV-kkurtonis-RINGERSOLL-2013-05-22-1657"}


@pytest.mark.parametrize("path", recordings(), ids=lambda p: p.stem)
def test_mzinga_recorded_games_replay(path):
    """Every move of Mzinga's recordings plays, Base, Base+P and Base+MLP (H-S1.4,
    H-M1.8 to H-M1.12), and the game ends as recorded."""
    tags, moves = read_pgn(path)
    board = Board(parse_game_type(tags["GameType"]))
    for move in moves:
        play(board, move)
    if path.stem in UNFINISHED:
        assert board.state == "InProgress"
    else:
        assert board.state == tags["Result"]
    # The canonical game string of the game loads back to the same position.
    again = load(game_string(board))
    assert again.key() == board.key() and again.texts == board.texts


def test_a_recorded_draw_by_agreement_replays_as_a_match():
    tags, moves = read_pgn(next(p for p in recordings() if "guest" in p.name))
    record = {"format": "hive/1", "game": ";".join(["Base;InProgress;White[1]", *moves]),
              "players": {"white": tags["White"], "black": tags["Black"]},
              "result": {"result": "draw", "reason": "agreement", "rule": "H-G3"}}
    match = KIND.replay(record)
    assert match.over and match.result["reason"] == "agreement"
    assert match.board.state == "InProgress" and len(match.board.texts) == len(moves)
    assert match.legal(Role.of_seat(1)) == []


PUZZLES = params("PuzzleCandidate_IsOneBestMoveToForceWinPuzzleTest.csv")


@pytest.mark.parametrize("heading,game,depth,move", PUZZLES)
def test_mzinga_puzzle_positions_load(heading, game, depth, move):
    board = load(game)
    assert board.state == "InProgress"
    check(board, move)
    # The turn Mzinga wrote is the one the moves give (H-N1.5).
    assert game_string(board).split(";")[2] == game.split(";")[2]


@pytest.mark.parametrize("heading,game,depth,move",
                         [p for p in PUZZLES if int(p.values[2]) <= 3]
                         + params("GameAI_BlockWinningMoveIsBestMoveTest.csv"))
def test_the_bot_finds_mzinga_short_puzzles(heading, game, depth, move):
    board = load(game)
    assert bot.best_move(board, depth=bot.DEFAULT_DEPTH) == canonical(board, check(board, move))
