"""A class played with many times in a term (issue 15): its list of students (dealt into
teams by the set-up game's ``teams``), the term league and participation over the games.

Pure Python like the rules engine: no web and no database. The store
(:mod:`facilitator.store.classes`) reads a class's games into
:class:`~facilitator.classes.league.GameSummary` values; these modules compute from them.
"""
from .league import SCHEMES, GameSummary, league
from .participation import participation
from .roster import MAX_NAME, MAX_STUDENTS, StudentEntry, parse_class_list, roster_names

__all__ = ["GameSummary", "MAX_NAME", "MAX_STUDENTS", "SCHEMES", "StudentEntry", "league",
           "parse_class_list", "participation", "roster_names"]
