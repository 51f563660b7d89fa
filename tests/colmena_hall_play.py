"""Helpers for the tests of la colmena's halls: a table's next action picked from the legal
list a screen receives (the teacher's, who acts for the active player), so a test plays
tables through the store or over a socket as the console would."""
from __future__ import annotations

import random
import sys
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent / "games" / "colmena"))
from colmena_play import WEIGHTS, concrete_actions  # noqa: E402

#: What a test's "players" never send: the teacher's history and ending, the penalty.
NOT_PLAYED = {"undo", "redo", "end_game", "penalty"}


def next_action(legal: list[dict], rng: random.Random) -> dict | None:
    """A concrete action from a legal list as screens get it (``Legal.to_dict``), None
    when nothing but the teacher's history and ending is left."""
    entries = [SimpleNamespace(**entry) for entry in legal if entry["do"] not in NOT_PLAYED]
    if not entries:
        return None
    entry = rng.choices(entries, [WEIGHTS.get(e.do, 1.0) for e in entries])[0]
    return rng.choice(concrete_actions(entry))


def legal_of(match) -> list[dict]:
    """The teacher's legal list of a match, as the console's screen gets it."""
    return [entry.to_dict() for entry in match.legal(None)]
