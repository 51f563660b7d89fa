"""What a class's games say, for its league and participation: each game's teams, their
ranks and students, who spoke. Read from the games' matches (``team_results``), through
the store.
"""
from __future__ import annotations

from ..store import classes as stored
from .league import GameSummary, TeamResult


def teams_of(match) -> list[tuple[int, str]]:
    """A game's teams: (number, name), team 1 first (none for a game with no teams)."""
    results = match.team_results()
    return [(t["team"], t["name"]) for t in results["teams"]] if results else []


def _summary(match, row, link) -> GameSummary | None:
    results = match.team_results()
    if results is None:
        return None
    by_name: dict[tuple[int, str], int] = {}
    for team in results["teams"]:
        ids = link.lineup[team["team"] - 1] if len(link.lineup) >= team["team"] else []
        for name, sid in zip(team["roster"], ids):
            by_name[(team["team"], name.casefold())] = sid
    spoke: dict[int, int] = {}
    represented: dict[int, int] = {}
    for said, counts in (("spokesperson", spoke), ("representative", represented)):
        for team, name in results["voices"][said]:
            sid = by_name.get((team, " ".join(name.split()).casefold()))
            if sid is not None:
                counts[sid] = counts.get(sid, 0) + 1
    teams = tuple(TeamResult(team=t["team"], name=t["name"], rank=t["rank"], score=t["score"],
                             students=tuple(link.lineup[t["team"] - 1]
                                            if len(link.lineup) >= t["team"] else ()))
                  for t in results["teams"])
    return GameSummary(game_id=row.id, name=row.name, date=row.created_at.date().isoformat(),
                       over=results["over"], kept=link.kept, teams=teams, spoke=spoke,
                       represented=represented)


def summaries(database, store, class_id: int) -> list[GameSummary]:
    """The class's games that have begun (at least one action), oldest first, as the
    league and participation read them."""
    out = []
    from ..store.games import BROKEN_ERRORS
    for link in stored.class_links(database, class_id):
        try:
            loaded = store.current(link.game_id)
        except BROKEN_ERRORS:           # a game stored broken counts for nothing
            continue
        if loaded is None or loaded[0].seq == 0:
            continue
        summary = _summary(*loaded, link)
        if summary is not None:
            out.append(summary)
    out.extend(hall_summaries(store, class_id))
    return sorted(out, key=lambda summary: summary.game_id)


def hall_summaries(store, class_id: int) -> list[GameSummary]:
    """The class's halls that have begun (a game of theirs has an action), as the league
    and participation read them: each player a "team" of one, ranked by the hall rules'
    standings (la colmena's players share their table's rank, a tournament's players
    are ranked one by one)."""
    from ..store.halls import Halls
    halls = Halls(store)
    ids = sorted(halls.of_class(class_id))
    out = []
    for hall_id in ids:
        hall = halls.hall(hall_id)
        games = halls.games_of(hall_id)
        matches = [store.current(game["game_id"]) for game in games]
        if not hall or not hall["lineup"] or not any(m and m[0].seq for m in matches):
            continue
        rows = halls.rules(hall["kind"]).standings(hall["plan"], halls.summaries(hall))
        teams = tuple(TeamResult(team=n, name=hall["players"][row["player"]], rank=row["rank"],
                                 score=float(row.get("points") or 0),
                                 students=(hall["lineup"][row["player"]],))
                      for n, row in enumerate(rows, start=1))
        first = matches[0][1]
        out.append(GameSummary(game_id=games[0]["game_id"], name=hall["name"],
                               date=first.created_at.date().isoformat(),
                               over=all(m[0].over for m in matches if m), kept=False,
                               teams=teams))
    return out


def read_questions(database, store, class_id: int, bank_name: str | None = None) -> set[str]:
    """The ids of the content items used (a bank's questions read) in the class's games; with
    ``bank_name``, only in its games made from that bank."""
    read: set[str] = set()
    from ..store.games import BROKEN_ERRORS
    for game_id in stored.class_game_ids(database, class_id):
        try:
            loaded = store.current(game_id)
        except BROKEN_ERRORS:
            continue
        if loaded is None:
            continue
        match, row = loaded
        if bank_name is None or row.bank_name == bank_name:
            read |= match.content_used()
    return read


def speaking_counts(database, store, class_id: int) -> dict[int, int]:
    """How many times each student has spoken this term (spokesperson or representative,
    in every game of the class, the running one included)."""
    counts: dict[int, int] = {}
    for summary in summaries(database, store, class_id):
        for source in (summary.spoke, summary.represented):
            for sid, n in source.items():
                counts[sid] = counts.get(sid, 0) + n
    return counts
