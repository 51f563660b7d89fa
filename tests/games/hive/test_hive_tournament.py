"""The class tournament's pairings (H-T1, H-T2, H-T3), by property: for every count of
players from 4 to 40, round robin and Swiss, a bye or the bot for an odd count, seeded
results round after round: no pair meets twice, every player's whites minus blacks
stays within one after every round, and everyone plays once a round but the bye (a
round robin for every count it may be played with, up to 12)."""
from __future__ import annotations

import random

import pytest

from facilitator.games.hive.hall import BOUNDS
from facilitator.games.hive.tournament import (NoPairing, colour_balance, round_robin_schedule,
                                               swiss_round)

COUNTS = range(4, 41)
#: A round robin is played up to 12 players (H-T1's bound): every count it may have.
ROUND_ROBIN_COUNTS = range(2, BOUNDS["round_robin_max"]["max"] + 1)


def check_round(boards, count, met, rounds, odd):
    """One round's boards against the rules; ``met`` and ``rounds`` grow with it."""
    seats, byes = [], []
    for board in boards:
        if "bye" in board:
            byes.append(board["bye"])
            continue
        players = [p for p in (board["white"], board["black"]) if p is not None]
        seats.extend(players)
        pair = frozenset(players) if len(players) == 2 else ("bot", players[0])
        assert pair not in met, f"{pair} meet twice"
        met.add(pair)
    assert sorted(seats + byes) == list(range(count)), "everyone plays once a round"
    assert len(byes) == (count % 2 if odd == "bye" else 0)
    rounds.append(boards)
    balance = colour_balance([[b for b in r if "bye" not in b] for r in rounds], count)
    assert max(map(abs, balance)) <= 1, balance


@pytest.mark.parametrize("odd", ["bye", "bot"])
@pytest.mark.parametrize("count", ROUND_ROBIN_COUNTS)
def test_a_round_robin_meets_everyone_once_colours_within_one(count, odd):
    schedule = round_robin_schedule(count, seed=count, odd=odd)
    assert len(schedule) == count - 1 + count % 2                           # H-T1
    met, rounds = set(), []
    for boards in schedule:
        check_round(boards, count, met, rounds, odd)                            # H-T2
    humans = {p for p in met if not isinstance(p, tuple)}
    assert len(humans) == count * (count - 1) // 2                           # everyone met
    if count % 2 and odd == "bye":                                           # H-T3
        assert sorted(b["bye"] for r in schedule for b in r if "bye" in b) == list(range(count))
    if count % 2 and odd == "bot":
        assert len(met - humans) == count                                    # each plays it once


def play_swiss(count, odd, seed, rounds_total):
    """A Swiss tournament with seeded results: its rounds, every one checked."""
    results = random.Random(seed)
    history, points, met = [], [0.0] * count, set()
    for _ in range(rounds_total):
        boards = swiss_round(count, history, points, seed, odd)
        check_round(boards, count, met, [list(r) for r in history], odd)
        history.append(boards)
        for board in boards:
            if "bye" in board:
                points[board["bye"]] += 1                                   # H-T3: a win's
                continue
            winner = results.choice(["white", "black", "draw"])
            for colour in ("white", "black"):
                if board[colour] is not None:
                    points[board[colour]] += 0.5 if winner == "draw" else winner == colour
    return history, points


@pytest.mark.parametrize("odd", ["bye", "bot"])
@pytest.mark.parametrize("count", COUNTS)
def test_swiss_rounds_never_repeat_a_pair_colours_within_one(count, odd):
    rounds_total = min(9, (count - 1) // 2)                                  # H-T1's bound
    for seed in range(4):
        history, _points = play_swiss(count, odd, seed, rounds_total)
        assert len(history) == rounds_total


def test_swiss_pairs_the_leaders_together():
    history, points = play_swiss(16, "bye", seed=3, rounds_total=1)
    leaders = {p for p in range(16) if points[p] == max(points)}
    boards = swiss_round(16, history, points, 3)
    top = boards[0]
    assert {top["white"], top["black"]} <= leaders or len(leaders) < 2


def test_the_same_seed_pairs_the_same_and_another_differs():
    assert round_robin_schedule(8, 5) == round_robin_schedule(8, 5)
    assert round_robin_schedule(8, 5) != round_robin_schedule(8, 6)
    assert swiss_round(20, [], [0.0] * 20, 1) == swiss_round(20, [], [0.0] * 20, 1)


def test_a_swiss_round_past_every_pairing_is_refused():
    history = round_robin_schedule(4, 1)                                     # all met
    with pytest.raises(NoPairing):
        swiss_round(4, history, [0.0] * 4, 1)
    with pytest.raises(NoPairing):
        round_robin_schedule(1, 1)
