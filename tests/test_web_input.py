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
