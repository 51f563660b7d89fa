"""A view per audience (RULES.md section 10), like boardgame.io's ``playerView``.

``gm_view`` sees everything; ``team_view`` adds to the public view only what
that team may see (its own sealed written answer, R-U6/R-V2); ``public_view``
is what the projector and every other device get. The expected answer is in
the GM's view alone (R-V1), and a sealed answer is in no other view, not even
hidden in a field, until the oral verdict reveals it.

Teams and the projector never see a question's bank id either (an id slugged
from a Moodle name can spell the answer: "kant-sapere-aude"): their views name
a question by ``ref``, its 1-based position in the game's question list, the
same in every replay; only the GM's view adds the real ``id``.
"""
from __future__ import annotations

from collections import OrderedDict

from .numbers import plain
from .order import hosts_of_round
from .resolution import next_step
from .scoring import standings
from .state import GameState, Turn

#: Positions of each game's questions: (the questions dict, {id: 1-based position}).
_POSITIONS: OrderedDict[int, tuple[dict, dict[str, int]]] = OrderedDict()
_POSITIONS_KEPT = 256


def question_ref(state: GameState, question_id: str | None) -> int | None:
    """The opaque reference teams and the projector see for question ``question_id``:
    its 1-based position in the game's question list (stable across replays)."""
    if question_id is None:
        return None
    questions = state.questions
    cached = _POSITIONS.get(id(questions))
    if cached is None or cached[0] is not questions or len(cached[1]) != len(questions):
        cached = (questions, {qid: n for n, qid in enumerate(questions, start=1)})
        _POSITIONS[id(questions)] = cached
        while len(_POSITIONS) > _POSITIONS_KEPT:
            _POSITIONS.popitem(last=False)
    else:
        _POSITIONS.move_to_end(id(questions))
    return cached[1].get(question_id)


def _question_public(state: GameState, turn: Turn) -> dict | None:
    if turn.question is None:
        return None
    q = state.questions[turn.question]
    public = {"ref": question_ref(state, q.id), "author": q.author, "type": q.type,
              "text": q.text}
    if q.text_html:                   # its formatting, sanitised when the bank was imported
        public["html"] = q.text_html
    return public


def _history_public(state: GameState, entry: dict) -> dict:
    public = {k: v for k, v in entry.items() if k != "question"}
    public["question_ref"] = question_ref(state, entry.get("question"))
    if "awards" in entry:
        public["awards"] = [[t, what, award_points(state, what)] for t, what in entry["awards"]]
    return public


def _step_public(state: GameState, turn: Turn) -> dict:
    """What the turn waits for (sections 4 and 5), as every screen words it: the step's
    name and, for a pick, the team that owes it. ``over`` once the game has ended."""
    if state.over:
        return {"name": "over", "team": None}
    step = next_step(turn)
    name = step.name
    if name == "deliberate":
        name = "write" if turn.is_challenge and not turn.locked else "verdict"
    return {"name": name, "team": step.team}


def _turn_public(state: GameState) -> dict:
    turn = state.turn
    revealed = turn.verdict is not None          # R-V2: the verdict reveals the anticipation
    return {
        "step": _step_public(state, turn),
        "number": turn.number, "round": turn.round, "host": turn.host,
        "mode": turn.mode, "target": turn.target, "first_target": turn.first_target,
        "primary": turn.primary, "secondary": turn.secondary,
        "desvio_by": turn.desvio_by, "seguro_by": turn.seguro_by,
        "elijo_by": turn.elijo_by, "chooser": turn.chooser,
        "author": turn.author, "type": turn.type,
        "question": _question_public(state, turn),
        "has_written": turn.has_anticipation,
        "written": turn.written if revealed else None,
        "locked": turn.locked, "extra_seconds": turn.extra_seconds,
        "verdict": turn.verdict, "primary_pick": turn.primary_pick,
        "written_correct": turn.written_correct, "argument": turn.argument,
        "secondary_pick": turn.secondary_pick,
        "spokespersons": {str(k): v for k, v in turn.spokespersons.items()},
        "representatives": {str(k): v for k, v in turn.representatives.items()},
        # Each award with its points in this game's settings (R-P1), for the sentences
        # every screen writes: "team 3 takes a pifie (-0.5)".
        "awards": [[t, what, award_points(state, what)] for t, what in turn.awards],
    }


def award_points(state: GameState, what: str) -> int | float:
    """What one award (``"author:Kant"``, ``"type:vf"``, ``"pifie"``, ``"consolation"``,
    ``"risky_bonus"``) is worth in this game (R-P1)."""
    points = state.settings.points
    value = {"pifie": points.pifie, "consolation": points.consolation,
             "risky_bonus": points.risky_bonus}.get(what, points.card)
    return plain(value)


def public_view(state: GameState, ranked: list[dict] | None = None) -> dict:
    """What the projector and every device may see (R-V3, R-V4).

    ``ranked``: ``standings(state)`` if already computed.
    """
    settings = state.settings
    scores = {row["team"]: row for row in (standings(state) if ranked is None else ranked)}
    return {
        "over": state.over, "ended_early": state.ended_early,
        "rounds": settings.rounds, "round": state.turn.round,
        "round_modes": list(settings.modes_of(state.turn.round)),
        "individual": settings.is_individual(state.turn.round),
        "deliberation_seconds": settings.seconds_for(state.turn.round),
        "points": settings.points.to_dict(),
        "order": list(hosts_of_round(state.turn.round, settings.team_count)),
        "position": state.turn.position,
        "turn": _turn_public(state),
        "teams": [{
            "team": t.number, "name": t.name, "members": t.members,
            "cards": list(t.cards), "pifies": t.pifies, "consolations": t.consolations,
            "bonuses": t.bonuses, "special": dict(t.special), "markers": sorted(t.markers),
            "score": scores[t.number]["score"], "rank": scores[t.number]["rank"],
        } for t in state.teams],
        "standings": list(scores.values()) if state.over else None,
        "bank": dict(state.bank), "discard": dict(state.discard),
        "history": [_history_public(state, h) for h in state.history],
        "adjustments": [dict(a) for a in state.adjust_log],
    }


def team_view(state: GameState, team: int, public: dict | None = None) -> dict:
    """What team ``team``'s devices may see: the public view plus its own sealed answer.

    ``public``: ``public_view(state)`` if already computed; it is not changed.
    """
    view = public_view(state) if public is None else {**public}
    turn = state.turn
    view["me"] = team
    if turn.secondary == team and view["turn"]["written"] is None:
        # R-U6: its own team sees it. Only this team's view gets a turn of its own:
        # the others share the public one (a server keeps every game's views).
        view["turn"] = {**view["turn"], "written": turn.written}
    return view


def gm_view(state: GameState, public: dict | None = None,
            ranked: list[dict] | None = None) -> dict:
    """Everything, for the GM console: the expected answer and the sealed answer included.

    ``public``: ``public_view(state)`` if already computed; it is not changed.
    ``ranked``: ``standings(state)`` if already computed.
    """
    ranked = standings(state) if ranked is None else ranked
    view = (public_view(state, ranked) if public is None
            else {**public, "turn": dict(public["turn"])})
    turn = state.turn
    view["turn"]["written"] = turn.written
    if turn.question is not None:
        q = state.questions[turn.question]
        view["turn"]["question"] = {**view["turn"]["question"], "id": q.id, "answer": q.answer,
                                    **({"answer_html": q.answer_html} if q.answer_html else {}),
                                    "notes": q.notes}
    # The GM's history keeps the bank's ids beside the references.
    view["history"] = [{**public_entry, "question": entry.get("question")}
                       for entry, public_entry in zip(state.history, view["history"])]
    view["standings"] = ranked
    return view
