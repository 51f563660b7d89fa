"""Set-up: seats (C-S1), the seeded shuffle (C-S2, C-R2), the deal (C-S3), the redeal
(C-S4, C-O1), the first task and who places it (C-S5, C-S6)."""
from __future__ import annotations

import random

import pytest

from colmena_play import GM, new_table
from facilitator.games.colmena import KIND
from facilitator.games.colmena.deal import deal, hand_size
from facilitator.games.colmena.deck import DEFAULT
from facilitator.games.protocol import Refusal, Role


def shuffled(seed: int) -> list[str]:
    """C-R2 by its own words: the file order, random.Random(seed).shuffle, top first."""
    order = list(DEFAULT.ids)
    random.Random(seed).shuffle(order)
    return order


def refusal(match, action: dict, by: Role = GM) -> str:
    before = match.state.to_dict()
    with pytest.raises(Refusal) as caught:
        match.play(action, by)
    assert match.state.to_dict() == before           # C-R4: nothing changed
    return caught.value.rule


def test_c_s1_seats_as_entered_and_the_player_on_the_left():
    match = KIND.new({"players": [" Ana ", "Bea", "Carla", "Dani"]}, seed=1)
    assert match.players == ("Ana", "Bea", "Carla", "Dani")
    assert [match.state.next_seat(s) for s in (1, 2, 3, 4)] == [2, 3, 4, 1]


@pytest.mark.parametrize("players", [[], ["A", "B", "C", "D", "E"]])
def test_c_s1_one_to_four_players(players):
    with pytest.raises(Refusal) as caught:
        KIND.new({"players": players}, seed=1)
    assert caught.value.rule == "C-S1"


@pytest.mark.parametrize("settings", [None, {"players": "Ana"}, {"players": ["Ana", ""]},
                                      {"players": ["Ana", 3]}, {"players": ["A" * 41]},
                                      {"players": ["Ana"], "rounds": 2}])
def test_settings_of_the_wrong_form_are_format(settings):
    with pytest.raises(Refusal) as caught:
        KIND.new(settings, seed=1)
    assert caught.value.rule == "format"


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_c_s2_c_s3_the_seeded_shuffle_and_the_deal(players):
    """C-S2, C-R2: the 72 shuffled by the seed, first on top; C-S3: each seat in turn draws
    its whole hand from the top, seat 1 first (C-O1: 6 solo)."""
    seed = 48151 + players
    order, size = shuffled(seed), {1: 6, 2: 6, 3: 4, 4: 3}[players]
    state = deal(DEFAULT, tuple("ABCD"[:players]), seed)
    assert state.deals == 1
    assert hand_size(players) == size
    assert state.hands == [order[i * size:(i + 1) * size] for i in range(players)]
    assert state.deck == order[players * size:]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_c_s4_no_task_in_any_hand_deals_again(players):
    """Seed 2751's first twelve cards hold no task: the hands go back under the deck in
    seat order, and the same generator shuffles the 72 again (C-S4, C-O1, C-R2)."""
    size = {1: 6, 2: 6, 3: 4, 4: 3}[players]
    rng = random.Random(2751)
    order = list(DEFAULT.ids)
    rng.shuffle(order)
    assert not any(DEFAULT.card(c).is_task for c in order[:players * size])
    order = order[players * size:] + order[:players * size]
    rng.shuffle(order)
    state = deal(DEFAULT, tuple("ABCD"[:players]), 2751)
    assert state.deals == 2
    assert state.hands == [order[i * size:(i + 1) * size] for i in range(players)]
    assert state.deck == order[players * size:]


def test_c_o1_solo_draws_six_until_a_task_comes():
    match = KIND.new({"players": ["Ana"]}, seed=3)
    assert match.state.deals == 2 and len(match.state.hand(1)) == 6
    assert any(DEFAULT.card(c).is_task for c in match.state.hand(1))
    assert match.view(GM)["deals"] == 2


def test_c_s5_the_table_names_the_starter_and_that_player_places_the_task():
    match = new_table(3)                  # Ana T11..., Bea T18..., Carla T19 T01...
    match.play({"do": "first_task", "player": 3}, Role.table())
    assert match.state.starter == 3 and match.state.step == "first_task"
    assert refusal(match, {"do": "first_task", "card": "T11"}, Role.of_seat(1)) == "C-T5"
    match.play({"do": "first_task", "player": 2}, Role.table())     # the table changed its mind
    match.play({"do": "first_task", "card": "T18"}, Role.of_seat(2))
    assert match.state.board == {(0, 0): "T18"}
    assert match.log[-1] == {"do": "first_task", "player": 2, "card": "T18"}


def test_c_s5_a_player_holding_a_task_may_start_from_its_own_device():
    match = new_table(3)
    assert refusal(match, {"do": "first_task", "player": 2, "card": "T18"},
                   Role.of_seat(1)) == "C-T5"
    assert refusal(match, {"do": "first_task", "player": 2, "card": "T18"},
                   Role.watcher()) == "C-T5"
    assert refusal(match, {"do": "first_task", "card": "T18"}, GM) == "format"   # names no one
    match.play({"do": "first_task", "player": 1, "card": "T11"}, Role.of_seat(1))
    assert match.state.board == {(0, 0): "T11"}


def test_c_s5_only_a_player_holding_a_task_and_only_a_task():
    match = KIND.new({"players": ["Ana", "Bea", "Carla", "Dani"]}, seed=1)
    assert refusal(match, {"do": "first_task", "player": 1}, Role.table()) == "C-S5"
    assert refusal(match, {"do": "first_task", "player": 3, "card": "ARD01"}) == "C-S5"
    assert refusal(match, {"do": "first_task", "player": 3, "card": "T26"}) == "C-T5"
    assert refusal(match, {"do": "first_task", "player": 7, "card": "T26"}) == "C-T5"
    legal = {e.do: e for e in match.legal(Role.table())}
    assert legal["first_task"].options == {"players": [2, 3, 4], "starter": None}


def test_c_s6_the_starter_takes_the_first_turn():
    match = new_table(3)
    match.play({"do": "first_task", "player": 3, "card": "T01"})
    state = match.state
    assert (state.turn, state.seat, state.step) == (1, 3, "keep")
    assert state.drawn == ["MAN08", "T22"]
    assert refusal(match, {"do": "first_task", "player": 1, "card": "T11"}) == "C-T5"


def test_a_new_table_without_a_seed_gets_one_and_records_it():
    match = KIND.new({"players": ["Ana", "Bea"]})
    assert isinstance(match.seed, int)
    assert KIND.replay(match.record()).state.hands == match.state.hands
    with pytest.raises(Refusal):
        KIND.new({"players": ["Ana", "Bea"]}, seed="7")
