"""R-P2's score is exact whatever the point values and adjustments (engine/scoring.py
sums in whole units of the values' common denominator, not with Fraction arithmetic)."""
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from facilitator.games.partida.numbers import exact
from facilitator.games.partida.scoring import adjustments, score
from facilitator.games.partida.settings import Points
from facilitator.games.partida.state import TeamState

#: R-P1: each value from -100 to 100 in steps of 0.01.
POINT_VALUES = st.integers(-10_000, 10_000).map(lambda hundredths: Fraction(hundredths, 100))
#: An adjustment is any number the GM types: whole, 0.5, 0.1, 1e-7, ...
ADJUSTMENTS = st.integers(-50, 50).map(Fraction) | st.floats(-1e6, 1e6).map(exact)


@given(card=POINT_VALUES, consolation=POINT_VALUES, pifie=POINT_VALUES, bonus=POINT_VALUES,
       cards=st.integers(0, 40), consolations=st.integers(0, 20), pifies=st.integers(0, 20),
       bonuses=st.integers(0, 10), adjusted=st.lists(ADJUSTMENTS, max_size=6))
def test_the_score_is_the_exact_sum_R_P2(card, consolation, pifie, bonus, cards, consolations,
                                         pifies, bonuses, adjusted):
    points = Points(card=card, consolation=consolation, pifie=pifie, risky_bonus=bonus)
    team = TeamState(1, "Equipo 1", 4, cards=[f"type:t{n}" for n in range(cards)],
                     pifies=pifies, consolations=consolations, bonuses=bonuses,
                     adjustments=[(p, "motivo") for p in adjusted])
    expected = (cards * card + consolations * consolation + bonuses * bonus + pifies * pifie
                + sum(adjusted, Fraction(0)))
    assert score(team, points) == expected
    assert isinstance(score(team, points), Fraction)
    assert adjustments(team) == sum(adjusted, Fraction(0))


def _reference_standings(teams, points):
    """R-P2 and R-P4 with Fraction arithmetic throughout, as the rule book says them."""
    def exact_score(team):
        return (len(team.cards) * points.card + team.consolations * points.consolation
                + team.bonuses * points.risky_bonus + team.pifies * points.pifie
                + sum((p for p, _ in team.adjustments), Fraction(0)))
    ordered = sorted(teams, key=lambda t: (-exact_score(t), -len(t.cards), t.pifies, t.number))
    rows, previous, rank = [], None, 0
    for place, team in enumerate(ordered, start=1):
        key = (exact_score(team), len(team.cards), team.pifies)
        if key != previous:
            rank, previous = place, key
        total = exact_score(team)
        rows.append((team.number, rank, int(total) if total.denominator == 1 else float(total)))
    return rows


@given(card=POINT_VALUES, consolation=POINT_VALUES, pifie=POINT_VALUES, bonus=POINT_VALUES,
       teams=st.lists(st.tuples(st.integers(0, 6), st.integers(0, 3), st.integers(0, 3),
                                st.integers(0, 2), st.lists(ADJUSTMENTS, max_size=3)),
                      min_size=4, max_size=6))
def test_the_standings_rank_exact_scores_R_P4(card, consolation, pifie, bonus, teams):
    from facilitator.games.partida import parse_settings
    from facilitator.games.partida.scoring import standings
    from facilitator.games.partida.state import initial_state
    settings = parse_settings({
        "teams": [{"name": f"Equipo {n}", "members": 4} for n in range(1, len(teams) + 1)],
        "points": {"card": float(card), "consolation": float(consolation),
                   "pifie": float(pifie), "risky_bonus": float(bonus)}})
    state = initial_state(settings, {})
    for team, (cards, consolations, pifies, bonuses, adjusted) in zip(state.teams, teams):
        team.cards = [f"type:t{k}" for k in range(cards)]
        team.consolations, team.pifies, team.bonuses = consolations, pifies, bonuses
        team.adjustments = [(p, "motivo") for p in adjusted]
    rows = [(r["team"], r["rank"], r["score"]) for r in standings(state)]
    assert rows == _reference_standings(state.teams, settings.points)
