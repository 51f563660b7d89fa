"""Hive, the base game, as a pure engine behind the games' protocol (rule book: docs/hive.md).

One module per job: ``hexes`` (cells and directions), ``pieces`` (the piece
table and game types), ``board`` (positions and their valid moves),
``notation`` (MoveStrings and GameStrings), ``rules`` (refusing a move with
its rule id and Mzinga's reason), ``match`` (the classroom game: seats,
undo and draws by agreement, the teacher's powers), ``perft``, ``bot`` and
``uhp`` (the Universal Hive Protocol engine). The registry
(``facilitator.games``) finds the game as ``KIND``.
"""
from .hall import HiveHall
from .match import KIND, HiveKind, HiveMatch

__all__ = ["KIND", "HiveHall", "HiveKind", "HiveMatch"]

#: A class tournament (H-T): the hall rules the store and live layer find on the kind.
KIND.hall = HiveHall()
