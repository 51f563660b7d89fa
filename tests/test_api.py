"""The JSON API for scripts (``/api/v1``) and the console page of API tokens.

Each test has its own SQLite file (tests/conftest.py). Every route is used both
with the GM's console session and with a bearer token; without either, with a
revoked token or a forged one it answers 401 JSON.
"""
from __future__ import annotations

import csv
import hashlib
import io
import json
import re

import pytest

from facilitator.extensions import database, store
from facilitator.questions import parse_bank
from facilitator.store.banks import list_banks
from facilitator.store.models import ApiToken

ORIGIN = {"Origin": "http://localhost"}
EVIL = {"Origin": "http://evil.example"}
TEAMS = [{"name": f"E{n}", "members": 4} for n in range(1, 5)]
STUDENTS = [f"Alumna {n}" for n in range(1, 17)]

SMALL = ("id,author,type,text,answer,notes\n"
         "k1,Kant,vf,Kant escribió la Crítica de la razón pura.,Verdadero,\n"
         "k2,Kant,vf,Kant nació en Viena.,Falso. En Königsberg.,\n"
         "k3,Kant,quien,¿Quién escribió «Sapere aude»?,Kant,Horacio antes\n"
         "k4,Kant,abierta,Explica el imperativo categórico.,Obrar según una máxima universalizable.,\n"
         "a1,Arendt,vf,Arendt asistió al juicio de Eichmann.,Verdadero,\n"
         "a2,Arendt,quien,¿Quién habló de la banalidad del mal?,Arendt,\n"
         "a3,Arendt,quien,¿Quién escribió «La condición humana»?,Arendt,\n"
         "a4,Arendt,abierta,¿Qué es la natalidad?,La capacidad de empezar algo nuevo.,\n")
JSON_QUESTIONS = [
    {"id": "h1", "author": "Hume", "type": "vf", "text": "Hume era escocés.", "answer": "Verdadero"},
    {"author": "Hume", "type": "quien", "text": "¿Quién despertó a Kant de su sueño dogmático?",
     "answer": "Hume", "notes": "Prolegómenos"},
    {"author": "Hume", "type": "abierta", "text": "¿Qué es la causalidad para Hume?",
     "answer": "Costumbre: conjunción constante."},
]
GIFT = ("$CATEGORY: $course$/top/Filosofía/Kant\n\n"
        "::k-vf:: Kant nació en Königsberg. {T}\n\n"
        "::k-quien:: ¿Quién escribió la Crítica de la razón pura? {=Kant}\n\n"
        "::k-mc:: ¿En qué ciudad nació Kant? {=Königsberg ~Berlín ~Viena}\n\n"
        "::k-abierta:: Explica el imperativo categórico. {####Obrar por máximas universales.}\n")


def csv_with_error_on_line_5() -> str:
    rows = ["author,type,text,answer"]
    for n in range(2, 9):
        kind = "vff" if n == 5 else ("vf", "quien", "abierta")[n % 3]
        rows.append(f"Kant,{kind},Pregunta número {n},Respuesta {n}")
    return "\n".join(rows) + "\n"


def issue(gm, label: str = "script") -> str:
    """A token made on the console page: the one time it is shown."""
    response = gm.post("/console/tokens", data={"label": label}, headers=ORIGIN)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.headers["Cache-Control"] == "no-store"
    found = re.search(r'data-testid="new-token">([^<]+)<', response.get_data(as_text=True))
    return found.group(1)


class Script:
    """A client without any session that sends ``Authorization: Bearer <token>``."""

    def __init__(self, app, token: str):
        self.client = app.test_client()
        self.headers = {"Authorization": f"Bearer {token}"}

    def open(self, method: str, url: str, **kwargs):
        headers = {**self.headers, **kwargs.pop("headers", {})}
        return self.client.open(url, method=method, headers=headers, **kwargs)

    def get(self, url, **kwargs):
        return self.open("GET", url, **kwargs)

    def post(self, url, **kwargs):
        return self.open("POST", url, **kwargs)

    def delete(self, url, **kwargs):
        return self.open("DELETE", url, **kwargs)


@pytest.fixture(params=["session", "token"])
def caller(request, app, gm):
    """The GM's console client, or a script with a token: the API answers both alike."""
    return gm if request.param == "session" else Script(app, issue(gm))


def api_routes(app) -> set[tuple[str, str]]:
    """``(METHOD, /path/{param})`` of every route the app serves under /api/v1."""
    found = set()
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/v1/"):
            path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule[len("/api/v1"):])
            for method in rule.methods - {"HEAD", "OPTIONS"}:
                found.add((method, path))
    return found


def concrete(path: str, game_id: int = 1, bank_id: int = 1) -> str:
    return "/api/v1" + path.replace("{game_id}", str(game_id)).replace("{bank_id}", str(bank_id))


def assert_error(response, status: int, code: str | None = None) -> dict:
    assert response.status_code == status, (response.status_code, response.get_data(as_text=True))
    body = response.get_json()
    assert isinstance(body, dict) and isinstance(body["error"], str), body
    assert isinstance(body["message"], str) and body["message"], body
    assert set(body) <= {"error", "message", "where", "report"}, body
    if code is not None:
        assert body["error"] == code, body
    return body


def import_small(caller, name: str = "pequeño") -> dict:
    response = caller.post("/api/v1/banks", data={"file": (io.BytesIO(SMALL.encode()),
                                                           "pequeño.csv"), "name": name},
                           content_type="multipart/form-data")
    assert response.status_code == 201, response.get_data(as_text=True)
    return response.get_json()


# -- the tokens ----------------------------------------------------------------------

def test_the_console_issues_lists_and_revokes_tokens(app, gm):
    page = gm.get("/console/tokens")
    assert page.status_code == 200 and "Tokens de la API" in page.get_data(as_text=True)
    assert 'href="/console/tokens"' in gm.get("/console").get_data(as_text=True)
    assert "API tokens" in gm.get("/console/tokens?lang=en").get_data(as_text=True)
    assert "Tokens de la API" in gm.get("/console/tokens?lang=es").get_data(as_text=True)

    token = issue(gm, "Plataforma del centro")
    assert len(token) >= 43
    listing = gm.get("/console/tokens").get_data(as_text=True)
    assert "Plataforma del centro" in listing and token not in listing     # shown once only
    with database.session() as session:
        row = session.query(ApiToken).one()
        assert row.token_hash == hashlib.sha256(token.encode()).hexdigest()
        assert row.last_used_at is None and row.revoked_at is None
        token_id = row.id

    script = Script(app, token)
    assert script.get("/api/v1/banks").status_code == 200
    with database.session() as session:
        assert session.get(ApiToken, token_id).last_used_at is not None
    assert "nunca" not in gm.get("/console/tokens").get_data(as_text=True)

    # Not from this site, or without a label: refused, nothing issued.
    assert gm.post("/console/tokens", data={"label": "x"}, headers=EVIL).status_code == 400
    assert gm.post("/console/tokens", data={"label": "x"}, headers={"Origin": "null"}).status_code == 400
    assert gm.post("/console/tokens", data={"label": "  "}, headers=ORIGIN).status_code == 400
    assert gm.post(f"/console/tokens/{token_id}/revoke", headers=EVIL).status_code == 400
    with database.session() as session:
        assert session.query(ApiToken).count() == 1

    response = gm.post(f"/console/tokens/{token_id}/revoke", headers=ORIGIN)
    assert response.status_code == 302
    assert "revocado" in gm.get(response.headers["Location"]).get_data(as_text=True)
    assert "Plataforma del centro" not in gm.get("/console/tokens").get_data(as_text=True)
    assert_error(script.get("/api/v1/banks"), 401, "unauthorized")
    assert gm.post(f"/console/tokens/{token_id}/revoke", headers=ORIGIN).status_code == 404


def test_the_token_page_needs_the_gm(app):
    stranger = app.test_client()
    assert stranger.get("/console/tokens").status_code == 302
    assert stranger.post("/console/tokens", data={"label": "x"},
                         headers=ORIGIN).status_code == 302
    with database.session() as session:
        assert session.query(ApiToken).count() == 0


def test_every_route_refuses_no_credentials_a_revoked_token_and_a_forged_one(app, gm):
    revoked = issue(gm, "old")
    with database.session() as session:
        token_id = session.query(ApiToken).one().id
    assert gm.post(f"/console/tokens/{token_id}/revoke", headers=ORIGIN).status_code == 302
    good = issue(gm, "good")
    forged = good[:-2] + ("AA" if not good.endswith("AA") else "BB")
    routes = api_routes(app)
    assert len(routes) >= 11
    for who in (None, revoked, forged, "", "x" * 5000):
        client = app.test_client()
        headers = {} if who is None else {"Authorization": f"Bearer {who}"}
        for method, path in sorted(routes):
            response = client.open(concrete(path), method=method, headers=headers,
                                   json={} if method == "POST" else None)
            body = assert_error(response, 401, "unauthorized")
            assert "Bearer" in response.headers["WWW-Authenticate"], body
    # A bearer token is for the API only: it does not open the console's pages.
    assert app.test_client().get("/console", headers={"Authorization": f"Bearer {good}"}) \
        .status_code == 302
    # The old helpers of the set-up form take a token too.
    script = Script(app, good)
    assert script.get("/api/propose?students=20").get_json() == {"sizes": [5, 5, 5, 5]}
    assert script.post("/api/check-settings", json={"settings": {"teams": TEAMS}}).get_json() \
        == {"ok": True}
    assert app.test_client().get("/api/propose?students=20").status_code == 401
    assert Script(app, forged).get("/api/propose?students=20").status_code == 401


def test_a_token_is_exempt_from_the_cross_site_check_but_a_session_is_not(app, gm):
    script = Script(app, issue(gm))
    body = {"name": "desde otra plataforma", "questions": JSON_QUESTIONS}
    assert script.post("/api/v1/banks", json=body, headers=EVIL).status_code == 201
    refused = gm.post("/api/v1/banks", json={**body, "name": "otra"}, headers=EVIL)
    assert_error(refused, 400)
    forged = Script(app, "not-a-token")
    assert forged.post("/api/v1/banks", json={**body, "name": "otra"},
                       headers=EVIL).status_code in (400, 401)
    assert [b["name"] for b in list_banks(database)].count("otra") == 0


# -- a script's whole flow -----------------------------------------------------------

def test_a_script_imports_banks_creates_a_game_and_reads_it(app, gm, caller):
    # A CSV file, uploaded: the answer gives the bank's id (no HTML to scrape).
    created = import_small(caller)
    bank_id = created["id"]
    assert created["name"] == "pequeño" and created["usable"] == 8 and created["count"] == 8
    assert created["report"]["errors"] == [] and created["report"]["format"] == "csv"
    assert created["report"]["questions_by_author_type"]["Kant"] == \
        {"vf": 2, "quien": 1, "abierta": 1}

    # The same questions as JSON, into another bank.
    rows = list(csv.DictReader(io.StringIO(SMALL)))
    response = caller.post("/api/v1/banks", json={"name": "desde JSON", "questions": rows})
    assert response.status_code == 201, response.get_data(as_text=True)
    assert response.headers["Location"].endswith(f"/api/v1/banks/{response.get_json()['id']}")
    json_bank = response.get_json()
    assert json_bank["count"] == 8 and json_bank["report"]["format"] == "json"
    response = caller.post("/api/v1/banks", json={"name": "Hume", "questions": JSON_QUESTIONS})
    assert response.status_code == 201
    hume = caller.get(f"/api/v1/banks/{response.get_json()['id']}").get_json()
    assert [q["id"] for q in hume["questions"]] == ["h1", "hume-quien-1", "hume-abierta-1"]
    assert hume["questions"][1]["notes"] == "Prolegómenos"

    listed = caller.get("/api/v1/banks").get_json()["banks"]
    mine = {b["name"]: b for b in listed}
    assert mine["pequeño"]["id"] == bank_id and mine["pequeño"]["count"] == 8
    assert mine["pequeño"]["questions_by_author_type"]["Arendt"] == \
        {"vf": 1, "quien": 2, "abierta": 1}
    assert {"author": "Kant", "type": "quien", "count": 1} in mine["pequeño"]["few"]

    one = caller.get(f"/api/v1/banks/{bank_id}").get_json()
    assert one["name"] == "pequeño" and len(one["questions"]) == 8
    assert one["questions"][2] == {"id": "k3", "author": "Kant", "type": "quien",
                                   "text": "¿Quién escribió «Sapere aude»?", "answer": "Kant",
                                   "notes": "Horacio antes"}

    # The export is the console's, byte for byte.
    exported = caller.get(f"/api/v1/banks/{bank_id}/export")
    console = gm.get(f"/console/banks/{bank_id}/export.csv")
    assert exported.status_code == 200 and exported.data == console.data
    assert exported.headers["Content-Disposition"] == console.headers["Content-Disposition"]
    assert exported.mimetype == "text/csv"

    # A game, in one call: settings, bank and class list.
    response = caller.post("/api/v1/games", json={"settings": {"teams": TEAMS, "rounds": 2},
                                                  "bank_id": bank_id, "name": "1.º B",
                                                  "class_list": STUDENTS})
    assert response.status_code == 201, response.get_data(as_text=True)
    game = response.get_json()
    game_id = game["id"]
    assert response.headers["Location"].endswith(f"/api/v1/games/{game_id}")
    assert game["name"] == "1.º B" and game["bank_name"] == "pequeño"
    assert [t["name"] for t in game["teams"]] == ["E1", "E2", "E3", "E4"]
    codes = [t["join_code"] for t in game["teams"]]
    assert all(re.fullmatch(r"[A-Z0-9]{4}-[A-Z0-9]{4}", c) for c in codes)
    assert game["teams"][0]["join_url"].startswith("http://localhost/j/")
    assert game["watch_url"] == f"http://localhost/projector/{game['watch_code']}"
    assert game["console_url"] == f"http://localhost/console/{game_id}"
    assert sorted(sum(game["class_list"], [])) == sorted(STUDENTS)
    assert [len(t) for t in game["class_list"]] == [4, 4, 4, 4]
    assert gm.get(game["watch_url"][len("http://localhost"):]).status_code == 200
    codes_api = gm.get(f"/api/games/{game_id}/codes").get_json()
    assert [c["code"] for c in codes_api["teams"]] == [c.replace("-", "") for c in codes]

    games = caller.get("/api/v1/games").get_json()["games"]
    assert games[0]["id"] == game_id and games[0]["teams"] == ["E1", "E2", "E3", "E4"]
    assert games[0]["console_url"] == game["console_url"]

    state = caller.get(f"/api/v1/games/{game_id}").get_json()
    assert state["game"]["id"] == game_id and state["game"]["teams"] == game["teams"]
    assert state["state"]["role"] == "gm" and state["state"]["game"] == game_id
    assert state["state"]["seq"] == 0 and "view" in state["state"] and "legal" in state["state"]
    assert state["state"]["legal"], "the GM can act at the start"

    record = caller.get(f"/api/v1/games/{game_id}/record").get_json()
    assert record == json.loads(gm.get(f"/console/{game_id}/record.json").data)
    assert record["format"] == "partida/1" and record["name"] == "1.º B"
    assert record["settings"]["roster"] == game["class_list"]
    assert len(record["questions"]) == 8

    results = caller.get(f"/api/v1/games/{game_id}/results")
    assert results.status_code == 200
    assert results.get_json() == json.loads(gm.get(f"/console/{game_id}/results.json").data)
    assert results.get_json()["name"] == "1.º B"

    # Deleting the bank leaves the game its copy of the questions.
    assert caller.delete(f"/api/v1/banks/{bank_id}").get_json() == \
        {"deleted": True, "id": bank_id, "name": "pequeño"}
    assert_error(caller.get(f"/api/v1/banks/{bank_id}"), 404, "not_found")
    assert_error(caller.delete(f"/api/v1/banks/{bank_id}"), 404, "not_found")
    assert_error(caller.get(f"/api/v1/banks/{bank_id}/export"), 404, "not_found")
    assert caller.get(f"/api/v1/games/{game_id}/record").get_json() == record


def test_class_lists_per_team_and_teams_with_members(caller):
    bank_id = import_small(caller)["id"]
    per_team = [STUDENTS[i:i + 4] for i in range(0, 16, 4)]
    response = caller.post("/api/v1/games", json={"settings": {"teams": TEAMS},
                                                  "bank_id": bank_id, "class_list": per_team})
    assert response.status_code == 201 and response.get_json()["class_list"] == per_team
    teams = [{"name": f"Grupo {n}", "members": names} for n, names in enumerate(per_team, 1)]
    response = caller.post("/api/v1/games", json={"settings": {"rounds": 1},
                                                  "bank_id": bank_id, "class_list": teams})
    assert response.status_code == 201, response.get_data(as_text=True)
    assert [t["name"] for t in response.get_json()["teams"]] == [t["name"] for t in teams]
    # Only names: the teams are the sizes R-T5 proposes, named as the set-up form does.
    response = caller.post("/api/v1/games", json={"settings": {}, "bank_id": bank_id,
                                                  "class_list": STUDENTS + ["Otra"] * 4})
    assert response.status_code == 201, response.get_data(as_text=True)
    assert [t["name"] for t in response.get_json()["teams"]] == \
        ["Equipo 1", "Equipo 2", "Equipo 3", "Equipo 4"]
    assert [len(t) for t in response.get_json()["class_list"]] == [5, 5, 5, 5]


# -- imports that are refused --------------------------------------------------------

def test_a_file_with_errors_gives_the_console_s_errors_and_imports_nothing(gm, caller):
    before = list_banks(database)
    content = csv_with_error_on_line_5()
    response = caller.post("/api/v1/banks", data={"file": (io.BytesIO(content.encode()),
                                                           "banco.csv"), "name": "con errores"},
                           content_type="multipart/form-data")
    body = assert_error(response, 422, "format")
    assert body["message"].startswith("No se importó nada: el archivo tiene errores.")
    errors = body["report"]["errors"]
    assert errors == [{"line": 5, "text": 'banco.csv:5: type "vff" is not one of vf, quien, '
                                          'abierta'}]
    assert [e["text"] for e in errors] == \
        [str(i) for i in parse_bank(content.encode(), "banco.csv", skip_errors=True).errors]
    # The same errors as the console's (shown there in English here: the API speaks English).
    page = gm.post("/console/banks/import?lang=en", headers=ORIGIN,
                   content_type="multipart/form-data",
                   data={"file": (io.BytesIO(content.encode()), "banco.csv"), "target": "new",
                         "name": "con errores"})
    assert page.status_code == 400 and errors[0]["text"].replace('"', "&#34;") in \
        page.get_data(as_text=True)
    assert list_banks(database) == before

    response = caller.post("/api/v1/banks", data={
        "file": (io.BytesIO(content.encode()), "banco.csv"), "name": "con errores",
        "skip_errors": "true"}, content_type="multipart/form-data")
    assert response.status_code == 201
    assert response.get_json()["usable"] == 6 and response.get_json()["report"]["errors"] == errors


def test_unusable_questions_are_listed_with_the_reason(caller):
    response = caller.post("/api/v1/banks", data={"file": (io.BytesIO(GIFT.encode()),
                                                           "moodle.gift")},
                           content_type="multipart/form-data")
    assert response.status_code == 201, response.get_data(as_text=True)
    body = response.get_json()
    assert body["name"] == "moodle" and body["usable"] == 3 and body["report"]["format"] == "gift"
    unusable = body["report"]["unusable"]
    assert len(unusable) == 1 and unusable[0]["line"] == 7
    assert unusable[0]["reason"].startswith("multiple-choice questions are not used by the game")
    assert unusable[0]["text"].startswith("moodle.gift:7: ")


def test_names_taken_replace_and_json_questions_with_errors(caller):
    bank_id = import_small(caller)["id"]
    again = caller.post("/api/v1/banks", json={"name": "pequeño", "questions": JSON_QUESTIONS})
    body = assert_error(again, 409, "format")
    assert body["where"] == "name" and "pequeño" in body["message"]
    replaced = caller.post("/api/v1/banks", json={"name": "pequeño", "replace": True,
                                                  "questions": JSON_QUESTIONS})
    assert replaced.status_code == 201
    assert replaced.get_json()["id"] == bank_id and replaced.get_json()["count"] == 3

    bad = [{"author": "Kant", "type": "vff", "text": "¿?", "answer": "x"},
           {"author": "", "type": "vf", "text": "Sin autor.", "answer": "Falso"},
           {"id": "h1", "author": "Hume", "type": "vf", "text": "Otra.", "answer": "x"},
           "no soy una pregunta",
           {"author": "Hume", "type": "vf", "text": ["lista"], "answer": "x"}]
    response = caller.post("/api/v1/banks", json={"name": "malo",
                                                  "questions": JSON_QUESTIONS + bad})
    body = assert_error(response, 422, "format")
    texts = [e["text"] for e in body["report"]["errors"]]
    assert texts[0].startswith("questions[3]: Tipo: tiene que ser verdadero o falso")
    assert texts[1] == "questions[4]: Autor o unidad: no puede estar vacío."
    assert texts[2].startswith("questions[5]: Identificador: otra pregunta del banco ya lo usa")
    assert texts[3].startswith("questions[6]: a question is an object")
    assert texts[4] == "questions[7]: text must be text"
    assert "malo" not in [b["name"] for b in list_banks(database)]
    response = caller.post("/api/v1/banks", json={"name": "malo", "skip_errors": True,
                                                  "questions": JSON_QUESTIONS + bad})
    assert response.status_code == 201 and response.get_json()["count"] == 3
    assert_error(caller.post("/api/v1/banks", json={"name": "vacío", "questions": []}),
                 422, "format")


@pytest.mark.parametrize("body, status, code, where", [
    ({"questions": JSON_QUESTIONS}, 400, "format", "name"),
    ({"name": 7, "questions": JSON_QUESTIONS}, 400, "format", "name"),
    ({"name": "x" * 201, "questions": JSON_QUESTIONS}, 400, "format", "name"),
    ({"name": "x\ud800", "questions": JSON_QUESTIONS}, 400, "format", "name"),
    ({"name": "x", "questions": "h1,Hume,vf"}, 400, "format", "questions"),
    ({"name": "x", "questions": JSON_QUESTIONS, "replace": "sí"}, 400, "format", "replace"),
    ([1, 2], 400, "format", None),
])
def test_bad_json_imports_are_4xx(caller, body, status, code, where):
    body = assert_error(caller.post("/api/v1/banks", json=body), status, code)
    assert body.get("where") == where


def test_bad_uploads_are_4xx(app, caller):
    assert_error(caller.post("/api/v1/banks", data={"name": "x"},
                             content_type="multipart/form-data"), 400, "format")
    assert_error(caller.post("/api/v1/banks", data={
        "file": (io.BytesIO(SMALL.encode()), "a.csv"), "skip_errors": "quizá"},
        content_type="multipart/form-data"), 400, "format")
    assert_error(caller.post("/api/v1/banks", data="id,author\n",
                             content_type="text/csv"), 415, "format")
    assert_error(caller.post("/api/v1/banks", data="{not json",
                             content_type="application/json"), 400, "format")
    # (A small limit: the test client spools big bodies to files it does not close.)
    app.config["MAX_CONTENT_LENGTH"] = 2000
    big = (SMALL * 5).encode()
    assert_error(caller.post("/api/v1/banks", data={"file": (io.BytesIO(big), "big.csv")},
                             content_type="multipart/form-data"), 413, "format")
    assert_error(caller.post("/api/v1/banks", json={"name": "big", "questions": [
        {"author": "A", "type": "vf", "text": "x" * 3000, "answer": "V"}]}), 413, "format")
    app.config["MAX_CONTENT_LENGTH"] = 2 * 1024 * 1024
    body = assert_error(caller.post("/api/v1/banks", data={
        "file": (io.BytesIO(b"\x00\x01 nothing"), "raro.bin")},
        content_type="multipart/form-data"), 422, "format")
    # Issue 34: a file of bytes is named as such, not as a format it is not.
    assert "not a text file" in body["report"]["errors"][0]["text"]


# -- games refused -------------------------------------------------------------------

@pytest.mark.parametrize("body, status, code", [
    ({"settings": {"teams": TEAMS[:3]}}, 422, "R-T1"),
    ({"settings": {"teams": [{**TEAMS[0], "members": 9}] + TEAMS[1:]}}, 422, "R-T2"),
    ({"settings": {"teams": [{**TEAMS[0], "members": 6}] + TEAMS[1:]}}, 422, "R-T3"),
    ({"settings": {"teams": TEAMS, "rounds": 0}}, 422, "R-O1"),
    ({"settings": {"teams": TEAMS, "round_modes": [["nope"]]}}, 422, "R-O4"),
    ({"settings": "nope"}, 400, "format"),
    ({"settings": {"teams": TEAMS, "exchange_cost": "3"}}, 400, "format"),
    ({"settings": {"teams": [{"name": "x\ud800", "members": 4}] + TEAMS[1:]}}, 400, "format"),
    ({"settings": {"teams": TEAMS}, "class_list": STUDENTS[:15]}, 422, "R-T5"),
    ({"settings": {"teams": TEAMS}, "class_list": [STUDENTS[:4]] * 3 + [STUDENTS[:3]]},
     422, "R-T5"),
    ({"settings": {"teams": TEAMS}, "class_list": [{"name": "x", "members": STUDENTS}]},
     400, "format"),
    ({"settings": {}, "class_list": STUDENTS[:5]}, 422, "R-T1"),
    ({"settings": {}, "class_list": [1, 2, 3]}, 400, "format"),
    ({"settings": {}, "class_list": "Ana, Luis"}, 400, "format"),
    ({"settings": {}, "class_list": [{"name": 3, "members": STUDENTS[:4]}] * 4}, 400, "format"),
    ({"settings": {"teams": TEAMS}, "name": 12}, 400, "format"),
    ({"settings": {"teams": TEAMS}, "bank_id": "1"}, 400, "format"),
    ({"settings": {"teams": TEAMS}, "bank_id": True}, 400, "format"),
    ({"settings": {"teams": TEAMS}, "bank_id": None}, 400, "format"),
    ({"settings": {"teams": TEAMS}, "bank_id": 99999}, 404, "not_found"),
    ({"settings": {"teams": TEAMS}, "bank_id": 10 ** 30}, 404, "not_found"),
    ({"settings": {"teams": TEAMS}, "bank_id": -1}, 404, "not_found"),
])
def test_bad_games_are_refused_with_the_rule(caller, body, status, code):
    bank_id = list_banks(database)[0]["id"]
    body = {"bank_id": bank_id, **body}
    before = len(store.list_games())
    response = caller.post("/api/v1/games", json=body)
    assert_error(response, status, code)
    assert len(store.list_games()) == before


def test_malformed_requests_and_unknown_things_are_4xx_json(caller):
    for data in ("{not json", "[" * 100000 + "]" * 100000, "", "null", "42"):
        assert_error(caller.post("/api/v1/games", data=data, content_type="application/json"),
                     400, "format")
    assert_error(caller.get("/api/v1/games/999999"), 404, "not_found")
    assert_error(caller.get("/api/v1/games/999999/record"), 404, "not_found")
    assert_error(caller.get("/api/v1/games/999999/results"), 404, "not_found")
    assert_error(caller.get(f"/api/v1/games/{10 ** 30}"), 404, "not_found")
    assert_error(caller.get("/api/v1/banks/0"), 404, "not_found")
    assert_error(caller.get("/api/v1/nothing-here"), 404, "not_found")
    assert_error(caller.get("/api/v1/games/abc"), 404, "not_found")
    assert_error(caller.delete("/api/v1/games"), 405, "format")
    assert_error(caller.post("/api/v1/banks/1"), 405, "format")


# -- the description -----------------------------------------------------------------

def test_the_openapi_document_lists_every_route(app, caller):
    response = caller.get("/api/v1/openapi.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    document = json.loads(response.data)
    assert document["openapi"] == "3.1.0"
    assert document["servers"] == [{"url": "http://localhost/api/v1"}]
    described = {(method.upper(), path) for path, operations in document["paths"].items()
                 for method in operations}
    assert described == api_routes(app)
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            assert "401" in operation["responses"] and operation["summary"], (method, path)
            for parameter in operation.get("parameters", []):
                assert "{" + parameter["name"] + "}" in path
    # Every $ref points at something the document defines.
    text = json.dumps(document)
    for ref in set(re.findall(r'"\$ref": "#/([^"]+)"', text)):
        node = document
        for part in ref.split("/"):
            node = node[part]
    assert set(document["components"]["securitySchemes"]) == {"bearerToken", "consoleSession"}
    from openapi_spec_validator import validate
    validate(document)          # a valid OpenAPI 3.1 document, as other tools read it


def test_the_docs_name_every_route(app):
    from pathlib import Path
    docs = (Path(__file__).resolve().parents[1] / "docs" / "api.md").read_text(encoding="utf-8")
    assert "/api/v1/openapi.json" in docs and "Authorization: Bearer" in docs
    for method, path in api_routes(app):
        assert f"{method} /api/v1{path}" in docs, (method, path)


# -- issue 34: tokens expire, and all can be revoked at once ------------------------------

def test_a_token_expires_when_the_teacher_chose_and_says_so(app, gm):
    from datetime import timedelta

    from facilitator.store.models import utcnow
    page = gm.get("/console/tokens").get_data(as_text=True)
    assert 'data-testid="token-days"' in page
    assert '<option value="30" selected>30 días</option>' in page
    for days in ("1", "365"):
        response = gm.post("/console/tokens", data={"label": f"d{days}", "days": days},
                           headers=ORIGIN)
        assert response.status_code == 200
    assert gm.post("/console/tokens", data={"label": "x", "days": "7"},
                   headers=ORIGIN).status_code == 400
    short = issue(gm, "corto")                      # the default: 30 days
    with database.session() as session:
        lives = {row.label: row.expires_at - row.created_at for row in session.query(ApiToken)}
    assert lives == {"d1": timedelta(days=1), "d365": timedelta(days=365),
                     "corto": timedelta(days=30)}
    script = Script(app, short)
    assert script.get("/api/v1/banks").status_code == 200
    with database.session() as session:
        row = session.query(ApiToken).filter_by(label="corto").one()
        row.expires_at = utcnow() - timedelta(minutes=1)
        end = row.expires_at
    refused = script.get("/api/v1/banks")
    assert refused.status_code == 401
    assert refused.get_json() == {"error": "unauthorized", "message": (
        f"the API token expired on {end:%Y-%m-%d %H:%M} UTC: issue a new one in the console "
        "(API tokens, /console/tokens)")}
    assert script.get("/api/propose?students=20").status_code == 401
    listed = gm.get("/console/tokens").get_data(as_text=True)
    assert "vencido" in listed


def test_revoking_every_token_at_once(app, gm):
    tokens = [issue(gm, f"t{n}") for n in range(3)]
    assert all(Script(app, t).get("/api/v1/games").status_code == 200 for t in tokens)
    page = gm.get("/console/tokens").get_data(as_text=True)
    assert 'data-testid="tokens-revoke-all"' in page
    # Logging out every console leaves the tokens working (they are revoked here).
    assert gm.post("/console/logout-all", headers=ORIGIN).status_code == 302
    assert all(Script(app, t).get("/api/v1/games").status_code == 200 for t in tokens)
    assert gm.post("/console/login", data={"secret": app.config["GM_PASSWORD"]}).status_code == 302
    done = gm.post("/console/tokens/revoke-all", headers=ORIGIN)
    assert done.status_code == 302 and "done=revoked_all" in done.headers["Location"]
    assert "Tokens revocados: 3." in gm.get(done.headers["Location"]).get_data(as_text=True)
    assert all(Script(app, t).get("/api/v1/games").status_code == 401 for t in tokens)
    again = gm.post("/console/tokens/revoke-all", headers=ORIGIN, json={})
    assert again.get_json() == {"ok": True, "revoked": 0}
    assert gm.post("/console/tokens/revoke-all",
                   headers={"Origin": "http://evil.example"}).status_code == 400
    assert app.test_client().post("/console/tokens/revoke-all", headers=ORIGIN).status_code == 302
