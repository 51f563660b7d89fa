"""Who holds a seat at a table of la colmena (docs/colmena.md, section 16): the table's
screen acts only for a seat no device holds (C-Q1, C-Q2), and the hall seats each player
at one table, which the lecture's door reads (C-Q3)."""
from __future__ import annotations

import pytest

from facilitator.games import Refusal, Role
from facilitator.games.colmena import KIND
from facilitator.live.seats import refuse_table_for_held
from facilitator.store.seats import seat_list


def table(players=("Ana", "Bea")):
    return KIND.new({"players": list(players)}, {"deck": "default", "seed": 7})


def test_c_q1_every_seat_is_offered_to_a_person():
    match = table()
    assert [s["seat"] for s in seat_list(match)] == [1, 2]


def test_c_q2_the_table_screen_never_acts_for_a_seat():
    match = table()
    # What the table's screen may send is the table's own (who starts, a penalty): no
    # entry it may send is a seat's turn, so a held seat is never played from it.
    assert all(not e.seats or e.do == "first_task" for e in match.legal(Role.table()))
    refuse_table_for_held(match, {"do": "first_task", "player": 1}, {"1": "phone"}, KIND)
    assert not getattr(KIND, "table_for_seat", frozenset())
    with pytest.raises(Refusal) as refused:
        match.play({"do": "keep", "card": "x"}, Role.table())
    assert refused.value.rule in ("C-T5", "C-Z2", "C-S5", "format", "C-Q1")


def test_c_q3_the_hall_seats_each_player_at_one_table():
    hall = KIND.hall
    plan = hall.plan(["Ana", "Bea", "Carla", "Dani", "Eli"], {}, seed=7)
    places = {}
    for game in hall.round_games(plan):
        for player, seat in game["seats"].items():
            assert player not in places
            places[player] = (game["key"], seat)
            assert game["players"][seat - 1] == int(player)
    assert sorted(places) == [str(n) for n in range(5)]
    assert Role.table().kind == "table"
