"""The rules engine of the partida: pure Python, no web, no database.

An action is checked against the state and either refused with a rule id
(``Refusal``), changing nothing, or turned into events; the state is the fold
of those events. ``Game`` drives one game, ``replay`` rebuilds one from its
``partida/1`` record, ``write_record`` writes it back.
"""
from .actions import ACTION_TYPES, Action, parse_action
from .errors import Refusal
from .game import Game
from .legal import LegalAction, legal_actions
from ...questions.model import QUESTION_TYPES, Question
from .record import FORMAT, load_record, new_game, replay, write_record
from .scoring import standings
from .settings import (MODES, SPECIAL_CARDS, Settings, deal_students, parse_settings,
                       propose_team_sizes)

from .kind import KIND  # noqa: E402  (the registry's entry, after the engine it wraps)

__all__ = [
    "KIND",
    "ACTION_TYPES", "Action", "FORMAT", "Game", "LegalAction", "MODES", "QUESTION_TYPES",
    "Question", "Refusal", "SPECIAL_CARDS", "Settings", "deal_students", "legal_actions",
    "load_record", "new_game", "parse_action", "parse_settings", "propose_team_sizes",
    "replay", "standings", "write_record",
]
