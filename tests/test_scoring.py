"""R-P2's score is exact whatever the point values and adjustments (engine/scoring.py
sums in whole units of the values' common denominator, not with Fraction arithmetic)."""
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from facilitator.engine.numbers import exact
from facilitator.engine.scoring import adjustments, score
from facilitator.engine.settings import Points
from facilitator.engine.state import TeamState

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
