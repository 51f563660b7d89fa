"""The pieces (H-S1.1) and game types (H-S1.4, H-N1.4).

A piece is a small integer, numbered as Mzinga numbers its ``PieceName``
(``wQ`` = 0 ... ``wP`` = 13, ``bQ`` = 14 ... ``bP`` = 27), so every colour's
pieces are one contiguous range and a piece's colour is ``piece >= 14``.
The table ``KINDS`` says how many of each kind a side has and whether the
kind is an expansion: adding the Mosquito, Ladybug or Pillbug later means
giving their kinds a way to move, not renumbering anything.

>>> name(0), name(15), parse_name("BS1"), parse_name("wx")
('wQ', 'bS1', 15, None)
>>> parse_game_type("Base+ML") == frozenset("ML")
True
"""
from __future__ import annotations

from dataclasses import dataclass

WHITE, BLACK = 0, 1
COLOURS = ("White", "Black")
COLOUR_LETTERS = ("w", "b")


@dataclass(frozen=True, slots=True)
class Kind:
    """One kind of insect: its letter, its English name, how many a side has,
    and whether it belongs to an expansion (H-S1.4)."""

    letter: str
    title: str
    count: int
    expansion: bool = False


#: Every kind, in Mzinga's order (the order of the piece numbers).
KINDS = (
    Kind("Q", "Queen Bee", 1),
    Kind("S", "Spider", 2),
    Kind("B", "Beetle", 2),
    Kind("G", "Grasshopper", 3),
    Kind("A", "Soldier Ant", 3),
    Kind("M", "Mosquito", 1, expansion=True),
    Kind("L", "Ladybug", 1, expansion=True),
    Kind("P", "Pillbug", 1, expansion=True),
)
KIND_BY_LETTER = {k.letter: k for k in KINDS}
EXPANSIONS = "MLP"


def _names(colour: int) -> list[str]:
    out = []
    for k in KINDS:
        if k.count == 1:
            out.append(f"{COLOUR_LETTERS[colour]}{k.letter}")
        else:
            out.extend(f"{COLOUR_LETTERS[colour]}{k.letter}{n}" for n in range(1, k.count + 1))
    return out


#: Piece number -> its name (``wQ``, ``wS1``, ...).
NAMES = tuple(_names(WHITE) + _names(BLACK))
PER_COLOUR = len(NAMES) // 2
#: Piece number -> colour, kind letter, number within the kind (0 for a single piece).
COLOUR = tuple(p // PER_COLOUR for p in range(len(NAMES)))
KIND = tuple(n[1] for n in NAMES)
NUMBER = tuple(int(n[2:]) if len(n) > 2 else 0 for n in NAMES)
QUEEN = (NAMES.index("wQ"), NAMES.index("bQ"))
_BY_LOWER = {n.lower(): p for p, n in enumerate(NAMES)}


def name(piece: int) -> str:
    """The name of a piece, e.g. ``bS1``."""
    return NAMES[piece]


def parse_name(text: str) -> int | None:
    """The piece named ``text`` (any letter case, as Mzinga reads it), or None."""
    return _BY_LOWER.get(text.lower())


def pieces_of(colour: int, kind: str) -> tuple[int, ...]:
    """One colour's pieces of one kind, in the order they must enter (H-P1.8)."""
    return tuple(p for p in range(len(NAMES)) if COLOUR[p] == colour and KIND[p] == kind)


#: The game types of H-N1.4, each as the set of its expansion letters.
GAME_TYPES = ("Base", "Base+M", "Base+L", "Base+P", "Base+ML", "Base+MP", "Base+LP", "Base+MLP")


def parse_game_type(text: str) -> frozenset[str] | None:
    """The expansions of a game type (``Base+MP`` -> {M, P}), or None if it is not one."""
    if text not in GAME_TYPES:
        return None
    return frozenset(text[5:])


def game_type_name(expansions: frozenset[str]) -> str:
    """The written form of a game type (its expansions in the order M, L, P)."""
    letters = "".join(x for x in EXPANSIONS if x in expansions)
    return f"Base+{letters}" if letters else "Base"


def enabled(piece: int, expansions: frozenset[str]) -> bool:
    """Whether a piece takes part in a game with these expansions (H-S1.4)."""
    kind = KIND_BY_LETTER[KIND[piece]]
    return not kind.expansion or kind.letter in expansions
