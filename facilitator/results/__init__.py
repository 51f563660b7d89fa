"""After the game: standings, the score through the game, cards, participation, exports.

Pure Python on top of the engine, like the engine itself: no web, no database.
"""
from ..games.partida.analysis import cards_by_author_and_type, participation, timeline, turn_rows
from .exports import export_record, results_xlsx, standings_csv, summary_json, turns_csv

__all__ = ["cards_by_author_and_type", "export_record", "participation", "results_xlsx", "standings_csv", "summary_json",
           "timeline", "turn_rows", "turns_csv"]
