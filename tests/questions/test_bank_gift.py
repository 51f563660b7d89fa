"""Moodle GIFT import: each kind of question, escapes, categories, HTML, errors."""
from __future__ import annotations

import random
import time

import pytest

from facilitator.questions import Question, load_bank

HEAD = "$CATEGORY: $course$/top/Filosofía/Kant\n\n"


def read(write, body: str, *, head: str = HEAD, name: str = "banco.gift", **options):
    """Load a GIFT file made of ``head`` (a category by default) and ``body``."""
    return load_bank(write(name, head + body), **options)


def only(report) -> Question:
    assert report.ok, report.errors
    assert len(report.questions) == 1, (report.questions, report.unusable)
    return report.questions[0]


@pytest.mark.parametrize("block, answer", [
    ("{T}", "Verdadero"), ("{TRUE}", "Verdadero"), ("{F}", "Falso"), ("{FALSE}", "Falso"),
    ("{true}", "Verdadero"), ("{ F }", "Falso"),
    # {T#wrong#right}: only the feedback for the right choice (issue 14).
    ("{T#No: lo dijo en 1784.}", "Verdadero"),
    ("{F#Falla#Bien: es falso}", "Falso — Bien: es falso"),
    ("{T#Mal#Bien####Texto de 1784}", "Verdadero — Bien"),
    ("{T#Falso: sí salió, aunque poco.#Correcto.}", "Verdadero — Correcto."),
])
def test_true_false_is_vf(write, block, answer):
    question = only(read(write, f"La Ilustración es la salida de la minoría de edad. {block}\n"))
    assert question.type == "vf" and question.author == "Kant"
    assert question.text == "La Ilustración es la salida de la minoría de edad."
    assert question.answer == answer


def test_general_feedback_of_true_false_and_short_answer_goes_to_notes(write):
    report = read(write, "Uno. {T####Por esto}\n\n¿Quién? {=Kant####Y por esto}\n")
    assert [q.notes for q in report.questions] == ["Por esto", "Y por esto"]


@pytest.mark.parametrize("block, answer", [
    ("{=Kant}", "Kant"),
    ("{Kant}", "Kant"),
    ("{=Kant =Immanuel Kant}", "Kant / Immanuel Kant"),
    ("{=%50%Immanuel =Kant#¡Bien!}", "Kant / Immanuel (50%)"),
    ("{\n=Kant#Sí\n=%0%Hegel#No\n=%-50%Hume\n}", "Kant"),
])
def test_short_answer_is_quien(write, block, answer):
    question = only(read(write, f"¿Quién escribió la Crítica de la razón pura? {block}\n"))
    assert question.type == "quien" and question.answer == answer


def test_short_answer_without_credit_is_unusable(write):
    report = read(write, "¿Quién? {=%0%Hegel}\n")
    assert report.ok and report.questions == []
    assert report.unusable[0].message == "short-answer question has no answer worth any credit"


def test_essay_with_general_feedback_is_abierta(write):
    question = only(read(write, "¿Qué es un imperativo categórico? {####Un mandato sin condición.}\n"))
    assert question.type == "abierta" and question.answer == "Un mandato sin condición."
    assert question.notes == ""


def test_essay_without_expected_answer_is_kept_for_the_gm_to_judge(write):
    # Issue 14: most real essays have no general feedback; they are kept.
    report = read(write, "Comenta la Crítica. {}\n")
    question = only(report)
    assert (question.type, question.answer) == ("abierta", "")
    assert report.unusable == []
    assert [str(i) for i in report.no_answer] == [
        "banco.gift:3: banco-3: no expected answer: the teacher judges it"]
    assert report.no_answer[0].kind == "no_answer"


@pytest.mark.parametrize("body, why", [
    ("¿Ciudad natal? {=Königsberg ~Berlín ~Viena}", "multiple-choice questions are not used by the game"),
    ("¿Ciudad? {~%50%Königsberg ~%50%Kaliningrado ~Viena}", "multiple-choice questions are not used by the game"),
    ("¿Año de la Crítica? {#1781:0}", "numerical questions are not used by the game"),
    ("¿Año? {#=1781 =%50%1780:1}", "numerical questions are not used by the game"),
    ("Relaciona. {=Kant -> Crítica =Hegel -> Fenomenología =Hume -> Tratado}",
     "matching questions are not used by the game"),
    ("Esto es solo una descripción sin respuestas.",
     "a description (text without an answer) is not a question the game can use"),
])
def test_kinds_the_game_cannot_use_are_reported_with_their_line(write, body, why):
    report = read(write, "// un comentario\n" + body + "\n")
    assert report.ok and report.questions == []
    assert [str(i) for i in report.unusable] == [f"banco.gift:4: {why}"]


def test_fill_the_blank(write):
    question = only(read(write, "Sapere aude es el lema de la {=Ilustración} según Kant.\n"))
    assert question.text == "Sapere aude es el lema de la _____ según Kant."
    # Issue 14: it does not ask who said it, and "Ilustración" is no author.
    assert question.type == "abierta"
    assert question.answer == "Respuestas aceptadas: Ilustración"


def test_answer_block_on_its_own_lines(write):
    body = ("::Ilustración::\n¿Quién escribió\n\"¿Qué es la Ilustración?\"\n{\n"
            "=Kant\n=Immanuel Kant\n}\n")
    question = only(read(write, body))
    assert question.text == '¿Quién escribió\n"¿Qué es la Ilustración?"'
    assert question.answer == "Kant / Immanuel Kant"


@pytest.mark.parametrize("text, expected", [
    (r"Llaves \{ y \} en el texto", "Llaves { y } en el texto"),
    (r"Igual \= almohadilla \# tilde \~ dos puntos \:", "Igual = almohadilla # tilde ~ dos puntos :"),
    (r"Barra \\ invertida", "Barra \\ invertida"),
    (r"Dos\nlíneas", "Dos\nlíneas"),
    (r"Otros \q escapes", r"Otros \q escapes"),
])
def test_escapes(write, text, expected):
    question = only(read(write, text + " {T}\n"))
    assert question.text == expected


def test_escapes_in_titles_and_answers(write):
    question = only(read(write, r"::A\:B:: ¿Quién? {=Kant \= Immanuel\#1 =K\~}" + "\n"))
    assert question.id == "a-b"
    assert question.answer == "Kant = Immanuel#1 / K~"


def test_comments_blank_lines_and_line_numbers(write):
    text = ("// Banco de prueba\n"                     # 1
            "$CATEGORY: Kant\n"                       # 2
            "\n\n"                                    # 3, 4
            "// comentario antes\n"                   # 5
            "Uno. {T}\n"                              # 6
            "\n   \n\t\n"                             # 7, 8, 9
            "Dos, en\n"                               # 10
            "// un comentario dentro no separa\n"     # 11
            "dos líneas. {F}\n")                      # 12
    report = load_bank(write("banco.gift", text))
    assert report.ok
    assert [(q.text, report.lines[q.id]) for q in report.questions] == [
        ("Uno.", 6), ("Dos, en\ndos líneas.", 10)]
    assert [q.id for q in report.questions] == ["banco-6", "banco-10"]


def test_windows_line_endings(write):
    report = load_bank(write("banco.gift", "$CATEGORY: Kant\r\n\r\nUno. {T}\r\n\r\nDos. {F}\r\n"))
    assert [(q.text, report.lines[q.id]) for q in report.questions] == [("Uno.", 3), ("Dos.", 5)]


def test_titles_make_ids_unless_shared(write):
    body = ("::Kant: la Ilustración:: Uno. {T}\n\n"
            "::Repetido:: Dos. {T}\n\n"
            "::repetido:: Tres. {T}\n\n"
            "Cuatro. {T}\n\n"
            "::¿?:: Cinco. {T}\n")
    report = read(write, body)
    assert [q.id for q in report.questions] == [
        "kant-la-ilustracion", "banco-5", "banco-7", "banco-9", "banco-11"]


def test_unclosed_title_is_an_error(write):
    report = read(write, "::Sin cerrar Uno. {T}\n")
    assert [str(e) for e in report.errors] == [
        'banco.gift:3: the title opened with "::" is not closed with "::"']


def test_category_sets_the_author_of_the_questions_after_it(write):
    text = ("Sin categoría. {T}\n\n"
            "$CATEGORY: $course$/top/Filosofía/Kant\n\n"
            "De Kant. {T}\n\n"
            "$CATEGORY: Arendt\n"
            "De Arendt, sin línea en blanco tras la categoría. {F}\n\n"
            "$CATEGORY: $course$/Filosofía/Ortega y Gasset\n\n"
            "De Ortega. {T}\n\n"
            "$CATEGORY: $course$/top/AC//DC\n\n"
            "Con barra. {T}\n\n"
            "$CATEGORY: $course$/top\n\n"
            "En la categoría raíz. {T}\n")
    report = load_bank(write("banco.gift", text))
    assert report.ok
    assert [(q.author, q.text) for q in report.questions] == [
        ("Kant", "De Kant."),
        ("Arendt", "De Arendt, sin línea en blanco tras la categoría."),
        ("Ortega y Gasset", "De Ortega."),
        ("AC/DC", "Con barra."),
    ]
    assert report.lines[report.questions[1].id] == 8
    no_author = ("no author: put the question under a $CATEGORY whose last part "
                 "names the author")
    assert [str(i) for i in report.unusable] == [
        f"banco.gift:1: {no_author}", f"banco.gift:20: {no_author}"]


def test_html_text_becomes_plain_text(write):
    body = ("::h:: [html]<p>Kant &amp; <b>la</b> Ilustraci&oacute;n&nbsp;(1784)</p><p>Segundo "
            "párrafo</p><script>x</script> {T#Mal#[html]<i>Bien</i>}\n\n"
            "::e:: [html]<p>Explica</p>{####<p>Un <em>mandato</em> &lt;sin&gt; condición</p>}\n")
    report = read(write, body)
    vf, essay = report.questions
    assert vf.text == "Kant & la Ilustración (1784)\nSegundo párrafo"
    assert vf.answer == "Verdadero — Bien"
    assert essay.text == "Explica" and essay.answer == "Un mandato <sin> condición"


@pytest.mark.parametrize("prefix", ["[plain]", "[PLAIN]"])
def test_plain_text_keeps_the_text_as_written(write, prefix):
    question = only(read(write, f"{prefix}Si a < b y <b>c</b> {{T}}\n"))
    assert question.text == "Si a < b y <b>c</b>" and question.text_html == ""


@pytest.mark.parametrize("prefix", ["", "[moodle]", "[markdown]"])
def test_moodle_and_markdown_render_simple_html_as_moodle_does(write, prefix):
    # Issue 14: Moodle renders HTML tags in moodle_auto_format and in Markdown.
    question = only(read(write, f"{prefix}Si a < b y <b>c</b> {{T}}\n"))
    assert question.text == "Si a < b y c"
    assert "<b>c</b>" in question.text_html


@pytest.mark.parametrize("body, message", [
    ("Sin cerrar {T\n", 'the answers opened with "{" are not closed with "}"'),
    ("Cierre } sin abrir {T}\n", 'a "}" without the "{" that opens the answers'),
    ("Dos {T} bloques {F}\n", "more than one answer block"),
    ("¿Quién? {= =Kant}\n", 'an empty answer: "=" must be followed by an accepted answer'),
    ("{T}\n", "the question has no text before its answers"),
])
def test_malformed_questions_are_errors(write, body, message):
    report = read(write, "Buena. {T}\n\n" + body)
    assert [e.line for e in report.errors] == [5]
    assert message in report.errors[0].message and report.errors[0].kind == "error"
    assert report.questions == []
    assert [q.text for q in read(write, "Buena. {T}\n\n" + body, skip_errors=True).questions] == ["Buena."]


def test_duplicates_across_gift_questions_are_kept_with_a_note(write):
    """Issue 34: Moodle imports a question typed twice; so does the reader, saying so."""
    report = read(write, "::a:: Uno. {T}\n\n::a:: Dos. {T}\n\nUno. {F}\n")
    assert report.errors == [] and [q.text for q in report.questions] == ["Uno.", "Dos.", "Uno."]
    assert any(note.startswith("the questions on lines 3 and 7 have the same author, type "
                               "and text") for note in report.notes)


def test_windows_1252_gift(write):
    report = load_bank(write("banco.gift", "$CATEGORY: Sócrates\n\n¿Escribió? {F}\n", encoding="cp1252"))
    assert report.ok and report.questions[0].author == "Sócrates"


def test_sample_gift_file(data_dir):
    report = load_bank(data_dir / "muestra.gift")
    assert report.ok and report.format == "gift"
    by_id = {q.id: q for q in report.questions}
    assert len(by_id) == 10    # the essay without expected answer is kept (issue 14)
    assert {q.author for q in report.questions} == {"Kant", "Arendt"}
    assert by_id["kant-abierta-1"].text == ("Explica la diferencia entre imperativo hipotético "
                                            "y categórico.")
    assert by_id["arendt-hueco"].text.endswith("labor, trabajo y _____ en \"La condición humana\".")
    assert [(i.line, i.message.split(" ")[0]) for i in report.unusable] == [
        (16, "multiple-choice")]
    assert by_id["arendt-ensayo-sin-respuesta"].answer == ""
    assert [i.line for i in report.no_answer] == [33]
    # "¿Quién escribió...", "¿Quién acuñó..." stay quien; the fill-in "{=acción}" is abierta.
    assert by_id["arendt-hueco"].answer == "Respuestas aceptadas: acción"
    assert [by_id[q].type for q in ("kant-quien-1", "arendt-quien-1", "arendt-hueco")] == [
        "quien", "quien", "abierta"]
    assert by_id["kant-vf-1"].answer == 'Verdadero — Sí: "Sapere aude".'


def _generated_gift(count: int) -> tuple[str, dict[str, int]]:
    """A realistic GIFT bank of ``count`` questions over 8 authors, all kinds mixed."""
    rng = random.Random(7)
    authors = ["Sócrates", "Platón", "Aristóteles", "Descartes", "Hume", "Kant",
               "Nietzsche", "Arendt"]
    kinds = {"vf": 0, "quien": 0, "abierta": 0, "unusable": 0}
    parts = ["// Banco generado para la prueba de rendimiento\n"]
    for n in range(count):
        if n % 25 == 0:
            parts.append(f"$CATEGORY: $course$/top/Filosofía/{authors[(n // 25) % 8]}\n")
        kind = rng.choice(["vf", "quien", "abierta", "unusable"])
        kinds[kind] += 1
        title = f"::P{n} \\: {kind}::"
        if kind == "vf":
            parts.append(f"{title} [html]<p>Afirmaci&oacute;n {n} con \\{{llaves\\}}.</p> "
                         f"{{{'T' if n % 2 else 'FALSE'}#Mal#Bien}}\n")
        elif kind == "quien":
            parts.append(f"{title} ¿Quién dijo la frase {n}?\n{{\n=Autor {n}\n=%50%A. {n}#casi\n}}\n")
        elif kind == "abierta":
            parts.append(f"{title} Explica la idea {n}. {{####Respuesta esperada {n}.}}\n")
        else:
            parts.append(f"{title} ¿Opción {n}? {{=sí ~no ~quizá}}\n")
        parts.append("\n")
    return "".join(parts), kinds


def test_a_200_question_gift_file_loads_well_under_a_second(write):
    text, kinds = _generated_gift(200)
    path = write("grande.gift", text)
    started = time.perf_counter()
    report = load_bank(path)
    elapsed = time.perf_counter() - started
    assert report.ok, report.errors[:3]
    assert len(report.questions) == kinds["vf"] + kinds["quien"] + kinds["abierta"]
    assert len(report.unusable) == kinds["unusable"]
    assert len(report.questions) + len(report.unusable) == 200
    assert len({q.author for q in report.questions}) == 8
    assert {q.type for q in report.questions} == {"vf", "quien", "abierta"}
    assert elapsed < 0.5, f"took {elapsed:.3f} s"


def test_a_question_twice_under_one_title_is_kept_twice_as_moodle_keeps_it(write):
    """Issue 34: Moodle's own GIFT fixture (question/format/gift/tests/fixtures) holds one
    true/false question twice under one title, and Moodle imports both; so does the reader,
    each with its own id (the title names neither) and a note naming their lines."""
    report = read(write, "// name 0-11\n::2-08 KSL::Kant nació en 1724.{T}\n\n"
                         "// name 0-11\n::2-08 KSL::Kant nació en 1724.{TRUE}\n")
    first, second = report.questions
    assert report.ok and (first.id, second.id) == ("banco-4", "banco-7")
    assert first.text == second.text and first.answer.startswith("Verdadero")
    assert [note for note in report.notes if "lines 4 and 7" in note]
