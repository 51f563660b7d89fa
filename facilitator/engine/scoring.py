"""Scores and ranking (R-P1, R-P2, R-P4)."""
from __future__ import annotations

import math
from fractions import Fraction

from .numbers import plain
from .settings import Points
from .state import GameState, TeamState


def score(team: TeamState, points: Points) -> Fraction:
    """R-P2: cards, consolations, bonuses and pifies at their values, plus adjustments."""
    # The same exact sum in whole units of the values' common denominator: Fraction
    # arithmetic costs a microsecond an operation, and the standings come with every
    # change of every game (the settings keep values to steps of 0.01).
    card, consolation, bonus, pifie = (points.card, points.consolation, points.risky_bonus,
                                       points.pifie)
    unit = math.lcm(card.denominator, consolation.denominator, bonus.denominator,
                    pifie.denominator)
    units = (len(team.cards) * card.numerator * (unit // card.denominator)
             + team.consolations * consolation.numerator * (unit // consolation.denominator)
             + team.bonuses * bonus.numerator * (unit // bonus.denominator)
             + team.pifies * pifie.numerator * (unit // pifie.denominator))
    given = [p for p, _ in team.adjustments]
    if all(p.denominator == 1 for p in given):       # whole adjustments, the usual ones
        return Fraction(units + unit * sum(p.numerator for p in given), unit)
    return sum(given, Fraction(units, unit))


def adjustments(team: TeamState) -> Fraction:
    """The sum of a team's adjustments (R-P2), exactly."""
    return sum((p for p, _ in team.adjustments), Fraction(0))


def ranking_key(team: TeamState, points: Points) -> tuple:
    """R-P4: higher score, then more cards, then fewer pifies."""
    return (-score(team, points), -len(team.cards), team.pifies)


def standings(state: GameState) -> list[dict]:
    """The standings, best first, with what is behind each score (RULES.md section 11).

    Teams still equal after R-P4 share a rank, the next rank skips, and tied
    teams are listed by team number.
    """
    points = state.settings.points
    # Each team's key once (scores are exact fractions: not free to compute).
    ordered = sorted(((ranking_key(t, points), t.number, t) for t in state.teams),
                     key=lambda entry: entry[:2])
    rows, previous, rank = [], None, 0
    for place, (key, _number, team) in enumerate(ordered, start=1):
        if key != previous:
            rank, previous = place, key
        authors = [c for c in team.cards if c.startswith("author:")]
        rows.append({
            "team": team.number, "name": team.name, "rank": rank,
            "score": plain(-key[0]),
            "cards": len(team.cards), "author_cards": len(authors),
            "type_cards": len(team.cards) - len(authors), "card_list": list(team.cards),
            "pifies": team.pifies, "consolations": team.consolations, "bonuses": team.bonuses,
            "adjustments": plain(adjustments(team)),
            "special": dict(team.special),
        })
    return rows
