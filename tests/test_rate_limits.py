"""Join codes and console logins are rate limited per address, and only failures count."""
from __future__ import annotations

import secrets

from facilitator import create_app
from services import redis_url

SETTINGS = {"teams": [{"name": f"Equipo {n}", "members": 4} for n in range(1, 5)]}
PASSWORD = "contraseña-de-prueba"


def make_app(database_url, **config):
    """An app on the test's database (tests/conftest.py), with a GM password and the
    given configuration."""
    return create_app({"DATABASE_URL": database_url, "ASYNC_MODE": "threading",
                       "TESTING": True, "GM_PASSWORD": PASSWORD, **config})


def a_join_code(app) -> str:
    client = app.test_client()
    client.post("/console/login", data={"secret": PASSWORD})
    game = client.post("/console/games", json={"name": "Límites", "settings": SETTINGS}).get_json()
    assert game["ok"], game
    return client.get(f"/api/games/{game['game_id']}/codes").get_json()["teams"][0]["code"]


def test_right_codes_never_count_and_wrong_ones_use_up_the_allowance(database_url):
    app = make_app(database_url, JOIN_ATTEMPTS_PER_MINUTE=5)
    code = a_join_code(app)
    classroom = app.test_client()
    for _ in range(12):         # a whole class joining from one address: never held back
        assert classroom.get(f"/j/{code}").status_code == 302
    guesser = app.test_client()
    for attempt in range(5):
        typed = guesser.post("/join", data={"code": f"ZZZZ{attempt:04d}"})
        assert typed.status_code == 404
    refused = guesser.get(f"/j/{code}")             # the right code waits too, now
    assert refused.status_code == 429
    assert "team_token" not in refused.headers.get("Set-Cookie", "")
    assert "Demasiados intentos" in refused.get_data(as_text=True)


def test_only_wrong_passwords_count_towards_the_login_limit(database_url):
    app = make_app(database_url)
    teacher = app.test_client()
    for _ in range(15):                              # logging in again and again is fine
        assert teacher.post("/console/login", data={"secret": PASSWORD}).status_code == 302
    for _ in range(10):
        assert teacher.post("/console/login", data={"secret": "adivina"}).status_code == 401
    assert teacher.post("/console/login", data={"secret": PASSWORD}).status_code == 429
    assert teacher.get("/console/login").status_code == 200     # the form still shows


def test_with_a_message_queue_the_counts_are_shared_by_every_process(database_url):
    storage = redis_url()
    prefix = "test-limits-" + secrets.token_hex(4)
    first = make_app(database_url, RATELIMIT_STORAGE_URI=storage, RATE_LIMIT_PREFIX=prefix,
                     JOIN_ATTEMPTS_PER_MINUTE=4)
    guesser = first.test_client()
    for attempt in range(4):
        assert guesser.get(f"/j/ZZZZ{attempt:04d}").status_code == 404
    # Another process (here: another app bound to the same Redis) sees the same count.
    second = make_app(database_url, RATELIMIT_STORAGE_URI=storage, RATE_LIMIT_PREFIX=prefix,
                      JOIN_ATTEMPTS_PER_MINUTE=4)
    assert second.test_client().get("/j/ZZZZ9999").status_code == 429
