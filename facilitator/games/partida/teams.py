"""La partida's teams as the set-up screens and a class's list ask for them (R-T1..R-T5):
proposed sizes, a class dealt at random or kept from last game, what keeps a lineup from
starting. The kind's ``teams`` (``protocol.Teams``): the layers above name no game."""
from __future__ import annotations

import random

from .errors import Refusal, refuse
from .settings import (DEFAULT_MAX_MEMBERS, MAX_MAX_MEMBERS, MAX_TEAM_NAME, MAX_TEAMS,
                       MIN_MEMBERS, MIN_TEAMS, check_roster, deal_students,
                       parse_settings, propose_team_sizes, team_problems)


class PartidaTeams:
    """How la partida's teams are made from a class (``protocol.Teams``)."""

    #: Most characters of a team's (or a student's) name.
    max_name = MAX_TEAM_NAME
    #: Teams a game has, and members a team has by default and at most (R-T1, R-T2).
    min_teams, max_teams = MIN_TEAMS, MAX_TEAMS
    min_members, default_max_members, max_max_members = (MIN_MEMBERS, DEFAULT_MAX_MEMBERS,
                                                          MAX_MAX_MEMBERS)

    def propose(self, students: int, max_members: int = DEFAULT_MAX_MEMBERS) -> list[int]:
        """R-T5: sizes for ``students`` students that satisfy R-T1..R-T3 (Refusal if none)."""
        return propose_team_sizes(students, max_members)

    def deal(self, names: list, sizes: list[int], rng: random.Random) -> list[list]:
        """R-T5: ``names`` (or student ids) dealt at random into teams of ``sizes``."""
        return deal_students(names, sizes, rng)

    def problems(self, sizes: list[int], max_members: int = DEFAULT_MAX_MEMBERS) -> list[dict]:
        """Every way teams of ``sizes`` break R-T1..R-T3 (empty: they may start a game)."""
        return team_problems(sizes, max_members)

    def check(self, settings: object) -> None:
        """The settings checked as the game does: Refusal naming the rule broken."""
        parse_settings(settings)

    def sizes(self, settings: object) -> list[int]:
        """The members of each team the settings name (Refusal when they do not parse)."""
        return [team.members for team in parse_settings(settings).teams]

    def check_roster(self, settings: object, roster: list[list[str]]) -> None:
        """R-T5: a class list dealt into the settings' teams, as many names as members."""
        check_roster(self.sizes(settings), roster)

    def deal_fresh(self, student_ids: list[int], rng: random.Random,
                   max_members: int = DEFAULT_MAX_MEMBERS,
                   teams: int | None = None) -> list[list[int]]:
        """R-T5: today's present students dealt at random into balanced teams (R-T1..R-T3).
        ``teams`` asks for that many teams (else the fewest the bounds allow); a Refusal
        naming the rule when the students cannot make a game."""
        return deal_students(list(student_ids), self._sizes(len(student_ids), max_members,
                                                            teams), rng)

    def _sizes(self, count: int, max_members: int, teams: int | None) -> list[int]:
        if teams is None:
            return propose_team_sizes(count, max_members)
        if not MIN_TEAMS <= teams <= MAX_TEAMS:
            raise refuse("R-T1", f"a game has {MIN_TEAMS} to {MAX_TEAMS} teams, not {teams}")
        small, extra = divmod(count, teams)
        if small < MIN_MEMBERS or small + (1 if extra else 0) > max_members:
            raise refuse("R-T2", f"{count} students cannot make {teams} teams of "
                                 f"{MIN_MEMBERS} to {max_members}")
        return [small + 1] * extra + [small] * (teams - extra)

    def keep(self, previous: list[list[int]], present: list[int], rng: random.Random,
             max_members: int = DEFAULT_MAX_MEMBERS) -> list[list[int]]:
        """R-T3: last game's teams kept as far as today's attendance allows.

        Absent students leave their team; a present student who was not in last game
        (new, or absent then) joins the smallest team; while a team has two more than
        another, one of its members (the last listed) moves to the smallest. The team
        count stays when the bounds allow it (R-T1, R-T2); otherwise the students are
        dealt fresh. Team numbers keep their place (team 2 stays team 2).
        """
        here = set(present)
        lineup = [[s for s in team if s in here] for team in previous]
        placed = {s for team in lineup for s in team}
        newcomers = [s for s in present if s not in placed]
        rng.shuffle(newcomers)
        try:
            self._sizes(len(present), max_members, len(lineup))
        except Refusal:
            return self.deal_fresh(present, rng, max_members)
        for student in newcomers:
            min(lineup, key=len).append(student)
        while (max(map(len, lineup)) - min(map(len, lineup)) > 1
               or max(map(len, lineup)) > max_members):
            big, small = max(lineup, key=len), min(lineup, key=len)
            small.append(big.pop())
        return lineup
