"""Issue 14: real Moodle banks (and banks saved from Excel) become real games.

The files here are written the way real exports look: Moodle's GIFT export
("// question: N  name: ..." comments, "[html]" text, "=%100%" weights, the
default category first), Moodle XML, and what Excel writes when a sheet is
saved as "Texto Unicode" or as delimited text.
"""
from __future__ import annotations

import csv
import io
import unicodedata
from pathlib import Path

import pytest
from click.testing import CliRunner

from facilitator.questions import detect_format, load_bank, message, parse_bank
from facilitator.questions.moodle_rules import asks_who, author_from_category, names_author
from facilitator.questions_cli import questions
from facilitator.store.banks import clean_question_fields, question_problems

SAMPLE = Path(__file__).resolve().parents[2] / "questions" / "filosofia.csv"

# A GIFT file as Moodle exports it from a course whose questions were never
# sorted into categories: only the default one. Nothing names an author.
KANT_GIFT = """// question: 0  name: Switch category to $course$/top/Por defecto en Filosofía 2.º
$CATEGORY: $course$/top/Por defecto en Filosofía 2.º


// question: 3101  name: Ilustración
::Ilustración::[html]<p>La Ilustración es la salida del hombre de su minoría de edad.</p>{TRUE#Falso\\: es la definición de 1784.#Correcto.}


// question: 3102  name: Sapere aude
::Sapere aude::[html]<p>¿Quién escribió «Sapere aude! ¡Ten el valor de servirte de tu propio entendimiento!»?</p>{
\t=%100%Kant#
\t=%50%Immanuel Kant#
}


// question: 3103  name: Imperativo
::Imperativo::[html]<p>¿Cómo se llama el mandato incondicionado de la razón?</p>{
\t=%100%imperativo categórico#
\t=%100%el imperativo categórico#
}


// question: 3104  name: Comentario
::Comentario::[html]<p>Comenta la frase «el hombre es un fin en sí mismo».</p>{}


// question: 3105  name: Paz perpetua
::Paz perpetua::[html]<p>¿De quién es «Sobre la paz perpetua» (1795)?</p>{
\t=%100%Kant#
}
"""


def run(*args: str):
    return CliRunner().invoke(questions, list(args), catch_exceptions=False)


def excel_unicode_text(path: Path) -> bytes:
    """The sample bank as Excel's "Texto Unicode" saves it: UTF-16 LE with BOM, tabs, CRLF."""
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig"), newline="")))
    buffer = io.StringIO(newline="")
    csv.writer(buffer, delimiter="\t", lineterminator="\r\n").writerows(rows)
    return b"\xff\xfe" + buffer.getvalue().encode("utf-16-le")


def excel_delimited_text(path: Path, delimiter: str = ";") -> bytes:
    """The sample bank as a Spanish Excel saves delimited text: Windows-1252, ';'."""
    rows = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig"), newline="")))
    buffer = io.StringIO(newline="")
    csv.writer(buffer, delimiter=delimiter, lineterminator="\r\n").writerows(rows)
    return buffer.getvalue().encode("cp1252")


# -- 1. every question the game can use is kept -------------------------------------

def test_a_gift_file_without_categories_is_reported_as_having_no_author(write):
    report = load_bank(write("Kant.gift", KANT_GIFT))
    assert report.ok and report.questions == []
    assert [issue.line for issue in report.unusable] == [6, 10, 17, 24, 28]
    assert {issue.reason for issue in report.unusable} == {"no_author"}
    assert report.without_author == 5
    assert report.unusable[0].message == (
        "no author: put the question under a $CATEGORY whose last part names the author")


def test_the_author_given_at_import_makes_them_usable(write):
    report = load_bank(write("Kant.gift", KANT_GIFT), author="Kant")
    assert report.ok and report.unusable == []
    by_id = {q.id: q for q in report.questions}
    assert list(by_id) == ["ilustracion", "sapere-aude", "imperativo", "comentario",
                           "paz-perpetua"]
    assert {q.author for q in report.questions} == {"Kant"}
    assert by_id["ilustracion"].answer == "Verdadero — Correcto."
    assert (by_id["comentario"].type, by_id["comentario"].answer) == ("abierta", "")
    assert [str(issue) for issue in report.no_answer] == [
        "Kant.gift:24: comentario: no expected answer: the teacher judges it"]
    assert by_id["sapere-aude"].type == "quien"
    assert by_id["paz-perpetua"].type == "quien"
    assert by_id["imperativo"].type == "abierta"
    assert by_id["imperativo"].answer == (
        "Respuestas aceptadas: imperativo categórico / el imperativo categórico")
    assert 'took the author given at import, "Kant"' in " ".join(report.notes)


def test_categories_still_win_over_the_given_author(write):
    text = "$CATEGORY: $course$/top/Filosofía/Arendt\n\n¿Escribió Arendt sobre Eichmann? {T}\n"
    report = load_bank(write("Kant.gift", text), author="Kant")
    assert [q.author for q in report.questions] == ["Arendt"]


@pytest.mark.parametrize("category", [
    "$course$/top/Default for C1", "$course$/top/Por defecto en Filosofía",
    "$course$/top/Défaut pour Philosophie", "$course$/top/Standard für Philosophie",
    "$course$/top/Predefinito per Filosofia", "$course$/top/Padrão para Filosofia",
    "$course$/top/DEFAULT FOR Quiz 3", "$course$", "$system$", "top", "$course$/top",
    "$system$/top/Default for System",
])
def test_moodle_default_categories_are_no_author(write, category):
    assert author_from_category(category) is None
    text = f"$CATEGORY: {category}\n\n¿Escribió Kant la Crítica? {{T}}\n"
    assert load_bank(write("banco.gift", text)).without_author == 1
    assert load_bank(write("banco.gift", text), author="Kant").questions[0].author == "Kant"


def test_a_category_that_only_starts_like_a_default_one_is_an_author():
    assert author_from_category("$course$/top/Defaultismo") == "Defaultismo"


def test_moodle_xml_default_category_and_author_given(write):
    xml = """<?xml version="1.0" encoding="UTF-8"?>
<quiz>
<!-- question: 0  -->
  <question type="category">
    <category>
      <text>$course$/top/Default for C1</text>
    </category>
  </question>
<!-- question: 7  -->
  <question type="essay">
    <name><text>Caverna</text></name>
    <questiontext format="html"><text><![CDATA[<p>Explica la alegoría de la caverna.</p>]]></text></questiontext>
    <generalfeedback format="html"><text></text></generalfeedback>
    <graderinfo format="html"><text></text></graderinfo>
  </question>
</quiz>
"""
    assert load_bank(write("platon.xml", xml)).without_author == 1
    report = load_bank(write("platon.xml", xml), author="Platón")
    assert [(q.author, q.type, q.answer) for q in report.questions] == [("Platón", "abierta", "")]
    assert [issue.line for issue in report.no_answer] == [10]


def test_an_empty_answer_is_only_for_abierta_in_csv(write):
    report = load_bank(write("banco.csv", "author,type,text,answer\n"
                                          "Kant,abierta,Comenta el texto.,\n"
                                          "Kant,vf,Kant nació en Königsberg.,\n"))
    assert [str(issue) for issue in report.errors] == ['banco.csv:3: "answer" is empty']
    report = load_bank(write("banco.csv", "author,type,text,answer\nKant,abierta,Comenta.,\n"))
    assert report.ok and [q.answer for q in report.questions] == [""]
    assert [issue.line for issue in report.no_answer] == [2]


def test_the_bank_editor_accepts_an_empty_answer_only_for_abierta():
    fields = clean_question_fields({"author": "Kant", "type": "abierta", "text": "Comenta."})
    assert question_problems(fields) == {}
    fields = clean_question_fields({"author": "Kant", "type": "vf", "text": "Uno."})
    assert question_problems(fields) == {"answer": "empty"}


# -- 2. short answers land in the right type ------------------------------------------

@pytest.mark.parametrize("text", [
    "¿Quién dijo «solo sé que no sé nada»?", "¿Quien escribio el Leviatán?",
    "¿QUIÉN AFIRMÓ que el hombre es un lobo para el hombre?", "¿De quién es esta frase?",
    "«Pienso, luego existo». ¿Quién lo dijo?", "¿Qué filósofo escribió la Ética?",
    "Who said \"God is dead\"?", "Who wrote the Republic?", "Whose words are these?",
])
def test_questions_that_ask_who(text):
    assert asks_who(text)


@pytest.mark.parametrize("text", [
    "¿Qué es el imperativo categórico?", "¿En qué año se publicó la Crítica?",
    "Completa: el hombre es la medida de todas las ___", "What is the categorical imperative?",
])
def test_questions_that_do_not_ask_who(text):
    assert not asks_who(text)


def test_answers_that_name_an_author():
    assert names_author(("Immanuel Kant",), {"Kant"})
    assert names_author(("kant",), {"Immanuel Kant"})
    assert names_author(("Platon",), {"Platón"})
    assert not names_author(("la caverna",), {"Platón", "Kant"})
    assert not names_author(("Kantiano",), {"Kant"})


SHORT_ANSWERS = """// question: 0  name: Switch category to $course$/top/Filosofía/Platón
$CATEGORY: $course$/top/Filosofía/Platón

::p1::¿Cómo se llama el mundo de lo verdaderamente real según Platón?{=mundo de las Ideas =mundo inteligible}

::p2::¿Quién dijo que filosofar es aprender a morir?{=Platón =Sócrates}

::p3::El maestro de Platón fue {=Sócrates}.

$CATEGORY: $course$/top/Filosofía/Sócrates

::s1::Sócrates no escribió nada. {T}
"""


def test_short_answers_auto(write):
    report = load_bank(write("platon.gift", SHORT_ANSWERS))
    by_id = {q.id: q for q in report.questions}
    assert [by_id[i].type for i in ("p1", "p2", "p3")] == ["abierta", "quien", "quien"]
    assert by_id["p1"].answer == "Respuestas aceptadas: mundo de las Ideas / mundo inteligible"
    assert by_id["p2"].answer == "Platón / Sócrates"
    assert ("1 short answer(s) → abierta (they do not ask who said it, nor do their answers "
            "name an author of the bank), 2 → quien (1 ask who said or wrote it, 1 name an "
            "author of the bank)") in report.notes


@pytest.mark.parametrize("mode", ["quien", "abierta"])
def test_short_answers_forced(write, mode):
    report = load_bank(write("platon.gift", SHORT_ANSWERS), short_answer=mode)
    assert [q.type for q in report.questions if q.id != "s1"] == [mode] * 3
    assert f"3 short answer(s) → {mode} (chosen at import)" in report.notes


def test_short_answers_in_moodle_xml(write):
    xml = """<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="category"><category><text>$course$/top/Filosofía/Hume</text></category></question>
  <question type="shortanswer">
    <name><text>Causalidad</text></name>
    <questiontext format="html"><text><![CDATA[<p>¿De qué idea dice Hume que no tenemos impresión?</p>]]></text></questiontext>
    <answer fraction="100" format="moodle_auto_format"><text>conexión necesaria</text></answer>
    <answer fraction="50" format="moodle_auto_format"><text>causalidad</text></answer>
  </question>
  <question type="shortanswer">
    <name><text>Tratado</text></name>
    <questiontext format="html"><text><![CDATA[<p>Who wrote <i>A Treatise of Human Nature</i>?</p>]]></text></questiontext>
    <answer fraction="100" format="moodle_auto_format"><text>Hume</text></answer>
  </question>
</quiz>
"""
    report = load_bank(write("hume.xml", xml))
    assert [(q.type, q.answer) for q in report.questions] == [
        ("abierta", "Respuestas aceptadas: conexión necesaria / causalidad (50%)"),
        ("quien", "Hume")]


# -- 4. the content decides the format --------------------------------------------------

def test_the_sample_bank_saved_by_excel_as_unicode_text_imports_120(write):
    path = write("filosofia.txt", excel_unicode_text(SAMPLE))
    assert detect_format(path.name, path.read_bytes()) == "csv"
    report = load_bank(path)
    assert report.ok, report.errors[:3]
    assert report.format == "csv" and report.encoding == "utf-16"
    assert len(report.questions) == 120
    assert report.questions == load_bank(SAMPLE).questions


def test_utf16_big_endian_also_reads(write):
    data = excel_unicode_text(SAMPLE)[2:].decode("utf-16-le").encode("utf-16-be")
    report = load_bank(write("filosofia.txt", b"\xfe\xff" + data))
    assert report.ok and len(report.questions) == 120


def test_the_sample_bank_saved_as_cp1252_delimited_text_imports_120(write):
    report = load_bank(write("filosofia.txt", excel_delimited_text(SAMPLE, ";")))
    assert report.ok, report.errors[:3]
    assert report.format == "csv" and report.encoding == "cp1252"
    assert len(report.questions) == 120
    assert report.questions == load_bank(SAMPLE).questions
    assert "read as CSV from its content, whatever its extension" in " ".join(report.notes)


def test_a_tab_separated_txt_without_bom_reads_as_csv(write):
    text = "autor\ttipo\tpregunta\trespuesta\nKant\tvf\tUno.\tVerdadero\n"
    report = load_bank(write("banco.txt", text))
    assert report.format == "csv" and len(report.questions) == 1


def test_a_moodle_xml_named_txt_reads_as_xml(write, data_dir):
    data = (data_dir / "muestra.xml").read_bytes()
    report = load_bank(write("export.txt", data))
    assert report.format == "moodle-xml" and report.ok and len(report.questions) == 3


def test_a_gift_named_csv_reads_as_gift(write, data_dir):
    data = (data_dir / "muestra.gift").read_bytes()
    report = load_bank(write("banco.csv", data))
    assert report.format == "gift" and report.ok and len(report.questions) == 10


@pytest.mark.parametrize("content, expected", [
    ("// question: 1  name: x\n::x::Uno {T}\n", "gift"),
    ("Kant escribió la Crítica {T}\n", "gift"),
    ("id;autor;tipo;pregunta;respuesta\n", "csv"),
    ("\ufeffauthor,type,text,answer\n", "csv"),
    ("<?xml version='1.0'?><quiz></quiz>", "moodle-xml"),
])
def test_detect_format_by_content_whatever_the_extension(content, expected):
    for name in ("banco.txt", "banco.csv", "banco.gift", "banco.xml", "banco"):
        assert detect_format(name, content.encode("utf-8")) == expected


# -- 5. authors and answers as a teacher wrote them -------------------------------------

def test_gift_categories_are_nfc(write):
    decomposed = unicodedata.normalize("NFD", "Platón")
    assert decomposed != "Platón"
    text = (f"$CATEGORY: $course$/top/Filosofía/{decomposed}\n\nUno. {{T}}\n\n"
            "$CATEGORY: $course$/top/Filosofía/Platón\n\nDos. {F}\n")
    report = load_bank(write("banco.gift", text))
    assert {q.author for q in report.questions} == {"Platón"}
    assert not any("differ only" in note for note in report.notes)


@pytest.mark.parametrize("block, answer", [
    ("{T#Falso: sí salió, aunque poco.#Correcto.}", "Verdadero — Correcto."),
    ("{F#No: nunca salió.#Eso es: no salió.}", "Falso — Eso es: no salió."),
    ("{TRUE##Correcto.}", "Verdadero — Correcto."),
    ("{FALSE#Solo para quien falla}", "Falso"),
])
def test_true_false_answer_is_the_right_value_and_its_feedback(write, block, answer):
    text = f"$CATEGORY: Kant\n\nKant salió de Königsberg. {block}\n"
    assert load_bank(write("banco.gift", text)).questions[0].answer == answer


# -- 6. messages in both languages; the command line -------------------------------------

def test_every_message_exists_in_both_languages():
    from facilitator.questions.messages import MESSAGES
    assert MESSAGES["es"].keys() == MESSAGES["en"].keys()
    assert message("es", "no_answer.mark") == "sin respuesta esperada: la juzga el docente"


def test_check_with_author_exits_0_and_counts_the_usable(write):
    path = write("Kant.gift", KANT_GIFT)
    result = run("check", str(path), "--author", "Kant", "--lang", "en")
    assert result.exit_code == 0, result.output
    assert "Kant.gift (Moodle GIFT)" in result.output
    assert "5 usable questions, 0 questions that could not be used, 0 errors" in result.output
    assert "Without expected answer (the teacher judges them):" in result.output
    assert "Kant.gift:24: comentario: no expected answer: the teacher judges it" in result.output
    assert "1 short answer(s) → abierta" in result.output


def test_check_without_author_says_how_to_give_one(write):
    result = run("check", str(write("Kant.gift", KANT_GIFT)), "--lang", "en")
    assert result.exit_code == 0, result.output   # unusable questions are not errors
    assert "0 usable questions, 5 questions that could not be used" in result.output
    assert "give an author with --author NAME" in result.output


def test_check_in_spanish_from_lang(write, monkeypatch):
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    result = run("check", str(write("Kant.gift", KANT_GIFT)))
    assert "0 preguntas utilizables, 5 preguntas que no se pueden usar, 0 errores" in result.output
    assert "den un autor con --author NOMBRE" in result.output
    result = run("check", str(write("Kant.gift", KANT_GIFT)), "--author", "Kant")
    assert result.exit_code == 0
    assert "Sin respuesta esperada (las juzga el docente):" in result.output
    assert "comentario: sin respuesta esperada: la juzga el docente" in result.output
    assert ("1 respuesta(s) corta(s) → abierta (no preguntan quién lo dijo ni su respuesta "
            "nombra un autor del banco), 2 → quien") in result.output
    assert "Preguntas por autor y tipo:" in result.output


def test_check_short_answer_option(write):
    result = run("check", str(write("platon.gift", SHORT_ANSWERS)), "--short-answer", "quien",
                 "--lang", "en")
    assert result.exit_code == 0
    assert "3 short answer(s) → quien (chosen at import)" in result.output


def test_check_the_excel_unicode_text_sample(write):
    result = run("check", str(write("filosofia.txt", excel_unicode_text(SAMPLE))), "--lang", "en")
    assert result.exit_code == 0, result.output
    assert "filosofia.txt (CSV)" in result.output
    assert "120 usable questions, 0 questions that could not be used, 0 errors" in result.output


def test_parse_bank_takes_the_options_too():
    report = parse_bank(KANT_GIFT.encode(), "Kant.gift", author="Kant", short_answer="abierta",
                        lang="es")
    assert {q.type for q in report.questions} == {"vf", "abierta"}
    assert report.no_answer[0].message == "comentario: sin respuesta esperada: la juzga el docente"
