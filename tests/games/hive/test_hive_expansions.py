"""The Mosquito, the Ladybug and the Pillbug (H-S1.4, H-M1.8 to H-M1.12): the valid moves of its real expansion games, and the rule
book's decisions on small positions built piece by piece."""
from __future__ import annotations

import pytest
from hive_cases import params

from facilitator.games.hive.board import PASS, Board
from facilitator.games.hive.hexes import cell, coords
from facilitator.games.hive.notation import canonical, game_string
from facilitator.games.hive.pieces import GAME_TYPES, parse_game_type, parse_name
from facilitator.games.hive.rules import IllegalMove, check, load, play, stuck

@pytest.mark.parametrize("heading,game,moves", params("Board_ValidMovesFromRealGamesTest.csv"))
def test_mzinga_valid_moves_of_real_expansion_games(heading, game, moves):
    """Every position of the Online Hive World Championship finals (Base+MLP): the valid
    moves are exactly Mzinga's, spelled as Mzinga spells them."""
    board = load(game)
    listed = moves.split(";")
    assert sorted(canonical(board, m) for m in board.valid_moves()) == sorted(listed)


def test_every_game_type_is_played_and_others_refused():
    """H-S1.4, H-N1.4: the eight game types, the expansion pieces enabled by their letter."""
    for text in GAME_TYPES:
        board = Board(parse_game_type(text))
        assert board.game_type == text
        firsts = {canonical(board, m) for m in board.valid_moves()}
        assert firsts == {"wS1", "wB1", "wG1", "wA1"} | {f"w{x}" for x in text[5:]}
    for text in ("Base+LM", "Base+X", "Base+", "base+M"):
        assert parse_game_type(text) is None
    with pytest.raises(IllegalMove) as refused:
        check(load("Base+ML"), "wP")
    assert refused.value.rule == "H-S1.4"


def build(game_type: str, pieces: list[tuple[str, int, int]], last: str | None = None) -> Board:
    """A position made piece by piece (``push`` trusts its moves), White to move. The
    piece named ``last`` is put down last, as the move just made; otherwise the last
    move is a pass, so no piece is held (H-M1.12)."""
    board = Board(parse_game_type(game_type))
    order = [p for p in pieces if p[0] != last] + [p for p in pieces if p[0] == last]
    if (len(order) + (last is None)) % 2:
        board.push(PASS)    # a pass first, so that White is to move at the end
    for name, q, r in order:
        board.push((parse_name(name), cell(q, r)))
    if last is None:
        board.push(PASS)
    assert board.colour == 0
    return board


def moves_of(board: Board, name: str) -> set[str]:
    piece = parse_name(name)
    return {canonical(board, (piece, c)) for c in board.destinations(piece)}


def cells_of(board: Board, name: str) -> set[tuple[int, int]]:
    return {coords(c) for c in board.destinations(parse_name(name))}


def test_the_mosquito_moves_as_what_it_touches():
    """H-M1.8: beside a Grasshopper and a Queen Bee it jumps and slides."""
    board = build("Base+M", [("wQ", 0, 0), ("bQ", 1, 0), ("wG1", -1, 0), ("wM", -1, 1)])
    jumps = {(1, -1), (-1, -1)}     # over wQ north-east, over wG1 north-west
    slides = {(-2, 1), (0, 1)}      # one step along wG1, one along wQ
    assert cells_of(board, "wM") == jumps | slides
    # Touching only the Queen Bee, it moves exactly as the Queen Bee.
    board = build("Base+M", [("wQ", 0, 0), ("bQ", 1, 0), ("wM", -1, 0)])
    assert cells_of(board, "wM") == {(0, -1), (-1, 1)}


def test_a_mosquito_beside_mosquitoes_only_cannot_move():
    """H-M1.8 [D]: a Mosquito lends nothing; the screen's reason is the Mosquito's rule."""
    board = build("Base+M", [("wQ", 0, 0), ("bQ", 1, 0), ("bM", 2, 0), ("wM", 3, 0)])
    assert board.destinations(parse_name("wM")) == []
    assert stuck(board, parse_name("wM")) == ("H-M1.8", "You can't move that piece there.")


def test_a_mosquito_on_top_moves_as_a_beetle_only():
    """H-M1.8 [D]: on a stack it is a Beetle, whatever it touches (no Pillbug ability)."""
    board = build("Base+MP", [("wQ", 0, 0), ("bQ", 1, 0), ("bP", 1, -1), ("bS1", 2, -1),
                              ("wM", 1, 0)])
    assert len(board.stacks[cell(1, 0)]) == 2
    assert cells_of(board, "wM") == {(1, -1), (2, -1), (2, 0), (1, 1), (0, 1), (0, 0)}
    assert moves_of(board, "bS1") == set()      # the Mosquito on top throws nothing


def test_the_ladybug_goes_two_up_and_one_down():
    """H-M1.9: over wQ and bQ, then down to an empty cell; never back to its start."""
    board = build("Base+L", [("wQ", 0, 0), ("bQ", 1, 0), ("wL", -1, 0)])
    assert cells_of(board, "wL") == {(1, -1), (2, -1), (2, 0), (1, 1), (0, 1)}


def test_the_pillbug_moves_as_a_queen_and_moves_its_neighbours():
    """H-M1.10 and H-M1.11: a White Pillbug moves Black's spider over itself, not the
    queen the spider holds to the hive, and slides one step itself."""
    board = load("Base+P;InProgress;White[4];wP;bS1 wP-;wQ -wP;bQ bS1/;wG1 -wQ;bQ \\bS1")
    moves = {canonical(board, m) for m in board.valid_moves()}
    # wP may not move (it holds wQ and wG1 to the hive) but its ability still works.
    assert {"bS1 -bQ", "bS1 wP\\", "bS1 wQ\\"} <= moves
    # bQ moved last turn: the Pillbug may not move it (H-M1.12).
    assert not any(m.startswith("bQ") for m in moves)
    assert play(board, "bS1 wQ\\") == "bS1 wQ\\"
    assert game_string(board).startswith("Base+P;InProgress;Black[4];")


def test_a_piece_the_pillbug_moved_is_held_next_turn():
    """H-M1.12: Black's spider, just moved by White's Pillbug, may not move; the refusal
    names the rule. After another move it is free again."""
    board = load("Base+P;InProgress;White[4];wP;bS1 wP-;wQ -wP;bQ bS1/;wG1 -wQ;bQ \\bS1;"
                 "bS1 wP\\")
    moved = {canonical(board, m) for m in board.valid_moves() if board.pos[m[0]] is not None}
    assert moved == {"bQ \\wP", "bQ bS1/"}
    with pytest.raises(IllegalMove) as refused:
        check(board, "bS1 wQ\\")
    assert (refused.value.rule, refused.value.reason) == ("H-M1.12",
                                                         "You can't move that piece there.")
    assert stuck(board, parse_name("bS1"))[0] == "H-M1.12"


def test_the_held_piece_is_part_of_the_position():
    """H-M1.12: with a Pillbug the same stacks with another piece held are another
    position (repetition, H-G4); without one the key is as before."""
    one = build("Base+P", [("wQ", 0, 0), ("bQ", 1, 0), ("wP", -1, 0)], last="wP")
    two = build("Base+P", [("wQ", 0, 0), ("bQ", 1, 0), ("wP", -1, 0)], last="bQ")
    assert one.key() != two.key()
    base = build("Base", [("wQ", 0, 0), ("bQ", 1, 0)])
    assert len(base.key()) == 2


def test_a_pinned_mosquito_beside_a_pillbug_moves_its_neighbours():
    """H-M1.8 and H-M1.11 [D]: the Mosquito holds wQ to the hive, so it may not move, but
    it copies Black's Pillbug and moves its neighbours over itself, of either colour."""
    board = build("Base+MP", [("wQ", -1, 0), ("wM", 0, 0), ("bP", 1, 0), ("bQ", 1, -1)])
    assert board.destinations(parse_name("wM")) == []
    empty = {(0, -1), (0, 1), (-1, 1)}
    assert cells_of(board, "bP") == empty
    assert cells_of(board, "bQ") == empty
    assert empty <= cells_of(board, "wQ")


def test_the_pillbug_cannot_lift_through_a_gate_at_height():
    """H-M1.11, H-F1.2: wG1, east of the Pillbug, shares with it the cells (2, -1) and
    (1, 1); when both are stacks of two it may not climb onto the Pillbug, and the
    Grasshopper's own jumps never reach the Pillbug's free cells (1, -1) and (0, 1)."""
    pieces = [("wQ", 0, 0), ("wP", 1, 0), ("bQ", 2, -1), ("bB1", 2, -1),
              ("bS1", 1, 1), ("bB2", 1, 1), ("wG1", 2, 0)]
    free = {(1, -1), (0, 1)}
    assert not free & cells_of(build("Base+P", pieces), "wG1")
    lower = [p for p in pieces if p[0] != "bB2"]
    assert free <= cells_of(build("Base+P", lower), "wG1")


def test_the_screen_may_pick_a_piece_of_the_other_colour_the_pillbug_moves():
    """H-W6, H-V1.2: White's view lists Black's spider among the pieces it may pick (the
    Pillbug moves it), with its three cells; Black's view then explains the held spider."""
    from facilitator.games import Role
    from facilitator.games.hive import KIND
    match = KIND.new({"game_type": "Base+P"}, players={"white": "Ana", "black": "Ben"})
    for text in ["wP", "bS1 wP-", "wQ -wP", "bQ bS1/", "wG1 -wQ", "bQ \\bS1"]:
        match.play({"do": "move", "move": text}, Role.table())
    view = match.view(Role.of_seat(1))
    assert sorted(d["move"] for d in view["destinations"]["bS1"]) == [
        "bS1 -bQ", "bS1 wP\\", "bS1 wQ\\"]
    assert "bQ" not in view["destinations"]
    match.play({"do": "move", "move": "bS1 wQ\\"}, Role.of_seat(1))
    black = match.view(Role.of_seat(2))
    assert black["stuck"]["bS1"]["rule"] == "H-M1.12"
    assert "bS1" not in black["destinations"]


def test_a_pillbug_and_a_mosquito_side_by_side_move_each_other():
    """H-M1.11 [D]: White's Pillbug moves Black's Mosquito over itself; Black's Mosquito,
    copying that Pillbug, moves it over itself in turn (four pieces in a ring: none
    holds the hive together)."""
    pieces = [("wP", 0, 0), ("wQ", 0, 1), ("bM", 1, 0), ("bQ", 1, -1)]
    white = build("Base+MP", pieces)
    assert cells_of(white, "bM") == {(-1, 0), (0, -1), (-1, 1)}
    black = build("Base+MP", pieces)
    black.push(PASS)        # Black to move, no piece held
    piece = parse_name("wP")
    assert {coords(c) for p, c in black.valid_moves() if p == piece} == {(2, 0), (2, -1), (1, 1)}
