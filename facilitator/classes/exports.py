"""Exports of a class (issue 15): the term league and participation as CSV and as an .xlsx
workbook, and a CSV of chosen measures for Moodle's gradebook import.

Pure: it takes the dicts :func:`facilitator.classes.league.league` and
:func:`facilitator.classes.participation.participation` return and the class's students
``[{"id", "name", "email", "id_number", "left"}]``, and returns text or bytes.

Headers are in Spanish for a Spanish page (``es``, ``es-ES``), in English otherwise. Text
a person typed (names, e-mails, ID numbers, team and game names) is neutralised as in the
per-game exports (a leading ``'`` before ``= + - @``), so a student named
``=HYPERLINK(...)`` stays text in a spreadsheet; numbers stay numbers.

Moodle's CSV grade import (Grades → Import → CSV file), as its code reads the file
(``grade/import/csv/classes/load_data.php``): the first row holds the column headers; the
teacher maps one column ("Map from") to a user field ("Map to": email address, ID number...),
which must match a Moodle user exactly or the whole import stops; every other column maps
to a new or existing grade item (a new item is named after the header). A grade of ``-``
(or empty) is no grade; numbers are read with a ``.`` decimal point.
"""
from __future__ import annotations

import csv
import io

from ..questions.csv_bank import FORMULA_STARTS, neutralise

#: Measures a teacher may send to Moodle: key -> (Spanish label, English label), in the
#: order the class page offers them.
MEASURES: dict[str, tuple[str, str]] = {
    "league_points": ("Liga: puntos", "League points"),
    "league_rank": ("Liga: puesto", "League rank"),
    "games_present": ("Partidas presentes", "Games present"),
    "spoke": ("Veces que habló", "Times spoke"),
    "spokesperson": ("Veces vocero", "Times spokesperson"),
    "representative": ("Veces representante", "Times representative"),
    "mean_rank": ("Puesto medio", "Mean rank"),
}

#: The identifiers Moodle can match a row to a user by: key -> the first column's header
#: (the English words of Moodle's own "Map to" choices, which an English Moodle pre-selects).
IDENTIFIERS = {"email": "Email address", "id_number": "ID number"}

#: What Moodle's import reads as "no grade".
NO_GRADE = "-"

WORDS = {
    "es": {"league": "Liga", "participation": "Participación", "teams": "Equipos",
           "rank": "Puesto", "name": "Nombre", "email": "Correo electrónico",
           "id_number": "Número de ID", "points": "Puntos", "games": "Partidas jugadas",
           "left": "Dejó la clase", "games_present": "Partidas presentes",
           "games_total": "Partidas en total", "spokesperson": "Veces vocero",
           "representative": "Veces representante", "spoke": "Veces que habló",
           "never_spoke": "Nunca habló", "mean_rank": "Puesto medio", "team": "Equipo",
           "team_name": "Nombre del equipo", "members": "Integrantes",
           "place_of": "{game}: puesto (de {teams} equipos)",
           "yes": "sí", "no": "no"},
    "en": {"league": "League", "participation": "Participation", "teams": "Teams",
           "rank": "Rank", "name": "Name", "email": "Email", "id_number": "ID number",
           "points": "Points", "games": "Games played", "left": "Left",
           "games_present": "Games present", "games_total": "Games total",
           "spokesperson": "Times spokesperson", "representative": "Times representative",
           "spoke": "Times spoke", "never_spoke": "Never spoke", "mean_rank": "Mean rank",
           "team": "Team", "team_name": "Team name", "members": "Members",
           "place_of": "{game}: place (of {teams} teams)",
           "yes": "yes", "no": "no"},
}


def _spanish(lang: str) -> bool:
    return (lang or "").split("-")[0].lower() == "es"


def _words(lang: str) -> dict[str, str]:
    return WORDS["es" if _spanish(lang) else "en"]


def unique_headers(header: list) -> list:
    """The header with repeats told apart: a second "Clase (2026-12-03)" becomes
    "Clase (2026-12-03) (2)", a third " (3)", so that every column has its own name
    (a spreadsheet's filter, a script reading the CSV by column name)."""
    seen: dict[str, int] = {}
    taken = {str(cell) for cell in header}
    out = []
    for cell in header:
        text = str(cell)
        seen[text] = seen.get(text, 0) + 1
        if seen[text] > 1:
            number = seen[text]
            while f"{text} ({number})" in taken:
                number += 1
            text = f"{text} ({number})"
            taken.add(text)
        out.append(text)
    return out


def _csv(header: list, rows: list[list]) -> str:
    """A CSV table (comma, ``\\r\\n``); headers unique, text cells neutralised, numbers
    left as they are."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([neutralise(cell) for cell in unique_headers(header)])
    writer.writerows([neutralise(cell) for cell in row] for row in rows)
    return out.getvalue()


def _by_id(students: list[dict]) -> dict:
    return {s["id"]: s for s in students}


def _game_header(game: dict) -> str:
    return f"{game['name']} ({game['date']})"


def _blank(value):
    return "" if value is None else value


def _league_rows(league: dict, students: list[dict], words: dict,
                 lang: str | None = None) -> tuple[list, list[list]]:
    known = _by_id(students)
    header = [words["rank"], words["name"], words["email"], words["id_number"],
              words["points"], words["games"]] + [_game_header(g) for g in league["games"]]
    rows = []
    for row in league["students"]:
        student = known.get(row["student"], {})
        rows.append([row["rank"], row["name"], student.get("email") or "",
                     student.get("id_number") or "", row["points"], row["games"]]
                    + list(row["per_game"]))
    return header, rows


def _participation_rows(participation: dict, students: list[dict], words: dict,
                        lang: str | None = None) -> tuple[list, list[list]]:
    known = _by_id(students)
    # One column per game holding the team's place as a number, the number of teams in
    # the header: a cell "1/4" is read by spreadsheets as a date (the 1st of April).
    teams = [max((r["teams"] for row in participation["students"]
                  if (r := row["ranks"][n]) is not None), default=0)
             for n in range(len(participation["games"]))]
    header = [words["name"], words["email"], words["id_number"], words["left"],
              words["games_present"], words["games_total"], words["spokesperson"],
              words["representative"], words["spoke"], words["never_spoke"],
              words["mean_rank"]] + [words["place_of"].format(game=_game_header(g),
                                                              teams=n)
                                     for g, n in zip(participation["games"], teams)]
    rows = []
    for row in participation["students"]:
        student = known.get(row["student"], {})
        rows.append([row["name"], student.get("email") or "", student.get("id_number") or "",
                     words["yes"] if row["left"] else words["no"], row["games_present"],
                     row["games_total"], row["spokesperson"], row["representative"],
                     row["spoke"], words["yes"] if row["never_spoke"] else words["no"],
                     row["mean_rank"]]
                    + [None if r is None else r["rank"] for r in row["ranks"]])
    return header, rows


def _teams_rows(league: dict, words: dict, lang: str | None = None) -> tuple[list, list[list]]:
    games = {g["id"]: g for g in league["games"]}
    teams = league["teams"]
    header = [words["rank"], words["team"], words["team_name"], words["members"],
              words["points"]] + [_game_header(games[g]) if g in games else str(g)
                                  for g in teams["games"]]
    rows = [[row["rank"], row["team"], row["name"], ", ".join(row["students"]), row["points"]]
            + list(row["per_game"]) for row in teams["rows"]]
    return header, rows


def league_csv(league: dict, students: list[dict], lang: str = "es") -> str:
    """The term league as CSV, one row per student in league order: rank, name, e-mail,
    ID number, points, games played, then the points earned in each finished game
    (header "name (date)"; empty where the student was absent).

    ``league`` is what :func:`facilitator.classes.league.league` returns; ``students``
    the class's students, where the e-mail and ID number are looked up by id.
    """
    header, rows = _league_rows(league, students, _words(lang))
    return _csv(header, [[_blank(cell) for cell in row] for row in rows])


def participation_csv(participation: dict, students: list[dict], lang: str = "es") -> str:
    """Participation as CSV, one row per student: name, e-mail, ID number, left (sí/no,
    yes/no), games present, games total, times spokesperson, times representative, times
    spoke in all, never spoke (sí/no), mean rank (empty without a finished game), then
    the team's place in each game as a number (empty where the student was absent),
    under a header naming the game and how many teams it had ("Clase (2026-12-03):
    puesto (de 4 equipos)"): never ``1/4``, which a spreadsheet reads as a date.

    ``participation`` is what :func:`facilitator.classes.participation.participation`
    returns.
    """
    header, rows = _participation_rows(participation, students, _words(lang))
    return _csv(header, [[_blank(cell) for cell in row] for row in rows])


def _sheet(book, title: str, header: list, rows: list[list], first: bool = False):
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
    from openpyxl.styles import Font
    from openpyxl.utils import get_column_letter
    sheet = book.active if first else book.create_sheet()
    sheet.title = title
    for row in [unique_headers(header)] + rows:
        # Control characters an .xlsx cannot hold (openpyxl refuses them) are dropped.
        sheet.append([(neutralise(ILLEGAL_CHARACTERS_RE.sub("", cell)) or None)
                      if isinstance(cell, str) else cell for cell in row])
    widths: dict[int, int] = {}
    for line in sheet.iter_rows():
        for cell in line:
            if isinstance(cell.value, str):
                cell.data_type = "s"        # never a formula, whatever it starts with
            if cell.value is not None:
                widths[cell.column] = max(widths.get(cell.column, 0), len(str(cell.value)))
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    for column, width in widths.items():
        sheet.column_dimensions[get_column_letter(column)].width = min(max(width + 2, 8), 50)
    sheet.freeze_panes = "A2"
    return sheet


def class_xlsx(league: dict, participation: dict, students: list[dict],
               lang: str = "es") -> bytes:
    """The league and participation as an .xlsx workbook (openpyxl): sheets
    "Liga"/"League" and "Participación"/"Participation" with the CSV exports' columns,
    and "Equipos"/"Teams" (rank, team, name, members, points, points per game) when the
    league kept a team table. Numbers are numbers, absences empty cells, the header row
    bold and frozen; text a person typed is neutralised and stored as text, never as a
    formula."""
    from openpyxl import Workbook
    words = _words(lang)
    book = Workbook()
    _sheet(book, words["league"], *_league_rows(league, students, words, lang), first=True)
    _sheet(book, words["participation"],
           *_participation_rows(participation, students, words, lang))
    if league.get("teams") is not None:
        _sheet(book, words["teams"], *_teams_rows(league, words, lang))
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _grade(value) -> str:
    """A number as Moodle reads it: ``.`` decimal point, no thousands separator, no
    exponent; ``-`` (no grade) for None."""
    if value is None:
        return NO_GRADE
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, int):
        return str(value)
    text = format(round(float(value), 4), ".4f").rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _usable(identifier: str) -> bool:
    """An identifier Moodle can match and a spreadsheet will not run as a formula (it is
    written as typed, since a neutralising ``'`` would stop Moodle from matching it)."""
    return bool(identifier) and not identifier.lstrip("'\"").startswith(FORMULA_STARTS)


def moodle_left_out(league: dict, participation: dict, students: list[dict],
                    identifier: str = "email") -> list[dict]:
    """The students :func:`moodle_csv` leaves out, in class-list order, and why:
    ``{"id", "name", "reason": "none" | "formula", "value"}`` (no e-mail or ID number;
    or one starting with ``= + - @``, which a spreadsheet would run as a formula).
    Students who left before playing are not in the file at all, so not listed."""
    if identifier not in IDENTIFIERS:
        raise ValueError(f"the identifier is one of {', '.join(IDENTIFIERS)}, not {identifier!r}")
    played = ({row["student"] for row in league["students"]}
              | {row["student"] for row in participation["students"]})
    out = []
    for student in students:
        if student["id"] not in played:
            continue
        key = (student.get(identifier) or "").strip()
        if not _usable(key):
            out.append({"id": student["id"], "name": student["name"],
                        "reason": "formula" if key else "none", "value": key[:1]})
    return out


def _values(league_row: dict, taking: dict) -> dict:
    """One student's value of every measure (None where there is none), from their
    league and participation rows."""
    return {"league_points": league_row.get("points"), "league_rank": league_row.get("rank"),
            "games_present": taking.get("games_present"), "spoke": taking.get("spoke"),
            "spokesperson": taking.get("spokesperson"),
            "representative": taking.get("representative"),
            "mean_rank": taking.get("mean_rank")}


def measure_values(league: dict, participation: dict) -> dict[int, dict]:
    """Every measure of :data:`MEASURES` for every student of the league or participation
    tables (those :func:`moodle_csv` writes a row for): ``{student id: {measure: value
    or None}}``. The gradebook of a course launched over LTI takes the same figures."""
    in_league = {row["student"]: row for row in league["students"]}
    in_participation = {row["student"]: row for row in participation["students"]}
    return {sid: _values(in_league.get(sid, {}), in_participation.get(sid, {}))
            for sid in {*in_league, *in_participation}}


def moodle_csv(league: dict, participation: dict, students: list[dict],
               identifier: str = "email", measures=("league_points",),
               lang: str = "es") -> tuple[str, list[str]]:
    """The CSV Moodle's gradebook import (Grades → Import → CSV file) takes, and the names
    of the students left out of it.

    The first column is the identifier, headed "Email address" (``identifier="email"``)
    or "ID number" (``"id_number"``), for Moodle's "Map to" user field; then one column
    per measure in ``measures`` (keys of :data:`MEASURES`, in the order given), headed by
    its label in ``lang``. One row per student of the league or participation tables
    (students who left are there when they played), in class-list order. Students
    without that identifier, or with one starting with ``= + - @`` (a spreadsheet would
    run it as a formula), are left out: Moodle stops the whole import at a row it cannot
    match. Grades use a ``.`` decimal point and no thousands separator; ``-`` where there
    is none (a mean rank before any finished game). Comma separated, ``\\r\\n`` line ends,
    UTF-8 once encoded. Raises ValueError for an unknown identifier or measure.
    """
    if identifier not in IDENTIFIERS:
        raise ValueError(f"the identifier is one of {', '.join(IDENTIFIERS)}, not {identifier!r}")
    if isinstance(measures, str):
        measures = [m for m in measures.split(",") if m]
    measures = list(measures)
    if not measures:
        raise ValueError("choose at least one measure")
    unknown = [m for m in measures if m not in MEASURES]
    if unknown:
        raise ValueError(f"unknown measure {unknown[0]!r}: the measures are "
                         f"{', '.join(MEASURES)}")
    if len(set(measures)) != len(measures):
        raise ValueError("each measure may be chosen once")
    spanish = _spanish(lang)
    in_league = {row["student"]: row for row in league["students"]}
    in_participation = {row["student"]: row for row in participation["students"]}
    header = [IDENTIFIERS[identifier]] + [MEASURES[m][0 if spanish else 1] for m in measures]
    rows, missing = [], []
    for student in students:
        sid = student["id"]
        if sid not in in_league and sid not in in_participation:
            continue                    # left before playing
        key = (student.get(identifier) or "").strip()
        if not _usable(key):
            missing.append(student["name"])
            continue
        values = _values(in_league.get(sid, {}), in_participation.get(sid, {}))
        rows.append([key] + [_grade(values[m]) for m in measures])
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue(), missing
