"""Cells of the hex grid (H-N1.1): axial (q, r) coordinates packed into one integer.

The engine keeps a cell as a single ``int`` so a neighbour is one addition
(``cell + STEP[i]``) and a set or dict of cells hashes small integers; the
pair (q, r) is only unpacked for views and notation.

>>> cell(2, -1) == cell(2, -1) and coords(cell(2, -1))
(2, -1)
>>> coords(cell(0, 0) + STEP[E])
(1, 0)
>>> [NAMES[d] for d in RING]
['NW', 'NE', 'E', 'SE', 'SW', 'W']
"""
from __future__ import annotations

# A game drifts a few dozen cells at most from the origin; the packing is
# exact for any |r| below half of SPAN, far beyond what any game reaches.
SPAN = 1 << 20
_HALF = SPAN // 2

#: The origin, where the first piece of a game goes (H-P1.2).
ORIGIN = 0

#: Direction indices in the order of H-N1.1.
E, W, NE, SW, NW, SE = range(6)
#: Direction index -> (dq, dr), in the order of H-N1.1.
DIRECTIONS = ((1, 0), (-1, 0), (1, -1), (-1, 1), (0, -1), (0, 1))
NAMES = ("E", "W", "NE", "SW", "NW", "SE")
#: The directions clockwise around a cell, starting north-west: the order of
#: Mzinga's ``Direction`` enum, used for gates (two neighbours of a step are
#: its neighbours in this ring) and for the canonical notation (H-N1.3).
RING = (NW, NE, E, SE, SW, W)


def cell(q: int, r: int) -> int:
    """The packed cell of axial coordinates (q, r)."""
    return q * SPAN + r


def coords(c: int) -> tuple[int, int]:
    """The axial coordinates (q, r) of a packed cell."""
    q = (c + _HALF) // SPAN
    return q, c - q * SPAN


#: Direction index -> the packed offset of one step that way.
STEP = tuple(cell(dq, dr) for dq, dr in DIRECTIONS)
#: The six packed offsets in ring order (clockwise from north-west).
RING_STEPS = tuple(STEP[d] for d in RING)
#: One entry per ring direction: (step, left step, right step). Moving from X by
#: ``step``, the two cells X and its neighbour share are X + left and X + right.
SLIDES = tuple((RING_STEPS[i], RING_STEPS[i - 1], RING_STEPS[(i + 1) % 6]) for i in range(6))


def neighbours(c: int) -> tuple[int, ...]:
    """The six cells around ``c``, in ring order."""
    return tuple(c + s for s in RING_STEPS)
