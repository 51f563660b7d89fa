"""The board's valid moves, rule by rule, and against a slow reference written from the rule book.

The reference below shares no code with the engine: cells are (q, r) tuples,
the one-hive rule is a search of the hive with the piece taken off (H-O1.1,
H-O1.2) rather than articulation points, and each insect follows its rule's
words (H-M1.1 to H-M1.5, H-F1.1, H-F1.2). Random games compare the two at
every position.
"""
from __future__ import annotations

import random

import pytest
from hive_cases import read_pgn, recordings

from facilitator.games.hive.board import PASS, Board
from facilitator.games.hive.hexes import DIRECTIONS, cell, coords
from facilitator.games.hive.notation import canonical, game_string
from facilitator.games.hive.pieces import NAMES, parse_name
from facilitator.games.hive.rules import IllegalMove, check, load, play

# ---- the reference --------------------------------------------------------------------

AROUND = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)]    # clockwise from NW


def near(c):
    return [(c[0] + dq, c[1] + dr) for dq, dr in AROUND]


def shared(a, b):
    """The two cells next to both a and b (neighbours)."""
    return [x for x in near(a) if x in near(b)]


def connected(cells):
    cells = set(cells)
    if not cells:
        return True
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        for n in near(todo.pop()):
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == cells


def reference_moves(board: Board) -> set[tuple[str, tuple[int, int]]]:
    """Every valid (piece name, cell), from the rules alone."""
    if board.over:
        return set()
    stacks = {coords(c): [NAMES[p] for p in s] for c, s in board.stacks.items()}
    me = "wb"[board.colour]
    turn = board.ply // 2 + 1
    hand = [n for n in NAMES if n[0] == me and board.pos[parse_name(n)] is None
            and n[1] not in "MLP"]
    # H-P1.8: only the lowest number of a kind may enter.
    hand = [n for n in hand if len(n) == 2 or f"{n[:2]}{int(n[2]) - 1}" not in hand]
    queen_in = f"{me}Q" not in hand and board.pos[parse_name(f"{me}Q")] is not None
    if turn == 1:
        hand = [n for n in hand if n[1] != "Q"]                      # H-P1.5
    elif turn == 4 and not queen_in:
        hand = [n for n in hand if n[1] == "Q"]                      # H-P1.6
    if board.ply == 0:
        spots = [(0, 0)]
    elif board.ply == 1:
        spots = near((0, 0))
    else:
        spots = [c for c in {n for x in stacks for n in near(x)} if c not in stacks
                 and any(n in stacks and stacks[n][-1][0] == me for n in near(c))
                 and not any(n in stacks and stacks[n][-1][0] != me for n in near(c))]
    found = {(n, c) for n in hand for c in spots}
    if not queen_in:
        return found or {("pass", None)}                              # H-P1.7
    for at, stack in stacks.items():
        name = stack[-1]
        if name[0] != me:
            continue
        rest = {c: s for c, s in stacks.items() if c != at}
        if len(stack) > 1:
            rest[at] = stack[:-1]
        if not connected(rest):
            continue                                                  # H-O1.2
        occupied = set(rest)

        def slide(a, b):
            return b not in occupied and sum(x in occupied for x in shared(a, b)) == 1

        kind = name[1]
        if kind == "Q":
            ends = {b for b in near(at) if slide(at, b)}
        elif kind == "S":
            ends = set()
            for a in near(at):
                if not slide(at, a):
                    continue
                for b in near(a):
                    if b in (at,) or not slide(a, b):
                        continue
                    ends |= {e for e in near(b) if e not in (at, a) and slide(b, e)}
        elif kind == "A":
            seen, todo = {at}, [at]
            while todo:
                a = todo.pop()
                for b in near(a):
                    if b not in seen and slide(a, b):
                        seen.add(b)
                        todo.append(b)
            ends = seen - {at}
        elif kind == "G":
            ends = set()
            for dq, dr in AROUND:
                b = (at[0] + dq, at[1] + dr)
                if b in occupied:
                    while b in occupied:
                        b = (b[0] + dq, b[1] + dr)
                    ends.add(b)
        else:   # the beetle, H-M1.5
            ends = set()
            h0 = len(rest.get(at, []))
            for b in near(at):
                hd = len(rest.get(b, []))
                hl, hr = (len(rest.get(x, [])) for x in shared(at, b))
                if (h0 or hd or hl or hr) and not min(hl, hr) > max(h0, hd):
                    ends.add(b)
        found |= {(name, e) for e in ends}
    return found or {("pass", None)}


def engine_moves(board: Board):
    return {("pass", None) if m == PASS else (NAMES[m[0]], coords(m[1]))
            for m in board.valid_moves()}


def test_the_engine_agrees_with_the_reference_on_random_games():
    rng = random.Random(20240607)
    positions = 0
    for _game in range(8):
        board = Board()
        while not board.over and board.ply < 70:
            assert engine_moves(board) == reference_moves(board), game_string(board)
            assert board.count_moves() == len(board.valid_moves())
            board.push(rng.choice(board.valid_moves()))
            positions += 1
    assert positions > 400


def test_the_engine_agrees_with_the_reference_along_mzinga_recorded_games():
    """Real games reach what random ones rarely do: stacks, gates, long ant paths."""
    for path in recordings("Base"):
        _tags, moves = read_pgn(path)
        board = Board()
        for move in moves:
            assert engine_moves(board) == reference_moves(board), game_string(board)
            play(board, move)


# ---- one rule at a time ---------------------------------------------------------------

def moves_of(board: Board, name: str) -> set[str]:
    piece = parse_name(name)
    return {canonical(board, (piece, c)) for c in board.destinations(piece)}


def test_first_two_placements_and_no_queen_on_the_first_turn():
    """H-S1.2, H-P1.2 and H-P1.5: four first moves at the origin, 24 replies next to it."""
    board = Board()
    assert board.state == "NotStarted" and board.colour == 0
    assert sorted(canonical(board, m) for m in board.valid_moves()) == ["wA1", "wB1", "wG1", "wS1"]
    play(board, "wS1")
    assert len(board.valid_moves()) == 24
    assert {coords(c) for _p, c in board.valid_moves()} == {coords(cell(*d)) for d in DIRECTIONS}


def test_every_side_has_eleven_pieces():
    """H-S1.1: Q, S1-S2, B1-B2, G1-G3, A1-A3 for each colour."""
    board = Board()
    assert [NAMES[p] for p in board.hand(0)] == \
        "wQ wS1 wS2 wB1 wB2 wG1 wG2 wG3 wA1 wA2 wA3".split()
    assert len(board.hand(1)) == 11


def test_placements_touch_own_colour_only():
    """H-P1.3 and H-P1.4: own colour, never the other, never on a stack."""
    board = load("Base;InProgress;White[2];wS1;bS1 wS1-")
    spots = {coords(c) for c in board.placement_cells(0)}
    assert spots == {(-1, 0), (-1, 1), (0, -1)}
    with pytest.raises(IllegalMove) as refused:
        check(board, "wQ bS1")
    assert refused.value.rule == "H-P1.4"


def test_queen_by_the_fourth_turn_leaves_only_queen_placements():
    """H-P1.6, as Mzinga's Board_QueenMustPlayByFourthMoveValidMovesTest: seven moves, all wQ."""
    board = load("Base;InProgress;White[4];wS1;bS1 \\wS1;wS2 wS1\\;bS2 \\bS1;"
                 "wA1 wS2\\;bA1 \\bS2")
    moves = board.valid_moves()
    assert len(moves) == 7 and {NAMES[p] for p, _c in moves} == {"wQ"}


def test_nothing_moves_before_its_queen():
    """H-P1.7: before wQ is placed, only placements."""
    board = load("Base;InProgress;White[3];wS1;bS1 wS1-;wB1 \\wS1;bB1 bS1/")
    assert all(board.pos[p] is None for p, _c in board.valid_moves())


def test_pieces_enter_in_number_order():
    """H-P1.8: one placement per kind and cell."""
    board = load("Base;InProgress;White[2];wS1;bS1 wS1-")
    names = {NAMES[p] for p, _c in board.valid_moves()}
    assert names == {"wQ", "wS2", "wB1", "wG1", "wA1"}


def position(layout: dict, ply: int) -> Board:
    """A board set up directly (no placement rules): {(q, r): "wS1 bB1"} bottom first."""
    board = Board()
    for (q, r), names in layout.items():
        for name in names.split():
            piece = parse_name(name)
            board.stacks.setdefault(cell(q, r), []).append(piece)
            board.pos[piece] = cell(q, r)
    board.ply = ply
    board.state = "InProgress"
    assert engine_moves(board) == reference_moves(board)
    return board


def ends(board: Board, name: str) -> set[tuple[int, int]]:
    return {coords(c) for c in board.destinations(parse_name(name))}


# Five cells round the origin, its north-west side open: the mouth is a gate.
C_RING = {(-1, 0): "wQ", (-1, 1): "bQ", (0, 1): "wS1", (1, 0): "bS1", (1, -1): "wS2"}


def test_the_queen_takes_one_slide_step():
    """H-M1.1: from a triangle, the two cells it can slide to while touching the hive."""
    board = position({(0, 0): "wQ", (1, 0): "bQ", (0, 1): "wS1"}, ply=6)
    assert ends(board, "wQ") == {(1, -1), (-1, 1)}


def test_a_sliding_piece_cannot_pass_a_gate():
    """H-F1.1: a queen in the mouth of the C cannot slide out between two pieces."""
    ring = {**C_RING, (-1, 0): "wA1"}
    board = position({**ring, (0, 0): "wQ"}, ply=8)
    assert ends(board, "wQ") == set()


def test_the_ant_goes_anywhere_it_can_slide_but_not_into_a_gate():
    """H-M1.3 and H-F1.1: the ant reaches the C's mouth, never its inside."""
    board = position({**C_RING, (-2, 0): "wA1"}, ply=8)
    reach = ends(board, "wA1")
    assert (0, -1) in reach and (0, 0) not in reach and (-2, 0) not in reach
    assert len(reach) > 6


def test_the_grasshopper_jumps_over_a_line_and_ignores_gates():
    """H-M1.4 and H-F1.2: over three pieces in a row; and into the gated C."""
    line = position({(-1, 0): "wG1", (0, 0): "wQ", (1, 0): "bQ", (2, 0): "bS1"}, ply=6)
    assert ends(line, "wG1") == {(3, 0)}
    gated = position({**C_RING, (-2, 0): "wG1"}, ply=8)
    assert ends(gated, "wG1") == {(0, 0)}


def test_the_spider_walks_exactly_three_steps():
    """H-M1.2: Mzinga's Issue #102 row, four ends, none of them its start."""
    board = load("Base;InProgress;White[5];wA1;bG1 -wA1;wB1 wA1/;bA1 -bG1;wQ \\wB1;"
                 "bQ \\bA1;wS1 \\wQ;bS1 bQ/")
    assert moves_of(board, "wS1") == {"wS1 wB1-", "wS1 \\bS1", "wS1 bS1\\", "wS1 /wQ"}


def test_the_beetle_climbs_but_a_ground_gate_holds_it():
    """H-M1.5: in the C's mouth a ground beetle may climb every side but not slip out."""
    board = position({**C_RING, (0, 0): "wB1"}, ply=8)
    assert ends(board, "wB1") == set(C_RING)


def test_the_beetle_is_held_by_a_gate_at_height():
    """H-M1.5: stacks of two on both sides block the step when min(hL, hR) > max(h0, hD)."""
    board = position({(0, 0): "wB1", (-1, 0): "wS1 bB1", (1, -1): "bS1 wB2",
                      (0, 1): "bQ bB2", (-1, 1): "wQ", (1, 0): "wA1"}, ply=10)
    assert ends(board, "wB1") == {(-1, 0), (1, -1), (0, 1)}
    # Once up, from height 1 it may step down where a ground beetle could not.
    board = position({(0, 0): "wA2 wB1", (-1, 0): "wS1 bB1", (1, -1): "bS1 wB2",
                      (0, 1): "bQ", (-1, 1): "wQ", (1, 0): "wA1"}, ply=10)
    assert (0, -1) not in ends(board, "wB1")
    assert {(-1, 0), (1, -1), (0, 1), (-1, 1), (1, 0)} <= ends(board, "wB1")


def test_a_covered_piece_cannot_move():
    """H-M1.6."""
    board = position({(0, 0): "wQ bB1", (1, 0): "bQ", (-1, 0): "wS1"}, ply=8)
    assert ends(board, "wQ") == set()
    with pytest.raises(IllegalMove) as refused:
        check(board, "wQ -wS1")
    assert (refused.value.rule, refused.value.reason) == (
        "H-M1.6", "You can't move that piece because it has another piece on top of it.")


def test_a_move_must_change_the_cell():
    """H-M1.7: naming the piece's own cell is refused."""
    board = position({(0, 0): "wQ", (1, 0): "bQ", (0, 1): "wS1"}, ply=6)
    with pytest.raises(IllegalMove) as refused:
        check(board, "wQ -bQ")
    assert refused.value.rule == "H-M1.7"


def test_both_queens_surrounded_at_once_is_a_draw():
    """H-E1.2: a beetle fills the one cell both queens' rings still lack."""
    board = position({(0, 0): "wQ", (1, 0): "bQ", (0, 1): "wS1", (-1, 1): "wS2",
                      (-1, 0): "wG1", (0, -1): "wG2", (2, -1): "bS1", (2, 0): "bS2",
                      (1, 1): "bG1", (2, -2): "wB1"}, ply=20)
    move = check(board, "wB1 -bS1")
    assert coords(move[1]) == (1, -1)
    board.push(move)
    assert board.state == "Draw" and board.over


def test_pass_only_when_nothing_else_is_possible():
    """H-E1.3: White's only piece is covered and its queen in hand: it must pass."""
    board = position({(0, 0): "wS1 bB1", (1, 0): "bQ"}, ply=2)
    assert board.valid_moves() == [PASS] and board.count_moves() == 1
    assert check(board, "pass") == PASS
    play(board, "pass")
    assert board.colour == 1 and board.texts == ["pass"]
    opening = load("Base;InProgress;White[1];wS1;bS1 wS1-")
    with pytest.raises(IllegalMove) as refused:
        check(opening, "pass")
    assert refused.value.rule == "H-E1.3"


def test_the_hive_stays_one_after_every_move_of_random_games():
    """H-O1.1 and H-O1.2: no move ever splits the hive."""
    rng = random.Random(7)
    for _game in range(10):
        board = Board()
        while not board.over and board.ply < 80:
            board.push(rng.choice(board.valid_moves()))
            assert connected({coords(c) for c in board.stacks})


def test_a_piece_that_holds_the_hive_together_cannot_move():
    """H-O1.2: Mzinga's open-circle position: only wG1 and bQ may lift."""
    board = load("Base;InProgress;Black[3];wS1;bS1 wS1-;wQ \\wS1;bQ bS1/;wG1 wQ/")
    free = {NAMES[p] for p in range(len(NAMES)) if board.pos[p] is not None and board.can_lift(p)}
    assert free == {"wG1", "bQ"}


def test_surrounding_your_own_queen_loses():
    """H-E1.1: Mzinga's Board_CanCommitSuicideTest: White fills its own queen's ring."""
    board = load("Base;InProgress;White[1];wS1;bS1 \\wS1;wQ wS1\\;bQ \\bS1;wS2 -wQ;"
                 "bS2 \\bQ;wA1 wQ/;bA1 \\bS2;wA2 /wQ;bA2 \\bA1;wA3 wQ-;bA3 \\bA2;wB1 wQ\\")
    assert board.state == "BlackWins" and board.over
    assert board.valid_moves() == [] and board.count_moves() == 0


def test_nothing_is_played_after_the_end():
    """H-E1.5."""
    board = load("Base;InProgress;White[1];wS1;bS1 \\wS1;wQ wS1\\;bQ \\bS1;wS2 -wQ;"
                 "bS2 \\bQ;wA1 wQ/;bA1 \\bS2;wA2 /wQ;bA2 \\bA1;wA3 wQ-;bA3 \\bA2;wB1 wQ\\")
    for move, reason in (("bB1 \\bA3", "You can't play, the game is over."),
                         ("pass", "You can't pass, the game is over.")):
        with pytest.raises(IllegalMove) as refused:
            check(board, move)
        assert (refused.value.rule, refused.value.reason) == ("H-E1.5", reason)


def test_push_and_pop_put_everything_back():
    rng = random.Random(11)
    board = Board()
    snapshots = []
    while not board.over and board.ply < 60:
        snapshots.append((board.key(), board.state, dict((c, list(s)) for c, s in board.stacks.items())))
        board.push(rng.choice(board.valid_moves()))
    while snapshots:
        board.pop()
        key, state, stacks = snapshots.pop()
        assert (board.key(), board.state, board.stacks) == (key, state, stacks)
    assert board.ply == 0 and board.state == "NotStarted"


def test_copy_is_independent():
    board = load("Base;InProgress;White[2];wS1;bS1 wS1-")
    other = board.copy()
    play(other, "wQ -wS1")
    assert board.ply == 2 and other.ply == 3 and board.pos != other.pos
