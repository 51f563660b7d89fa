"""The rules: an action is checked against the state and refused, or turned into events.

``decide(state, action)`` never changes the state. The checks run in the order
of RULES.md section 11: the form (already checked by ``parse_action``), R-O5,
R-U10 (the step of the turn), R-T4 (team numbers), then the action's own rules.
Undo and redo are not decided here: they act on a game's history (``game.py``).
"""
from __future__ import annotations

from collections import Counter
from typing import Callable

from . import actions as a
from . import events as e
from . import resolution as r
from .errors import refuse
from .settings import CHALLENGE_MODES
from .state import GameState


def team_label(state: GameState, number: int) -> str:
    """``team 3 (Sócrates)``: how messages name a team."""
    return f"team {number} ({state.team(number).name})"


def challengeable(state: GameState, mode: str, exclude: tuple[int, ...] = ()) -> list[int]:
    """Teams the host may challenge in ``mode`` now (R-U2), leaving out ``exclude``."""
    host = state.turn.host
    return [t.number for t in state.teams
            if t.number != host and t.number not in exclude and mode not in t.markers]


def normal_forced(state: GameState) -> bool:
    """R-U3: no team can be challenged in any mode the round allows."""
    modes = state.settings.modes_of(state.turn.round)
    return not any(challengeable(state, m) for m in modes if m in CHALLENGE_MODES)


def _check_team(state: GameState, number: int, what: str = "team") -> None:
    if not state.is_team(number):
        raise refuse("R-T4", f"there is no {what} {number}: the teams are numbered "
                             f"1 to {len(state.teams)}")


def _not_at_step(action: str, why: str):
    return refuse("R-U10", f"{action} is not taken now: {why}")


def _step_text(state: GameState) -> str:
    step = r.next_step(state.turn)
    return {
        r.DECLARE: f"the host, {team_label(state, state.turn.host)}, has not declared yet",
        r.PREPARE: "the author and question type have not been chosen yet",
        r.QUESTION: "the GM has not read the question yet",
        r.DELIBERATE: "the teams are deliberating; the verdict comes next",
        r.PICK: f"{team_label(state, step.team) if step.team else 'a team'} must pick a card",
        r.WRITTEN: "the GM must judge the written answer",
        r.ARGUMENT: "the GM must judge the argument",
        r.END: "the turn is resolved; the GM can end it",
    }[step.name]


def _holds(state: GameState, team: int, card: str, name: str) -> None:
    if state.team(team).special.get(card, 0) < 1:
        raise refuse("R-K7", f"{team_label(state, team)} holds no {name} card to play")


def _declare(state: GameState, act: a.Declare) -> list[e.Event]:
    turn = state.turn
    if turn.declared:
        raise _not_at_step("A declaration", f"this turn was already declared ({turn.mode})")
    if act.target is not None:
        _check_team(state, act.target)
    modes = state.settings.modes_of(turn.round)
    if act.mode not in modes:
        if not (act.mode == "normal" and normal_forced(state)):
            raise refuse("R-U1", f"round {turn.round} allows only {' or '.join(modes)} turns, "
                                 f"not {act.mode}")
    if act.mode != "normal":
        if act.target == turn.host:
            raise refuse("R-U2", f"the host, {team_label(state, act.target)}, cannot challenge "
                                 "itself")
        if act.mode in state.team(act.target).markers:
            raise refuse("R-U2", f"{team_label(state, act.target)} already holds this round's "
                                 f"{act.mode} marker and cannot be challenged in {act.mode} "
                                 "again this round")
    return [e.TurnDeclared(act.mode, act.target)]


def _desvio(state: GameState, act: a.Desvio) -> list[e.Event]:
    turn = state.turn
    if not turn.is_challenge:
        raise _not_at_step("Desvío", "it is played only right after a challenge is declared")
    if turn.seguro_by is not None or turn.author is not None:
        raise _not_at_step("Desvío", "it is played right after the challenge, before Seguro "
                                     "or the choice of author and type")
    _check_team(state, act.team)
    _check_team(state, act.target, "target team")
    if turn.desvio_by is not None:
        raise refuse("R-K3", "only one Desvío per turn: the new target cannot pass it on")
    if act.team != turn.target:
        raise refuse("R-K3", f"only the challenged team, {team_label(state, turn.target)}, "
                             "may play Desvío")
    _holds(state, act.team, "desvio", "Desvío")
    if act.target in (turn.host, act.team):
        raise refuse("R-K3", "the Desvío must go to a team that is neither the host nor the "
                             "team playing it")
    if turn.mode in state.team(act.target).markers:
        raise refuse("R-U2", f"{team_label(state, act.target)} already holds this round's "
                             f"{turn.mode} marker and cannot be challenged in {turn.mode}")
    return [e.DesvioPlayed(act.team, act.target)]


def _elijo(state: GameState, act: a.Elijo) -> list[e.Event]:
    turn = state.turn
    if turn.author is not None:
        raise _not_at_step("Elijo autor y pregunta", "the author and type are already chosen")
    _check_team(state, act.team)
    if act.team == turn.host:
        raise refuse("R-K5", "the host already chooses: only a non-host team may play "
                             "Elijo autor y pregunta")
    if turn.elijo_by is not None:
        raise refuse("R-K5", f"{team_label(state, turn.elijo_by)} already played Elijo autor y "
                             "pregunta this turn: one per turn")
    _holds(state, act.team, "elijo", "Elijo autor y pregunta")
    return [e.ElijoPlayed(act.team)]


def _seguro(state: GameState, act: a.Seguro) -> list[e.Event]:
    turn = state.turn
    if not turn.declared:
        raise _not_at_step("Seguro", "the host has not declared the turn yet")
    if turn.author is not None:
        raise _not_at_step("Seguro", "it is played before the author and type are chosen")
    _check_team(state, act.team)
    if turn.seguro_by is not None:
        raise refuse("R-K4", "Seguro was already played this turn")
    if act.team != turn.primary:
        raise refuse("R-K4", f"only the team that answers first, "
                             f"{team_label(state, turn.primary)}, may play Seguro")
    _holds(state, act.team, "seguro", "Seguro")
    return [e.SeguroPlayed(act.team)]


def _choose(state: GameState, act: a.Choose) -> list[e.Event]:
    if r.next_step(state.turn).name != r.PREPARE:
        raise _not_at_step("Choosing author and type", _step_text(state))
    if state.unused_count(act.author, act.type) == 0:
        raise refuse("R-Q2", f"no unused {act.type} question of {act.author} is left: "
                             "choose again")
    return [e.AuthorTypeChosen(act.author, act.type)]


def _question(state: GameState, act: a.AskQuestion) -> list[e.Event]:
    turn = state.turn
    if r.next_step(turn).name != r.QUESTION:
        raise _not_at_step("Reading a question", _step_text(state))
    question = state.questions.get(act.id)
    if question is None:
        raise refuse("R-Q1", f"there is no question {act.id!r} in this game's bank")
    if question.author != turn.author or question.type != turn.type:
        raise refuse("R-Q1", f"question {act.id!r} is {question.type} of {question.author}; "
                             f"the choice was {turn.type} of {turn.author}")
    if act.id in state.used:
        raise refuse("R-Q1", f"question {act.id!r} was already used in this game")
    return [e.QuestionRead(act.id)]


def _write(state: GameState, act: a.Write) -> list[e.Event]:
    turn = state.turn
    if not turn.is_challenge:
        raise _not_at_step("A written answer", "only a challenge has a written anticipation")
    if r.next_step(turn).name != r.DELIBERATE:
        raise _not_at_step("A written answer", "it is written while the teams deliberate, "
                                               "after the question and before the verdict")
    _check_team(state, act.team)
    if act.team != turn.secondary:
        raise refuse("R-U4", f"only {team_label(state, turn.secondary)} writes an "
                             "anticipation this turn")
    if turn.locked:
        raise refuse("R-U5", "the time is up: the written answer is locked")
    return [e.AnswerWritten(act.team, act.text)]


def _time_up(state: GameState, act: a.TimeUp) -> list[e.Event]:
    if r.next_step(state.turn).name != r.DELIBERATE:
        raise _not_at_step("The end of the time", "no deliberation is running")
    if state.turn.locked:
        raise refuse("R-U5", "the written answer is already locked")
    return [e.TimeRanOut()]


def _more_time(state: GameState, act: a.MoreTime) -> list[e.Event]:
    if r.next_step(state.turn).name != r.DELIBERATE:
        raise _not_at_step("More time", "no deliberation is running")
    return [e.TimeExtended(act.seconds)]


def _verdict(state: GameState, act: a.Verdict) -> list[e.Event]:
    turn = state.turn
    if r.next_step(turn).name != r.DELIBERATE:
        raise _not_at_step("A verdict", _step_text(state))
    return [e.VerdictGiven(act.result)] + r.on_verdict(turn, act.result)


def _pick(state: GameState, act: a.Pick) -> list[e.Event]:
    step = r.next_step(state.turn)
    if step.name != r.PICK:
        raise _not_at_step("A pick", "no team is owed a card to choose")
    _check_team(state, act.team)
    if act.team != step.team:
        raise refuse(step.rule, f"{team_label(state, step.team)} chooses this card, "
                                f"not {team_label(state, act.team)}")
    return r.on_pick(state.turn, act.team, act.card)


def _written(state: GameState, act: a.Written) -> list[e.Event]:
    turn = state.turn
    step = r.next_step(turn)
    if not (step.name == r.WRITTEN or step.written_optional):
        why = ("a normal turn has no written answer" if turn.declared and not turn.is_challenge
               else _step_text(state))
        raise _not_at_step("Judging the written answer", why)
    if act.correct and not turn.has_anticipation:
        raise refuse("R-U5", f"{team_label(state, turn.secondary)} wrote nothing: an empty "
                             "anticipation counts as wrong")
    return [e.WrittenJudged(act.correct)] + r.on_written(turn, act.correct)


def _argument(state: GameState, act: a.Argument) -> list[e.Event]:
    if r.next_step(state.turn).name != r.ARGUMENT:
        raise _not_at_step("Judging an argument", "an argument follows only a correct written "
                                                  "answer after a half or wrong verdict")
    return [e.ArgumentJudged(act.result)] + r.on_argument(state.turn, act.result)


def _end_turn(state: GameState, act: a.EndTurn) -> list[e.Event]:
    turn = state.turn
    if r.next_step(turn).name != r.END:
        raise _not_at_step("Ending the turn", _step_text(state))
    if turn.is_challenge:
        return [e.MarkerTaken(turn.target, turn.mode), e.TurnEnded()]
    return [e.TurnEnded()]


def _spokesperson(state: GameState, act: a.Spokesperson) -> list[e.Event]:
    _check_team(state, act.team)
    return [e.SpokespersonNamed(act.team, act.name)]


def _representative(state: GameState, act: a.Representative) -> list[e.Event]:
    _check_team(state, act.team)
    if not state.settings.is_individual(state.turn.round):
        raise refuse("R-U9", f"round {state.turn.round} is not individual: teams have "
                             "no representative")
    return [e.RepresentativeNamed(act.team, act.name)]


def _exchange(state: GameState, act: a.Exchange) -> list[e.Event]:
    if state.turn.declared:
        raise _not_at_step("An exchange", "exchanges are made between turns, before the "
                                          "declaration")
    _check_team(state, act.team)
    cost = state.settings.exchange_cost
    if len(act.give) != cost:
        raise refuse("R-K6", f"an exchange gives exactly {cost} author or question-type cards, "
                             f"not {len(act.give)}")
    held = Counter(state.team(act.team).cards)
    missing = Counter(act.give) - held
    if missing:
        raise refuse("R-K6", f"{team_label(state, act.team)} does not hold "
                             f"{', '.join(sorted(missing.elements()))}")
    if state.bank.get(act.take, 0) < 1:
        raise refuse("R-K6", f"the bank has no {act.take} card left")
    return [e.CardsExchanged(act.team, act.give, act.take)]


def _adjust(state: GameState, act: a.Adjust) -> list[e.Event]:
    _check_team(state, act.team)
    if act.reason is None or not act.reason.strip():
        raise refuse("R-P3", "an adjustment needs a reason, which is kept in the record")
    return [e.ScoreAdjusted(act.team, act.points, act.reason.strip())]


def _end_game(state: GameState, act: a.EndGame) -> list[e.Event]:
    if state.turn.declared:
        raise _not_at_step("Ending the game", "the game can end only between turns")
    return [e.GameEnded()]


DECIDERS: dict[type, Callable] = {
    a.Declare: _declare, a.Desvio: _desvio, a.Elijo: _elijo, a.Seguro: _seguro,
    a.Choose: _choose, a.AskQuestion: _question, a.Write: _write, a.TimeUp: _time_up,
    a.MoreTime: _more_time, a.Verdict: _verdict, a.Pick: _pick, a.Written: _written,
    a.Argument: _argument, a.EndTurn: _end_turn, a.Spokesperson: _spokesperson,
    a.Representative: _representative, a.Exchange: _exchange, a.Adjust: _adjust,
    a.EndGame: _end_game,
}

#: What a finished game still takes (R-G3).
AFTER_THE_END = (a.Undo, a.Redo, a.Adjust)


def decide(state: GameState, action: a.Action) -> list[e.Event]:
    """The events ``action`` causes in ``state``, or a Refusal naming the rule it breaks."""
    if state.over and not isinstance(action, AFTER_THE_END):
        raise refuse("R-O5", "the game is over: only undo, redo and score adjustments remain")
    return DECIDERS[type(action)](state, action)
