"""Exports: standings and per-turn history as CSV, the whole result as JSON."""
from __future__ import annotations

import csv
import io

from ..engine import Game
from ..questions.csv_bank import neutralise
from .analysis import cards_by_author_and_type, participation, timeline, turn_rows


def _csv(header: list[str], rows: list[list]) -> str:
    """A CSV table; every text cell is neutralised (a name or answer someone typed as
    ``=HYPERLINK(...)`` gets a leading ``'``), numbers (scores, -0.5) stay numbers."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows([neutralise(cell) for cell in row] for row in rows)
    return out.getvalue()


def standings_csv(game: Game) -> str:
    """One row per team, best first (R-P4), with what is behind each score."""
    rows = [[r["rank"], r["team"], r["name"], r["score"], r["cards"], r["author_cards"],
             r["type_cards"], r["pifies"], r["consolations"], r["bonuses"], r["adjustments"]]
            for r in game.standings()]
    return _csv(["rank", "team", "name", "score", "cards", "author_cards", "type_cards",
                 "pifies", "consolations", "bonuses", "adjustments"], rows)


def turns_csv(game: Game) -> str:
    """One row per ended turn: host, mode, challenged team, question, verdicts and points."""
    teams = [t.number for t in game.state.teams]
    rows = []
    for r in turn_rows(game):
        rows.append([r["turn"], r["round"], r["host"], r["mode"], r["challenged"] or "",
                     r["desvio_by"] or "", r["seguro_by"] or "", r["elijo_by"] or "",
                     r["author"], r["type"], r["question"], r["question_text"], r["verdict"],
                     r["written"] or "", "" if r["written_correct"] is None else r["written_correct"],
                     r["argument"] or "",
                     "; ".join(f"{t}: {n}" for t, n in r["spokespersons"].items())]
                    + [r["points"].get(str(t), 0) for t in teams])
    return _csv(["turn", "round", "host", "mode", "challenged", "desvio_by", "seguro_by",
                 "elijo_by", "author", "type", "question", "question_text", "verdict",
                 "written", "written_correct", "argument", "spokespersons"]
                + [f"points_team_{t}" for t in teams], rows)


def summary_json(game: Game, name: str | None = None) -> dict:
    """Everything about the result: standings, turns, the score timeline, cards, participation."""
    return {"name": name, "over": game.state.over, "ended_early": game.state.ended_early,
            "standings": game.standings(), "turns": turn_rows(game),
            "adjustments": list(game.state.adjust_log), "timeline": timeline(game),
            "cards": cards_by_author_and_type(game), "participation": participation(game)}
