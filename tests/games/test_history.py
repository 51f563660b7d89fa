"""The event log with undo and redo is the protocol's, written once (issue 46, item 1):
every engine keeps a ``History``, and it logs, takes back and puts back as R-G1, C-Z8 and
H-G6 ask (undo and redo are actions too; an action after an undo drops what was undone)."""
from __future__ import annotations

import pytest

import counter_game
from facilitator.games import kind, names
from facilitator.games.protocol import History, Role


def test_a_history_logs_undoes_and_redoes():
    history = History()
    history.apply({"do": "a"}, ["x"])
    history.apply({"do": "b"}, ["y", "z"])
    assert (history.seq, history.can_undo, history.can_redo) == (2, True, False)
    undone = history.undo({"do": "undo"})
    assert (undone.action, undone.events, undone.seq, undone.undone_at) == (
        {"do": "b"}, ["y", "z"], 2, 3)
    assert list(history.events()) == ["x"] and history.can_redo
    redone = history.redo({"do": "redo"})
    assert redone.undone_at is None and list(history.events()) == ["x", "y", "z"]
    assert [a["do"] for a in history.log] == ["a", "b", "undo", "redo"]
    history.undo({"do": "undo"})
    history.apply({"do": "c"}, ["w"])
    assert not history.can_redo and list(history.events()) == ["x", "w"]
    assert history.seq == 6


SETTINGS = {"partida": {"teams": [{"name": f"Equipo {n}", "members": 3} for n in range(1, 5)]},
            "colmena": {"players": ["Ana", "Bea"]}, "hive": {}}


#: A first action of each game, as its teacher may send it.
FIRST = {"partida": {"do": "declare", "mode": "normal"},
         "colmena": {"do": "first_task", "player": 1, "card": "T21"},
         "hive": {"do": "move", "move": "wS1"}, "counter": {"do": "add", "n": 1}}


@pytest.mark.parametrize("name", [*names(), "counter"])
def test_every_engine_keeps_the_protocols_history(name):
    """Each engine's undo and redo are its History's: the same log, the same seq."""
    found = counter_game.KIND if name == "counter" else kind(name)
    match = found.new(SETTINGS.get(name, {}), **({"seed": 48151} if name == "colmena" else {}))
    assert type(match.history) is History
    teacher = Role.gm()
    assert match.seq == 0 and not match.can_undo
    first = dict(FIRST[name])
    if name == "colmena":           # a card of player 1's hand, as the deal gave it
        entry = next(e for e in match.legal(teacher) if e.do == "first_task")
        first["card"] = entry.options["cards"]["1"][0]
    match.act(first, teacher, 0.0)
    seq = match.seq
    assert match.history.seq == seq >= 1 and match.can_undo and not match.can_redo
    match.act({"do": "undo"}, teacher, 0.0)
    assert match.can_redo and match.seq == match.history.seq == seq + 1
    match.act({"do": "redo"}, teacher, 0.0)
    assert match.can_undo and not match.can_redo and match.seq == seq + 2
