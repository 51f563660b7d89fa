"""``facilitator questions check``: what the teacher sees, and the exit codes."""
from __future__ import annotations

from click.testing import CliRunner

from facilitator.questions_cli import questions

GOOD = ("author,type,text,answer\n"
        "Kant,vf,Uno,Verdadero\nKant,quien,Dos,Kant\nKant,abierta,Tres,Algo\n"
        "Arendt,vf,Cuatro,Falso\nArendt,vf,Cinco,Verdadero\n")


def run(*args: str):
    return CliRunner().invoke(questions, ["check", *args])


def test_a_good_bank_exits_0_with_counts_and_table(write):
    result = run(str(write("banco.csv", GOOD)))
    assert result.exit_code == 0, result.output
    out = result.output
    assert "banco.csv (CSV)" in out
    assert "5 usable questions, 0 questions that could not be used, 0 errors" in out
    assert ("  author  vf  quien  abierta  total\n"
            "  Arendt   2      0        0      2\n"
            "  Kant     1      1        1      3\n"
            "  total    3      1        1      5\n") in out
    assert "Arendt has no quien or abierta question" in out


def test_errors_exit_1_and_name_their_lines(write):
    path = write("banco.csv", GOOD + "Kant,vff,Seis,Falso\n")
    result = run(str(path))
    assert result.exit_code == 1
    assert 'banco.csv:7: type "vff" is not one of vf, quien, abierta' in result.output
    assert "5 usable questions" in result.output
    assert "Nothing is imported from a file with errors" in result.output
    assert "--skip-errors to keep the 5 good questions" in result.output


def test_skip_errors_says_what_would_be_kept_but_still_exits_1(write):
    result = run(str(write("banco.csv", GOOD + "Kant,vff,Seis,Falso\n")), "--skip-errors")
    assert result.exit_code == 1
    assert "With --skip-errors, the 5 good questions would be imported" in result.output


def test_unusable_questions_are_listed_but_do_not_fail(write):
    gift = "$CATEGORY: Kant\n\nUno. {T}\n\n¿Ciudad? {=Königsberg ~Viena}\n"
    result = run(str(write("banco.gift", gift)))
    assert result.exit_code == 0, result.output
    assert "banco.gift (Moodle GIFT)" in result.output
    assert "1 usable question, 1 question that could not be used, 0 errors" in result.output
    assert "Could not be used:\n  banco.gift:5: multiple-choice questions are not used by the game" \
        in result.output


def test_notes_are_shown(write):
    result = run(str(write("banco.csv", GOOD.replace("text", "text,extra", 1), )))
    assert "ignored" in result.output


def test_several_files(write):
    good = write("bueno.csv", GOOD)
    bad = write("malo.csv", "autor,tipo\n")
    result = run(str(good), str(bad))
    assert result.exit_code == 1
    assert "bueno.csv (CSV)" in result.output and "malo.csv (CSV)" in result.output
    assert "Nothing can be imported from this file until its errors are fixed." in result.output
    assert run(str(good), str(good)).exit_code == 0


def test_a_missing_file_is_a_usage_error(tmp_path):
    result = run(str(tmp_path / "no-existe.csv"))
    assert result.exit_code == 2
    assert "does not exist" in result.output
