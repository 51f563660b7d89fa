"""MoveStrings and GameStrings (H-N1.1 to H-N1.5): every spelling read, Mzinga's written."""
from __future__ import annotations

import random

import pytest
from hive_cases import read_pgn, recordings

from facilitator.games.hive.board import PASS, Board
from facilitator.games.hive.hexes import DIRECTIONS, NAMES as DIRECTION_NAMES, RING, STEP, cell, \
    coords, neighbours
from facilitator.games.hive.notation import NotationError, Written, canonical, game_string, \
    parse_move, resolve
from facilitator.games.hive.pieces import NAMES, parse_name
from facilitator.games.hive.rules import GameStringError, IllegalMove, check, load, play

# ref-, ref/, ref\, -ref, /ref, \ref: where each puts the piece (H-N1.2's table).
SYMBOLS = {("-", False): (1, 0), ("/", False): (1, -1), ("\\", False): (0, 1),
           ("-", True): (-1, 0), ("/", True): (-1, 1), ("\\", True): (0, -1)}


def test_cells_and_directions():
    """H-N1.1: axial coordinates, the origin, the six neighbours in the rule's order."""
    assert DIRECTIONS == ((1, 0), (-1, 0), (1, -1), (-1, 1), (0, -1), (0, 1))
    assert DIRECTION_NAMES == ("E", "W", "NE", "SW", "NW", "SE")
    assert coords(cell(0, 0)) == (0, 0)
    for q, r in [(3, -7), (-40, 12), (0, -1)]:
        assert coords(cell(q, r)) == (q, r)
        assert {coords(n) for n in neighbours(cell(q, r))} == {(q + a, r + b) for a, b in DIRECTIONS}
    # The ring runs clockwise from the north-west, each step next to the one before.
    ring = [DIRECTIONS[d] for d in RING]
    assert ring[0] == (0, -1)
    for a, b in zip(ring, ring[1:] + ring[:1]):
        assert (b[0] - a[0], b[1] - a[1]) in DIRECTIONS


@pytest.mark.parametrize("symbol,before", list(SYMBOLS))
def test_each_direction_symbol_names_its_cell(symbol, before):
    """H-N1.2: the table of symbols."""
    board = Board()
    play(board, "wS1")
    text = f"bS1 {symbol}wS1" if before else f"bS1 wS1{symbol}"
    piece, dest, height = resolve(board, parse_move(text))
    assert (NAMES[piece], coords(dest), height) == ("bS1", SYMBOLS[symbol, before], 0)
    assert canonical(board, (piece, dest)) == text


def test_a_bare_reference_means_on_top():
    """H-N1.2: ``wB1 wQ`` climbs onto the white queen."""
    board = load("Base;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wB1 \\wS1;bA1 bQ-")
    piece, dest, height = resolve(board, parse_move("wB1 wQ"))
    assert (coords(dest), height) == ((-1, 0), 1)
    assert canonical(board, check(board, "wB1 wQ")) == "wB1 wQ"


def spellings(board: Board, move) -> list[str]:
    """Every correct way to write a move on this board (H-N1.3)."""
    piece, dest = move
    name = NAMES[piece]
    if piece < 0:
        return ["pass", "PASS", " Pass "]
    if board.ply == 0:
        return [name, name.lower()]
    stack = board.stacks.get(dest)
    if stack:
        return [f"{name} {NAMES[stack[-1]]}"]
    out = []
    for (symbol, before), (dq, dr) in SYMBOLS.items():
        ref_cell = dest - cell(dq, dr)
        for ref in board.stacks.get(ref_cell, []):
            ref_name = NAMES[ref]
            out.append(f"{name} {symbol}{ref_name}" if before else f"{name} {ref_name}{symbol}")
    return out


def recorded_positions():
    for path in recordings("Base"):
        _tags, moves = read_pgn(path)
        board = Board()
        for move in moves:
            yield board
            play(board, move)


def test_every_spelling_of_every_move_reads_as_the_same_move():
    """H-N1.3: along Mzinga's recorded games, every spelling of every valid move, in any
    letter case and spacing, is that move; Mzinga's spelling is one of them."""
    rng = random.Random(5)
    checked = 0
    for number, board in enumerate(recorded_positions()):
        if number % 2:
            continue    # every other position keeps the test quick and still covers all kinds
        for move in board.valid_moves():
            texts = spellings(board, move)
            assert canonical(board, move) in texts or move == PASS
            for text in texts:
                fancy = rng.choice([text, text.upper(), text.lower(), f"  {text} "])
                fancy = fancy.replace(" ", rng.choice([" ", "  ", "\t"]), 1) if " " in text.strip() else fancy
                assert check(board, fancy) == move, (game_string(board), fancy)
                checked += 1
    assert checked > 5_000


def test_canonical_spelling_follows_mzinga():
    """H-N1.3: the first move bare; a stack by its top; else the first neighbour from NW."""
    board = Board()
    assert canonical(board, (parse_name("wG1"), cell(0, 0))) == "wG1"
    play(board, "wG1")
    # NW of the destination is wG1: written ``ref\\``.
    assert canonical(board, (parse_name("bS1"), cell(0, 1))) == "bS1 wG1\\"
    # A beetle stepping off a stack names what is left, not itself.
    board = load("Base;InProgress;White[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wB1 \\wS1;bA1 bQ-;"
                 "wB1 wS1;bA2 bA1-")
    move = (parse_name("wB1"), cell(0, 1))
    assert move in board.valid_moves()
    assert canonical(board, move) == "wB1 wS1\\"
    assert check(board, "wB1 wS1\\") == move


def test_written_moves_normalise():
    assert parse_move("bs1 WS1-").text() == "bS1 wS1-"
    assert parse_move("wb1   -bq").text() == "wB1 -bQ"
    assert parse_move("wB1 wQ") == Written(parse_name("wB1"), parse_name("wQ"), "", False)
    assert parse_move("wS1").text() == "wS1"


@pytest.mark.parametrize("text", ["", "   ", "wX1", "wS3", "bS1 -wS1-", "bS1 wS1 x", "pass wS1",
                                  "wS1 zz", "wS1-", "bS1 wS1--", "bS1 <wS1"])
def test_what_is_no_move_string(text):
    """H-N1.2: refused with Mzinga's text."""
    with pytest.raises(NotationError) as refused:
        parse_move(text)
    assert str(refused.value) == f'Unable to parse move "{text}".'
    with pytest.raises(IllegalMove) as again:
        check(Board(), text)
    assert again.value.rule == "H-N1.2"


def test_game_strings_write_and_read_back():
    """H-N1.4: the header, the turn n = plies // 2 + 1, the moves in canonical spelling."""
    board = Board()
    assert game_string(board) == "Base;NotStarted;White[1]"
    for text in ["wS1", "bs1 ws1-", "WQ -WS1", "bQ bS1-"]:
        play(board, text)
    assert game_string(board) == "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-"
    again = load(game_string(board))
    assert game_string(again) == game_string(board) and again.key() == board.key()


def test_game_strings_are_replayed_and_their_header_recomputed():
    """H-N1.5: a wrong state or turn in the text does not matter; spaces are allowed."""
    board = load("Base;NotStarted;Black[9]; wS1; bS1 wS1-")
    assert game_string(board) == "Base;InProgress;White[2];wS1;bS1 wS1-"
    assert load("Base").ply == 0


@pytest.mark.parametrize("text,index,rule", [
    ("Base;InProgress;White[2];wS1;wQ", 1, "H-P1.1"),
    ("Base;NotStarted;White[1];wQ", 0, "H-P1.5"),
    ("Base;InProgress;White[2];wS1;bS1 wS1-;", 2, "H-N1.2"),
    ("Base;InProgress;Black[1];wS1;nonsense", 1, "H-N1.2"),
    ("Chess;NotStarted;White[1]", None, "H-N1.4"),
    ("Base+ML;NotStarted;White[1];wP", 0, "H-S1.4"),
    ("Base+LM;NotStarted;White[1]", None, "H-N1.4"),
])
def test_a_game_string_that_cannot_be_loaded(text, index, rule):
    with pytest.raises(GameStringError) as refused:
        load(text)
    assert (refused.value.index, refused.value.rule) == (index, rule)


def test_expansion_pieces_are_named_but_not_enabled():
    """H-S1.4: ``wM`` reads as a piece and is refused in a Base game."""
    assert parse_move("wM").piece == parse_name("wM")
    with pytest.raises(IllegalMove) as refused:
        check(Board(), "wM")
    assert (refused.value.rule, refused.value.reason) == (
        "H-S1.4", "That piece is not enabled in this game.")


def test_the_step_table_matches_the_direction_table():
    for d, (dq, dr) in enumerate(DIRECTIONS):
        assert coords(STEP[d]) == (dq, dr)
