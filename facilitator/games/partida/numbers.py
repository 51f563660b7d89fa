"""Exact points: scores are kept as fractions so that ties are real ties."""
from __future__ import annotations

import math
from fractions import Fraction

from ..protocol import is_unicode  # noqa: F401  (the engine's checks of text)


def exact(value: int | float | Fraction) -> Fraction:
    """A point value as an exact fraction (0.1 stays one tenth, not a binary float)."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, int):
        return Fraction(value)
    return Fraction(repr(value))


def is_number(value: object) -> bool:
    """True for a finite JSON number (booleans are not numbers here)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return math.isfinite(value)


def plain(value: Fraction) -> int | float:
    """A fraction as the JSON number a person expects: 2, -0.5, 7.5."""
    if value.denominator == 1:
        return int(value)
    return float(value)
