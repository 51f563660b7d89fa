"""Hostile HTTP input to the console and the API gets a clear 4xx, never a 500."""
import pytest

from facilitator import create_app
from facilitator.games.partida import Refusal, parse_action, parse_settings

TEAMS = [{"name": f"E{n}", "members": 4} for n in range(1, 5)]


@pytest.fixture
def gm(tmp_path):
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path}/w.db", "GM_PASSWORD": "k",
                      "ASYNC_MODE": "threading", "TESTING": True})
    client = app.test_client()
    assert client.post("/console/login", data={"secret": "k"}).status_code == 302
    return client


@pytest.mark.parametrize("body", [
    {"settings": {"teams": TEAMS}, "bank_id": "²"},
    {"settings": {"teams": TEAMS}, "bank_id": "99999999999999999999999"},
    {"settings": {"teams": TEAMS}, "bank_id": None, "name": "clase \ud800"},
    {"settings": {"teams": [{"name": "x\ud800", "members": 4}] + TEAMS[1:]}},
    {"settings": "nope"},
])
def test_set_up_refuses_bad_input_with_a_reason(gm, body):
    response = gm.post("/console/games", json=body)
    assert response.status_code == 400
    assert response.get_json()["error"] == "format"
    assert gm.get("/console").status_code == 200


def test_deeply_nested_json_is_refused(gm):
    body = '{"settings": ' + "[" * 100000 + "]" * 100000 + "}"
    response = gm.post("/console/games", data=body, content_type="application/json")
    assert response.status_code == 400
    assert gm.post("/api/check-settings", data=body,
                   content_type="application/json").get_json()["ok"] is False


@pytest.mark.parametrize("students", ["²", "٣", "-4", "1e3", "99999", ""])
def test_propose_refuses_what_is_not_a_number_of_students(gm, students):
    assert gm.get(f"/api/propose?students={students}").status_code == 400


def test_the_engine_refuses_text_that_is_not_unicode():
    for action in ({"do": "spokesperson", "team": 1, "name": "Ana\ud800"},
                   {"do": "write", "team": 1, "text": "\udfff"},
                   {"do": "adjust", "team": 1, "points": 1, "reason": "x\ud800"}):
        with pytest.raises(Refusal) as caught:
            parse_action(action)
        assert caught.value.rule == "format"
    with pytest.raises(Refusal):
        parse_settings({"teams": [{"name": "\ud800", "members": 4}] + TEAMS[1:]})


def test_behind_a_trusted_proxy_rate_limits_count_per_student_address(tmp_path):
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path}/p.db", "ASYNC_MODE": "threading",
                      "TESTING": True, "TRUSTED_PROXIES": 1, "JOIN_ATTEMPTS_PER_MINUTE": 2})
    client = app.test_client()
    for student in range(5):      # five students behind one proxy, two attempts each
        for _ in range(2):
            response = client.get("/j/NOPE0000",
                                  headers={"X-Forwarded-For": f"10.0.0.{student}"})
            assert response.status_code == 404
    assert client.get("/j/NOPE0000", headers={"X-Forwarded-For": "10.0.0.1"}).status_code == 429


def test_the_async_mode_is_never_eventlet_nor_guessed(tmp_path):
    """Issue 6: gevent for the server, threading in-process; anything else is refused."""
    import pytest
    from facilitator import create_app
    for mode in ("eventlet", None, ""):
        with pytest.raises(ValueError, match="gevent"):
            create_app({"DATABASE_URL": f"sqlite:///{tmp_path}/m.db", "ASYNC_MODE": mode})


# -- issue 34: error pages in the page's language, JSON errors for JSON routes -------------

@pytest.mark.parametrize("path, back", [
    ("/projector/NOPE-NOPE", "to-home"), ("/p/xyz", "to-home"),
    ("/console/no-such-page", "to-console"), ("/console/99999", "to-console"),
    ("/g/abc/img/1", "to-join"), ("/static/none.css", "to-home")])
def test_a_wrong_address_gets_a_spanish_page_with_a_way_back(gm, path, back):
    page = gm.get(path)
    assert page.status_code == 404
    assert page.mimetype == "text/html"
    body = page.get_data(as_text=True)
    assert "No se encontró esta página" in body and "Not Found" not in body
    assert f'data-testid="{back}"' in body and '<html lang="es">' in body
    english = gm.get(path + "?lang=en").get_data(as_text=True)
    assert "Page not found" in english and '<html lang="en">' in english


def test_a_wrong_join_code_stays_on_the_join_page(gm):
    page = gm.get("/j/NOPE0000")
    assert page.status_code == 404
    assert 'Ese código no lleva a ninguna partida. Rev' in page.get_data(as_text=True)          # join.unknown, in Spanish
    assert 'value="NOPE-0000"' in page.get_data(as_text=True)


def test_a_wrong_method_and_a_bad_request_get_pages_too(gm):
    page = gm.get("/console/logout-all")
    assert page.status_code == 405
    assert "Esta página no acepta esa acción" in page.get_data(as_text=True)
    page = gm.post("/console/games", data="x", headers={"Origin": "http://evil.example"})
    assert page.status_code == 400
    assert "La solicitud no es válida" in page.get_data(as_text=True)


@pytest.mark.parametrize("path", ["/api/nothing", "/api/v1/nothing",
                                  "/console/classes/99999.json", "/console/99999/results.json"])
def test_json_routes_keep_json_errors(gm, path):
    answer = gm.get(path)
    assert answer.status_code == 404 and answer.mimetype == "application/json"
    assert answer.get_json()["error"] == "not_found"
    asked = gm.get("/console/none", headers={"Accept": "application/json"})
    assert asked.status_code == 404 and asked.get_json()["error"] == "not_found"


# -- issue 34: one word for the console secret; the hint names the command run -------------

@pytest.mark.parametrize("launcher, command", [
    (None, "facilitator serve"), ("./scripts/run", "./scripts/run"),
    ("rm -rf /", "facilitator serve")])
def test_the_login_page_calls_it_the_console_secret_and_names_the_command(tmp_path, monkeypatch,
                                                                         launcher, command):
    if launcher is None:
        monkeypatch.delenv("FACILITATOR_COMMAND", raising=False)
    else:
        monkeypatch.setenv("FACILITATOR_COMMAND", launcher)
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path}/l.db", "ASYNC_MODE": "threading",
                      "TESTING": True})
    page = app.test_client().get("/console/login").get_data(as_text=True)
    assert "Clave de la consola" in page and "Contraseña" not in page
    assert f"({command})" in page and "facilitator password" in page
    english = app.test_client().get("/console/login?lang=en").get_data(as_text=True)
    assert "Console secret" in english and f"({command})" in english
    wrong = app.test_client().post("/console/login", data={"secret": "no"})
    assert "Clave incorrecta." in wrong.get_data(as_text=True)


def test_the_set_up_deal_and_a_class_list_tell_namesakes_apart(gm):
    dealt = gm.post("/api/deal", json={"names": ["Ana García", "Bruno", "ana  garcía", "Carla"],
                                       "sizes": [2, 2]}).get_json()["teams"]
    assert sorted(sum(dealt, [])) == ["Ana García", "Bruno", "Carla", "ana garcía (2)"]
    roster = [["Ana", "Bea", "Ceci", "Dani"], ["Eli", "Ana", "Gus", "Hugo"],
              ["Ines", "Juan", "Kike", "Lola"], ["Mar", "Nico", "Olga", "Pepe"]]
    made = gm.post("/console/games", json={"name": "Homónimos", "settings": {"teams": TEAMS},
                                           "roster": roster}).get_json()
    from facilitator.extensions import store
    assert store.row(made["game_id"]).settings["roster"][1][1] == "Ana (2)"
