"""Property tests: random tables played from the engine's own legal list keep the rules.

Tables of 1 to 4 players with random seeds are played by random senders (the
teacher, the seat, the table screen, whichever the entry allows) choosing
among the concrete actions of ``legal()``, undo and redo included. After
every accepted action: the 72 cards are each in exactly one place (deck,
hands, discard pile, board, pending; C-C1, C-Z7); no view but its owner's
shows a hand card or the two being chosen from (C-V1, C-V2; each view
serialised as JSON and searched for every such id); nothing is completed
wrongly (C-P8); an undo restores the state exactly and a redo puts it back
(C-Z8). A play outside the legal cells is refused and changes nothing. At the
end the record replays to the identical table (C-R1, C-R2).

Deterministic: ``derandomize=True`` and no example database, so CI is stable.
"""
from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from colmena_play import GM, leaks, new_table, random_step
from facilitator.games.colmena import KIND
from facilitator.games.colmena.deck import DEFAULT
from facilitator.games.protocol import Refusal, Role

IDS = sorted(DEFAULT.ids)


def props(examples: int) -> settings:
    """Stable in CI: derandomized, no example database, no deadline (games vary in length)."""
    return settings(max_examples=examples, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def everywhere(match) -> list[str]:
    state = match.state
    return sorted(state.deck + state.discard + list(state.board.values()) + state.pending()
                  + [card for hand in state.hands for card in hand])


def audiences(match) -> list[Role]:
    return [Role.of_seat(s) for s in range(1, len(match.players) + 1)] + [Role.table(),
                                                                          Role.watcher()]


def check_invariants(match) -> None:
    assert everywhere(match) == IDS                                    # C-C1, C-Z7
    for role in audiences(match):
        assert leaks(match, role) == [], role                          # C-V1, C-V2
    score = match.score()
    assert score["completed_wrongly"] == 0                             # C-P8
    assert score["total"] == (score["completed_points"] + score["bonus_points"]
                              + score["open_points"] + score["hand_points"])
    json.dumps(match.view(GM), ensure_ascii=False)                     # C-V3: plain data


def check_a_play_outside_the_legal_cells(match, rng) -> None:
    """A random card on a random cell is accepted exactly when legal() offers it."""
    legal = {e.do: e.options for e in match.legal()}
    card = rng.choice(IDS)
    cell = [rng.randint(-3, 3), rng.randint(-3, 3)]
    offered = cell in legal.get("play", {}).get("cards", {}).get(card, [])
    before, seq = match.state.to_dict(), match.seq
    try:
        match.play({"do": "play", "card": card, "at": cell})
    except Refusal:
        assert not offered, (card, cell)
        assert match.state.to_dict() == before and match.seq == seq
        return
    assert offered, (card, cell)
    match.play({"do": "undo"})
    assert match.state.to_dict() == before


@props(25)
@given(players=st.integers(1, 4), seed=st.integers(0, 2 ** 31 - 1),
       choices=st.integers(0, 2 ** 31 - 1))
def test_random_legal_tables_keep_the_rules(players, seed, choices):
    # A generator of our own (not Hypothesis's): a shrunk one that always answers 0 would
    # name the starting player again and again, forever.
    rng = random.Random(choices)
    match = new_table(players, seed)
    check_invariants(match)
    for _ in range(rng.randint(1, 160)):
        before = match.state.to_dict()
        action, _by = random_step(match, rng)
        after = match.state.to_dict()
        if action["do"] not in ("undo", "redo") and rng.random() < 0.3:
            match.play({"do": "undo"})
            assert match.state.to_dict() == before                     # C-Z8: exact
            match.play({"do": "redo"})
            assert match.state.to_dict() == after
        check_invariants(match)
        if rng.random() < 0.2:
            check_a_play_outside_the_legal_cells(match, rng)
        if match.over and rng.random() < 0.5:
            break
    again = KIND.replay(match.record())                                # C-R1, C-R2
    assert again.state.to_dict() == match.state.to_dict()
    assert [e.to_dict() for e in again.legal()] == [e.to_dict() for e in match.legal()]
    assert again.summary() == match.summary()


@props(12)
@given(players=st.integers(1, 4), seed=st.integers(0, 2 ** 31 - 1),
       choices=st.integers(0, 2 ** 31 - 1))
def test_every_table_ends_when_the_deck_runs_out(players, seed, choices):
    """C-E1: played without the bell or undo, every table ends, its deck empty, no card
    pending, and its record replays to the same summary."""
    rng = random.Random(choices)
    match = new_table(players, seed)
    for _ in range(600):
        if match.over:
            break
        random_step(match, rng, history=False)
    assert match.over and not match.state.ended_early
    assert match.state.deck == [] and match.state.pending() == []
    assert KIND.replay(match.record()).summary() == match.summary()
