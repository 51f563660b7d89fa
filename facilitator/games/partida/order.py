"""Turn order: serpentine rounds (R-O2, R-O3)."""
from __future__ import annotations


def hosts_of_round(round_no: int, team_count: int) -> tuple[int, ...]:
    """The hosts of round ``round_no`` in order: odd rounds 1..N, even rounds N..1 (R-O3).

    >>> hosts_of_round(1, 5), hosts_of_round(2, 5)
    ((1, 2, 3, 4, 5), (5, 4, 3, 2, 1))
    """
    forward = tuple(range(1, team_count + 1))
    return forward if round_no % 2 == 1 else forward[::-1]


def host_of(round_no: int, position: int, team_count: int) -> int:
    """The host of the turn at ``position`` (0-based) of round ``round_no``."""
    return hosts_of_round(round_no, team_count)[position]
