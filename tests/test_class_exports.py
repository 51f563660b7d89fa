"""A class's exports (issue 15): the league and participation as CSV and .xlsx, and the CSV of
chosen measures for Moodle's gradebook import. Built from hand-made game summaries."""
import csv
import io

import pytest
from openpyxl import load_workbook

from facilitator.classes.exports import (MEASURES, class_xlsx, league_csv, moodle_csv,
                                         participation_csv)
from facilitator.classes.league import GameSummary, TeamResult, league
from facilitator.classes.participation import participation

LINK = '=HYPERLINK("http://x")'

STUDENTS = [
    {"id": 1, "name": "Ana Gómez", "email": "ana@x.edu", "id_number": "A1", "left": False},
    {"id": 2, "name": "Bruno", "email": "", "id_number": "B2", "left": False},
    {"id": 3, "name": LINK, "email": "evil@x.edu", "id_number": "", "left": False},
    {"id": 4, "name": "Dora", "email": "dora@x.edu", "id_number": "D4", "left": False},
    {"id": 5, "name": "Eva", "email": "eva@x.edu", "id_number": "E5", "left": True},
    {"id": 6, "name": "Félix", "email": "felix@x.edu", "id_number": "F6", "left": True},
]


def games(kept: bool = True, scores=(0, 0, 0, 0)) -> list[GameSummary]:
    """Two finished games of four teams (the second kept the first's teams when ``kept``)
    and a third, unfinished game of two teams. Félix left before playing; Eva after one."""
    one = GameSummary(1, "Partida 1", "2026-03-02", True, False, (
        TeamResult(1, "Rojo", 1, scores[0], (1, 2)), TeamResult(2, "Azul", 2, scores[1], (3,)),
        TeamResult(3, "Verde", 3, scores[2], (4,)), TeamResult(4, "Negro", 4, scores[3], (5,))),
        spoke={1: 2, 3: 1}, represented={4: 1})
    two = GameSummary(2, "Partida 2", "2026-03-09", True, kept, (
        TeamResult(1, "Rojo", 2, 10, (1, 2)), TeamResult(2, "Azul", 1, 3, (3,)),
        TeamResult(3, "Verde", 2, 10, (4,)), TeamResult(4, "Negro", 4, 0, ())),
        spoke={1: 1})
    three = GameSummary(3, "Repaso", "2026-03-16", False, True, (
        TeamResult(1, "Rojo", 1, 5, (1,)), TeamResult(2, "Azul", 2, 2, (3, 4))),
        spoke={3: 1})
    return [one, two, three]


def tables(kept: bool = True, scheme: str = "rank_points", scores=(0, 0, 0, 0)):
    played = games(kept, scores)
    return league(played, STUDENTS, scheme), participation(played, STUDENTS)


def rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def workbook(data: bytes):
    return load_workbook(io.BytesIO(data))


def values(sheet) -> list[list]:
    return [list(row) for row in sheet.iter_rows(values_only=True)]


def test_league_csv_has_one_row_per_student_in_league_order_with_points_per_game():
    table, _ = tables()
    text = league_csv(table, STUDENTS)
    assert text.endswith("\r\n") and "\r\n" in text.splitlines(keepends=True)[0]
    assert rows(text) == [
        ["Puesto", "Nombre", "Correo electrónico", "Número de ID", "Puntos",
         "Partidas jugadas", "Partida 1 (2026-03-02)", "Partida 2 (2026-03-09)"],
        ["1", "'" + LINK, "evil@x.edu", "", "7", "2", "3", "4"],
        ["1", "Ana Gómez", "ana@x.edu", "A1", "7", "2", "4", "3"],
        ["1", "Bruno", "", "B2", "7", "2", "4", "3"],
        ["4", "Dora", "dora@x.edu", "D4", "5", "2", "2", "3"],
        ["5", "Eva", "eva@x.edu", "E5", "1", "1", "1", ""],
    ]


def test_league_csv_in_english_and_with_team_scores():
    table, _ = tables(scheme="team_score", scores=(12.5, -0.5, 1, 0))
    got = rows(league_csv(table, STUDENTS, lang="en"))
    assert got[0][:6] == ["Rank", "Name", "Email", "ID number", "Points", "Games played"]
    assert got[1:] == [["1", "Ana Gómez", "ana@x.edu", "A1", "22.5", "2", "12.5", "10"],
                       ["1", "Bruno", "", "B2", "22.5", "2", "12.5", "10"],
                       ["3", "Dora", "dora@x.edu", "D4", "11", "2", "1", "10"],
                       ["4", "'" + LINK, "evil@x.edu", "", "2.5", "2", "-0.5", "3"],
                       ["5", "Eva", "eva@x.edu", "E5", "0", "1", "0", ""]]


def test_participation_csv_rows_show_presence_speaking_and_ranks_as_numbers():
    """Issue 34: a place is a number under a header naming the teams ("1/4" read as the
    1st of April by spreadsheets)."""
    _, taking = tables()
    assert rows(participation_csv(taking, STUDENTS)) == [
        ["Nombre", "Correo electrónico", "Número de ID", "Dejó la clase", "Partidas presentes",
         "Partidas en total", "Veces vocero", "Veces representante", "Veces que habló",
         "Nunca habló", "Puesto medio", "Partida 1 (2026-03-02): puesto (de 4 equipos)",
         "Partida 2 (2026-03-09): puesto (de 4 equipos)",
         "Repaso (2026-03-16): puesto (de 2 equipos)"],
        ["Ana Gómez", "ana@x.edu", "A1", "no", "3", "3", "3", "0", "3", "no", "1.5",
         "1", "2", "1"],
        ["Bruno", "", "B2", "no", "2", "3", "0", "0", "0", "sí", "1.5", "1", "2", ""],
        ["'" + LINK, "evil@x.edu", "", "no", "3", "3", "2", "0", "2", "no", "1.5",
         "2", "1", "2"],
        ["Dora", "dora@x.edu", "D4", "no", "3", "3", "0", "1", "1", "no", "2.5",
         "3", "2", "2"],
        ["Eva", "eva@x.edu", "E5", "sí", "1", "3", "0", "0", "0", "sí", "4.0", "4", "", ""],
    ]


def test_participation_csv_in_english():
    _, taking = tables()
    got = rows(participation_csv(taking, STUDENTS, lang="en"))
    assert got[0][:11] == ["Name", "Email", "ID number", "Left", "Games present", "Games total",
                           "Times spokesperson", "Times representative", "Times spoke",
                           "Never spoke", "Mean rank"]
    assert got[2][:4] == ["Bruno", "", "B2", "no"] and got[2][9] == "yes"
    assert got[5][3] == "yes"
    # es-ES is Spanish too.
    assert rows(participation_csv(taking, STUDENTS, lang="es-ES"))[2][9] == "sí"


def test_a_game_name_that_looks_like_a_formula_is_neutralised_in_the_headers():
    played = games()
    played[0] = GameSummary(1, "=1+1", "2026-03-02", True, False, played[0].teams)
    header = rows(league_csv(league(played, STUDENTS), STUDENTS))[0]
    assert header[6] == "'=1+1 (2026-03-02)"


def test_the_xlsx_has_league_participation_and_kept_teams_sheets():
    table, taking = tables()
    book = workbook(class_xlsx(table, taking, STUDENTS))
    assert book.sheetnames == ["Liga", "Participación", "Equipos"]
    liga = book["Liga"]
    assert values(liga) == [
        ["Puesto", "Nombre", "Correo electrónico", "Número de ID", "Puntos",
         "Partidas jugadas", "Partida 1 (2026-03-02)", "Partida 2 (2026-03-09)"],
        [1, "'" + LINK, "evil@x.edu", None, 7, 2, 3, 4],
        [1, "Ana Gómez", "ana@x.edu", "A1", 7, 2, 4, 3],
        [1, "Bruno", None, "B2", 7, 2, 4, 3],
        [4, "Dora", "dora@x.edu", "D4", 5, 2, 2, 3],
        [5, "Eva", "eva@x.edu", "E5", 1, 1, 1, None],
    ]
    assert values(book["Participación"])[1] == ["Ana Gómez", "ana@x.edu", "A1", "no", 3, 3, 3,
                                                0, 3, "no", 1.5, 1, 2, 1]
    assert values(book["Equipos"]) == [
        ["Puesto", "Equipo", "Nombre del equipo", "Integrantes", "Puntos",
         "Partida 1 (2026-03-02)", "Partida 2 (2026-03-09)"],
        [1, 1, "Rojo", "Ana Gómez, Bruno", 7, 4, 3],
        [1, 2, "Azul", "'" + LINK, 7, 3, 4],
        [3, 3, "Verde", "Dora", 5, 2, 3],
        [4, 4, "Negro", None, 2, 1, 1],
    ]
    for sheet in book.worksheets:
        assert sheet.freeze_panes == "A2"
        assert all(cell.font.bold for cell in sheet[1])
        assert 8 <= sheet.column_dimensions["B"].width <= 50


def test_the_xlsx_stores_a_name_like_a_formula_as_text():
    table, taking = tables()
    book = workbook(class_xlsx(table, taking, STUDENTS))
    cells = [cell for sheet in book.worksheets for row in sheet.iter_rows() for cell in row
             if isinstance(cell.value, str) and "HYPERLINK" in cell.value]
    assert len(cells) == 3                       # league, participation, teams
    for cell in cells:
        assert cell.data_type == "s" and cell.value == "'" + LINK
    assert not [cell for sheet in book.worksheets for row in sheet.iter_rows() for cell in row
                if cell.data_type == "f"]


def test_the_xlsx_drops_characters_a_workbook_cannot_hold():
    odd = [dict(s, name="Ana\x01Gómez") if s["id"] == 1 else s for s in STUDENTS]
    played = games()
    book = workbook(class_xlsx(league(played, odd), participation(played, odd), odd))
    assert values(book["Liga"])[2][1] == "AnaGómez"


def test_the_xlsx_has_no_teams_sheet_when_the_teams_were_not_kept_and_speaks_english():
    table, taking = tables(kept=False)
    assert table["teams"] is None
    book = workbook(class_xlsx(table, taking, STUDENTS, lang="en"))
    assert book.sheetnames == ["League", "Participation"]
    assert values(book["League"])[0][:6] == ["Rank", "Name", "Email", "ID number", "Points",
                                             "Games played"]
    kept = workbook(class_xlsx(*tables(), STUDENTS, lang="en"))
    assert kept.sheetnames == ["League", "Participation", "Teams"]
    assert values(kept["Teams"])[0][:5] == ["Rank", "Team", "Team name", "Members", "Points"]


def test_moodle_csv_by_email_leaves_out_students_without_one():
    table, taking = tables()
    text, missing = moodle_csv(table, taking, STUDENTS, "email",
                               ["league_points", "spoke", "mean_rank"])
    assert text == ("Email address,Liga: puntos,Veces que habló,Puesto medio\r\n"
                    "ana@x.edu,7,3,1.5\r\n"
                    "evil@x.edu,7,2,1.5\r\n"
                    "dora@x.edu,5,1,2.5\r\n"
                    "eva@x.edu,1,0,4\r\n")
    assert missing == ["Bruno"]                  # Félix left before playing: not missed


def test_moodle_csv_by_id_number_in_english_with_every_measure():
    table, taking = tables()
    text, missing = moodle_csv(table, taking, STUDENTS, identifier="id_number",
                               measures=list(MEASURES), lang="en")
    assert rows(text) == [
        ["ID number", "League points", "League rank", "Games present", "Times spoke",
         "Times spokesperson", "Times representative", "Mean rank"],
        ["A1", "7", "1", "3", "3", "3", "0", "1.5"],
        ["B2", "7", "1", "2", "0", "0", "0", "1.5"],
        ["D4", "5", "4", "3", "1", "0", "1", "2.5"],
        ["E5", "1", "5", "1", "0", "0", "0", "4"],
    ]
    assert missing == [LINK]


def test_moodle_csv_writes_decimals_with_a_point_and_no_grade_as_a_dash():
    table, taking = tables(scheme="team_score", scores=(1234.5, -0.5, 1, 0))
    text, _ = moodle_csv(table, taking, STUDENTS, measures=("league_points", "mean_rank"))
    assert "ana@x.edu,1244.5,1.5\r\n" in text and "evil@x.edu,2.5,1.5\r\n" in text
    # A student present only at an unfinished game has no mean rank yet.
    played = games()[2:]
    text, _ = moodle_csv(league(played, STUDENTS), participation(played, STUDENTS), STUDENTS,
                         measures=["mean_rank", "league_points"])
    assert rows(text)[1] == ["ana@x.edu", "-", "0"]


def test_moodle_csv_leaves_out_an_identifier_a_spreadsheet_would_run():
    odd = [dict(s, id_number="-5") if s["id"] == 4 else s for s in STUDENTS]
    table, taking = tables()
    text, missing = moodle_csv(table, taking, odd, "id_number")
    assert "-5" not in text and missing == [LINK, "Dora"]


def test_moodle_csv_accepts_comma_separated_measures():
    table, taking = tables()
    text, _ = moodle_csv(table, taking, STUDENTS, measures="league_points,spoke")
    assert rows(text)[0] == ["Email address", "Liga: puntos", "Veces que habló"]


@pytest.mark.parametrize("identifier, measures, message", [
    ("username", ["league_points"], "identifier"),
    ("email", ["league_points", "charm"], "unknown measure 'charm'"),
    ("email", [], "at least one measure"),
    ("email", ["spoke", "spoke"], "once"),
])
def test_moodle_csv_refuses_an_unknown_identifier_or_measure(identifier, measures, message):
    table, taking = tables()
    with pytest.raises(ValueError, match=message):
        moodle_csv(table, taking, STUDENTS, identifier, measures)


def test_measures_are_labelled_in_both_languages_in_the_order_offered():
    assert list(MEASURES) == ["league_points", "league_rank", "games_present", "spoke",
                              "spokesperson", "representative", "mean_rank"]
    assert MEASURES["spoke"] == ("Veces que habló", "Times spoke")


# -- issue 34 ------------------------------------------------------------------------------

def test_two_games_of_one_name_and_day_get_headers_of_their_own():
    """The league exports' headers are unique whatever the games are called."""
    from facilitator.classes.exports import unique_headers
    played = games()
    played = [played[0], GameSummary(2, "Partida 1", "2026-03-02", True, False,
                                     played[1].teams), played[2]]
    table, taking = league(played, STUDENTS), participation(played, STUDENTS)
    header = rows(league_csv(table, STUDENTS))[0]
    assert header[6:] == ["Partida 1 (2026-03-02)", "Partida 1 (2026-03-02) (2)"]
    part = rows(participation_csv(taking, STUDENTS))[0]
    assert len(set(part)) == len(part) == 14
    assert part[11:13] == ["Partida 1 (2026-03-02): puesto (de 4 equipos)",
                           "Partida 1 (2026-03-02): puesto (de 4 equipos) (2)"]
    book = workbook(class_xlsx(table, taking, STUDENTS))
    for sheet in book.worksheets:
        first = [cell.value for cell in sheet[1]]
        assert len(first) == len(set(first)), first
    assert unique_headers(["a", "a", "a (2)", "a"]) == ["a", "a (3)", "a (2)", "a (4)"]


def test_places_are_numbers_in_the_workbook_and_the_csv_so_no_spreadsheet_reads_a_date():
    _, taking = tables()
    sheet = workbook(class_xlsx(*tables(), STUDENTS))["Participación"]
    cells = [c.value for c in list(sheet.iter_rows(min_row=2, max_row=2))[0]][11:]
    assert cells == [1, 2, 1] and all(isinstance(c, int) for c in cells)
    assert not any("/" in cell for row in rows(participation_csv(taking, STUDENTS))[1:]
                   for cell in row[11:])


def test_tied_students_are_listed_as_the_language_sorts_names():
    """«María» before «Martina», «Ñandú» after «Nuño» (Spanish); English folds ñ."""
    names = ["Martina", "Ñandú", "María", "Nuño"]
    students = [{"id": n, "name": name, "email": "", "id_number": "", "left": False}
                for n, name in enumerate(names, start=1)]
    played = [GameSummary(1, "P", "2026-03-02", True, False, (
        TeamResult(1, "A", 1, 0, (1, 2, 3, 4)), TeamResult(2, "B", 2, 0, ()),
        TeamResult(3, "C", 3, 0, ()), TeamResult(4, "D", 4, 0, ())))]
    assert [r["name"] for r in league(played, students)["students"]] == [
        "María", "Martina", "Nuño", "Ñandú"]
    assert [r["name"] for r in league(played, students, lang="en")["students"]] == [
        "María", "Martina", "Ñandú", "Nuño"]


def test_moodle_left_out_names_each_student_and_why():
    from facilitator.classes.exports import moodle_left_out
    table, taking = tables()
    assert moodle_left_out(table, taking, STUDENTS, "email") == [
        {"id": 2, "name": "Bruno", "reason": "none", "value": ""}]
    students = [*STUDENTS[:4], {**STUDENTS[4], "id_number": "=E5"}, STUDENTS[5]]
    assert moodle_left_out(table, taking, students, "id_number") == [
        {"id": 3, "name": LINK, "reason": "none", "value": ""},
        {"id": 5, "name": "Eva", "reason": "formula", "value": "="}]
    assert [s["id"] for s in moodle_left_out(table, taking, students, "id_number")] == \
        [3, 5]          # Félix left before playing: not in the file at all, not listed
    with pytest.raises(ValueError):
        moodle_left_out(table, taking, STUDENTS, "name")
