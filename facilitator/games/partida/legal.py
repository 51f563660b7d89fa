"""What is legal now: every action the game would accept next, and who may take it.

The GM console and the tablets show only these (R-G4: the GM may act for any
team; ``teams`` lists the teams whose own devices may send the action). The
property tests build random games from this list, so each entry must really
be accepted.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from . import resolution as r
from .rules import challengeable, normal_forced
from .settings import CHALLENGE_MODES, MAX_ADJUST
from .state import GameState


@dataclass(frozen=True, slots=True)
class LegalAction:
    """One kind of action accepted now.

    ``teams``: the teams that may send it from their own device (empty: the GM
    only). ``options``: the open choices, e.g. ``{"targets": [2, 4]}``.
    """

    do: str
    teams: tuple[int, ...] = ()
    options: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        """The entry as JSON data."""
        return {"do": self.do, "seats": list(self.teams), "options": self.options}


def _choices(state: GameState) -> list[dict]:
    """Author and type pairs with an unused question left (R-Q2), with how many."""
    left: Counter = Counter()
    for q in state.questions.values():
        if q.id not in state.used:
            left[(q.author, q.type)] += 1
    return [{"author": au, "type": ty, "left": n} for (au, ty), n in sorted(left.items())]


def legal_actions(state: GameState, *, can_undo: bool = False,
                  can_redo: bool = False) -> list[LegalAction]:
    """Every action ``state`` accepts now (undo/redo as the game's history allows)."""
    found: list[LegalAction] = []
    if not state.over:
        found.extend(_turn_actions(state))
        everyone = tuple(t.number for t in state.teams)
        found.append(LegalAction("spokesperson", everyone))
        if state.settings.is_individual(state.turn.round):
            found.append(LegalAction("representative", everyone))
    # R-P3: any amount; the bounds only keep a number a number (the console reads them).
    found.append(LegalAction("adjust", options={"points": {"min": -MAX_ADJUST,
                                                          "max": MAX_ADJUST}}))
    if can_undo:
        found.append(LegalAction("undo"))
    if can_redo:
        found.append(LegalAction("redo"))
    return found


def _special_holders(state: GameState, card: str, teams) -> tuple[int, ...]:
    return tuple(t for t in teams if state.team(t).special.get(card, 0) > 0)


def _turn_actions(state: GameState) -> list[LegalAction]:
    turn = state.turn
    step = r.next_step(turn)
    found: list[LegalAction] = []
    if step.name in (r.DECLARE, r.PREPARE) and turn.elijo_by is None:
        teams = _special_holders(state, "elijo", (t.number for t in state.teams
                                                  if t.number != turn.host))
        if teams:
            found.append(LegalAction("elijo", teams))
    if step.name == r.DECLARE:
        modes = {}
        for mode in state.settings.modes_of(turn.round):
            if mode in CHALLENGE_MODES:
                targets = challengeable(state, mode)
                if targets:
                    modes[mode] = targets
            else:
                modes[mode] = []
        if normal_forced(state):
            modes["normal"] = []
        found.append(LegalAction("declare", (turn.host,), {"modes": modes}))
        found.append(_exchanges(state))
        found.append(LegalAction("end_game"))
    elif step.name == r.PREPARE:
        if turn.is_challenge and turn.desvio_by is None and turn.seguro_by is None:
            targets = [t for t in challengeable(state, turn.mode, exclude=(turn.target,))]
            if targets and state.team(turn.target).special.get("desvio", 0) > 0:
                found.append(LegalAction("desvio", (turn.target,), {"targets": targets}))
        if turn.seguro_by is None and _special_holders(state, "seguro", (turn.primary,)):
            found.append(LegalAction("seguro", (turn.primary,)))
        found.append(LegalAction("choose", (turn.chooser,), {"choices": _choices(state)}))
    elif step.name == r.QUESTION:
        ids = [q.id for q in state.questions.values()
               if q.author == turn.author and q.type == turn.type and q.id not in state.used]
        found.append(LegalAction("question", (), {"ids": ids}))
    elif step.name == r.DELIBERATE:
        if turn.is_challenge and not turn.locked:
            found.append(LegalAction("write", (turn.secondary,)))
        if not turn.locked:
            found.append(LegalAction("time_up"))
        found.append(LegalAction("more_time"))
        found.append(LegalAction("verdict", (), {"results": ["full", "half", "wrong"]}))
    elif step.name == r.PICK:
        found.append(LegalAction("pick", (step.team,), {"cards": ["author", "type"]}))
    elif step.name == r.WRITTEN:
        found.append(LegalAction("written", (), {"correct": [True, False]}))
    elif step.name == r.ARGUMENT:
        found.append(LegalAction("argument", (), {"results": ["good", "poor"]}))
    elif step.name == r.END:
        if step.written_optional:
            found.append(LegalAction("written", (), {"correct": [False]}))
        found.append(LegalAction("end_turn"))
    return [f for f in found if f is not None]


def _exchanges(state: GameState) -> LegalAction | None:
    cost = state.settings.exchange_cost
    takes = [card for card, left in state.bank.items() if left > 0]
    teams = tuple(t.number for t in state.teams if len(t.cards) >= cost)
    if not takes or not teams:
        return None
    return LegalAction("exchange", teams, {
        "cost": cost, "take": takes,
        "cards": {str(n): sorted(state.team(n).cards) for n in teams}})
