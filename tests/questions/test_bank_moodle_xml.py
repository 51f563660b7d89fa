"""Moodle XML import: each question type, categories, lines, and hostile files."""
from __future__ import annotations

import pytest

from facilitator.questions import Question, load_bank

CATEGORY = """  <question type="category">
    <category><text>$course$/top/Filosofía/{author}</text></category>
  </question>
"""


def quiz(*questions: str, author: str | None = "Kant") -> str:
    """A Moodle XML file: the category of ``author`` (if any), then ``questions``."""
    head = CATEGORY.format(author=author) if author else ""
    return '<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n' + head + "".join(questions) + "</quiz>\n"


def question(kind: str, text: str, *body: str, name: str = "") -> str:
    named = f"<name><text>{name}</text></name>" if name else ""
    return (f'  <question type="{kind}">{named}\n'
            f'    <questiontext format="html"><text><![CDATA[{text}]]></text></questiontext>\n'
            + "".join(f"    {part}\n" for part in body) + "  </question>\n")


def answer(fraction: str, text: str, feedback: str = "") -> str:
    return (f'<answer fraction="{fraction}" format="moodle_auto_format"><text>{text}</text>'
            f'<feedback format="html"><text>{feedback}</text></feedback></answer>')


def feedback(tag: str, text: str) -> str:
    return f'<{tag} format="html"><text><![CDATA[{text}]]></text></{tag}>'


def only(report) -> Question:
    assert report.ok, report.errors
    assert len(report.questions) == 1, (report.questions, report.unusable)
    return report.questions[0]


def test_true_false(write):
    xml = quiz(question("truefalse", "<p>Kant naci&oacute; en K&ouml;nigsberg.</p>",
                        answer("100", "true", "&lt;p&gt;Sí, en 1724.&lt;/p&gt;"),
                        answer("0", "false", "No: revisa su biografía."),
                        feedback("generalfeedback", "<p>Prusia oriental.</p>"),
                        name="Nacimiento"))
    q = only(load_bank(write("banco.xml", xml)))
    assert q == Question("nacimiento", "Kant", "vf", "Kant nació en Königsberg.",
                         "Verdadero — Sí, en 1724.", "Prusia oriental.")   # issue 14


def test_true_false_whose_right_answer_is_false(write):
    xml = quiz(question("truefalse", "Kant viajó mucho.", answer("0", "true"), answer("100", "false")))
    assert only(load_bank(write("banco.xml", xml))).answer == "Falso"


def test_short_answer(write):
    xml = quiz(question("shortanswer", "¿Quién escribió la <i>Crítica</i>?",
                        answer("100", "Kant"), answer("50", "Immanuel"),
                        answer("100", "Immanuel Kant"), answer("0", "Hegel", "No")))
    q = only(load_bank(write("banco.xml", xml)))
    assert (q.type, q.text, q.answer) == ("quien", "¿Quién escribió la Crítica?",
                                          "Kant / Immanuel Kant / Immanuel (50%)")


def test_short_answer_fractions_like_moodle_writes_them(write):
    xml = quiz(question("shortanswer", "¿Quién?", answer("100.0000000", "Kant"),
                        answer("33.33333", "K.")))
    assert only(load_bank(write("banco.xml", xml))).answer == "Kant / K. (33.3333%)"


def test_essay_prefers_information_for_graders(write):
    both = quiz(question("essay", "<p>Explica el imperativo.</p>",
                         feedback("generalfeedback", "Para los alumnos."),
                         feedback("graderinfo", "<p>Un mandato <b>incondicionado</b>.</p>")))
    q = only(load_bank(write("banco.xml", both)))
    assert (q.type, q.answer, q.notes) == ("abierta", "Un mandato incondicionado.", "Para los alumnos.")
    general_only = quiz(question("essay", "Explica.", feedback("generalfeedback", "Lo esperado."),
                                 feedback("graderinfo", "")))
    assert only(load_bank(write("banco.xml", general_only))).answer == "Lo esperado."


def test_essay_without_expected_answer_is_kept_for_the_gm_to_judge(write):
    report = load_bank(write("banco.xml", quiz(question("essay", "Comenta."))))
    assert report.ok and report.unusable == []
    assert [(q.type, q.answer) for q in report.questions] == [("abierta", "")]
    assert [str(i) for i in report.no_answer] == [
        "banco.xml:6: banco-6: no expected answer: the teacher judges it"]


@pytest.mark.parametrize("kind, why", [
    ("multichoice", "multiple-choice questions are not used by the game"),
    ("matching", "matching questions are not used by the game"),
    ("numerical", "numerical questions are not used by the game"),
    ("multianswer", "cloze (embedded answers) questions are not used by the game"),
    ("description", "a description (text without an answer) is not a question the game can use"),
    ("ordering", '"ordering" questions are not used by the game'),
])
def test_other_types_are_unusable_with_their_line(write, kind, why):
    xml = quiz(question("truefalse", "Uno.", answer("100", "true")), question(kind, "Otro."))
    report = load_bank(write("banco.xml", xml))
    assert report.ok and len(report.questions) == 1
    first_line = 6
    assert [str(i) for i in report.unusable] == [f"banco.xml:{first_line + 4}: {why}"]


def test_question_lines_and_categories(write):
    xml = ('<?xml version="1.0" encoding="UTF-8"?>\n'       # 1
           "<quiz>\n"                                       # 2
           + question("truefalse", "Sin autor.", answer("100", "true"))          # 3-6
           + CATEGORY.format(author="Arendt")                                   # 7-9
           + question("truefalse", "De Arendt.", answer("100", "true"))         # 10-13
           + '  <question type="category"><category><text>$course$/top/Filosofía/Sócrates'
             "</text></category></question>\n"                                   # 14
           + question("shortanswer", "¿Quién?", answer("100", "Sócrates"))      # 15-18
           + "</quiz>\n")
    report = load_bank(write("banco.xml", xml))
    assert report.ok
    assert [(q.author, report.lines[q.id]) for q in report.questions] == [
        ("Arendt", 10), ("Sócrates", 15)]
    assert [str(i) for i in report.unusable] == [
        "banco.xml:3: no author: put the question in a category whose last part names the author"]
    assert [q.id for q in report.questions] == ["banco-10", "banco-15"]


def test_names_make_ids_unless_shared(write):
    xml = quiz(question("truefalse", "Uno.", answer("100", "true"), name="Ilustración"),
               question("truefalse", "Dos.", answer("100", "true"), name="Repetida"),
               question("truefalse", "Tres.", answer("100", "true"), name="Repetida"))
    assert [q.id for q in load_bank(write("b.xml", xml)).questions] == ["ilustracion", "b-10", "b-14"]


def test_sample_xml_file(data_dir):
    report = load_bank(data_dir / "muestra.xml")
    assert report.ok and report.format == "moodle-xml"
    assert [(q.id, q.author, q.type) for q in report.questions] == [
        ("socrates-escribio", "Sócrates", "vf"),
        ("solo-se-que-no-se-nada", "Sócrates", "quien"),
        ("la-mayeutica", "Sócrates", "abierta"),
    ]
    assert report.questions[0].answer == "Falso — Sócrates no escribió nada."
    assert report.questions[1].text == "¿Quién dijo «solo sé que no sé nada»?"
    assert [(i.line, i.kind) for i in report.unusable] == [(97, "unusable")]


BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE quiz [
  <!ENTITY lol "lol">
  <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<quiz><question type="truefalse"><questiontext><text>&lol3;</text></questiontext>
<answer fraction="100"><text>true</text></answer></question></quiz>
"""


def test_doctype_is_refused(write):
    report = load_bank(write("banco.xml", BILLION_LAUGHS), skip_errors=True)
    assert report.questions == []
    assert [e.line for e in report.errors] == [2]
    assert "DOCTYPE and ENTITY declarations are not accepted" in report.errors[0].message


def test_external_entity_is_refused(write):
    xml = ('<?xml version="1.0"?>\n<!doctype quiz SYSTEM "file:///etc/passwd">\n'
           "<quiz></quiz>\n")
    report = load_bank(write("banco.xml", xml))
    assert not report.ok and report.errors[0].line == 2


def test_doctype_hidden_from_the_byte_check_is_refused_by_the_parser(write):
    data = BILLION_LAUGHS.replace('encoding="UTF-8"', "").encode("utf-16")
    report = load_bank(write("banco.xml", data), skip_errors=True)
    assert report.questions == [] and not report.ok
    assert "DOCTYPE and ENTITY declarations are not accepted" in report.errors[0].message


def test_malformed_xml_names_the_line(write):
    xml = quiz(question("truefalse", "Uno.", answer("100", "true"))).replace("</quiz>", "</quizz>")
    report = load_bank(write("banco.xml", xml), skip_errors=True)
    assert report.questions == []
    assert [str(e) for e in report.errors] == ["banco.xml:10: the XML is not well formed: mismatched tag"]


def test_an_xml_file_that_is_not_a_quiz(write):
    report = load_bank(write("banco.xml", "<?xml version='1.0'?>\n<html><body/></html>\n"))
    assert [str(e) for e in report.errors] == [
        "banco.xml:2: this is not a Moodle XML question file: it starts with <html> instead of <quiz>"]


@pytest.mark.parametrize("body, line, message", [
    (question("truefalse", "Uno.", answer("100", "quizá")), 8, 'true/false answer "quizá" is neither'),
    (question("truefalse", "Uno."), 6, "true/false question without <answer> elements"),
    (question("shortanswer", "¿Quién?", answer("mucho", "Kant")), 8, 'fraction="mucho" is not a number'),
    (question("truefalse", "", answer("100", "true")), 6, "the question has no text"),
    ('  <question><questiontext><text>x</text></questiontext></question>\n', 6,
     '<question> without a type="..." attribute'),
])
def test_malformed_questions_are_errors(write, body, line, message):
    xml = quiz(body, question("truefalse", "Buena.", answer("100", "true")))
    report = load_bank(write("banco.xml", xml))
    assert report.questions == []
    assert len(report.errors) == 1 and report.errors[0].line == line
    assert message in report.errors[0].message
    kept = load_bank(write("banco.xml", xml), skip_errors=True)
    assert [q.text for q in kept.questions] == ["Buena."]
