"""The position and its valid moves: stacks, hands, turns, one hive and freedom to move.

The base game and its three expansion pieces (H-S1.4): the Mosquito, the
Ladybug and the Pillbug with its special ability (H-M1.8 to H-M1.12).

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

#: The expansions this engine can play (H-S1.4): all three.
SUPPORTED_EXPANSIONS: frozenset[str] = frozenset("MLP")


class NotEnabled(ValueError):
    """A game type whose expansion pieces this engine does not play (H-S1.4)."""

    def __init__(self, expansions: frozenset[str]):
        super().__init__("That piece is not enabled in this game.")
        self.expansions = expansions


class Board:
    """A Hive position with its history (see the module's docstring)."""

    __slots__ = ("expansions", "pos", "stacks", "ply", "history", "state", "_groups", "_pins")

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
        # The position's articulation cells once found (None: not yet, or it changed).
        self._pins: set[int] | None = None
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
        """The position as a value: what is on each cell (by colour and kind), the side
        to move and, with the Pillbug, the cell of the piece that may not move (H-M1.12).
        The hands follow from the board; equal keys are the same position."""
        cells = frozenset((cell, tuple((COLOUR[p], KIND[p]) for p in stack))
                          for cell, stack in self.stacks.items())
        if "P" not in self.expansions:
            return cells, self.ply & 1
        last = self.last_piece()
        return cells, self.ply & 1, None if last < 0 else self.pos[last]

    def last_piece(self) -> int:
        """The piece the last move placed or moved (-1 at the start and after a pass):
        it may neither move nor be moved by a Pillbug this turn (H-M1.12)."""
        return self.history[-1][0] if self.history else -1

    # ---- making and taking back moves ------------------------------------------

    def push(self, move: tuple[int, int], text: str = "") -> None:
        """Make a move (trusted: no rule is checked) and recompute the state."""
        piece, dest = move
        self.history.append((piece, None if piece < 0 else self.pos[piece], self.state, text))
        self.ply += 1
        self._pins = None
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
        self._pins = None
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
        other._pins = None
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
        # Every piece that may enter goes to the same cells: count them once.
        placements = self._placements()
        n = len(placements) * len(placements[0][1]) if placements else 0
        for _piece, cells in self._movements():
            n += len(cells)
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
        pieces = []
        for group in self._groups[colour]:
            for p in group:
                if pos[p] is None:
                    pieces.append(p)
                    break
        if ply < 2:
            # H-P1.2 and H-P1.5: the first piece at the origin, the second next to it;
            # no queen on a player's first turn.
            cells = [ORIGIN] if ply == 0 else [ORIGIN + s for s in RING_STEPS]
            return [(p, cells) for p in pieces if p != queen]
        if pos[queen] is None and ply >= 6:
            # H-P1.6: the fourth turn without a queen places the queen.
            pieces = [queen]
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
        # The cells next to each colour's stacks, as two sets: the empty ones next to
        # the mover's and not next to the other's.
        stacks = self.stacks
        low, high = colour * PER_COLOUR, (colour + 1) * PER_COLOUR
        s0, s1, s2, s3, s4, s5 = RING_STEPS
        ours: set[int] = set()
        theirs: set[int] = set()
        for c, stack in stacks.items():
            (ours if low <= stack[-1] < high else theirs).update(
                (c + s0, c + s1, c + s2, c + s3, c + s4, c + s5))
        ours -= theirs
        return [n for n in ours if n not in stacks]

    def _movements(self) -> list[tuple[int, list[int]]]:
        return self.movements_of(self.ply & 1)

    def movements_of(self, colour: int) -> list[tuple[int, list[int]]]:
        """Each piece that ``colour`` could move now, with its destinations (whoever
        is to move: the bot asks what the side not to move threatens). With the
        Pillbug a piece of either colour may be listed: one a Pillbug can move (H-M1.11)."""
        pos = self.pos
        if pos[QUEEN[colour]] is None:
            return []   # H-P1.7
        stacks = self.stacks
        pinned = None
        out = []
        thrown: dict[int, set[int]] | None = None
        frozen = self.history[-1][0] if self.history else -1
        for piece in range(colour * PER_COLOUR, (colour + 1) * PER_COLOUR):
            cell = pos[piece]
            if cell is None or piece == frozen:
                continue    # H-M1.12: the piece moved last turn stays put this turn
            stack = stacks[cell]
            if stack[-1] != piece:
                continue    # H-M1.6
            kind = KIND[piece]
            lifts = True
            if len(stack) == 1:
                if pinned is None:
                    pinned = self._articulations()
                if cell in pinned:
                    lifts = False   # H-O1.2
            if not lifts:
                # A pinned Pillbug (or Mosquito beside one) still moves others (H-M1.11).
                if kind == "P" or (kind == "M" and self._touches(cell, "P")):
                    thrown = self._throw(cell, pinned, frozen, thrown)
                continue
            if kind == "M":
                if pinned is None:
                    pinned = self._articulations()
                cells, thrown = self._mosquito(cell, pinned, frozen, thrown)
            else:
                cells = WALKS[kind](self, cell)
                if kind == "P":
                    if pinned is None:
                        pinned = self._articulations()
                    thrown = self._throw(cell, pinned, frozen, thrown)
            if cells:
                out.append((piece, cells))
        if thrown:
            return self._merge(out, thrown)
        return out

    @staticmethod
    def _merge(out: list[tuple[int, list[int]]],
               thrown: dict[int, set[int]]) -> list[tuple[int, list[int]]]:
        # A piece a Pillbug moves to a cell it could reach itself is one move, as Mzinga
        # lists it once (a move is a piece and a destination).
        merged = []
        for piece, cells in out:
            extra = thrown.pop(piece, None)
            merged.append((piece, list(set(cells) | extra) if extra else cells))
        merged.extend((piece, list(cells)) for piece, cells in thrown.items())
        return merged

    def _touches(self, cell: int, kind: str) -> bool:
        # Whether a stack next to ``cell`` has a piece of that kind on top.
        stacks = self.stacks
        for s in RING_STEPS:
            stack = stacks.get(cell + s)
            if stack is not None and KIND[stack[-1]] == kind:
                return True
        return False

    def _articulations(self) -> set[int]:
        # The cells whose single piece holds the hive together (H-O1.2): the
        # articulation points of the graph of occupied cells (Hopcroft-Tarjan), found
        # once per position (the bot asks for them again when it weighs a position).
        if self._pins is not None:
            return self._pins
        stacks = self.stacks
        if len(stacks) < 3:
            self._pins = set()
            return self._pins
        # Depth first without recursion (a call per cell costs more than the walk):
        # each entry is a cell, its parent and what is left of its occupied neighbours.
        steps = RING_STEPS
        root = next(iter(stacks))
        disc = {root: 0}
        low = {root: 0}
        found: set[int] = set()
        children = 0
        todo = [(root, None, iter([root + s for s in steps if root + s in stacks]))]
        while todo:
            u, parent, rest = todo[-1]
            for v in rest:
                if v not in disc:
                    disc[v] = low[v] = len(disc)
                    todo.append((v, u, iter([v + s for s in steps if v + s in stacks])))
                    break
                if v != parent and disc[v] < low[u]:
                    low[u] = disc[v]
            else:
                todo.pop()
                if parent is None:
                    continue
                if low[u] < low[parent]:
                    low[parent] = low[u]
                if parent == root:
                    children += 1
                elif low[u] >= disc[parent]:
                    found.add(parent)
        if children > 1:
            found.add(root)
        self._pins = found
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

    def _ladybug(self, cell: int) -> set[int]:
        # H-M1.9: two steps on top of the hive, then one down to an empty cell other
        # than the start; each step is a beetle's (H-M1.5), the ladybug lifted throughout.
        stacks = self.stacks
        lifted = stacks.pop(cell)
        get = stacks.get
        ends = set()
        for d1, l1, r1 in SLIDES:
            a = cell + d1
            ha = len(get(a, ()))
            if not ha or min(len(get(cell + l1, ())), len(get(cell + r1, ()))) > ha:
                continue
            for d2, l2, r2 in SLIDES:
                b = a + d2
                hb = len(get(b, ()))
                if not hb or min(len(get(a + l2, ())), len(get(a + r2, ()))) > max(ha, hb):
                    continue
                for d3, l3, r3 in SLIDES:
                    e = b + d3
                    if (e not in stacks and e != cell
                            and min(len(get(b + l3, ())), len(get(b + r3, ()))) <= hb):
                        ends.add(e)
        stacks[cell] = lifted
        return ends

    def _throw(self, cell: int, pinned: set[int], frozen: int,
               thrown: dict[int, set[int]] | None) -> dict[int, set[int]]:
        # H-M1.11: a Pillbug (or a Mosquito copying one) on the ground at ``cell`` lifts
        # a neighbouring piece that stands alone, may leave and was not moved last turn,
        # over itself (a beetle's step up and a beetle's step down, H-M1.5) to an empty
        # neighbouring cell. Up: the Pillbug's height is 1 and the piece starts on the
        # ground, so only two shared neighbours both of height 2 or more bar it; the
        # same holds down, and the piece's own cell (height 1) never bars either step.
        get = self.stacks.get
        tall = []
        free = []
        takers = []
        for d, left, right in SLIDES:
            s = get(cell + left)
            hl = len(s) if s else 0
            s = get(cell + right)
            hr = len(s) if s else 0
            gated = hl > 1 and hr > 1
            tall.append(gated)
            n = cell + d
            s = get(n)
            if s is None:
                if not gated:
                    free.append(n)
            elif not gated and len(s) == 1 and s[0] != frozen and n not in pinned:
                takers.append(s[0])
        if not takers or not free:
            return thrown if thrown is not None else {}
        if thrown is None:
            thrown = {}
        for piece in takers:
            found = thrown.get(piece)
            if found is None:
                thrown[piece] = set(free)
            else:
                found.update(free)
        return thrown

    def _mosquito(self, cell: int, pinned: set[int], frozen: int,
                  thrown: dict[int, set[int]] | None) -> tuple[set[int], dict | None]:
        # H-M1.8: on top of the hive a beetle; on the ground, the moves of every kind on
        # top of a neighbouring stack (a Mosquito beside Mosquitoes only cannot move).
        stacks = self.stacks
        if len(stacks[cell]) > 1:
            return set(self._beetle(cell)), thrown
        kinds = set()
        for s in RING_STEPS:
            stack = stacks.get(cell + s)
            if stack is not None:
                kinds.add(KIND[stack[-1]])
        cells: set[int] = set()
        for kind in kinds:
            if kind != "M":
                cells.update(WALKS[kind](self, cell))
            if kind == "P":
                thrown = self._throw(cell, pinned, frozen, thrown)
        return cells, thrown


#: Each kind's own way to move, by its letter (the Mosquito borrows them, H-M1.8): the
#: Pillbug walks as the Queen Bee (H-M1.10), its ability is ``Board._throw``.
WALKS = {"Q": Board._queen, "S": Board._spider, "B": Board._beetle, "G": Board._grasshopper,
         "A": Board._ant, "L": Board._ladybug, "P": Board._queen}
