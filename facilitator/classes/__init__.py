"""A class played with many times in a term (issue 15): its list of students, teams
dealt from today's attendance, the term league and participation over the games.

Pure Python like the rules engine: no web and no database. The store
(:mod:`facilitator.store.classes`) reads a class's games into
:class:`~facilitator.classes.league.GameSummary` values; these modules compute from them.
"""
from .league import SCHEMES, GameSummary, league
from .participation import participation
from .roster import (MAX_STUDENTS, StudentEntry, deal_fresh, keep_teams, parse_class_list,
                     roster_names)

__all__ = ["GameSummary", "MAX_STUDENTS", "SCHEMES", "StudentEntry", "deal_fresh",
           "keep_teams", "league", "parse_class_list", "participation", "roster_names"]
