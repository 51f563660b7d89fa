"""The term league of a class: points per finished game, added up per student and per team.

Two schemes, the teacher's choice (docs/classes.md says the same):

- ``rank_points`` (the default): in a game of N teams, a team ranked r (its game's rank,
  ties sharing a rank) earns N - r + 1 points: 4, 3, 2, 1 in a game of four teams; two
  teams tied first in a game of four earn 4 each and the next earns 2. Every student
  present in a team earns that team's points.
- ``team_score``: every student present in a team earns the team's final score.

A student absent from a game earns nothing for it. The table ranks by points;
students (or teams) still equal share a rank and the next rank skips (1, 1, 3), as
in a game's standings, and are listed by name (teams by number).

The team table exists where teams were kept: it covers the class's latest game and
the games before it whose teams it kept, one after another.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..i18n.collation import name_key

SCHEMES = ("rank_points", "team_score")


@dataclass(frozen=True)
class TeamResult:
    """One team's result in one game and the students who played in it."""

    team: int
    name: str
    rank: int
    score: float
    students: tuple[int, ...]


@dataclass(frozen=True)
class GameSummary:
    """What the league and participation need of one game of a class."""

    game_id: int
    name: str
    date: str                       # ISO date the game was created
    over: bool
    kept: bool                      # its teams were kept from the class's previous game
    teams: tuple[TeamResult, ...]
    spoke: dict = field(default_factory=dict)          # student id -> times spokesperson
    represented: dict = field(default_factory=dict)    # student id -> times representative


def number(value: float) -> int | float:
    """A points figure as JSON shows it: 4 rather than 4.0, at most four decimals."""
    value = round(float(value), 4)
    return int(value) if value == int(value) else value


def team_points(result: TeamResult, teams: int, scheme: str) -> int | float:
    """The league points a team (and each of its students) earns in a game of ``teams``."""
    if scheme == "team_score":
        return number(result.score)
    return teams - result.rank + 1


def shared_ranks(rows: list[dict], key: str = "points") -> None:
    """Give each row (already sorted best first) its ``rank``: equal ``key`` shares a
    rank and the next rank skips (1, 1, 3), as a game's standings do."""
    previous, rank = object(), 0
    for place, row in enumerate(rows, start=1):
        if row[key] != previous:
            rank, previous = place, row[key]
        row["rank"] = rank


def league(games: list[GameSummary], students: list[dict], scheme: str = "rank_points",
           lang: str = "es") -> dict:
    """The league table of a class over its finished games, oldest first.

    ``students``: the class's students as ``{"id", "name", "left"}``. Returns
    ``{"scheme", "games": [{"id", "name", "date"}], "students": [...], "teams": ...}``;
    each student row has ``rank``, ``points``, ``games`` (finished games played),
    ``per_game`` (points in each game, None where absent) and ``cumulative`` (points
    after each game), and ``teams`` is the kept teams' table or None.
    """
    if scheme not in SCHEMES:
        raise ValueError(f"the league scheme is one of {', '.join(SCHEMES)}, not {scheme!r}")
    finished = [g for g in games if g.over]
    rows = []
    for student in students:
        per_game, cumulative, total = [], [], 0.0
        for game in finished:
            earned = next((team_points(t, len(game.teams), scheme) for t in game.teams
                           if student["id"] in t.students), None)
            per_game.append(earned)
            total += earned or 0
            cumulative.append(number(total))
        played = sum(p is not None for p in per_game)
        if student.get("left") and not played:
            continue
        rows.append({"student": student["id"], "name": student["name"],
                     "left": bool(student.get("left")), "points": number(total),
                     "games": played, "per_game": per_game, "cumulative": cumulative})
    # Students still equal are listed by name as ``lang`` sorts it (ñ after n...).
    rows.sort(key=lambda r: (-r["points"], name_key(r["name"], lang), r["student"]))
    shared_ranks(rows)
    return {"scheme": scheme,
            "games": [{"id": g.game_id, "name": g.name, "date": g.date} for g in finished],
            "students": rows, "teams": kept_teams_table(finished, students, scheme)}


def kept_teams_table(finished: list[GameSummary], students: list[dict],
                     scheme: str) -> dict | None:
    """The league of the latest game's teams over the run of games that kept them
    (None when the latest finished game did not keep its teams from the one before)."""
    run: list[GameSummary] = []
    for game in reversed(finished):
        run.insert(0, game)
        if not game.kept:
            break
    if len(run) < 2:
        return None
    names = {s["id"]: s["name"] for s in students}
    latest = run[-1]
    rows = []
    for result in latest.teams:
        per_game = []
        for game in run:
            mine = next((t for t in game.teams if t.team == result.team), None)
            per_game.append(None if mine is None else team_points(mine, len(game.teams), scheme))
        rows.append({"team": result.team, "name": result.name,
                     "students": [names.get(s, "?") for s in result.students],
                     "points": number(sum(p or 0 for p in per_game)), "per_game": per_game})
    rows.sort(key=lambda r: (-r["points"], r["team"]))
    shared_ranks(rows)
    return {"games": [g.game_id for g in run], "rows": rows}


#: Students the projector's league lists at most (the rest are counted in ``more``).
LEAGUE_ROWS = 10


def league_payload(klass: dict, summaries: list, match, lineup: list[list[int]]) -> dict:
    """The projector's ``league`` of a class game: ``{"by", "scheme", "games", "rows",
    "more"}``. ``by`` is ``students`` (rows ``{"rank", "name", "points", "games",
    "team"}``: ``team`` the student's team in this game or null) when the class lets the
    projector show names, else ``teams`` (rows ``{"rank", "team", "name", "points"}``:
    this game's teams, each the sum of its present members' league points)."""
    from .summaries import teams_of
    table = league(summaries, klass["students"], klass["league_scheme"])
    out = {"scheme": table["scheme"], "games": len(table["games"])}
    if klass["projector_names"]:
        team_of = {sid: n for n, ids in enumerate(lineup, start=1) for sid in ids}
        rows = [{"rank": r["rank"], "name": r["name"], "points": r["points"], "games": r["games"],
                 "team": team_of.get(r["student"])} for r in table["students"]]
        return {"by": "students", **out, "rows": rows[:LEAGUE_ROWS],
                "more": max(0, len(rows) - LEAGUE_ROWS)}
    points = {r["student"]: r["points"] for r in table["students"]}
    rows = []
    for team, name in teams_of(match):
        ids = lineup[team - 1] if len(lineup) >= team else []
        rows.append({"team": team, "name": name,
                     "points": number(sum(points.get(s, 0) for s in ids))})
    rows.sort(key=lambda r: (-r["points"], r["team"]))
    shared_ranks(rows)
    return {"by": "teams", **out,
            "rows": [{"rank": r["rank"], "team": r["team"], "name": r["name"],
                      "points": r["points"]} for r in rows], "more": 0}
