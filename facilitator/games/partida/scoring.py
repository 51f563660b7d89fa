"""Scores and ranking (R-P1, R-P2, R-P4)."""
from __future__ import annotations

import math
from fractions import Fraction

from .settings import Points
from .state import GameState, TeamState


def score(team: TeamState, points: Points) -> Fraction:
    """R-P2: cards, consolations, bonuses and pifies at their values, plus adjustments."""
    unit = _unit(points, [team])
    return Fraction(_in_units(team, points, unit), unit)


def adjustments(team: TeamState) -> Fraction:
    """The sum of a team's adjustments (R-P2), exactly."""
    return sum((p for p, _ in team.adjustments), Fraction(0))


def ranking_key(team: TeamState, points: Points) -> tuple:
    """R-P4: higher score, then more cards, then fewer pifies."""
    return (-score(team, points), -len(team.cards), team.pifies)


# Scores are exact, and summed in whole units of the common denominator of every value
# that goes in them (the settings keep points to steps of 0.01; an adjustment is any
# number): the same sums and comparisons as with Fractions, which cost a microsecond an
# operation, and the standings come with every change of every game.

def _unit(points: Points, teams) -> int:
    """The least common denominator of the point values and the teams' adjustments."""
    unit = math.lcm(points.card.denominator, points.consolation.denominator,
                    points.risky_bonus.denominator, points.pifie.denominator)
    for team in teams:
        for value, _reason in team.adjustments:
            if unit % value.denominator:
                unit = math.lcm(unit, value.denominator)
    return unit


def _in_units(team: TeamState, points: Points, unit: int) -> int:
    """R-P2's score of ``team`` in units of 1/``unit`` (a multiple of every value's
    denominator)."""
    return (len(team.cards) * _units(points.card, unit)
            + team.consolations * _units(points.consolation, unit)
            + team.bonuses * _units(points.risky_bonus, unit)
            + team.pifies * _units(points.pifie, unit)
            + _adjusted_units(team, unit))


def _adjusted_units(team: TeamState, unit: int) -> int:
    return sum(_units(value, unit) for value, _reason in team.adjustments)


def _units(value: Fraction, unit: int) -> int:
    return value.numerator * (unit // value.denominator)


def _plain(units: int, unit: int) -> int | float:
    """``plain`` of units/unit: a whole number when it is one, else the nearest float
    (int division rounds correctly, as ``float(Fraction)`` does)."""
    whole, rest = divmod(units, unit)
    return whole if not rest else units / unit


def standings(state: GameState) -> list[dict]:
    """The standings, best first, with what is behind each score (RULES.md section 11).

    Teams still equal after R-P4 share a rank, the next rank skips, and tied
    teams are listed by team number.
    """
    points = state.settings.points
    unit = _unit(points, state.teams)
    # R-P4's key of each team, once: higher score, more cards, fewer pifies.
    ordered = sorted(((-_in_units(t, points, unit), -len(t.cards), t.pifies), t.number, t)
                     for t in state.teams)
    rows, previous, rank = [], None, 0
    for place, (key, _number, team) in enumerate(ordered, start=1):
        if key != previous:
            rank, previous = place, key
        authors = [c for c in team.cards if c.startswith("author:")]
        rows.append({
            "team": team.number, "name": team.name, "rank": rank,
            "score": _plain(-key[0], unit),
            "cards": len(team.cards), "author_cards": len(authors),
            "type_cards": len(team.cards) - len(authors), "card_list": list(team.cards),
            "pifies": team.pifies, "consolations": team.consolations, "bonuses": team.bonuses,
            "adjustments": _plain(_adjusted_units(team, unit), unit),
            "special": dict(team.special),
        })
    return rows
