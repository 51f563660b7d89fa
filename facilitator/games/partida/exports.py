"""Exports: standings and per-turn history as CSV (the stable machine format), the same as an
.xlsx workbook a teacher opens in a spreadsheet (headers in the page's language, numbers as
numbers), the whole result as JSON."""
from __future__ import annotations

import csv
import io
import json

from .errors import Refusal
from .game import Game
from ...questions.csv_bank import neutralise
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


def summary_json(game: Game, name: str | None = None, lang: str = "es") -> dict:
    """Everything about the result: standings, turns, the score timeline, cards, participation
    (names in ``lang``'s alphabetical order)."""
    return {"name": name, "over": game.state.over, "ended_early": game.state.ended_early,
            "standings": game.standings(), "turns": turn_rows(game),
            "adjustments": list(game.state.adjust_log), "timeline": timeline(game),
            "cards": cards_by_author_and_type(game, lang),
            "participation": participation(game, lang)}


def export_record(record: object, fmt: str, table: str = "both", name: str | None = None,
                  read_beside=None) -> str:
    """``facilitator export``: a ``partida/1`` record's results as ``csv`` (``table``:
    ``standings``, ``turns`` or ``both``), ``json`` or the ``record`` replayed and written
    again. ``read_beside(name)``: the questions of a bank file the record names. A
    Refusal (its rule, the action's index) when the record does not replay, or is not la
    partida's: the other games' results are on their pages and the hall's downloads."""
    from .record import FORMAT, replay, write_record
    found = record.get("format") if isinstance(record, dict) else None
    if found != FORMAT:
        raise Refusal("format", f"export writes the results of a {FORMAT} record; this one "
                                f"is {found!r}")
    game = replay(record, load_bank=read_beside)
    if fmt == "record":
        return json.dumps(write_record(game, {"name": name} if name else None),
                          ensure_ascii=False, indent=1)
    if fmt == "json":
        return json.dumps(summary_json(game, name), ensure_ascii=False, indent=1)
    parts = []
    if table in ("standings", "both"):
        parts.append(standings_csv(game))
    if table in ("turns", "both"):
        parts.append(turns_csv(game))
    return "\r\n".join(parts)


#: The .xlsx headers: Spanish on a Spanish page (es, es-ES), English otherwise (issue 13).
XLSX_HEADERS = {
    "es": {"standings": "Clasificación", "turns": "Turnos",
           "rank": "Puesto", "team": "Equipo", "name": "Nombre", "score": "Puntos",
           "cards": "Cartas", "author_cards": "Cartas de autor", "type_cards": "Cartas de tipo",
           "pifies": "Pifies", "consolations": "Premios consuelo", "bonuses": "Bonus",
           "adjustments": "Ajustes", "turn": "Turno", "round": "Ronda", "host": "Anfitrión",
           "mode": "Modo", "challenged": "Desafiado", "author": "Autor", "type": "Tipo",
           "question_text": "Pregunta", "verdict": "Veredicto", "written": "Anticipación",
           "written_correct": "Anticipación correcta", "points_team": "Puntos equipo {n}"},
    "en": {"standings": "Standings", "turns": "Turns",
           "rank": "Rank", "team": "Team", "name": "Name", "score": "Score",
           "cards": "Cards", "author_cards": "Author cards", "type_cards": "Type cards",
           "pifies": "Blunders", "consolations": "Consolations", "bonuses": "Bonuses",
           "adjustments": "Adjustments", "turn": "Turn", "round": "Round", "host": "Host",
           "mode": "Mode", "challenged": "Challenged", "author": "Author", "type": "Type",
           "question_text": "Question", "verdict": "Verdict", "written": "Anticipation",
           "written_correct": "Anticipation correct", "points_team": "Points team {n}"},
}


#: Headers the catalogs name (results.*), in every variant: the catalog's word wins over
#: XLSX_HEADERS, so the workbook says what the page says (es-ES: «premio de consolación»).
CATALOG_HEADERS = {"rank": "results.rank", "team": "results.team", "score": "results.score",
                   "cards": "results.cards", "pifies": "results.pifies",
                   "consolations": "results.consolations", "bonuses": "results.bonuses",
                   "adjustments": "results.adjustments", "turn": "results.turn",
                   "round": "results.round", "host": "results.host", "mode": "results.mode",
                   "challenged": "results.challenged", "question_text": "results.question",
                   "verdict": "results.verdict", "written": "results.written",
                   "standings": "results.standings"}


def xlsx_words(lang: str) -> dict[str, str]:
    """The workbook's headers in ``lang`` (es, es-ES, en)."""
    from ...i18n import translate
    words = dict(XLSX_HEADERS["en" if lang == "en" else "es"])
    words.update({key: translate(lang, catalog_key) for key, catalog_key in CATALOG_HEADERS.items()})
    return words


def xlsx_value(key: str, value, lang: str):
    """A turn's cell as the page writes it: the mode, type and verdict in words (Desafío
    simple, Quién lo dijo, Media), whether the anticipation was right (Correcta /
    Incorrecta); text cleaned of control characters an .xlsx cannot hold and neutralised
    (a leading ``'`` before ``= + - @``); numbers as they are. The CSV keeps the codes."""
    from ...i18n import translate
    from ...safe_text import without_control_characters
    if key == "written_correct" and isinstance(value, bool):
        return translate(lang, "written.correct" if value else "written.incorrect")
    if key in ("mode", "type", "verdict") and isinstance(value, str) and value:
        word = translate(lang, f"{key}.{value}")
        if word != f"{key}.{value}":
            value = word[:1].upper() + word[1:]
    if isinstance(value, str):
        return neutralise(without_control_characters(value)) or None
    return value


def results_xlsx(game: Game, lang: str = "es") -> bytes:
    """Standings and turns as an .xlsx workbook (openpyxl): two sheets, headers and words
    (mode, type, verdict) in the page's language, scores as numbers. Text cells are
    neutralised as in the CSV and stored as text, never as a formula; control characters
    (which openpyxl refuses) are dropped."""
    from openpyxl import Workbook
    from openpyxl.styles import Font
    words = xlsx_words(lang)
    book = Workbook()
    sheet = book.active
    sheet.title = words["standings"][:31]
    keys = ["rank", "team", "name", "score", "cards", "author_cards", "type_cards", "pifies",
            "consolations", "bonuses", "adjustments"]
    sheet.append([words[k] for k in keys])
    for r in game.standings():
        sheet.append([xlsx_value(k, r[k], lang) for k in keys])
    turns = book.create_sheet(words["turns"][:31])
    teams = [t.number for t in game.state.teams]
    tkeys = ["turn", "round", "host", "mode", "challenged", "author", "type", "question_text",
             "verdict", "written", "written_correct"]
    turns.append([words[k] for k in tkeys] + [words["points_team"].format(n=t) for t in teams])
    for r in turn_rows(game):
        row = [xlsx_value(k, r[k], lang) for k in tkeys]
        turns.append(row + [r["points"].get(str(t), 0) for t in teams])
    for ws in (sheet, turns):
        for line in ws.iter_rows(min_row=2):
            for cell in line:
                if isinstance(cell.value, str):
                    cell.data_type = "s"        # never a formula, whatever it starts with
        for cell in ws[1]:
            cell.font = Font(bold=True)
        ws.freeze_panes = "A2"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
