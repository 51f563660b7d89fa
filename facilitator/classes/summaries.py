"""What a class's games say, for its league and participation: each game's teams, their
ranks and students, who spoke. Read from the games' matches (a partida's standings and
spokespersons), through the store.
"""
from __future__ import annotations

from ..store import classes as stored
from .league import GameSummary, TeamResult


def teams_of(match) -> list[tuple[int, str]]:
    """A game's teams: (number, name), team 1 first."""
    return [(t.number, t.name) for t in match.game.state.teams]


def _summary(match, row, link) -> GameSummary:
    game = match.game
    standings = {r["team"]: r for r in game.standings()}
    roster = game.settings.extra.get("roster") or []
    by_name: dict[tuple[int, str], int] = {}
    for team, ids in enumerate(link.lineup, start=1):
        names = roster[team - 1] if len(roster) >= team and isinstance(roster[team - 1], list) else []
        for name, sid in zip(names, ids):
            by_name[(team, name.casefold())] = sid

    def who(team: object, name: str) -> int | None:
        return by_name.get((int(team), " ".join(name.split()).casefold()))

    spoke: dict[int, int] = {}
    represented: dict[int, int] = {}
    turns = list(game.state.history)
    if game.state.turn is not None and not game.state.over:
        turns.append({"spokespersons": game.state.turn.spokespersons,
                      "representatives": game.state.turn.representatives})
    for entry in turns:
        for kind, counts in (("spokespersons", spoke), ("representatives", represented)):
            for team, name in (entry.get(kind) or {}).items():
                sid = who(team, name)
                if sid is not None:
                    counts[sid] = counts.get(sid, 0) + 1
    teams = tuple(TeamResult(team=t.number, name=t.name, rank=standings[t.number]["rank"],
                             score=float(standings[t.number]["score"]),
                             students=tuple(link.lineup[t.number - 1]
                                            if len(link.lineup) >= t.number else ()))
                  for t in game.state.teams)
    return GameSummary(game_id=row.id, name=row.name, date=row.created_at.date().isoformat(),
                       over=game.state.over, kept=link.kept, teams=teams, spoke=spoke,
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
        game, row = loaded
        out.append(_summary(game, row, link))
    out.extend(hall_summaries(store, class_id))
    return sorted(out, key=lambda summary: summary.game_id)


def hall_summaries(store, class_id: int) -> list[GameSummary]:
    """The class's halls that have begun (a game of theirs has an action), as the league
    and participation read them: each player a "team" of one, ranked by the hall rules'
    standings (la colmena's players share their table's rank, a tournament's players
    are ranked one by one)."""
    from ..store.halls import Halls
    from ..store.models import HallRow
    from sqlalchemy import select
    halls = Halls(store)
    with store.database.read() as connection:
        ids = list(connection.scalars(select(HallRow.id).where(HallRow.class_id == class_id)
                                      .order_by(HallRow.id)))
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
    """The ids of the questions read (R-Q1: used) in the class's games; with
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
            read |= set(match.game.state.used)
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
