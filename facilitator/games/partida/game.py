"""A game: settings, a question bank, the accepted actions and the state they fold to.

Like python-chess's ``Board``, a Game takes actions one by one (``play``) and
can take them back (``undo``/``redo`` are actions too, R-G1). Every accepted
action is kept in ``log``, in the order it was accepted: that list *is* the
record's ``actions``, so writing a record and replaying it gives the same game.
"""
from __future__ import annotations

from typing import Iterable

from . import actions as a
from .errors import refuse
from .events import Event
from .legal import LegalAction, legal_actions
from .questions import Question
from .rules import decide
from .scoring import standings
from .settings import Settings
from .state import GameState, initial_state


class Game:
    """One partida, from its settings and questions, driven by actions."""

    def __init__(self, settings: Settings, questions: Iterable[Question] = ()):
        self.settings = settings
        self.questions: dict[str, Question] = {q.id: q for q in questions}
        self.state: GameState = initial_state(settings, self.questions)
        self.log: list[a.Action] = []
        # Each applied action with the events it caused and its place in the log (its seq);
        # undone ones wait for a redo, with the seq of the undo that took them back.
        self._done: list[tuple[a.Action, list[Event], int]] = []
        self._undone: list[tuple[a.Action, list[Event], int, int]] = []

    @property
    def seq(self) -> int:
        """How many actions were accepted: the game's version number."""
        return len(self.log)

    @property
    def can_undo(self) -> bool:
        """Whether there is an action to undo (R-G1)."""
        return bool(self._done)

    @property
    def can_redo(self) -> bool:
        """Whether there is an undone action to redo (R-G1)."""
        return bool(self._undone)

    def check(self, action: a.Action | dict) -> a.Action:
        """Parse ``action`` and check it would be accepted, changing nothing."""
        action = action if isinstance(action, a.Action) else a.parse_action(action)
        if isinstance(action, a.Undo):
            if not self._done:
                raise refuse("R-G1", "there is nothing to undo")
        elif isinstance(action, a.Redo):
            if not self._undone:
                raise refuse("R-G1", "there is nothing to redo")
        else:
            decide(self.state, action)
        return action

    def play(self, action: a.Action | dict) -> list[Event]:
        """Accept ``action`` and return the events it caused, or raise a Refusal.

        A refused action changes nothing. For ``undo`` and ``redo`` the events
        returned are those taken back or put back.
        """
        action = action if isinstance(action, a.Action) else a.parse_action(action)
        if isinstance(action, a.Undo):
            if not self._done:
                raise refuse("R-G1", "there is nothing to undo")
            undone = self._done.pop()
            self.log.append(action)
            self._undone.append((*undone, self.seq))
            self._rebuild()
            return undone[1]
        if isinstance(action, a.Redo):
            if not self._undone:
                raise refuse("R-G1", "there is nothing to redo")
            redone = self._undone.pop()
            self._apply(redone[1])
            self._done.append(redone[:3])
            self.log.append(action)
            return redone[1]
        events = decide(self.state, action)
        self._apply(events)
        self.log.append(action)
        self._done.append((action, events, self.seq))
        self._undone.clear()
        return events

    def _apply(self, events: list[Event]) -> None:
        state = self.state
        for event in events:
            event.apply(state)

    def _rebuild(self) -> None:
        # Undo is exact because the state is only ever the fold of its events.
        self.state = initial_state(self.settings, self.questions)
        for _, events, _seq in self._done:
            self._apply(events)

    def legal_actions(self) -> list[LegalAction]:
        """Every kind of action accepted now, who may take it and the choices open."""
        return legal_actions(self.state, can_undo=self.can_undo, can_redo=self.can_redo)

    def standings(self) -> list[dict]:
        """The standings, best first (R-P4)."""
        return standings(self.state)

    def effective_actions(self) -> list[a.Action]:
        """The actions that made the current state: the log without undo, redo and what was undone."""
        return [entry[0] for entry in self._done]

    def last_action(self) -> a.Action | None:
        """The last applied action (not undone), if any."""
        return self._done[-1][0] if self._done else None

    def undo_target(self) -> int | None:
        """The seq (1-based place in ``log``) of the action an ``undo`` would take back."""
        return self._done[-1][2] if self._done else None

    def redo_target(self) -> int | None:
        """The seq of the ``undo`` whose effect a ``redo`` would reverse.

        The live game uses these two to put the screens back as they were just
        before the undone action, or just before that undo (R-G1).
        """
        return self._undone[-1][3] if self._undone else None
