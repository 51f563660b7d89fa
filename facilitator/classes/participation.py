"""Participation over a term: per student, the games they were present at, the times
they spoke for their team (as its spokesperson or its representative) and how their
team did. Students who never spoke are marked, so the teacher can call on them."""
from __future__ import annotations

from .league import GameSummary


def participation(games: list[GameSummary], students: list[dict]) -> dict:
    """Participation rows of a class over its games (every game begun, finished or not).

    ``students``: ``{"id", "name", "left"}``. Each row: ``games_present``,
    ``games_total``, ``spokesperson``, ``representative``, ``spoke`` (the two
    added), ``never_spoke``, ``ranks`` (per game ``{"rank", "teams"}`` or None
    where absent) and ``mean_rank``. Students who left and never played are left out.
    """
    rows = []
    for student in students:
        sid = student["id"]
        ranks, spokesperson, representative = [], 0, 0
        for game in games:
            mine = next((t for t in game.teams if sid in t.students), None)
            ranks.append(None if mine is None else
                         {"rank": mine.rank, "teams": len(game.teams), "over": game.over})
            spokesperson += game.spoke.get(sid, 0)
            representative += game.represented.get(sid, 0)
        present = sum(r is not None for r in ranks)
        if student.get("left") and not present:
            continue
        finished = [r["rank"] for r in ranks if r and r["over"]]
        rows.append({
            "student": sid, "name": student["name"], "left": bool(student.get("left")),
            "games_present": present, "games_total": len(games),
            "spokesperson": spokesperson, "representative": representative,
            "spoke": spokesperson + representative,
            "never_spoke": spokesperson + representative == 0,
            "ranks": ranks,
            "mean_rank": round(sum(finished) / len(finished), 2) if finished else None,
        })
    return {"games": [{"id": g.game_id, "name": g.name, "date": g.date, "over": g.over}
                      for g in games], "students": rows}


def least_spoken(team: list[int], counts: dict[int, int]) -> int | None:
    """The member of ``team`` (student ids, in roster order) who has spoken least this
    term: the console suggests them as spokesperson. Ties go to the first listed."""
    return min(team, key=lambda s: counts.get(s, 0)) if team else None
