"""``facilitator questions import`` and ``export``: into and out of the app's database."""
from __future__ import annotations

import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from facilitator.extensions import database
from facilitator.questions import load_bank, parse_bank
from facilitator.questions_cli import questions
from facilitator.store.banks import bank_questions, find_bank, list_banks

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "questions" / "filosofia.csv"


@pytest.fixture(autouse=True)
def instance(tmp_path, monkeypatch):
    """An instance folder and a SQLite file of the test's own, as ``create_app()`` finds them."""
    folder = tmp_path / "instance"
    monkeypatch.setenv("FACILITATOR_INSTANCE", str(folder))
    monkeypatch.setenv("FACILITATOR_DATABASE_URL", f"sqlite:///{tmp_path}/cli.db")
    monkeypatch.setenv("FACILITATOR_ASYNC_MODE", "threading")
    monkeypatch.setenv("LANG", "C.UTF-8")   # reports follow LANG: English here
    monkeypatch.delenv("FACILITATOR_SECRET_KEY", raising=False)
    yield folder
    if database.engine is not None:
        database.engine.dispose()


@pytest.fixture
def write(tmp_path):
    """Write a UTF-8 bank file in ``tmp_path`` and return its path."""
    def _write(name: str, text: str) -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path
    return _write


def run(*args: str):
    return CliRunner().invoke(questions, list(args), catch_exceptions=False)


def bank(name: str):
    found = find_bank(database, name)
    return None if found is None else bank_questions(database, found["id"])[1]


def test_import_the_sample_bank(tmp_path):
    result = run("import", str(SAMPLE))
    assert result.exit_code == 0, result.output
    assert "filosofia.csv (CSV)" in result.output
    assert 'Imported into bank "filosofia" (id ' in result.output
    assert "120 usable questions imported." in result.output
    assert "Questions per author and type:" in result.output
    assert bank("filosofia") == load_bank(SAMPLE).questions
    assert len(bank("filosofia")) == 120
    # The database is the one of the environment, with the sample bank create_app adds.
    assert (tmp_path / "cli.db").exists()
    assert {b["name"] for b in list_banks(database)} == {"filosofia", "Filosofía (muestra)"}


def test_a_bank_name_is_not_taken_twice_unless_replace(write):
    good = write("banco.csv", "author,type,text,answer\nKant,vf,Uno,Verdadero\n")
    assert run("import", str(good), "--name", "Ética").exit_code == 0
    result = run("import", str(SAMPLE), "--name", "Ética")
    assert result.exit_code == 1
    assert 'there is already a bank named "Ética" (1 question)' in result.output
    assert len(bank("Ética")) == 1
    result = run("import", str(SAMPLE), "--name", "Ética", "--replace")
    assert result.exit_code == 0, result.output
    assert 'Replaced the questions of bank "Ética"' in result.output
    assert len(bank("Ética")) == 120


def bad_file(write):
    rows = ["author,type,text,answer"]
    rows += [f"Kant,{('vf', 'quien', 'abierta')[n % 3]},Pregunta {n},Respuesta {n}"
             for n in range(2, 12)]
    rows[4] = "Kant,vff,Pregunta 5,Respuesta 5"        # line 5
    rows[8] = "Kant,quien,,Respuesta 9"                # line 9
    return write("errores.csv", "\n".join(rows) + "\n")


def test_a_file_with_errors_imports_nothing_and_exits_1(write):
    result = run("import", str(bad_file(write)))
    assert result.exit_code == 1
    assert 'errores.csv:5: type "vff" is not one of vf, quien, abierta' in result.output
    assert 'errores.csv:9: "text" is empty' in result.output
    assert "Nothing imported: the file has errors." in result.output
    assert "--skip-errors" in result.output
    assert bank("errores") is None


def test_skip_errors_imports_the_good_questions(write):
    result = run("import", str(bad_file(write)), "--skip-errors", "--name", "a medias")
    assert result.exit_code == 0, result.output
    assert 'errores.csv:5: type "vff"' in result.output
    assert "8 usable questions imported." in result.output
    assert "2 entries with errors left out" in result.output
    assert [q.text for q in bank("a medias")] == [f"Pregunta {n}" for n in (2, 3, 4, 6, 7, 8, 10, 11)]


def test_unusable_questions_are_reported_and_the_rest_imported(write):
    gift = ("$CATEGORY: $course$/top/Filosofía/Kant\n\n"
            "::k1:: Kant nació en Königsberg. {T}\n\n"
            "::k2:: ¿En qué ciudad nació Kant? {=Königsberg ~Berlín ~Viena}\n")
    result = run("import", str(write("moodle.gift", gift)))
    assert result.exit_code == 0, result.output
    assert "moodle.gift (Moodle GIFT)" in result.output
    assert "Could not be used:\n  moodle.gift:5: multiple-choice questions are not used" \
        in result.output
    assert "1 question could not be used (listed above with the reason)." in result.output
    assert [q.id for q in bank("moodle")] == ["k1"]


def test_a_file_without_usable_questions_imports_nothing(write):
    result = run("import", str(write("nada.gift", "¿Ciudad? {=Königsberg ~Viena}\n")))
    assert result.exit_code == 1
    assert "Nothing imported: the file has no question the game can use." in result.output
    assert bank("nada") is None


def test_export_round_trip(tmp_path):
    assert run("import", str(SAMPLE), "--name", "Filosofía 1º").exit_code == 0
    out = tmp_path / "exportado.csv"
    result = run("export", "Filosofía 1º", str(out))
    assert result.exit_code == 0, result.output
    assert 'Exported bank "Filosofía 1º" (120 questions)' in result.output
    data = out.read_bytes()
    assert data.startswith(b"\xef\xbb\xbfid,author,type,text,answer,notes\r\n")
    assert parse_bank(data, "exportado.csv").questions == bank("Filosofía 1º")
    # ... and imported back, the same bank again.
    assert run("import", str(out), "--name", "copia").exit_code == 0
    assert bank("copia") == bank("Filosofía 1º")
    # By id too, and to standard output.
    bank_id = find_bank(database, "copia")["id"]
    result = CliRunner().invoke(questions, ["export", str(bank_id), "-"])
    assert result.exit_code == 0
    assert result.stdout_bytes == data


def test_export_of_an_unknown_bank_lists_the_banks(tmp_path):
    result = run("export", "no existe", str(tmp_path / "x.csv"))
    assert result.exit_code == 1
    assert 'There is no bank named "no existe"' in result.output
    assert "Filosofía (muestra) (120 questions)" in result.output
    assert not (tmp_path / "x.csv").exists()


def moodle_gift(count: int) -> tuple[str, int]:
    """A GIFT file as Moodle exports it: ``count`` questions in categories, a tenth
    of them multiple-choice (which the game cannot use). Returns it and how many
    questions the game can use."""
    authors = ["Platón", "Aristóteles", "Descartes", "Hume", "Kant", "Marx", "Nietzsche", "Arendt"]
    parts = ["// question: 0  name: Switch category to $course$/top/Default for Filosofía\n"
             "$CATEGORY: $course$/top/Default for Filosofía\n"]
    usable = 0
    for n in range(count):
        author = authors[n % len(authors)]
        if n % 25 == 0:
            parts.append(f"// question: 0  name: Switch category to $course$/top/Filosofía/{author}\n"
                         f"$CATEGORY: $course$/top/Filosofía/{author}\n")
        kind = n % 10
        title = f"{author} pregunta {n}"
        if kind == 9:
            body = f"[html]<p>¿En qué siglo vivió {author}? ({n})</p>{{\n\t=El correcto\n\t~Otro\n\t~Otro más\n}}"
        elif kind in (0, 3, 6):
            body = f"[html]<p>Afirmación {n} sobre {author}\\: ¿es cierta?</p>{{{'TRUE' if n % 2 else 'FALSE'}#Porque sí {n}}}"
            usable += 1
        elif kind in (1, 4, 7):
            body = f"[moodle]¿Quién escribió la obra número {n}?{{\n\t=%100%{author}#\n\t=%50%{author.upper()}#\n}}"
            usable += 1
        else:
            body = (f"[html]<p>Explica la tesis {n} de <b>{author}</b>.</p>"
                    f"{{####<p>La tesis {n} dice que…</p>}}")
            usable += 1
        parts.append(f"// question: {1000 + n}  name: {title}\n::{title}::{body}\n")
    return "\n".join(parts), usable


def test_a_moodle_export_of_200_questions_imports_in_well_under_a_minute(write):
    text, usable = moodle_gift(200)
    path = write("moodle-export.txt", text)
    started = time.perf_counter()
    result = run("import", str(path), "--name", "Moodle")
    elapsed = time.perf_counter() - started
    assert result.exit_code == 0, result.output
    assert elapsed < 10, f"the import took {elapsed:.1f} s"
    assert usable == 180
    assert f"{usable} usable questions imported." in result.output
    assert "20 questions could not be used" in result.output
    imported = bank("Moodle")
    assert len(imported) == usable
    assert {q.type for q in imported} == {"vf", "quien", "abierta"}
    assert len({q.author for q in imported}) == 8
    assert all(q.text and q.answer for q in imported)
    assert {q.id for q in imported} == {q.id for q in load_bank(path).questions}
