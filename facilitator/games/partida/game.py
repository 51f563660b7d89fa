"""A game: settings, a question bank, the accepted actions and the state they fold to.

Like python-chess's ``Board``, a Game takes actions one by one (``play``) and
can take them back (``undo``/``redo`` are actions too, R-G1). Every accepted
action is kept in ``log``, in the order it was accepted: that list *is* the
record's ``actions``, so writing a record and replaying it gives the same game.
"""
from __future__ import annotations

from typing import Iterable

from . import actions as a
from ..protocol import History
from .errors import refuse
from .events import Event
from .legal import LegalAction, legal_actions
from ...questions.model import Question
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
        # Every accepted action (``log``: the record's), the applied ones with their
        # events, the undone ones waiting for a redo (R-G1): the protocol's History.
        self.history = History()

    @property
    def log(self) -> list[a.Action]:
        """Every accepted action, in order (undo and redo included): the record's."""
        return self.history.log

    @property
    def seq(self) -> int:
        """How many actions were accepted: the game's version number."""
        return len(self.log)

    @property
    def can_undo(self) -> bool:
        """Whether there is an action to undo (R-G1)."""
        return self.history.can_undo

    @property
    def can_redo(self) -> bool:
        """Whether there is an undone action to redo (R-G1)."""
        return self.history.can_redo

    def check(self, action: a.Action | dict) -> a.Action:
        """Parse ``action`` and check it would be accepted, changing nothing."""
        action = action if isinstance(action, a.Action) else a.parse_action(action)
        if isinstance(action, a.Undo):
            if not self.history.can_undo:
                raise refuse("R-G1", "there is nothing to undo")
        elif isinstance(action, a.Redo):
            if not self.history.can_redo:
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
            if not self.history.can_undo:
                raise refuse("R-G1", "there is nothing to undo")
            undone = self.history.undo(action)
            self._rebuild()
            return undone.events
        if isinstance(action, a.Redo):
            if not self.history.can_redo:
                raise refuse("R-G1", "there is nothing to redo")
            redone = self.history.redo(action)
            self._apply(redone.events)
            return redone.events
        events = decide(self.state, action)
        self._apply(events)
        self.history.apply(action, events)
        return events

    def _apply(self, events: list[Event]) -> None:
        state = self.state
        for event in events:
            event.apply(state)

    def _rebuild(self) -> None:
        # Undo is exact because the state is only ever the fold of its events.
        self.state = initial_state(self.settings, self.questions)
        self._apply(list(self.history.events()))

    def legal_actions(self) -> list[LegalAction]:
        """Every kind of action accepted now, who may take it and the choices open."""
        return legal_actions(self.state, can_undo=self.can_undo, can_redo=self.can_redo)

    def standings(self) -> list[dict]:
        """The standings, best first (R-P4)."""
        return standings(self.state)

    def effective_actions(self) -> list[a.Action]:
        """The actions that made the current state: the log without undo, redo and what was undone."""
        return [done.action for done in self.history.done]

    def last_action(self) -> a.Action | None:
        """The last applied action (not undone), if any."""
        return self.history.done[-1].action if self.history.done else None

    def undo_target(self) -> int | None:
        """The seq (1-based place in ``log``) of the action an ``undo`` would take back."""
        return self.history.done[-1].seq if self.history.done else None

    def redo_target(self) -> int | None:
        """The seq of the ``undo`` whose effect a ``redo`` would reverse.

        The live game uses these two to put the screens back as they were just
        before the undone action, or just before that undo (R-G1).
        """
        return self.history.undone[-1].undone_at if self.history.undone else None
