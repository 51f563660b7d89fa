"""The ``state`` message each audience receives (docs/protocol.md).

The engine's views decide what each audience may see; this adds what only
the live game has: the timer, connected devices, exchange requests, and the
actions the audience may take now.
"""
from __future__ import annotations

import time

from ..games.partida import Game
from ..games.partida.resolution import QUESTION, next_step
from ..games.partida.scoring import standings
from ..games.partida.views import gm_view, public_view, team_view
from ..results import cards_by_author_and_type, timeline
from . import timers
from .audience import GM, TEAM, Audience


def _candidates(game: Game) -> list[dict]:
    """For the GM at step 5: the unused questions of the chosen author and type."""
    turn = game.state.turn
    if game.state.over or next_step(turn).name != QUESTION:
        return []
    return [{"id": q.id, "text": q.text, "answer": q.answer, "notes": q.notes}
            for q in game.questions.values()
            if q.author == turn.author and q.type == turn.type and q.id not in game.state.used]


def team_legal(legal: list[dict], team: int) -> list[dict]:
    """The ``legal`` list of team ``team``'s devices: the entries it may send itself, with
    ``exchange`` (the GM's, R-K6) offered as ``request_exchange``, same options."""
    return [{**entry, "do": "request_exchange"} if entry["do"] == "exchange" else entry
            for entry in legal if team in entry["teams"]]


def shown_answer(game: Game, row) -> dict | None:
    """Issue 13: the expected answer the GM shows on the projector, or None. Only for the
    turn it was shown in, and only once that turn's verdicts are given (R-V1): the oral
    verdict, and the written one when there is an anticipation. Never for teams."""
    turn = game.state.turn
    if (getattr(row, "shown_answer_turn", None) != turn.number or game.state.over
            or turn.question is None or turn.verdict is None
            or (turn.has_anticipation and turn.written_correct is None)):
        return None
    q = game.state.questions[turn.question]
    return {"turn": turn.number, "text": q.answer,
            **({"html": q.answer_html} if q.answer_html else {})}


def snapshot(game: Game, row, audience: Audience, devices: dict | None = None,
             now: float | None = None, device_ids: dict | None = None) -> dict:
    """The full ``state`` message for ``audience``. ``devices``: connections per team;
    ``device_ids``: the device ids of each team (both GM only)."""
    now = time.time() if now is None else now
    state = game.state
    legal = game.legal_actions()
    requests = list(row.exchange_requests or [])
    if audience.role == GM:
        view = gm_view(state)
        legal_out = [entry.to_dict() for entry in legal]
    elif audience.role == TEAM:
        view = team_view(state, audience.team)
        legal_out = team_legal([entry.to_dict() for entry in legal], audience.team)
        requests = [r for r in requests if r.get("team") == audience.team]
    else:
        view = public_view(state)
        legal_out, requests = [], []
    message = {
        "game": row.id, "name": row.name, "seq": game.seq, "role": audience.role,
        "team": audience.team, "now": int(now * 1000), "view": view, "legal": legal_out,
        "timer": timers.public(row.timer or {}, game, now), "exchange_requests": requests,
        "can_undo": game.can_undo if audience.role == GM else None,
        "can_redo": game.can_redo if audience.role == GM else None,
    }
    if state.over:
        # The finale's charts (issue 7): drawn by every screen from this data.
        message["results"] = {"timeline": timeline(game), "cards": cards_by_author_and_type(game)}
    if audience.role not in (GM, TEAM) and (shown := shown_answer(game, row)) is not None:
        message["shown_answer"] = shown            # issue 13: the projector only
    if audience.role not in (GM, TEAM):
        message["devices"] = devices or {}         # the lobby shows teams joining
    if audience.role == GM:
        message["answer_shown"] = getattr(row, "shown_answer_turn", None) == state.turn.number
        message["devices"] = devices or {}
        message["device_ids"] = device_ids or {}
        message["candidates"] = _candidates(game)
    return message


def snapshots(game: Game, row, devices: dict | None = None,
              now: float | None = None, device_ids: dict | None = None
              ) -> list[tuple[Audience, dict]]:
    """The ``state`` message of every audience of the game, built together: one public
    view, one list of legal actions, one timer and one set of finale data, shared."""
    from .audience import PROJECTOR
    now = time.time() if now is None else now
    state = game.state
    legal_dicts = [entry.to_dict() for entry in game.legal_actions()]
    requests = list(row.exchange_requests or [])
    ranked = standings(state)
    public = public_view(state, ranked)
    common = {"game": row.id, "name": row.name, "seq": game.seq, "now": int(now * 1000),
              "timer": timers.public(row.timer or {}, game, now)}
    if state.over:
        common["results"] = {"timeline": timeline(game), "cards": cards_by_author_and_type(game)}
    out = [(Audience(GM, row.id),
            {**common, "role": GM, "team": None, "view": gm_view(state, public, ranked),
             "legal": legal_dicts, "exchange_requests": requests,
             "can_undo": game.can_undo, "can_redo": game.can_redo,
             "devices": devices or {}, "device_ids": device_ids or {},
             "candidates": _candidates(game)})]
    for team in range(1, game.settings.team_count + 1):
        out.append((Audience(TEAM, row.id, team),
                    {**common, "role": TEAM, "team": team, "view": team_view(state, team, public),
                     "legal": team_legal(legal_dicts, team),
                     "exchange_requests": [r for r in requests if r.get("team") == team],
                     "can_undo": None, "can_redo": None}))
    out.append((Audience(PROJECTOR, row.id),
                {**common, "role": PROJECTOR, "team": None, "view": public, "legal": [],
                 "exchange_requests": [], "can_undo": None, "can_redo": None,
                 "devices": devices or {}}))       # the lobby shows teams joining
    # Issue 13: the expected answer the GM shows, to the projector only (R-V1).
    out[0][1]["answer_shown"] = getattr(row, "shown_answer_turn", None) == state.turn.number
    if (shown := shown_answer(game, row)) is not None:
        out[-1][1]["shown_answer"] = shown
    return out
