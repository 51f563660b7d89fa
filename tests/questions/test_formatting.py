"""Issue 14, part 3: each Moodle text format rendered as Moodle does, through an allow-list
sanitiser; part 6: every message of the checker in Spanish and English."""
from __future__ import annotations

import string

import pytest

from facilitator.questions import parse_bank
from facilitator.questions.formatting import render, sanitise
from facilitator.questions.messages import MESSAGES, message


def gift(body: str):
    report = parse_bank(body.encode(), "b.gift", author="Kant")
    assert report.ok, report.errors
    return report.questions


def xml(text: str, attrs: str = "") -> object:
    body = (f'<?xml version="1.0"?><quiz><question type="essay"><name><text>q</text></name>'
            f'<questiontext{attrs}><text><![CDATA[{text}]]></text></questiontext></question></quiz>')
    report = parse_bank(body.encode(), "b.xml", author="Kant")
    assert report.ok, report.errors
    (question,) = report.questions
    return question


def test_gift_default_format_renders_simple_html_and_entities():
    (q,) = gift("Kant &amp; <i>la</i> Ilustración {}\n")
    assert q.text == "Kant & la Ilustración"
    assert "<i>la</i>" in q.text_html and "&amp;" in q.text_html


def test_gift_html_marker():
    (q,) = gift("[html]<p>x<sup>2</sup> y H<sub>2</sub>O</p> {}\n")
    assert "x<sup>2</sup>" in q.text_html and "<sub>2</sub>" in q.text_html
    assert q.text == "x2 y H2O"


def test_gift_markdown_marker_renders_emphasis_and_lists():
    (q,) = gift("[markdown]Lee *esto*:\\n\\n- uno\\n- dos {}\n")
    assert "<em>esto</em>" in q.text_html
    assert "<ul>" in q.text_html and "<li>uno</li>" in q.text_html
    assert q.text == "Lee esto:\nuno\ndos"


def test_gift_plain_marker_escapes_everything():
    (q,) = gift("[plain]Si a < b y <i>c</i> &amp; d {}\n")
    assert q.text == "Si a < b y <i>c</i> &amp; d" and q.text_html == ""


def test_plain_words_keep_no_html():
    (q,) = gift("¿Qué es la Ilustración? {}\n")
    assert q.text_html == ""


def test_xml_without_format_is_html_as_moodle_takes_it():
    q = xml("<p>¿Quién dijo &laquo;Sapere aude&raquo;?</p>")
    assert q.text == "¿Quién dijo «Sapere aude»?"


def test_xml_keeps_superscript_in_html_and_plain_text_in_text():
    q = xml("<p>x<sup>2</sup> es <strong>par</strong></p>")
    assert q.text_html == "<p>x<sup>2</sup> es <strong>par</strong></p>" and q.text == "x2 es par"


def test_xml_moodle_auto_format_keeps_line_breaks():
    q = xml("uno\ndos <b>tres</b>", ' format="moodle_auto_format"')
    assert q.text_html == "<p>uno<br>dos <b>tres</b></p>" and q.text == "uno\ndos tres"


def test_xml_plain_text_format_shows_tags_as_text():
    q = xml("a <b>b</b>", ' format="plain_text"')
    assert q.text == "a <b>b</b>" and q.text_html == ""


@pytest.mark.parametrize("dirty, absent", [
    ('<p>a<script>alert(1)</script></p>', "script"),
    ('<p onclick="x()">a</p><img src="@@PLUGINFILE@@/a.png" onerror="x()">', "onerror"),
    ('<a href="javascript:alert(1)">a</a><i style="x">b</i>', "javascript"),
    ('<i>a</i><img src="https://evil.example/x.png">', "evil"),
    ('<i>a</i><iframe src="https://evil.example/"></iframe>', "iframe"),
])
def test_the_sanitiser_drops_what_runs_code_or_fetches(dirty, absent):
    rich = sanitise(dirty)
    assert absent not in rich.html and "onclick" not in rich.html and "style" not in rich.html


def test_remote_and_referenced_images_are_reported():
    rich = render('<p>a<img src="https://e.example/x.png"><img src="switch.jpg"></p>', "html",
                  available={})
    assert rich.remote == ("https://e.example/x.png",) and rich.missing == ("switch.jpg",)
    assert "<img" not in rich.html


def test_csv_keeps_the_formatted_columns_and_round_trips(tmp_path):
    from facilitator.questions import load_bank, write_csv
    (q,) = gift("[html]<p>x<sup>2</sup></p> {####<p><em>Par</em></p>}\n")
    assert q.answer_html == "<p><em>Par</em></p>"
    path = tmp_path / "b.csv"
    write_csv([q], path)
    assert path.read_text(encoding="utf-8-sig").splitlines()[0] == \
        "id,author,type,text,answer,notes,text_html,answer_html"
    again = load_bank(path)
    assert again.ok and again.questions == [q]


def test_csv_html_is_sanitised_on_reading():
    body = ('id,author,type,text,answer,text_html\n'
            'a,Kant,vf,Uno,Verdadero,"<p>U<i>n</i>o<script>x</script></p>"\n')
    report = parse_bank(body.encode(), "b.csv")
    assert report.questions[0].text_html == "<p>U<i>n</i>o</p>"


# -- part 6: the catalogs --------------------------------------------------------------

def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_both_catalogs_hold_the_same_messages_with_the_same_placeholders():
    assert set(MESSAGES["es"]) == set(MESSAGES["en"])
    for key, english in MESSAGES["en"].items():
        assert _fields(MESSAGES["es"][key]) == _fields(english), key
        assert ("|" in MESSAGES["es"][key]) == ("|" in english), key


def test_spanish_uses_moodle_s_own_names():
    spanish = " ".join(MESSAGES["es"].values())
    for term in ("Opción múltiple", "Numérica", "Emparejamiento", "Respuestas anidadas",
                 "Descripción", "Respuesta corta", "Verdadero/Falso"):
        assert term in spanish, term


@pytest.mark.parametrize("body, name, spanish", [
    ("::m:: ¿Dónde? {=A ~B}\n", "b.gift", "el juego no usa preguntas de tipo Opción múltiple"),
    ("Sin cerrar {T\n", "b.gift", "las respuestas abiertas con «{» no se cierran con «}»"),
    ("id,author,type,text,answer\nk,Kant,vff,Uno,V\n", "b.csv", "el tipo «vff» no es ninguno"),
    ("id,author,type,text,answer\nk,Kant,vf,Uno,V\nk,Kant,vf,Dos,V\n", "b.csv",
     "el id «k» ya se usa en la línea 2"),
    ("nada que ver", "foto.png", "no se sabe el formato de este archivo"),
])
def test_the_reasons_are_in_spanish_when_asked(body, name, spanish):
    report = parse_bank(body.encode(), name, lang="es", author="Kant")
    said = " ".join(str(issue) for issue in report.errors + report.unusable)
    assert spanish in said


def test_the_summary_and_the_gaps_follow_the_language():
    from facilitator.questions import author_type_table, coverage_gaps
    (q,) = gift("Uno {T}\n")
    assert author_type_table([q], "es")[0].startswith("autor")
    assert coverage_gaps([q], "es") == [message("es", "summary.gap", author="Kant",
                                                types="quien ni abierta")]
    assert "R-Q2" not in coverage_gaps([q], "en")[0]
