"""Issue 34: a Word document, an old .doc, a PDF, an image, an .xlsx, an .odt or .ods
renamed .csv is named for what it is, with the way to make a bank of it, and nothing is
imported from it (the reader, ``facilitator questions check`` and ``import``); the files
are real small ones built in tests/documents.py."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from documents import KINDS
from facilitator.questions import parse_bank
from facilitator.questions.documents import document_kind
from facilitator.questions_cli import questions


@pytest.mark.parametrize("kind", KINDS)
def test_a_document_renamed_csv_is_named_and_yields_nothing(kind):
    build, spanish, english = KINDS[kind]
    data = build()
    assert document_kind(data) == kind
    for name in ("banco.csv", "banco.gift", "banco.txt", "banco.xml"):
        report = parse_bank(data, name, lang="es", skip_errors=True)
        assert report.format == "not-a-bank" and report.document == kind
        assert report.questions == [] and report.unusable == []
        [error] = report.errors
        assert error.line is None and error.message.startswith(spanish + ", no un banco")
        # The way out: save it as CSV UTF-8 (an image: put it in a Moodle XML question).
        assert ("XML de Moodle" if kind == "image" else "UTF-8") in error.message
        assert "GIFT" not in error.message.split(":")[0]
    english_report = parse_bank(data, "banco.csv", lang="en", format="gift")
    assert english_report.format == "not-a-bank"
    assert english_report.errors[0].message.startswith(english + ", not a question bank: ")


def test_the_way_out_fits_the_kind_of_document():
    word = parse_bank(KINDS["docx"][0](), "b.csv", lang="es").errors[0].message
    sheet = parse_bank(KINDS["xlsx"][0](), "b.csv", lang="es").errors[0].message
    image = parse_bank(KINDS["image"][0](), "b.csv", lang="es").errors[0].message
    assert "copien las preguntas a una hoja de cálculo" in word
    assert "Guardar como" in sheet and "«CSV UTF-8 (delimitado por comas)»" in sheet
    assert "XML de Moodle" in image


def test_text_banks_are_not_taken_for_documents():
    for data in ("id,author,type,text,answer\nk1,Kant,vf,Uno,V\n".encode("utf-8"),
                 "\ufeffautor;tipo;pregunta;respuesta\nKant;vf;Uno;V\n".encode("utf-16"),
                 "::a:: Uno {T}\n".encode("cp1252"), b"<?xml version='1.0'?><quiz/>",
                 "BM era una banda. {T}\n".encode(), b""):
        assert document_kind(data) is None, data[:20]


@pytest.mark.parametrize("kind", ["docx", "doc", "xlsx"])
def test_check_and_import_say_what_the_file_is_and_import_nothing(tmp_path, monkeypatch, kind):
    monkeypatch.setenv("FACILITATOR_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.delenv("FACILITATOR_DATABASE_URL", raising=False)
    path = tmp_path / "banco.csv"
    path.write_bytes(KINDS[kind][0]())
    check = CliRunner().invoke(questions, ["check", "--lang", "es", str(path)])
    assert check.exit_code == 1
    assert "banco.csv (no es un banco de preguntas)" in check.output
    assert KINDS[kind][1] in check.output
    assert "GIFT de Moodle)" not in check.output and "UTF-8 válido" not in check.output
    assert "--skip-errors" not in check.output
    imported = CliRunner().invoke(questions, ["import", "--lang", "es", "--skip-errors",
                                              str(path)])
    assert imported.exit_code == 1 and "Importado" not in imported.output
    assert KINDS[kind][1] in imported.output
