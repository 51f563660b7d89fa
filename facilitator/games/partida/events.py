"""Events: what happened, in the past tense. The state is their fold.

``Event.apply(state)`` is the only code that changes a GameState. Events are
decided by ``rules.py`` (which may refuse) and never fail to apply, so a
refused action leaves the state untouched and a replay of the same events
always rebuilds the same state.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from fractions import Fraction

from .numbers import plain
from .order import host_of
from .state import GameState, Turn


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every event."""

    def apply(self, state: GameState) -> None:  # pragma: no cover - abstract
        """Change ``state`` as this event says."""
        raise NotImplementedError

    def to_dict(self) -> dict:
        """The event as JSON data, named by its class."""
        data = {"event": type(self).__name__}
        for key, value in asdict(self).items():
            data[key] = plain(value) if isinstance(value, Fraction) else value
        return data


@dataclass(frozen=True, slots=True)
class TurnDeclared(Event):
    """The host declared the mode and, for a challenge, the team it challenges."""

    mode: str
    target: int | None

    def apply(self, state):
        turn = state.turn
        turn.mode, turn.target, turn.first_target = self.mode, self.target, self.target


def _play_special(state: GameState, team: int, card: str) -> None:
    state.team(team).special[card] -= 1
    state.discard[card] += 1          # R-K2: played cards stay with the GM


@dataclass(frozen=True, slots=True)
class DesvioPlayed(Event):
    """The challenged team sent the challenge to ``target`` (R-K3)."""

    team: int
    target: int

    def apply(self, state):
        _play_special(state, self.team, "desvio")
        state.turn.desvio_by, state.turn.target = self.team, self.target


@dataclass(frozen=True, slots=True)
class SeguroPlayed(Event):
    """The primary team played Seguro: no pifie this turn (R-K4)."""

    team: int

    def apply(self, state):
        _play_special(state, self.team, "seguro")
        state.turn.seguro_by = self.team


@dataclass(frozen=True, slots=True)
class ElijoPlayed(Event):
    """A non-host team took the choice of author and type (R-K5)."""

    team: int

    def apply(self, state):
        _play_special(state, self.team, "elijo")
        state.turn.elijo_by = self.team


@dataclass(frozen=True, slots=True)
class AuthorTypeChosen(Event):
    """The chooser named an author and a question type (step 4)."""

    author: str
    type: str

    def apply(self, state):
        state.turn.author, state.turn.type = self.author, self.type


@dataclass(frozen=True, slots=True)
class QuestionRead(Event):
    """The GM read question ``id``; it is used for the rest of the game (R-Q1)."""

    id: str

    def apply(self, state):
        state.turn.question = self.id
        state.used.add(self.id)


@dataclass(frozen=True, slots=True)
class AnswerWritten(Event):
    """The secondary team wrote (or rewrote) its anticipation (R-U4)."""

    team: int
    text: str

    def apply(self, state):
        state.turn.written = self.text


@dataclass(frozen=True, slots=True)
class TimeRanOut(Event):
    """The deliberation time ran out: the written answer is locked (R-U5)."""

    def apply(self, state):
        state.turn.locked = True


@dataclass(frozen=True, slots=True)
class TimeExtended(Event):
    """The GM gave ``seconds`` more: the written answer is open again (R-U5, R-G2)."""

    seconds: int

    def apply(self, state):
        state.turn.locked = False
        state.turn.extra_seconds += self.seconds


@dataclass(frozen=True, slots=True)
class VerdictGiven(Event):
    """The GM judged the oral answer (step 7); the writing is locked from now on."""

    result: str

    def apply(self, state):
        state.turn.verdict = self.result
        state.turn.locked = True


@dataclass(frozen=True, slots=True)
class CardPicked(Event):
    """A team owed one card chose which: ``author`` or ``type`` (R-R2, R-R5, R-R6)."""

    team: int
    card: str

    def apply(self, state):
        turn = state.turn
        if turn.verdict == "half" and turn.primary_pick is None:
            turn.primary_pick = self.card
        else:
            turn.secondary_pick = self.card


@dataclass(frozen=True, slots=True)
class CardWon(Event):
    """A team took an author or question-type card, e.g. ``author:Kant`` (R-P1)."""

    team: int
    card: str

    def apply(self, state):
        state.team(self.team).cards.append(self.card)
        state.turn.awards.append((self.team, self.card))


@dataclass(frozen=True, slots=True)
class PifieTaken(Event):
    """A team took a pifie (R-R3, R-R6)."""

    team: int

    def apply(self, state):
        state.team(self.team).pifies += 1
        state.turn.awards.append((self.team, "pifie"))


@dataclass(frozen=True, slots=True)
class ConsolationWon(Event):
    """The secondary team took the consolation (R-R4)."""

    team: int

    def apply(self, state):
        state.team(self.team).consolations += 1
        state.turn.awards.append((self.team, "consolation"))


@dataclass(frozen=True, slots=True)
class BonusWon(Event):
    """The host took the risky bonus for a good argument (R-R7)."""

    team: int

    def apply(self, state):
        state.team(self.team).bonuses += 1
        state.turn.awards.append((self.team, "risky_bonus"))


@dataclass(frozen=True, slots=True)
class WrittenJudged(Event):
    """The GM judged the written anticipation right or wrong."""

    correct: bool

    def apply(self, state):
        state.turn.written_correct = self.correct


@dataclass(frozen=True, slots=True)
class ArgumentJudged(Event):
    """The GM judged the secondary team's argument good or poor."""

    result: str

    def apply(self, state):
        state.turn.argument = self.result


@dataclass(frozen=True, slots=True)
class SpokespersonNamed(Event):
    """Who answered aloud for a team this turn (R-U7)."""

    team: int
    name: str

    def apply(self, state):
        state.turn.spokespersons[self.team] = self.name


@dataclass(frozen=True, slots=True)
class RepresentativeNamed(Event):
    """Who represents a team in this individual turn (R-U9)."""

    team: int
    name: str

    def apply(self, state):
        state.turn.representatives[self.team] = self.name


@dataclass(frozen=True, slots=True)
class MarkerTaken(Event):
    """The team that ended up challenged took the mode's marker (R-C1)."""

    team: int
    mode: str

    def apply(self, state):
        state.team(self.team).markers.add(self.mode)


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    """The GM ended the turn: the next host begins, rounds change, the game may end."""

    def apply(self, state):
        turn = state.turn
        state.history.append(_summary(state, turn))
        settings = state.settings
        position, round_no = turn.position + 1, turn.round
        if position == settings.team_count:
            for team in state.teams:          # R-C2: markers go back to the bank
                team.markers.clear()
            position, round_no = 0, round_no + 1
        if round_no > settings.rounds:        # R-O5
            state.over = True
            round_no, position = settings.rounds, settings.team_count - 1
            state.turn = Turn(number=turn.number + 1, round=round_no, position=position,
                              host=turn.host)
            return
        state.turn = Turn(number=turn.number + 1, round=round_no, position=position,
                          host=host_of(round_no, position, settings.team_count))


def _summary(state: GameState, turn: Turn) -> dict:
    question = state.questions.get(turn.question) if turn.question else None
    return {"turn": turn.number, "round": turn.round, "host": turn.host, "mode": turn.mode,
            "challenged": turn.target, "first_target": turn.first_target,
            "primary": turn.primary, "secondary": turn.secondary,
            "desvio_by": turn.desvio_by, "seguro_by": turn.seguro_by,
            "elijo_by": turn.elijo_by, "author": turn.author, "type": turn.type,
            "question": turn.question, "question_text": question.text if question else None,
            "written": turn.written, "verdict": turn.verdict,
            "written_correct": turn.written_correct, "argument": turn.argument,
            "spokespersons": {str(k): v for k, v in turn.spokespersons.items()},
            "representatives": {str(k): v for k, v in turn.representatives.items()},
            "awards": [[t, a] for t, a in turn.awards]}


@dataclass(frozen=True, slots=True)
class CardsExchanged(Event):
    """A team gave cards to the bank for a special card (R-K6)."""

    team: int
    give: tuple[str, ...]
    take: str

    def apply(self, state):
        team = state.team(self.team)
        for card in self.give:
            team.cards.remove(card)
            team.exchanged.append(card)
        team.special[self.take] = team.special.get(self.take, 0) + 1
        state.bank[self.take] -= 1


@dataclass(frozen=True, slots=True)
class ScoreAdjusted(Event):
    """The GM adjusted a team's score, with a reason kept in the log (R-P3)."""

    team: int
    points: Fraction
    reason: str

    def apply(self, state):
        state.team(self.team).adjustments.append((self.points, self.reason))
        state.adjust_log.append({"turn": state.turn.number, "team": self.team,
                                 "points": plain(self.points), "reason": self.reason})


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """The GM ended the game early, between turns (R-G3)."""

    def apply(self, state):
        state.over = True
        state.ended_early = True
