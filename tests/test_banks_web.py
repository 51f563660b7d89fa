"""The question banks in the GM console (``/console/banks``), through Flask's test client.

Each test has its own SQLite file (tests/conftest.py); the sample bank is
imported by ``create_app`` as on a real first start.
"""
from __future__ import annotations

import io
import re

import pytest

from facilitator.extensions import database, store
from facilitator.questions import parse_bank
from facilitator.store.banks import bank_questions, find_bank, list_banks

ORIGIN = {"Origin": "http://localhost"}

SMALL = ("id,author,type,text,answer,notes\n"
         "k1,Kant,vf,Kant escribió la Crítica de la razón pura.,Verdadero,\n"
         "k2,Kant,vf,Kant nació en Viena.,Falso. En Königsberg.,\n"
         "k3,Kant,quien,¿Quién escribió «Sapere aude»?,Kant,Horacio antes\n"
         "k4,Kant,abierta,Explica el imperativo categórico.,Obrar según una máxima universalizable.,\n"
         "a1,Arendt,vf,Arendt asistió al juicio de Eichmann.,Verdadero,\n"
         "a2,Arendt,quien,¿Quién habló de la banalidad del mal?,Arendt,\n"
         "a3,Arendt,quien,¿Quién escribió «La condición humana»?,Arendt,\n"
         "a4,Arendt,abierta,¿Qué es la natalidad?,La capacidad de empezar algo nuevo.,\n")


def post(gm, url, **kwargs):
    """A POST from a page of this server, as a browser sends it."""
    headers = {**ORIGIN, **kwargs.pop("headers", {})}
    return gm.post(url, headers=headers, **kwargs)


def upload(gm, filename: str, content: str | bytes, **fields):
    data = content.encode("utf-8") if isinstance(content, str) else content
    form = {"file": (io.BytesIO(data), filename), "target": "new", **fields}
    return post(gm, "/console/banks/import", data=form, content_type="multipart/form-data")


def small_bank(gm, name: str = "pequeño") -> int:
    response = upload(gm, "pequeño.csv", SMALL, name=name)
    assert response.status_code == 200, response.get_data(as_text=True)
    return find_bank(database, name)["id"]


def text_of(response) -> str:
    """The page's text without tags, its spacing collapsed (for assertions)."""
    html = response.get_data(as_text=True)
    html = re.sub(r"<script.*?</script>", " ", html, flags=re.S)
    text = re.sub(r"<[^>]+>", " ", html)
    for entity, char in (("&#34;", '"'), ("&#39;", "'"), ("&quot;", '"'), ("&amp;", "&"),
                         ("&lt;", "<"), ("&gt;", ">")):
        text = text.replace(entity, char)
    return " ".join(text.split())


# -- access --------------------------------------------------------------------------

def test_the_pages_are_for_the_gm_only(app):
    anonymous = app.test_client()
    for url in ("/console/banks", "/console/banks/", "/console/banks/1",
                "/console/banks/1/questions/new", "/console/banks/1/export.csv",
                "/console/banks/game/1/coverage"):
        response = anonymous.get(url)
        assert response.status_code == 302, url
        assert "/console/login" in response.headers["Location"]
    response = post(anonymous, "/console/banks/1/delete")
    assert response.status_code == 302 and "/console/login" in response.headers["Location"]
    assert find_bank(database, "1") is not None


def test_a_cross_site_post_is_refused(gm):
    # The server's one cross-site rule (facilitator.web.auth.from_another_site).
    bank_id = small_bank(gm)
    for headers in ({"Origin": "http://evil.example"}, {"Referer": "http://evil.example/page"},
                    {"Origin": "null"}):
        response = gm.post(f"/console/banks/{bank_id}/delete", headers=headers)
        assert response.status_code == 400, headers
        assert "Petición rechazada" in response.get_data(as_text=True)
        response = gm.post(f"/console/banks/{bank_id}/questions/delete",
                               data={"id": "k1"}, headers=headers)
        assert response.status_code == 400
    # Origin wins over a matching Referer.
    response = gm.post(f"/console/banks/{bank_id}/delete",
                           headers={"Origin": "https://evil.example",
                                    "Referer": "http://localhost/console/banks"})
    assert response.status_code == 400
    assert bank_questions(database, bank_id)[1][0].id == "k1"
    # A Referer from this host is enough when there is no Origin; a request that says
    # nothing (a script: every browser sends Origin with a POST) is not from another site.
    response = gm.post(f"/console/banks/{bank_id}/questions/delete", data={"id": "k1"},
                           headers={"Referer": f"http://localhost/console/banks/{bank_id}"})
    assert response.status_code == 302
    assert gm.post(f"/console/banks/{bank_id}/delete").status_code == 302


# -- listing and search --------------------------------------------------------------

def test_the_list_shows_every_bank_with_counts_per_author_and_type(gm):
    bank_id = small_bank(gm)
    response = gm.get("/console/banks")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    text = text_of(response)
    assert "Filosofía (muestra)" in text and "Preguntas: 120" in text
    assert "pequeño" in text and "Preguntas: 8" in text
    table = re.search(rf'data-testid="bank-table-{bank_id}".*?</table>', html, re.S).group(0)
    rows = {m.group(1): [int(n) for n in re.findall(r">\s*(\d+)\s*<", m.group(2))]
            for m in re.finditer(r"<th scope=\"row\">([^<]+)</th>(.*?)</tr>", table, re.S)}
    assert rows["Kant"] == [2, 1, 1, 4]
    assert rows["Arendt"] == [1, 2, 1, 4]
    assert rows["Total"] == [3, 3, 2, 8]
    # Kant quien, Kant abierta, Arendt vf and Arendt abierta have fewer than 2.
    assert "Combinaciones con menos de 2 preguntas: 4" in text


def test_the_list_speaks_english_too(gm):
    small_bank(gm)
    text = text_of(gm.get("/console/banks?lang=en"))
    assert "Question banks" in text and "Questions: 8" in text and "Import a file" in text


def test_the_bank_page_shows_coverage_and_the_pairs_with_few_questions(gm):
    bank_id = small_bank(gm)
    response = gm.get(f"/console/banks/{bank_id}")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    few = re.findall(r'data-testid="few-pair"><strong>([^<]+)</strong> · ([^:]+):', html)
    assert few == [("Kant", "¿Quién lo dijo?"), ("Kant", "Pregunta abierta"),
                   ("Arendt", "Verdadero o falso"), ("Arendt", "Pregunta abierta")]
    assert html.count('data-testid="question-row"') == 8
    assert "No hay ninguna partida en curso creada con este banco." in text_of(response)


def test_search_by_text_author_and_type(gm):
    bank_id = small_bank(gm)

    def ids(**args):
        response = gm.get(f"/console/banks/{bank_id}", query_string=args)
        assert response.status_code == 200
        return re.findall(r'data-testid="question-row" data-id="([^"]+)"',
                          response.get_data(as_text=True))

    assert ids(q="arendt") == ["a1", "a2", "a3", "a4"]          # authors match too
    assert ids(q="QUIEN ESCRIBIO") == ["k3", "a3"]              # case and accents aside
    assert ids(q="königsberg") == ["k2"]                        # searches answers
    assert ids(q="horacio") == ["k3"]                           # and notes
    assert ids(author="Kant") == ["k1", "k2", "k3", "k4"]
    assert ids(author="Kant", type="vf") == ["k1", "k2"]
    assert ids(type="quien") == ["k3", "a2", "a3"]
    assert ids(type="nonsense") == ["k1", "k2", "k3", "k4", "a1", "a2", "a3", "a4"]
    assert ids(q="no existe nada así") == []
    text = text_of(gm.get(f"/console/banks/{bank_id}", query_string={"type": "quien"}))
    assert "3 de 8 preguntas" in text


# -- add, edit, delete ---------------------------------------------------------------

def test_add_a_question_and_its_validation(gm):
    bank_id = small_bank(gm)
    url = f"/console/banks/{bank_id}/questions/new"
    assert gm.get(url).status_code == 200

    response = post(gm, url, data={"author": " ", "type": "vff", "text": "", "answer": "",
                                       "id": ""})
    assert response.status_code == 400
    text = text_of(response)
    assert "Autor o unidad: no puede estar vacío." in text
    assert "Tipo: tiene que ser verdadero o falso (vf)" in text
    assert "Pregunta: no puede estar vacío." in text
    assert "Respuesta esperada: no puede estar vacío." in text
    assert 'aria-invalid="true"' in response.get_data(as_text=True)
    assert len(bank_questions(database, bank_id)[1]) == 8

    response = post(gm, url, data={"id": "k1", "author": "Kant", "type": "quien",
                                       "text": "¿Quién dijo «Ten el valor de servirte...»?",
                                       "answer": "Kant"})
    assert response.status_code == 400
    assert "Identificador: otra pregunta del banco ya lo usa" in text_of(response)
    # What was typed is kept in the form.
    assert "Ten el valor de servirte" in response.get_data(as_text=True)

    response = post(gm, url, data={"id": "", "author": "Kant", "type": "quien",
                                       "text": "¿Quién dijo «Ten el valor de servirte...»?",
                                       "answer": "Kant", "notes": "¿Qué es la Ilustración?"})
    assert response.status_code == 302
    assert "done=added" in response.headers["Location"]
    questions = bank_questions(database, bank_id)[1]
    assert len(questions) == 9
    added = questions[-1]
    assert (added.id, added.author, added.type, added.notes) == \
        ("kant-quien-1", "Kant", "quien", "¿Qué es la Ilustración?")
    page = text_of(gm.get(response.headers["Location"]))
    assert "Pregunta «kant-quien-1» añadida." in page


def test_validation_errors_in_english_name_the_field(gm):
    bank_id = small_bank(gm)
    response = post(gm, f"/console/banks/{bank_id}/questions/new?lang=en",
                    data={"author": "Kant", "type": "quien", "text": "¿Quién?", "answer": ""})
    assert response.status_code == 400
    assert "Expected answer: cannot be empty." in text_of(response)


def test_edit_a_question(gm):
    bank_id = small_bank(gm)
    url = f"/console/banks/{bank_id}/questions/edit"
    page = gm.get(url, query_string={"id": "k2"})
    assert page.status_code == 200
    assert "Kant nació en Viena." in page.get_data(as_text=True)
    assert gm.get(url, query_string={"id": "nope"}).status_code == 404

    base = {"original_id": "k2", "id": "k2", "author": "Kant", "type": "vf",
            "text": "Kant nació en Königsberg.", "answer": "Verdadero", "notes": "1724"}
    response = post(gm, url, data={**base, "answer": "  "})
    assert response.status_code == 400
    assert "Respuesta esperada: no puede estar vacío." in text_of(response)
    response = post(gm, url, data={**base, "id": "k1"})
    assert response.status_code == 400
    assert "Identificador: otra pregunta del banco ya lo usa" in text_of(response)
    response = post(gm, url, data={**base, "type": "abierta "})
    assert response.status_code == 302
    response = post(gm, url, data={**base, "original_id": "k2", "id": "kant-nacimiento"})
    assert response.status_code == 302 and "done=saved" in response.headers["Location"]
    questions = {q.id: q for q in bank_questions(database, bank_id)[1]}
    assert "k2" not in questions
    edited = questions["kant-nacimiento"]
    assert (edited.text, edited.answer, edited.notes, edited.type) == \
        ("Kant nació en Königsberg.", "Verdadero", "1724", "vf")
    # The question keeps its place in the bank.
    assert [q.id for q in bank_questions(database, bank_id)[1]][:3] == ["k1", "kant-nacimiento", "k3"]


def test_delete_a_question(gm):
    bank_id = small_bank(gm)
    url = f"/console/banks/{bank_id}/questions/delete"
    response = post(gm, url, data={"id": "a3"})
    assert response.status_code == 302
    assert [q.id for q in bank_questions(database, bank_id)[1]] == \
        ["k1", "k2", "k3", "k4", "a1", "a2", "a4"]
    assert post(gm, url, data={"id": "a3"}).status_code == 404
    assert "Pregunta «a3» borrada." in text_of(gm.get(response.headers["Location"]))


def test_delete_a_bank(gm):
    bank_id = small_bank(gm)
    response = post(gm, f"/console/banks/{bank_id}/delete")
    assert response.status_code == 302
    assert find_bank(database, "pequeño") is None
    assert "Banco «pequeño» borrado." in text_of(gm.get(response.headers["Location"]))
    assert gm.get(f"/console/banks/{bank_id}").status_code == 404
    assert post(gm, f"/console/banks/{bank_id}/delete").status_code == 404


# -- imports -------------------------------------------------------------------------

def csv_with_error_on_line_40() -> str:
    authors = ["Kant", "Arendt", "Marx"]
    rows = ["author,type,text,answer"]
    for n in range(2, 51):
        kind = "vff" if n == 40 else ("vf", "quien", "abierta")[n % 3]
        rows.append(f"{authors[n % 3]},{kind},Pregunta número {n},Respuesta {n}")
    return "\n".join(rows) + "\n"


def test_an_upload_with_an_error_imports_nothing_and_names_the_line(gm):
    before = list_banks(database)
    response = upload(gm, "banco.csv", csv_with_error_on_line_40(), name="con errores")
    assert response.status_code == 400
    text = text_of(response)
    # The console's reasons follow its language (issue 14, part 6).
    assert "banco.csv:40: el tipo «vff» no es ninguno de vf, quien, abierta" in text
    assert "No se importó nada: el archivo tiene errores." in text
    assert "Preguntas utilizables: 48" in text and "errores: 1" in text
    assert list_banks(database) == before

    response = upload(gm, "banco.csv", csv_with_error_on_line_40(), name="con errores",
                      skip_errors="1")
    assert response.status_code == 200
    text = text_of(response)
    assert "Importadas 48 preguntas en el banco «con errores»." in text
    assert "banco.csv:40: el tipo «vff»" in text
    bank = find_bank(database, "con errores")
    questions = bank_questions(database, bank["id"])[1]
    assert len(questions) == 48
    assert "Pregunta número 40" not in {q.text for q in questions}


def test_a_gift_upload_reports_the_questions_the_game_cannot_use(gm):
    gift = ("$CATEGORY: $course$/top/Filosofía/Kant\n\n"
            "::k-vf:: Kant nació en Königsberg. {T}\n\n"
            "::k-quien:: ¿Quién escribió la Crítica de la razón pura? {=Kant}\n\n"
            "::k-mc:: ¿En qué ciudad nació Kant? {=Königsberg ~Berlín ~Viena}\n\n"
            "::k-abierta:: Explica el imperativo categórico. {####Obrar por máximas universales.}\n")
    response = upload(gm, "moodle.gift", gift, name="Moodle")
    assert response.status_code == 200
    text = text_of(response)
    assert "Formato: Moodle GIFT." in text
    assert "Importadas 3 preguntas en el banco «Moodle»." in text
    assert "moodle.gift:7: el juego no usa preguntas de tipo Opción múltiple" in text
    bank = find_bank(database, "Moodle")
    assert sorted(q.id for q in bank_questions(database, bank["id"])[1]) == \
        ["k-abierta", "k-quien", "k-vf"]


def test_import_into_an_existing_bank_adds_or_replaces(gm):
    bank_id = small_bank(gm)
    more = "id,author,type,text,answer\nk9,Kant,quien,¿Quién escribió la Crítica del juicio?,Kant\n"
    response = upload(gm, "mas.csv", more, target=str(bank_id), mode="add")
    assert response.status_code == 200
    assert [q.id for q in bank_questions(database, bank_id)[1]][-1] == "k9"

    # An id already in the bank is an error of that line: nothing is added.
    clash = more.replace("k9", "k1").replace("juicio", "razón práctica")
    response = upload(gm, "mas.csv", clash, target=str(bank_id), mode="add")
    assert response.status_code == 400
    assert "mas.csv:2: el identificador «k1» ya está en el banco" in text_of(response)
    assert len(bank_questions(database, bank_id)[1]) == 9

    response = upload(gm, "nuevo.csv", more, target=str(bank_id), mode="replace")
    assert response.status_code == 200
    assert [q.id for q in bank_questions(database, bank_id)[1]] == ["k9"]


def test_import_refusals(gm):
    small_bank(gm)
    response = upload(gm, "otra.csv", SMALL, name="pequeño")
    assert response.status_code == 400
    assert "Ya hay un banco llamado «pequeño»" in text_of(response)
    response = post(gm, "/console/banks/import", data={"target": "new"},
                    content_type="multipart/form-data")
    assert response.status_code == 400
    assert "Falta elegir el archivo que se quiere importar." in text_of(response)
    response = upload(gm, "solo.gift", "¿Ciudad? {=Königsberg ~Viena}\n", name="nada")
    assert response.status_code == 400
    assert "no tiene ninguna pregunta que el juego pueda usar" in text_of(response)
    assert find_bank(database, "nada") is None
    # (A small limit: the test client spools big bodies to files it does not close.)
    gm.application.config["MAX_CONTENT_LENGTH"] = 2000
    response = upload(gm, "enorme.csv", SMALL * 5, name="enorme")
    assert response.status_code == 413
    assert "El archivo es demasiado grande" in text_of(response)
    assert find_bank(database, "enorme") is None


def test_text_typed_by_a_teacher_is_escaped(gm):
    bank_id = small_bank(gm)
    post(gm, f"/console/banks/{bank_id}/questions/new",
         data={"id": "x<b>", "author": "<script>alert(1)</script>", "type": "vf",
               "text": "<img src=x onerror=alert(1)>", "answer": "V"})
    html = gm.get(f"/console/banks/{bank_id}").get_data(as_text=True)
    assert "<script>alert(1)" not in html and "<img src=x" not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html


def test_a_new_bank_is_named_after_its_file_by_default(gm):
    response = upload(gm, "Ética 1º.csv", SMALL)
    assert response.status_code == 200
    assert find_bank(database, "Ética 1º")["count"] == 8


# -- export --------------------------------------------------------------------------

def test_export_round_trips_with_the_importer(gm):
    bank_id = small_bank(gm)
    post(gm, f"/console/banks/{bank_id}/questions/new",
         data={"id": "k5", "author": "Kant", "type": "abierta",
               "text": "Dos líneas,\n«comillas» \"dobles\"; y punto y coma",
               "answer": "Una respuesta, con coma", "notes": "nota\ncon salto"})
    response = gm.get(f"/console/banks/{bank_id}/export.csv")
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    # The bank's name, accents kept (issue 47): UTF-8 for browsers, ASCII for the rest.
    assert "filename*=UTF-8''peque%C3%B1o.csv" in response.headers["Content-Disposition"]
    assert 'filename="pequeno.csv"' in response.headers["Content-Disposition"]
    data = response.get_data()
    assert data.startswith(b"\xef\xbb\xbfid,author,type,text,answer,notes")
    original = bank_questions(database, bank_id)[1]
    assert parse_bank(data, "pequeno.csv").questions == original

    response = upload(gm, "pequeno.csv", data, name="copia")
    assert response.status_code == 200
    assert bank_questions(database, find_bank(database, "copia")["id"])[1] == original
    assert gm.get("/console/banks/999/export.csv").status_code == 404


# -- a game in progress --------------------------------------------------------------

def test_coverage_of_a_game_counts_the_unused_questions(gm):
    bank_id = small_bank(gm)
    teams = [{"name": name, "members": 4} for name in ("A", "B", "C", "D")]
    response = gm.post("/console/games", json={"name": "Prueba", "settings": {"teams": teams},
                                                   "bank_id": bank_id})
    assert response.status_code == 200, response.get_json()
    game_id = response.get_json()["game_id"]

    url = f"/console/banks/game/{game_id}/coverage"
    before = gm.get(url).get_json()
    assert before == {"Kant": {"vf": 2, "quien": 1, "abierta": 1},
                      "Arendt": {"vf": 1, "quien": 2, "abierta": 1}}

    def play(change):
        change.play({"do": "declare", "mode": "normal"})
        change.play({"do": "choose", "author": "Kant", "type": "vf"})
        change.play({"do": "question", "id": "k2"})
    store.transact(game_id, "gm", play)

    after = gm.get(url).get_json()
    assert after["Kant"] == {"vf": 1, "quien": 1, "abierta": 1}
    assert after["Arendt"] == before["Arendt"]

    # The game keeps its own copy: editing the bank changes nothing in it.
    post(gm, f"/console/banks/{bank_id}/questions/delete", data={"id": "k1"})
    assert gm.get(url).get_json() == after

    # The bank page lists the game and shows the same counts.
    page = gm.get(f"/console/banks/{bank_id}", query_string={"game": game_id})
    html = page.get_data(as_text=True)
    assert f'data-url="{url}"' in html
    table = re.search(r'data-testid="game-table".*?</table>', html, re.S).group(0)
    assert re.search(r'data-author="Kant" data-type="vf">\s*<span class="badge warn"[^>]*>1<', table)
    assert gm.get("/console/banks/game/999/coverage").status_code == 404


# -- the catalogs --------------------------------------------------------------------

def test_every_string_of_the_bank_pages_is_in_both_catalogs():
    import json
    from pathlib import Path

    from facilitator.games.partida import QUESTION_TYPES
    from facilitator.store.banks import QUESTION_FIELDS

    root = Path(__file__).resolve().parents[1]
    es = json.loads((root / "facilitator/i18n/banks.es.json").read_text(encoding="utf-8"))
    en = json.loads((root / "facilitator/i18n/banks.en.json").read_text(encoding="utf-8"))
    assert es.keys() == en.keys()
    assert all(key.startswith("banks.") for key in es)
    sources = [*(root / "templates/banks").glob("*.html"), root / "facilitator/web/banks.py",
               root / "static/js/banks.js"]
    used = set()
    for source in sources:
        used |= set(re.findall(r"['\"](banks\.[a-z_.-]+[a-z_])['\"]", source.read_text()))
    used |= {f"banks.{group}.{kind}" for group in ("type", "type_short") for kind in QUESTION_TYPES}
    used |= {f"banks.field.{name}" for name in QUESTION_FIELDS}
    used |= {f"banks.problem.{problem}" for problem in ("empty", "type", "too_long", "taken")}
    used |= {f"banks.import.format.{kind}" for kind in ("csv", "gift", "moodle-xml", "unknown")}
    endpoints = {"banks.index", "banks.bank", "banks.import_file", "banks.new_question",
                 "banks.edit_question", "banks.remove_question", "banks.export",
                 "banks.remove_bank", "banks.game_coverage_json", "banks.js"}
    missing = sorted(used - endpoints - es.keys())
    assert not missing, missing


# -- issue 14: real Moodle banks -------------------------------------------------------

KANT_GIFT = ("// question: 0  name: Switch category to $course$/top/Default for C1\n"
             "$CATEGORY: $course$/top/Default for C1\n\n"
             "// question: 11  name: Sapere\n"
             "::sapere::¿Quién escribió «Sapere aude»?{\n\t=%100%Kant#\n}\n\n"
             "// question: 12  name: Imperativo\n"
             "::imperativo::¿Cómo se llama el mandato sin condición?{\n"
             "\t=%100%imperativo categórico#\n}\n\n"
             "// question: 13  name: Comentario\n"
             "::comentario::Comenta «el hombre es un fin en sí mismo».{}\n")


def test_the_import_form_has_the_author_and_short_answer_fields(gm):
    html = gm.get("/console/banks/").get_data(as_text=True)
    assert 'name="author"' in html and 'data-testid="import-author"' in html
    assert re.search(r'<select[^>]*name="short_answer"', html)
    assert '<option value="auto" selected>' in html


def test_a_gift_without_categories_asks_for_an_author_prefilled_from_the_file(gm):
    response = upload(gm, "Kant.gift", KANT_GIFT)
    assert response.status_code == 400    # nothing usable: refused as empty
    text = text_of(response)
    assert "escriban un autor en el campo Autor" in text
    html = response.get_data(as_text=True)
    assert re.search(r'name="author"[^>]*value="Kant"', html)


def test_a_gift_imports_with_the_author_given_and_marks_the_essay(gm):
    response = upload(gm, "Kant.gift", KANT_GIFT, author="Kant", name="Kant")
    assert response.status_code == 200, text_of(response)
    text = text_of(response)
    assert "Importadas 3 preguntas en el banco «Kant»." in text
    assert "Sin respuesta esperada (las juzga el docente)" in text
    assert "Kant.gift:15: comentario: sin respuesta esperada: la juzga el docente" in text
    assert "1 respuesta(s) corta(s) → abierta" in text
    bank = find_bank(database, "Kant")
    questions = {q.id: q for q in bank_questions(database, bank["id"])[1]}
    assert {q.author for q in questions.values()} == {"Kant"}
    assert [questions[i].type for i in ("sapere", "imperativo", "comentario")] == [
        "quien", "abierta", "abierta"]
    page = gm.get(f"/console/banks/{bank['id']}").get_data(as_text=True)
    assert 'data-testid="no-expected-answer"' in page
    assert "Sin respuesta esperada: la juzga el docente" in page
    edit = gm.get(f"/console/banks/{bank['id']}/questions/edit", query_string={"id": "comentario"})
    assert "Sin respuesta esperada: la juzga el docente" in edit.get_data(as_text=True)


def test_the_short_answer_select_forces_a_type(gm):
    upload(gm, "Kant.gift", KANT_GIFT, author="Kant", name="Kant", short_answer="quien")
    bank = find_bank(database, "Kant")
    types = {q.id: q.type for q in bank_questions(database, bank["id"])[1]}
    assert types == {"sapere": "quien", "imperativo": "quien", "comentario": "abierta"}


def test_the_editor_saves_an_abierta_without_answer_but_not_a_vf(gm):
    bank_id = small_bank(gm)
    url = f"/console/banks/{bank_id}/questions/new"
    fields = {"author": "Kant", "type": "abierta", "text": "Comenta libremente.", "answer": ""}
    assert post(gm, url, data=fields).status_code == 302
    fields = {"author": "Kant", "type": "vf", "text": "Kant fue a Londres.", "answer": ""}
    assert post(gm, url, data=fields).status_code == 400


def test_an_excel_unicode_text_file_named_txt_imports_as_csv(gm):
    data = b"\xff\xfe" + SMALL.replace(",", "\t").replace("\n", "\r\n").encode("utf-16-le")
    response = upload(gm, "banco.txt", data, name="Excel")
    assert response.status_code == 200, text_of(response)
    assert "Importadas 8 preguntas en el banco «Excel»." in text_of(response)


def test_the_api_takes_author_and_short_answer(gm):
    form = {"file": (io.BytesIO(KANT_GIFT.encode()), "Kant.gift"), "author": "Kant",
            "short_answer": "abierta"}
    response = post(gm, "/api/v1/banks", data=form, content_type="multipart/form-data")
    assert response.status_code == 201, response.get_data(as_text=True)
    report = response.get_json()["report"]
    assert report["without_author"] == 0 and report["author_hint"] == ""
    assert [item["line"] for item in report["no_expected_answer"]] == [15]
    assert report["questions_by_author_type"]["Kant"]["abierta"] == 3
    form = {"file": (io.BytesIO(KANT_GIFT.encode()), "Kant.gift"), "name": "otro",
            "short_answer": "who"}
    response = post(gm, "/api/v1/banks", data=form, content_type="multipart/form-data")
    assert response.status_code == 400 and response.get_json()["where"] == "short_answer"
    form = {"file": (io.BytesIO(KANT_GIFT.encode()), "Kant.gift"), "name": "otro"}
    response = post(gm, "/api/v1/banks", data=form, content_type="multipart/form-data")
    assert response.status_code == 422
    assert response.get_json()["report"]["without_author"] == 3


# -- the import preview (issue 14, part 6) ---------------------------------------------

PREVIEW_GIFT = ("::k-vf:: Kant nació en Königsberg. {T}\n\n"
                "::k-mc:: ¿En qué ciudad nació Kant? {=Königsberg ~Berlín}\n\n"
                "::k-q:: ¿Qué escribió Kant? {=La Crítica}\n")


def test_the_preview_shows_each_question_with_its_author_and_type_and_saves_nothing(gm):
    before = list_banks(database)
    response = upload(gm, "moodle.gift", PREVIEW_GIFT, name="Vista", step="preview")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert list_banks(database) == before
    assert html.count('data-testid="preview-question"') == 0   # no question has an author yet
    text = text_of(response)
    assert "Vista previa de la importación" in text
    assert "el juego no usa preguntas de tipo Opción múltiple" in text
    # Without a category nor a given author: listed with the reason, an author field offered.
    assert "sin autor" in text and 'name="author-1"' in html
    token = re.search(r'name="preview" value="([^"]+)"', html).group(1)

    # The teacher gives the author of line 1 and 5 and makes line 5 a "quien" question.
    response = post(gm, "/console/banks/import", data={
        "preview": token, "step": "preview", "target": "new", "name": "Vista",
        "mode": "add", "author-1": "Kant", "author-5": "Kant"})
    html = response.get_data(as_text=True)
    assert 'name="type-5"' in html and 'name="author-1" value="Kant"' in html
    response = post(gm, "/console/banks/import", data={
        "preview": token, "step": "import", "target": "new", "name": "Vista", "mode": "add",
        "author-1": "Kant", "was-author-1": "", "author-5": "Kant", "was-author-5": "",
        "type-5": "quien", "was-type-5": "abierta"})
    assert response.status_code == 200, text_of(response)
    bank = find_bank(database, "Vista")
    questions = {q.id: q for q in bank_questions(database, bank["id"])[1]}
    assert set(questions) == {"k-vf", "k-q"}
    assert questions["k-vf"].author == "Kant"
    assert questions["k-q"].type == "quien" and questions["k-q"].answer == "La Crítica"


def test_an_expired_preview_says_so(gm):
    response = post(gm, "/console/banks/import", data={
        "preview": "x" * 24, "step": "import", "target": "new", "name": "Nada"})
    assert response.status_code == 400
    from facilitator.i18n import translate
    assert translate("es", "bank_preview.expired") in text_of(response)


# -- issue 34: files that are no bank, repeated questions, control characters -------------

@pytest.mark.parametrize("kind", ["docx", "doc", "pdf", "image", "xlsx", "odt"])
def test_a_document_renamed_csv_is_named_and_nothing_offers_to_import_it(gm, kind):
    """The preview names what the file is and how to make a bank of it; no «Importar»
    button, no «Formato: Moodle GIFT», no line errors about UTF-8; importing it anyway
    imports nothing."""
    from documents import KINDS
    build, spanish, _english = KINDS[kind]
    before = len(list_banks(database))
    response = upload(gm, "banco.csv", build(), name="Banco", step="preview")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    text = text_of(response)
    assert "Formato: no es un banco de preguntas." in text
    assert spanish + ", no un banco de preguntas" in text
    assert "Moodle GIFT" not in text and "UTF-8 válido" not in text
    assert 'data-testid="preview-import"' not in page
    assert 'data-testid="preview-nothing"' in page and 'data-testid="preview-choose-other"' in page
    response = upload(gm, "banco.csv", build(), name="Banco", skip_errors="1")
    assert response.status_code == 400
    assert "el archivo no es un banco de preguntas" in text_of(response)
    assert spanish in text_of(response)
    assert len(list_banks(database)) == before


def test_the_api_refuses_a_document_naming_it(gm):
    from documents import KINDS
    response = gm.post("/api/v1/banks?lang=es", headers=ORIGIN,
                           data={"file": (io.BytesIO(KINDS["docx"][0]()), "banco.csv")},
                           content_type="multipart/form-data")
    assert response.status_code == 422
    body = response.get_json()
    assert body["report"]["format"] == "not-a-bank"
    assert body["report"]["errors"][0]["text"].startswith(
        "banco.csv: Es un documento de Word (.docx), no un banco de preguntas")
    english = gm.post("/api/v1/banks", headers=ORIGIN,
                          data={"file": (io.BytesIO(KINDS["pdf"][0]()), "banco.csv")},
                          content_type="multipart/form-data").get_json()
    assert "This is a PDF document, not a question bank" in english["report"]["errors"][0]["text"]


def test_a_question_typed_five_ways_is_imported_five_times_with_a_note(gm):
    """Moodle imports «Test Moodle 1..5», the same question typed with a line break, a list,
    other markup: so does the console, saying which lines repeat one question."""
    gift = ("$CATEGORY: $course$/top/Filosofía/Kant\n\n"
            "::Test Moodle 1::¿Qué es la Ilustración? {####La salida de la minoría de edad.}\n\n"
            "::Test Moodle 2::¿Qué es\\nla Ilustración? {####La salida de la minoría de edad.}\n\n"
            "::Test Moodle 3::[html]<p>¿Qué es <b>la Ilustración</b>?</p> {####La salida.}\n\n"
            "::Test Moodle 4::[html]<ul><li>¿Qué es la Ilustración?</li></ul> {####La salida.}\n\n"
            "::Test Moodle 5::[markdown]¿Qué es *la Ilustración*? {####La salida.}\n")
    response = upload(gm, "moodle.gift", gift, name="Moodle")
    assert response.status_code == 200, text_of(response)
    text = text_of(response)
    assert "las preguntas de las líneas 3, 5, 7, 9 y 11 tienen el mismo autor, tipo y texto" in text
    assert len(bank_questions(database, find_bank(database, "Moodle")["id"])[1]) == 5
