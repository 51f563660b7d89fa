"""A table's screens, built together (``ColmenaLive.screens``: the legal list worked out once
for every audience), are each audience's screen as built alone (``PlainLive.screens``), at
every step of random games with undo and redo."""
from __future__ import annotations

import json
import random

from colmena_play import random_step

from facilitator.games.colmena import KIND
from facilitator.games.protocol import PlainLive


def _text(screens) -> str:
    return json.dumps([[role.kind, role.seat, body] for role, body in screens], sort_keys=True)


def test_screens_built_together_are_each_screen_built_alone():
    for seed in range(6):
        match = KIND.new({"players": ["Ana", "Bea", "Carla", "Dani"][:2 + seed % 3]}, seed=seed)
        rng = random.Random(seed)
        for _ in range(120):
            assert _text(match.screens(0.0)) == _text(PlainLive.screens(match, 0.0))
            if match.over:
                break
            random_step(match, rng, history=True)
