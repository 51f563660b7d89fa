"""The position and its valid moves: stacks, hands, turns, one hive and freedom to move.

A ``Board`` is what Mzinga calls a board: the stacks of pieces on their cells,
whose turn it is, the moves made so far (so ``pop`` takes one back), and the
game's state. It knows nothing of notation: a move is a pair
``(piece, destination cell)``, or ``PASS``. The destination's height is
implied (a beetle lands on top of whatever is there, everything else on
the ground), so a move is counted once per piece and destination (the
perft convention of HIVE.md).

``push`` trusts its move: checking one, and saying why it is refused, is
``rules.py``'s job. Generation is written for speed (perft, the bot): cells
are integers (``hexes``), the board is changed in place and put back, and
the pieces that would split the hive are found once per position as the
articulation points of the hive (H-O1.2) instead of once per piece.

>>> b = Board()
>>> len(b.valid_moves()), b.state
(4, 'NotStarted')
>>> b.push((b.valid_moves()[0]))
>>> len(b.valid_moves()), b.colour, b.turn
(24, 1, 1)
"""
from __future__ import annotations

from .hexes import ORIGIN, RING_STEPS, SLIDES
from .pieces import COLOUR, KIND, KINDS, PER_COLOUR, QUEEN, enabled, game_type_name

NOT_STARTED, IN_PROGRESS, DRAW, WHITE_WINS, BLACK_WINS = (
    "NotStarted", "InProgress", "Draw", "WhiteWins", "BlackWins")
OVER = frozenset((DRAW, WHITE_WINS, BLACK_WINS))

#: The pass move (H-E1.3): no piece, no cell.
PASS = (-1, 0)

#: The expansions this engine can play (H-S1.4: none yet).
SUPPORTED_EXPANSIONS: frozenset[str] = frozenset()


class NotEnabled(ValueError):
    """A game type whose expansion pieces this engine does not play (H-S1.4)."""

    def __init__(self, expansions: frozenset[str]):
        super().__init__("That piece is not enabled in this game.")
        self.expansions = expansions


class Board:
    """A Hive position with its history (see the module's docstring)."""

    __slots__ = ("expansions", "pos", "stacks", "ply", "history", "state", "_groups")

    def __init__(self, expansions: frozenset[str] = frozenset()):
        expansions = frozenset(expansions)
        if not expansions <= SUPPORTED_EXPANSIONS:
            raise NotEnabled(expansions)
        self.expansions = expansions
        #: Piece -> its cell, or None while it is in its owner's hand.
        self.pos: list[int | None] = [None] * (2 * PER_COLOUR)
        #: Cell -> the pieces on it, bottom first (only occupied cells are keys).
        self.stacks: dict[int, list[int]] = {}
        #: Moves made (passes included): White moves when it is even.
        self.ply = 0
        #: One entry per move made: (piece, source cell or None, state before, text).
        self.history: list[tuple[int, int | None, str, str]] = []
        self.state = NOT_STARTED
        # Per colour, the enabled kinds' pieces in the order they must enter (H-P1.8).
        self._groups = tuple(
            tuple(tuple(p for p in range(c * PER_COLOUR, (c + 1) * PER_COLOUR)
                        if KIND[p] == k.letter and enabled(p, expansions))
                  for k in KINDS if any(KIND[p] == k.letter and enabled(p, expansions)
                                        for p in range(c * PER_COLOUR, (c + 1) * PER_COLOUR)))
            for c in (0, 1))

    # ---- facts about the position -------------------------------------------------

    @property
    def game_type(self) -> str:
        """The game type as written in a GameString (``Base``)."""
        return game_type_name(self.expansions)

    @property
    def colour(self) -> int:
        """The side to move: 0 White, 1 Black."""
        return self.ply & 1

    @property
    def turn(self) -> int:
        """The side to move's own turn number (H-N1.4: plies // 2 + 1)."""
        return self.ply // 2 + 1

    @property
    def over(self) -> bool:
        """Whether a queen is surrounded (H-E1.1, H-E1.2)."""
        return self.state in OVER

    def queen_in_play(self, colour: int) -> bool:
        """Whether that side's Queen Bee has been placed."""
        return self.pos[QUEEN[colour]] is not None

    def height(self, piece: int) -> int:
        """A piece's level in its stack (0 = on the ground); -1 in hand."""
        cell = self.pos[piece]
        return -1 if cell is None else self.stacks[cell].index(piece)

    def top(self, cell: int) -> int | None:
        """The piece on top of a cell, or None when the cell is empty."""
        stack = self.stacks.get(cell)
        return stack[-1] if stack else None

    def on_top(self, piece: int) -> bool:
        """Whether a piece is in play with nothing on it (H-M1.6)."""
        cell = self.pos[piece]
        return cell is not None and self.stacks[cell][-1] == piece

    def in_order(self, piece: int) -> bool:
        """Whether a piece in hand is the next of its kind to enter (H-P1.8)."""
        if self.pos[piece] is not None:
            return True
        for group in self._groups[COLOUR[piece]]:
            if piece in group:
                return next(p for p in group if self.pos[p] is None) == piece
        return True

    def hand(self, colour: int) -> list[int]:
        """That side's pieces not yet placed, in piece order."""
        return [p for group in self._groups[colour] for p in group if self.pos[p] is None]

    def surrounded(self, queen: int) -> bool:
        """Whether a Queen Bee in play has all six neighbouring cells occupied (H-E1.1)."""
        cell = self.pos[queen]
        stacks = self.stacks
        return cell is not None and all(cell + s in stacks for s in RING_STEPS)

    def pinned(self) -> set[int]:
        """The cells whose single piece may not lift without splitting the hive (H-O1.2)."""
        return self._articulations()

    def can_lift(self, piece: int) -> bool:
        """Whether taking a piece in play off the board keeps the hive in one piece (H-O1.2)."""
        cell = self.pos[piece]
        if cell is None:
            return True
        return len(self.stacks[cell]) > 1 or cell not in self._articulations()

    def key(self) -> tuple:
        """The position as a value: what is on each cell (by colour and kind) and the side
        to move. The hands follow from the board; equal keys are the same position."""
        return (frozenset((cell, tuple((COLOUR[p], KIND[p]) for p in stack))
                          for cell, stack in self.stacks.items()), self.ply & 1)

    # ---- making and taking back moves ------------------------------------------

    def push(self, move: tuple[int, int], text: str = "") -> None:
        """Make a move (trusted: no rule is checked) and recompute the state."""
        piece, dest = move
        self.history.append((piece, None if piece < 0 else self.pos[piece], self.state, text))
        self.ply += 1
        if piece < 0:
            if self.state == NOT_STARTED:
                self.state = IN_PROGRESS
            return
        stacks = self.stacks
        src = self.pos[piece]
        if src is not None:
            stack = stacks[src]
            stack.pop()
            if not stack:
                del stacks[src]
        stack = stacks.get(dest)
        if stack is None:
            stacks[dest] = [piece]
        else:
            stack.append(piece)
        self.pos[piece] = dest
        white = self.surrounded(QUEEN[0])
        black = self.surrounded(QUEEN[1])
        self.state = (DRAW if white and black else BLACK_WINS if white
                      else WHITE_WINS if black else IN_PROGRESS)

    def pop(self) -> None:
        """Take back the last move (IndexError when there is none)."""
        piece, src, state, _text = self.history.pop()
        self.ply -= 1
        self.state = state
        if piece < 0:
            return
        stacks = self.stacks
        dest = self.pos[piece]
        stack = stacks[dest]
        stack.pop()
        if not stack:
            del stacks[dest]
        if src is not None:
            stack = stacks.get(src)
            if stack is None:
                stacks[src] = [piece]
            else:
                stack.append(piece)
        self.pos[piece] = src

    def copy(self) -> "Board":
        """An independent board with the same position and history."""
        other = Board.__new__(Board)
        other.expansions = self.expansions
        other.pos = list(self.pos)
        other.stacks = {cell: list(stack) for cell, stack in self.stacks.items()}
        other.ply = self.ply
        other.history = list(self.history)
        other.state = self.state
        other._groups = self._groups
        return other

    @property
    def texts(self) -> list[str]:
        """The move texts given to ``push``, in order (the GameString's moves)."""
        return [entry[3] for entry in self.history]

    @property
    def last_move(self) -> tuple[int, int | None, int | None] | None:
        """The last move as (piece, source, destination), piece -1 for a pass; None at the start."""
        if not self.history:
            return None
        piece, src, _state, _text = self.history[-1]
        return (piece, src, None if piece < 0 else self.pos[piece])

    # ---- valid moves ----------------------------------------------------------------

    def valid_moves(self) -> list[tuple[int, int]]:
        """Every valid move: [PASS] when there is none (H-E1.3); [] once the game is over."""
        if self.state in OVER:
            return []
        moves: list[tuple[int, int]] = []
        for piece, cells in self._placements():
            moves.extend([(piece, c) for c in cells])
        for piece, cells in self._movements():
            moves.extend([(piece, c) for c in cells])
        return moves or [PASS]

    def count_moves(self) -> int:
        """How many moves ``valid_moves`` would list, without listing them (perft's leaves)."""
        if self.state in OVER:
            return 0
        n = sum(len(cells) for _piece, cells in self._placements())
        n += sum(len(cells) for _piece, cells in self._movements())
        return n or 1

    def destinations(self, piece: int) -> list[int]:
        """The cells one piece may go to now (placements for a piece in hand)."""
        found = [cells for p, cells in self._placements() if p == piece]
        found += [cells for p, cells in self._movements() if p == piece]
        return list(found[0]) if found else []

    def _placements(self) -> list[tuple[int, list[int]]]:
        # The cells are computed once and shared by every kind that may enter.
        ply = self.ply
        colour = ply & 1
        pos = self.pos
        queen = QUEEN[colour]
        pieces = [next((p for p in group if pos[p] is None), None)
                  for group in self._groups[colour]]
        if ply < 2:
            # H-P1.2 and H-P1.5: the first piece at the origin, the second next to it;
            # no queen on a player's first turn.
            cells = [ORIGIN] if ply == 0 else [ORIGIN + s for s in RING_STEPS]
            return [(p, cells) for p in pieces if p is not None and p != queen]
        if pos[queen] is None and ply >= 6:
            # H-P1.6: the fourth turn without a queen places the queen.
            pieces = [queen]
        pieces = [p for p in pieces if p is not None]
        if not pieces:
            return []
        cells = self._placement_cells(colour)
        return [(p, cells) for p in pieces] if cells else []

    def placement_cells(self, colour: int) -> list[int]:
        """The empty cells where ``colour`` could place a piece (after the first two turns)."""
        return self._placement_cells(colour)

    def _placement_cells(self, colour: int) -> list[int]:
        # H-P1.3: an empty cell touching a stack topped by the mover's colour and
        # none topped by the other colour.
        stacks = self.stacks
        low, high = colour * PER_COLOUR, (colour + 1) * PER_COLOUR
        candidates = set()
        for cell, stack in stacks.items():
            if low <= stack[-1] < high:
                for s in RING_STEPS:
                    n = cell + s
                    if n not in stacks:
                        candidates.add(n)
        out = []
        get = stacks.get
        for n in candidates:
            for s in RING_STEPS:
                stack = get(n + s)
                if stack is not None and not low <= stack[-1] < high:
                    break
            else:
                out.append(n)
        return out

    def _movements(self) -> list[tuple[int, list[int]]]:
        return self.movements_of(self.ply & 1)

    def movements_of(self, colour: int) -> list[tuple[int, list[int]]]:
        """Each piece of ``colour`` that could move now, with its destinations (whoever
        is to move: the bot asks what the side not to move threatens)."""
        pos = self.pos
        if pos[QUEEN[colour]] is None:
            return []   # H-P1.7
        stacks = self.stacks
        pinned = None
        out = []
        for piece in range(colour * PER_COLOUR, (colour + 1) * PER_COLOUR):
            cell = pos[piece]
            if cell is None:
                continue
            stack = stacks[cell]
            if stack[-1] != piece:
                continue    # H-M1.6
            if len(stack) == 1:
                if pinned is None:
                    pinned = self._articulations()
                if cell in pinned:
                    continue    # H-O1.2
            kind = KIND[piece]
            if kind == "A":
                cells = self._ant(cell)
            elif kind == "G":
                cells = self._grasshopper(cell)
            elif kind == "B":
                cells = self._beetle(cell)
            elif kind == "S":
                cells = self._spider(cell)
            elif kind == "Q":
                cells = self._queen(cell)
            else:   # pragma: no cover - expansions are refused by __init__
                raise NotEnabled(frozenset(kind))
            if cells:
                out.append((piece, cells))
        return out

    def _articulations(self) -> set[int]:
        # The cells whose single piece holds the hive together (H-O1.2): the
        # articulation points of the graph of occupied cells (Hopcroft-Tarjan).
        stacks = self.stacks
        if len(stacks) < 3:
            return set()
        disc: dict[int, int] = {}
        low: dict[int, int] = {}
        found: set[int] = set()

        def visit(u: int, parent: int | None) -> None:
            disc[u] = low[u] = len(disc)
            children = 0
            for s in RING_STEPS:
                v = u + s
                if v not in stacks:
                    continue
                if v not in disc:
                    children += 1
                    visit(v, u)
                    if low[v] < low[u]:
                        low[u] = low[v]
                    if parent is not None and low[v] >= disc[u]:
                        found.add(u)
                elif v != parent and disc[v] < low[u]:
                    low[u] = disc[v]
            if parent is None and children > 1:
                found.add(u)

        visit(next(iter(stacks)), None)
        return found

    # Each kind's destinations from ``cell`` (its piece is on top there and may lift).
    # A slide step from X to Y is allowed when exactly one of the two cells they
    # share is occupied (H-M1, H-F1.1): both is a gate, neither loses contact.

    def _queen(self, cell: int) -> list[int]:
        stacks = self.stacks
        return [cell + d for d, left, right in SLIDES
                if cell + d not in stacks and ((cell + left in stacks) != (cell + right in stacks))]

    def _spider(self, cell: int) -> set[int]:
        stacks = self.stacks
        lifted = stacks.pop(cell)   # the spider's own cell is empty while it walks
        ends = set()
        for d1, l1, r1 in SLIDES:
            a = cell + d1
            if a in stacks or ((cell + l1 in stacks) == (cell + r1 in stacks)):
                continue
            for d2, l2, r2 in SLIDES:
                b = a + d2
                if b == cell or b in stacks or ((a + l2 in stacks) == (a + r2 in stacks)):
                    continue
                for d3, l3, r3 in SLIDES:
                    e = b + d3
                    if (e != a and e != cell and e not in stacks
                            and ((b + l3 in stacks) != (b + r3 in stacks))):
                        ends.add(e)
        stacks[cell] = lifted
        return ends

    def _ant(self, cell: int) -> set[int]:
        stacks = self.stacks
        lifted = stacks.pop(cell)
        seen = {cell}
        todo = [cell]
        while todo:
            a = todo.pop()
            for d, left, right in SLIDES:
                b = a + d
                if b not in seen and b not in stacks and ((a + left in stacks) != (a + right in stacks)):
                    seen.add(b)
                    todo.append(b)
        stacks[cell] = lifted
        seen.discard(cell)
        return seen

    def _grasshopper(self, cell: int) -> list[int]:
        # H-M1.4: over one or more pieces in a straight line; gates do not matter.
        stacks = self.stacks
        out = []
        for d in RING_STEPS:
            n = cell + d
            if n in stacks:
                n += d
                while n in stacks:
                    n += d
                out.append(n)
        return out

    def _beetle(self, cell: int) -> list[int]:
        # H-M1.5: heights of the source (after lifting), destination and the two
        # shared neighbours decide; a gate at height blocks, no contact at all blocks.
        get = self.stacks.get
        h0 = len(self.stacks[cell]) - 1
        out = []
        for d, left, right in SLIDES:
            n = cell + d
            s = get(n)
            hd = len(s) if s else 0
            s = get(cell + left)
            hl = len(s) if s else 0
            s = get(cell + right)
            hr = len(s) if s else 0
            if not (h0 or hd or hl or hr):
                continue
            if min(hl, hr) > max(h0, hd):
                continue
            out.append(n)
        return out
