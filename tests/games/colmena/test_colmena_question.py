"""A question asked by communicating shows while the group answers it, then goes (C-V2;
issue 47: it stayed on every screen for the rest of the game)."""
from __future__ import annotations

import random

from colmena_play import GM, concrete_actions, new_table
from facilitator.games.protocol import Role


def _play_until(match, want, rng, most: int = 400):
    """Play random legal actions (no undo, no end) until ``want(match)`` or ``most``."""
    for _ in range(most):
        if want(match) or match.over:
            return
        entries = [e for e in match.legal(GM) if e.do not in ("undo", "redo", "end_game",
                                                              "penalty", "communicate")]
        actions = [a for e in entries for a in concrete_actions(e)]
        match.play(rng.choice(actions), GM)


def test_a_question_shows_the_turn_after_it_was_asked_and_then_goes():
    rng = random.Random(5)
    match = new_table(3)
    _play_until(match, lambda m: any(e.do == "communicate" for e in m.legal(GM)), rng)
    entry = next(e for e in match.legal(GM) if e.do == "communicate")
    match.play({"do": "communicate", "card": entry.options["cards"][0],
                "ask": {"team": entry.options["ask"]["team"][0]}}, GM)
    asked = match.view(Role.watcher())["question"]
    assert asked is not None and asked["text"]["es"].startswith("¿")
    # Communicating ends the turn (C-Z3): the next player's turn shows the question.
    answering = match.view(Role.watcher())["turn"]
    assert answering == asked["turn"] + 1
    _play_until(match, lambda m: m.view(Role.watcher())["turn"] > answering, rng)
    if not match.over:
        assert match.view(Role.watcher())["question"] is None
        assert match.view(Role.table())["question"] is None
