"""A computer player: alpha-beta search (negamax) over a small evaluation.

The evaluation, from the side to move's point of view, weighs what decides
a game of Hive: how closely each Queen Bee is surrounded (occupied cells
around it, counted more steeply as the ring closes) and how many pieces each
side can still move (a piece pinned by the one-hive rule or covered by a
beetle is worth less); at the strongest level, a side to move that can fill
the last cell of the opponent's queen ring counts as all but winning. Moves
are searched best-guess first: the best move a shallower search found, moves
that refuted others, moves onto the opponent's queen ring, then moves off
one's own, then the rest; a transposition table
(on a hash kept up to date move by move) answers a position met again.

``best_move(board_or_match, depth=None, time_limit=None)`` is what the UHP
engine calls, ``level_move`` what the live layer calls; the search deepens one
ply at a time and, with a time limit, answers with the deepest search that
finished (or what a search cut short had proved).

>>> from .rules import load
>>> best_move(load("Base;InProgress;White[2];wS1;bS1 wS1-"), depth=1) != ""
True
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass

from .board import BLACK_WINS, DRAW, PASS, WALKS, WHITE_WINS, Board
from .external import engine_command
from .hexes import RING_STEPS, coords
from .notation import canonical
from .pieces import COLOUR, KIND, PER_COLOUR, QUEEN

#: The depth ``best_move`` searches when given neither a depth nor a time.
DEFAULT_DEPTH = 2
MIN_DEPTH, MAX_DEPTH = 1, 6


@dataclass(frozen=True)
class Level:
    """A strength of the computer player (H-G7), as the teacher chooses it in words.

    ``depth``: the deepest it looks (plies); ``seconds``: the longest it thinks, so that a
    game against it never waits long and never holds the server; ``slips``: how far from
    its best move a beginner may stray, in evaluation points (0: it always plays its
    best). A slip is a human mistake, not a random move: a move is picked with a weight
    that falls the further its value is from the best's, so a slightly worse move is
    often played and a blunder seldom, and a win in one is never missed.
    """

    depth: int
    seconds: float
    slips: int = 0
    #: Whether its evaluation counts the threats on a nearly closed queen ring (``evaluate``).
    threats: bool = True
    #: Whether its evaluation sees, at the end of its search, that the side to move can
    #: close the opponent's queen ring next (``evaluate``'s ``closing``).
    closing: bool = False
    #: Whether another engine, named by the server's operator, chooses the moves (H-G9);
    #: the depth and seconds above are its time and, should it fail, the fallback's.
    external: bool = False


#: The levels, weakest first: their names are what the settings and the screens say.
#: Their strength is their depth and evaluation, the same on any machine; the seconds
#: only cap a search (a loaded machine may cut the deepest level's short). ``strong``
#: looks deeper than ``club`` with a plainer evaluation, so that ``strongest``, deeper
#: again with the whole evaluation and a win one move past its search seen as one,
#: stays clearly above it.
LEVELS = {"beginner": Level(1, 0.5, 20), "casual": Level(1, 0.5, 5),
          "club": Level(2, 1.0), "strong": Level(3, 1.0, threats=False),
          "strongest": Level(4, 1.0, closing=True),
          "engine": Level(4, 1.0, closing=True, external=True)}
DEFAULT_LEVEL = "club"


def offered_levels() -> list[str]:
    """The levels a set-up form offers, weakest first: ``engine`` only when the server
    names another engine (H-G9)."""
    return [name for name, level in LEVELS.items() if not level.external or engine_command()]
#: A record written when the strength was a depth (``bot_depth``) reads as this level.
LEVEL_OF_DEPTH = {1: "casual", 2: "club", 3: "strong", 4: "strongest", 5: "strongest",
                  6: "strongest"}
WIN = 1_000_000
#: The share of a level's seconds its search may use (H-G7).
SEARCH_SHARE = 0.8
#: What going back to a position the game has been in costs a side that is not behind.
REPEAT_PENALTY = 40
# Occupied cells around a queen -> pressure on it; steeper near six.
RING_PRESSURE = (0, 10, 25, 45, 75, 130, 0)
# What a piece that can move is worth, by kind (ants, mosquitoes and beetles matter most).
MOBILE = {"Q": 6, "A": 9, "B": 7, "G": 5, "S": 4, "M": 8, "L": 6, "P": 6}
# A cell of the opponent's queen ring one's pieces could fill next: the last one, one of two.
THREAT_LAST, THREAT = 60, 20
# The side to move that can fill the last cell of the opponent's queen ring: a win one
# move on, short of a win found by the search (below WON).
CLOSING = 5000


class _OutOfTime(Exception):
    pass


def evaluate(board: Board, threats: bool = True, closing: bool = False) -> int:
    """The position's worth for the side to move (higher is better; wins are ±WIN);
    ``threats``: whether it counts the cells of a nearly closed queen ring the
    opponent could fill next (the costliest part, left out at some levels);
    ``closing`` (with ``threats``): whether the side to move that can fill the last
    cell of the opponent's ring counts as all but winning, which a search stopping
    there would otherwise miss.

    >>> from .rules import load
    >>> evaluate(load("Base;InProgress;White[2];wS1;bS1 wS1-")) == 0
    True
    """
    me = board.colour
    state = board.state
    if state == DRAW:
        return 0
    if state in (WHITE_WINS, BLACK_WINS):
        return WIN if (state == WHITE_WINS) == (me == 0) else -WIN
    stacks = board.stacks
    pos = board.pos
    score = 0
    for colour, sign in ((1 - me, 1), (me, -1)):
        queen = pos[QUEEN[colour]]
        if queen is not None:
            score += sign * RING_PRESSURE[sum(1 for s in RING_STEPS if queen + s in stacks)]
    if threats:
        for colour, sign in ((1 - me, 1), (me, -1)):
            threat = _threats(board, colour)
            if closing and sign > 0 and threat == THREAT_LAST and _closes(board):
                return CLOSING
            score += sign * threat
    pinned = board.pinned()
    for colour, sign in ((me, 1), (1 - me, -1)):
        if pos[QUEEN[colour]] is None:
            continue    # nothing moves before its queen (H-P1.7)
        target = pos[QUEEN[1 - colour]]
        tq, tr = coords(target) if target is not None else (0, 0)
        for piece in range(colour * PER_COLOUR, (colour + 1) * PER_COLOUR):
            cell = pos[piece]
            if cell is None:
                continue
            stack = stacks[cell]
            if stack[-1] != piece or (len(stack) == 1 and cell in pinned):
                continue
            score += sign * MOBILE.get(KIND[piece], 4)
            if target is not None:
                # A free piece near the opponent's queen can join the ring soon.
                q, r = coords(cell)
                dq, dr = q - tq, r - tr
                distance = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
                if distance > 1:
                    score += sign * max(0, 8 - distance)
    return score


def _threats(board: Board, target: int) -> int:
    # When a queen's ring is nearly closed, whether its opponent could close it
    # next time (a cell the opponent's pieces reach, or could be placed on).
    # Only computed then, and piece by piece until every such cell is found reached.
    queen = board.pos[QUEEN[target]]
    if queen is None:
        return 0
    stacks = board.stacks
    empty = {queen + s for s in RING_STEPS if queen + s not in stacks}
    if len(empty) > 2:
        return 0
    reached = len(empty) - len(_unreached(board, 1 - target, empty))
    return (THREAT_LAST if len(empty) == 1 else THREAT) * reached


def _closes(board: Board) -> bool:
    # Whether the side to move can fill the one empty cell of the opponent's queen ring
    # and so win. The threat count only asks whether a piece reaches the cell; a piece
    # that leaves the ring to get there opens it again, and filling the last cell of
    # one's own ring too surrounds both queens (a draw). Asked only of a ring nearly
    # closed, so the whole move generation may answer.
    pos, stacks = board.pos, board.stacks
    theirs = pos[QUEEN[1 - board.colour]]
    ring = {theirs + s for s in RING_STEPS}
    last = next(cell for cell in ring if cell not in stacks)
    mine = pos[QUEEN[board.colour]]
    if mine is not None and {mine + s for s in RING_STEPS if mine + s not in stacks} == {last}:
        return False
    for piece, dest in board.valid_moves():
        if dest != last or piece < 0:
            continue
        src = pos[piece]
        if src is None or src not in ring or len(stacks[src]) > 1:
            return True
    return False


# Who walks the slowest to count goes last (an ant's walk is a flood over the hive).
_COST = {"A": 2, "S": 1}


def _unreached(board: Board, attacker: int, cells: set[int]) -> set[int]:
    # Which of ``cells`` (empty) ``attacker`` could neither place a piece on nor move a
    # piece to next time. With a Mosquito or Pillbug of its own in play the whole move
    # generation answers (their moves borrow others'); otherwise each piece that may
    # lift walks its own way, and the count stops once every cell is reached.
    stacks = board.stacks
    pos = board.pos
    low, high = attacker * PER_COLOUR, (attacker + 1) * PER_COLOUR
    left = set(cells)
    if board.hand(attacker):
        for cell in cells:
            tops = [stacks[cell + s][-1] for s in RING_STEPS if cell + s in stacks]
            if all(low <= top < high for top in tops):
                left.discard(cell)     # H-P1.3
    if not left or pos[QUEEN[attacker]] is None:
        return left     # H-P1.7
    mine = [p for p in range(low, high) if pos[p] is not None]
    if any(KIND[p] in "MP" for p in mine):
        for _piece, reach in board.movements_of(attacker):
            left.difference_update(reach)
        return left
    pinned = board.pinned()
    frozen = board.last_piece()
    for piece in sorted(mine, key=lambda p: _COST.get(KIND[p], 0)):
        cell = pos[piece]
        stack = stacks[cell]
        if piece == frozen or stack[-1] != piece or (len(stack) == 1 and cell in pinned):
            continue    # H-M1.12, H-M1.6, H-O1.2
        left.difference_update(WALKS[KIND[piece]](board, cell))
        if not left:
            break
    return left


def _guesses(board: Board):
    # Cheap guesses, lower first: onto the opponent's queen ring, off one's own.
    me = board.colour
    pos = board.pos
    theirs = pos[QUEEN[1 - me]]
    ours = pos[QUEEN[me]]
    near_theirs = {theirs + s for s in RING_STEPS} if theirs is not None else set()
    near_ours = {ours + s for s in RING_STEPS} if ours is not None else set()
    queen = QUEEN[me]

    def guess(move):
        piece, dest = move
        src = pos[piece] if piece >= 0 else None
        g = 0
        if dest in near_theirs:
            g -= 20 if src not in near_theirs else 0
        elif src in near_theirs:
            g += 15
        if src in near_ours and dest not in near_ours:
            g -= 8
        if dest in near_ours and piece != queen:
            g += 8
        if src is None:
            g += 3
        return g

    return guess


def _ordered(board: Board, moves: list[tuple[int, int]], first=None) -> list[tuple[int, int]]:
    # The moves by their cheap guesses, ``first`` first.
    guess = _guesses(board)
    return sorted(moves, key=lambda move: -1000 if move == first else guess(move))


#: Late move reductions: from this many plies above the leaves, the moves after the
#: first LATE_MOVE are searched a ply shallower first.
LATE_DEPTH, LATE_MOVE = 3, 4
#: What a transposition-table entry's value is: exact, at least, at most.
EXACT, LOWER, UPPER = 0, 1, 2
#: Above this a value is a win found by the search (WIN less the plies to it).
WON = WIN - 1000
# Each piece's hash code: its colour and kind (two spiders are interchangeable, as in
# ``Board.key``).
CODE = tuple(COLOUR[p] * 16 + "QSBGAMLP".index(KIND[p]) for p in range(2 * PER_COLOUR))
# Hashed in when Black is to move (no piece's code is negative).
BLACK_TO_MOVE = hash((-1, 0, 0))


def position_hash(board: Board) -> int:
    """A hash of what stands on each cell (by colour, kind and height) and the side to
    move: what ``Search`` keeps up to date move by move (a Zobrist hash; Python's own
    hash of a tuple of integers does not change between runs)."""
    h = BLACK_TO_MOVE if board.ply & 1 else 0
    for cell, stack in board.stacks.items():
        for height, piece in enumerate(stack):
            h ^= hash((CODE[piece], cell, height))
    return h


def _to_table(value: int, ply: int) -> int:
    # A win is stored as its distance from the stored position, not from the root.
    return value + ply if value > WON else value - ply if value < -WON else value


def _from_table(value: int, ply: int) -> int:
    return value - ply if value > WON else value + ply if value < -WON else value


class Search:
    """One search: counts nodes, and stops at ``deadline`` (perf_counter seconds) if given.

    It keeps what it learns between the depths of an iterative deepening: a
    transposition table (each position's value, bound and best move, by its hash),
    the evaluations already made, and the moves that refuted others (killers by ply,
    a history score by piece and cell), which it tries first.
    """

    def __init__(self, board: Board, deadline: float | None = None,
                 seen: frozenset = frozenset(), threats: bool = True, closing: bool = False):
        self.board = board
        #: Whether the evaluation counts threats, and a ring the side to move can close
        #: (``evaluate``).
        self.threats, self.closing = threats, closing
        self.deadline = deadline
        self.nodes = 0
        #: The positions the game has been in: going back to one is worth less (below).
        self.seen = seen
        self.hash = position_hash(board)
        self._hashes: list[int] = []
        self._pillbug = "P" in board.expansions
        self.table: dict[int, tuple[int, int, int, tuple[int, int] | None]] = {}
        self.evaluations: dict[int, int] = {}
        self.killers: dict[int, list[tuple[int, int]]] = {}
        self.history: dict[tuple[int, int], int] = {}
        #: The root's moves in the order of the last depth's values, best first.
        self.root_order: list[tuple[int, int]] | None = None
        #: Whether the last ``root`` searched every move (not cut short by the time).
        self.finished = False

    def play(self, move: tuple[int, int]) -> None:
        """Push a move on the board and bring the hash up to date."""
        board = self.board
        piece, dest = move
        h = self.hash ^ BLACK_TO_MOVE
        if piece >= 0:
            code = CODE[piece]
            src = board.pos[piece]
            if src is not None:
                h ^= hash((code, src, len(board.stacks[src]) - 1))
            stack = board.stacks.get(dest)
            h ^= hash((code, dest, len(stack) if stack else 0))
        board.push(move)
        self._hashes.append(self.hash)
        self.hash = h

    def unplay(self) -> None:
        """Take back the last move ``play`` made."""
        self.board.pop()
        self.hash = self._hashes.pop()

    def unwind(self) -> None:
        """Take back every move still played (after a search cut short by the time)."""
        while self._hashes:
            self.unplay()

    def key(self) -> int:
        """The position's key in the tables: its hash and, with the Pillbug, the cell
        of the piece that may not move this turn (H-M1.12)."""
        if not self._pillbug:
            return self.hash
        last = self.board.last_piece()
        return self.hash ^ hash((-2, -1 if last < 0 else self.board.pos[last], 0))

    def evaluate(self, key: int) -> int:
        """``evaluate`` of the board, once per position."""
        value = self.evaluations.get(key)
        if value is None:
            value = self.evaluations[key] = evaluate(self.board, self.threats, self.closing)
        return value

    def ordered(self, moves, first, ply: int):
        """The moves best guess first: the table's move, the killers of this ply, then
        by the history score and the cheap guesses of ``_ordered``."""
        killers = self.killers.get(ply, ())
        history = self.history
        guesses = _guesses(self.board)

        def rank(move):
            if move == first:
                return -1_000_000
            if move in killers:
                return -100_000
            return guesses(move) - history.get(move, 0)

        return sorted(moves, key=rank)

    def negamax(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        """The value of the position ``depth`` plies deep, for the side to move
        (principal variation search: the first move with the full window, the others
        with a null window, searched again when they prove better)."""
        board = self.board
        self.nodes += 1
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise _OutOfTime
        if board.over:
            value = evaluate(board)
            # A nearer win is better, a farther loss less bad.
            return value - ply if value > 0 else value + ply if value < 0 else 0
        key = self.key()
        if depth <= 0:
            return self.evaluate(key)
        entry = self.table.get(key)
        first = None
        if entry is not None:
            stored_depth, stored, bound, first = entry
            if stored_depth >= depth:
                value = _from_table(stored, ply)
                if (bound == EXACT or (bound == LOWER and value >= beta)
                        or (bound == UPPER and value <= alpha)):
                    return value
        start_alpha = alpha
        best, best_move = -WIN * 2, None
        for n, move in enumerate(self.ordered(board.valid_moves(), first, ply)):
            self.play(move)
            if n == 0:
                value = -self.negamax(depth - 1, -beta, -alpha, ply + 1)
            else:
                # A late move, three plies or more from the leaves, is first searched a
                # ply shallower: the ordering expects it to fail low, and a move that
                # does not is searched again at its full depth.
                late = depth >= LATE_DEPTH and n >= LATE_MOVE
                value = -self.negamax(depth - 1 - late, -alpha - 1, -alpha, ply + 1)
                if late and value > alpha:
                    value = -self.negamax(depth - 1, -alpha - 1, -alpha, ply + 1)
                if alpha < value < beta:
                    value = -self.negamax(depth - 1, -beta, -alpha, ply + 1)
            self.unplay()
            if value > best:
                best, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        self._refuted_by(move, depth, ply)
                        break
        bound = LOWER if best >= beta else UPPER if best <= start_alpha else EXACT
        self.table[key] = (depth, _to_table(best, ply), bound, best_move)
        return best

    def _refuted_by(self, move, depth: int, ply: int) -> None:
        # A move that cut the search off is tried early elsewhere: first among its
        # siblings' children at the same ply (killer), and higher everywhere the
        # deeper the search it cut (history).
        killers = self.killers.setdefault(ply, [])
        if move not in killers:
            killers.insert(0, move)
            del killers[2:]
        self.history[move] = self.history.get(move, 0) + depth * depth

    def root(self, depth: int, first=None, partial: bool = False) -> tuple[tuple[int, int], int]:
        """The best move at ``depth`` and its value (``first`` is searched first, then the
        moves in the order of the last depth's values); with ``partial``, out of time
        after one move or more, the best of those searched."""
        board = self.board
        if self.root_order is not None:
            moves = sorted(self.root_order, key=lambda m: m != first)
        else:
            moves = _ordered(board, board.valid_moves(), first)
        best_move, best = moves[0], -WIN * 2
        alpha, beta = -WIN * 2, WIN * 2
        values = {}
        for n, move in enumerate(moves):
            self.play(move)
            try:
                if n == 0:
                    value = -self.negamax(depth - 1, -beta, -alpha, 1)
                else:
                    value = -self.negamax(depth - 1, -alpha - 1, -alpha, 1)
                    if value > alpha:
                        value = -self.negamax(depth - 1, -beta, -alpha, 1)
            except _OutOfTime:
                self.unwind()
                if partial and best > -WIN * 2:
                    self.finished = False
                    return best_move, best
                raise
            if value >= 0 and board.key() in self.seen:
                # A side not behind goes somewhere new rather than round in circles
                # (a third time is a draw, H-G4).
                value -= REPEAT_PENALTY
            self.unplay()
            values[move] = value
            if value > best:
                best_move, best = move, value
                alpha = max(alpha, value)
        # Moves that failed low keep their bound: a stable order, the best first.
        self.root_order = sorted(moves, key=lambda m: -values[m])
        self.finished = True
        return best_move, best


def _seen(board: Board) -> frozenset:
    # The positions the game went through before this one (on a copy).
    other = board.copy()
    keys = set()
    while other.history:
        other.pop()
        keys.add(other.key())
    return frozenset(keys)


def search(board: Board, depth: int | None = None, time_limit: float | None = None,
           threats: bool = True, closing: bool = False) -> tuple[tuple[int, int], int, int]:
    """(best move, its value, depth reached) on a copy of ``board``.

    The search deepens from 1 up to ``depth`` (DEFAULT_DEPTH, or MAX_DEPTH with a time
    limit), each depth starting from what the last one learnt. With ``time_limit``
    (seconds) a depth cut short by the time answers the best of the moves it looked at
    (at depth 1 the first guess if none), so there is always an answer, and in time;
    the depth reached is the deepest that finished.
    """
    if board.over:
        raise ValueError("The game is over.")
    work = board.copy()
    moves = work.valid_moves()
    if moves == [PASS] or len(moves) == 1:
        return moves[0], 0, 0
    deadline = None if time_limit is None else time.perf_counter() + max(0.0, float(time_limit))
    seen = _seen(work)
    if depth is None:
        depth = DEFAULT_DEPTH if time_limit is None else MAX_DEPTH
    top = max(MIN_DEPTH, min(int(depth), MAX_DEPTH))
    searching = Search(work, deadline, seen, threats, closing)
    try:
        # Depth 1 within the time too: the best of the moves looked at by then.
        move, value = searching.root(1, partial=True)
    except _OutOfTime:
        return _ordered(board, moves)[0], 0, 0
    reached = 1
    for d in range(2, top + 1):
        if abs(value) >= WON:
            break   # a forced result is already found
        try:
            # Cut short, a depth still answers: its first move is the last depth's
            # best, searched to the end, and any move after it that is chosen was
            # proved better at this depth.
            move, value = searching.root(d, first=move, partial=True)
        except _OutOfTime:
            break
        if not searching.finished:
            break
        reached = d
    return move, value, reached


def best_move(board_or_match, depth: int | None = None, time_limit: float | None = None) -> str:
    """The bot's move, canonically spelled, for a Board or a hive Match (its setting
    ``bot_level`` gives a match's default depth)."""
    if isinstance(board_or_match, Board):
        board = board_or_match
    else:
        board = board_or_match.board
        if depth is None and time_limit is None:
            depth = LEVELS[board_or_match.settings.get("bot_level") or DEFAULT_LEVEL].depth
    move, _value, _depth = search(board, depth, time_limit)
    return canonical(board, move)


def level_move(board: Board, level: Level, rng: random.Random):
    """The move the computer plays at ``level`` (a Board's move, not spelled): its best
    within the level's depth and time, or, for a level that slips, a move picked by how
    close its value is to the best's (a win in one is always taken)."""
    if not level.slips:
        # The search stops short of the level's seconds: copying the board, ordering the
        # moves and answering take the rest.
        return search(board, level.depth, level.seconds * SEARCH_SHARE, level.threats,
                      level.closing)[0]
    if board.over:
        raise ValueError("The game is over.")
    work = board.copy()
    moves = work.valid_moves()
    if len(moves) == 1:
        return moves[0]
    deadline = time.perf_counter() + level.seconds
    valued = []
    for move in _ordered(work, moves):
        if valued and time.perf_counter() > deadline:
            break       # out of time: a choice among the moves weighed by then
        work.push(move)
        value = -evaluate(work)
        work.pop()
        if value >= WIN - 100:
            return move
        valued.append((value, move))
    best = max(value for value, _move in valued)
    # Weights fall by half for every ``slips`` points below the best (kept in range).
    weights = [0.5 ** min(60.0, (best - value) / level.slips) for value, _move in valued]
    return rng.choices([move for _value, move in valued], weights)[0]


def against_random(games: int = 100, depth: int = 1, seed: int = 0,
                   max_plies: int = 300) -> dict:
    """The bot against a player choosing uniformly among the valid moves (seeded).

    Colours alternate (the bot is White in even games). A game not won within
    ``max_plies`` plies counts as not won. Returns wins, draws (both queens, or
    the ply cap), losses, and the bot's average seconds per move.
    """
    import random

    rng = random.Random(seed)
    wins = draws = losses = 0
    thinking, bot_moves = 0.0, 0
    for game in range(games):
        board = Board()
        mine = game % 2
        while not board.over and board.ply < max_plies:
            if board.colour == mine:
                start = time.perf_counter()
                move, _value, _reached = search(board, depth)
                thinking += time.perf_counter() - start
                bot_moves += 1
            else:
                move = rng.choice(board.valid_moves())
            board.push(move)
        winner = {WHITE_WINS: 0, BLACK_WINS: 1}.get(board.state)
        if winner is None:
            draws += 1
        elif winner == mine:
            wins += 1
        else:
            losses += 1
    return {"games": games, "depth": depth, "wins": wins, "draws": draws, "losses": losses,
            "seconds_per_move": thinking / max(1, bot_moves)}


def play_levels(levels: tuple[str | None, str | None], seed: int,
                expansions: frozenset[str] = frozenset(), max_plies: int = 200,
                opening: int = 0) -> dict:
    """One game between two levels (White's, Black's; None: a player choosing uniformly
    among the valid moves), each move as ``level_move`` plays it with a seeded chance.
    The first ``opening`` plies are moves chosen at random (seeded) for both sides, so
    that levels that always play their best still meet in different games. The result
    ("white", "black" or "draw": both queens, or no result within ``max_plies``) and,
    per colour, the longest and the total seconds a move took."""
    rng = random.Random(seed)
    board = Board(expansions)
    longest, total = [0.0, 0.0], [0.0, 0.0]
    while not board.over and board.ply < max_plies:
        name = levels[board.colour]
        start = time.perf_counter()
        if name is None or board.ply < opening:
            move = rng.choice(board.valid_moves())
        else:
            move = level_move(board, LEVELS[name], rng)
        took = time.perf_counter() - start
        longest[board.colour] = max(longest[board.colour], took)
        total[board.colour] += took
        board.push(move)
    result = {WHITE_WINS: "white", BLACK_WINS: "black"}.get(board.state, "draw")
    return {"result": result, "plies": board.ply, "longest": longest, "total": total}
