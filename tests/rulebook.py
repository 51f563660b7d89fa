"""Small helpers for rule tests: a 4-team game with a known bank, and assertions."""
from __future__ import annotations

import pytest

from facilitator.games.partida import Game, Question, Refusal, parse_settings

AUTHORS = ("Kant", "Marx", "Arendt")
TYPES = ("vf", "quien", "abierta")


def bank(per_pair: int = 3) -> list[Question]:
    """``per_pair`` questions for every author and type: ids like ``kant-vf-1``."""
    return [Question(f"{a.lower()}-{t}-{i}", a, t, f"¿{a} {t} {i}?", f"Respuesta {a} {t} {i}")
            for a in AUTHORS for t in TYPES for i in range(1, per_pair + 1)]


def new_game(teams: int = 4, per_pair: int = 3, **settings) -> Game:
    """A game of ``teams`` teams of 4 with the given settings (record keys)."""
    data = {"teams": [{"name": f"Equipo {n}", "members": 4} for n in range(1, teams + 1)]}
    data.update(settings)
    return Game(parse_settings(data), bank(per_pair))


def act(do: str, **fields) -> dict:
    """An action as a record writes it."""
    return {"do": do, **fields}


def play(game: Game, *actions: dict) -> Game:
    """Play every action; any refusal fails the test with its rule and message."""
    for action in actions:
        game.play(action)
    return game


def refused(game: Game, action: dict, rule: str) -> Refusal:
    """Assert ``action`` is refused with ``rule`` and leaves the state exactly as it was."""
    before, log = game.state.to_dict(), len(game.log)
    with pytest.raises(Refusal) as caught:
        game.play(action)
    assert caught.value.rule == rule, f"expected {rule}, got {caught.value}"
    assert caught.value.message
    assert game.state.to_dict() == before
    assert len(game.log) == log
    return caught.value


def normal_turn(author: str = "Kant", qtype: str = "vf", result: str = "full",
                qid: str | None = None) -> list[dict]:
    """The actions of a plain normal turn ending with end_turn (no pick after half)."""
    qid = qid or f"{author.lower()}-{qtype}-1"
    return [act("declare", mode="normal"), act("choose", author=author, type=qtype),
            act("question", id=qid), act("verdict", result=result)]


def to_deliberation(game: Game, mode: str, target: int, author=None, qtype=None) -> Game:
    """Declare a challenge, choose and read an unused question: the turn is deliberating."""
    q = unused(game, author, qtype)
    return play(game, act("declare", mode=mode, target=target),
                act("choose", author=q.author, type=q.type), act("question", id=q.id))


def unused(game: Game, author: str | None = None, qtype: str | None = None) -> Question:
    """An unused question, of ``author`` and ``qtype`` when given."""
    for q in game.questions.values():
        if (q.id not in game.state.used and author in (None, q.author)
                and qtype in (None, q.type)):
            return q
    raise AssertionError(f"no unused {author} {qtype} question")


def score(game: Game, team: int):
    """Team ``team``'s score."""
    return next(r["score"] for r in game.standings() if r["team"] == team)


def scores(game: Game) -> dict[int, float]:
    """Every team's score by team number."""
    return {r["team"]: r["score"] for r in game.standings()}
