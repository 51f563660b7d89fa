"""Issue 12, item 4: console sessions that end.

The GM's cookie holds only the secret of a session kept in the database:
logging out ends it (a copied cookie opens nothing), "log out every console"
ends them all, a session expires after its hours, a restarted server still
knows it, and the cookie of old releases (``{"gm": true}``) is refused.
"""
from __future__ import annotations

import threading
from contextlib import contextmanager
from datetime import timedelta

import pytest
from sqlalchemy import select, update

from facilitator import create_app
from facilitator.store import kept, sessions
from facilitator.store.models import ConsoleSession, utcnow

PASSWORD = "contraseña-de-prueba"
SETTINGS = {"teams": [{"name": f"Equipo {n}", "members": 4} for n in range(1, 5)]}
SAME_SITE = {"Origin": "http://localhost"}


@pytest.fixture(autouse=True)
def _fresh_cache():
    sessions.forget_cache()
    yield
    sessions.forget_cache()


def make_app(database_url, **config):
    """An app on the test's database (tests/conftest.py), with a GM password and the
    given configuration."""
    return create_app({"DATABASE_URL": database_url, "ASYNC_MODE": "threading",
                       "TESTING": True, "GM_PASSWORD": PASSWORD, **config})


def logged_in(app):
    client = app.test_client()
    response = client.post("/console/login", data={"secret": PASSWORD})
    assert response.status_code == 302, response.status_code
    return client


def copy_of(app, client):
    """Another browser holding a copy of ``client``'s session cookie (captured on the Wi-Fi)."""
    thief = app.test_client()
    thief.set_cookie("session", client.get_cookie("session").value)
    return thief


def opens_console(client) -> bool:
    response = client.get("/console")
    if response.status_code == 302:
        assert "/console/login" in response.headers["Location"]
        return False
    assert response.status_code == 200, response.status_code
    return True


def gm_socket_accepted(app, client, game_id: int) -> bool:
    from facilitator.extensions import socketio
    # Every app's Socket.IO server has the handlers (not only the first app's).
    assert "connect" in socketio.server.handlers.get("/", {})
    sio = socketio.test_client(app, flask_test_client=client, auth={"role": "gm", "game": game_id})
    try:
        return sio.is_connected()
    finally:
        if sio.is_connected():
            sio.disconnect()


def new_game(client) -> int:
    answer = client.post("/console/games", json={"name": "Sesiones", "settings": SETTINGS}).get_json()
    assert answer["ok"], answer
    return answer["game_id"]


def rows(app) -> list[ConsoleSession]:
    from facilitator.extensions import database
    with database.session() as session:
        found = list(session.scalars(select(ConsoleSession).order_by(ConsoleSession.id)))
        session.expunge_all()
        return found


def test_the_cookie_holds_a_secret_and_the_database_only_its_hash(database_url):
    app = make_app(database_url)
    client = logged_in(app)
    with client.session_transaction() as cookie:
        secret = cookie["gm"]
    assert isinstance(secret, str) and len(secret) >= 40
    [row] = rows(app)
    assert row.secret_hash == sessions.secret_hash(secret) != secret
    assert row.ended_at is None
    assert timedelta(hours=11, minutes=59) < row.expires_at - row.created_at <= timedelta(hours=12)


def test_logout_makes_a_copied_cookie_useless(database_url):
    app = make_app(database_url)
    gm = logged_in(app)
    game_id = new_game(gm)
    thief = copy_of(app, gm)
    assert opens_console(thief) and gm_socket_accepted(app, thief, game_id)

    response = gm.post("/console/logout", headers=SAME_SITE)
    assert response.status_code == 302 and "/console/login" in response.headers["Location"]
    assert rows(app)[0].ended_at is not None
    assert not opens_console(gm)
    assert not opens_console(thief)
    assert not gm_socket_accepted(app, thief, game_id)
    assert thief.get(f"/api/games/{game_id}/codes").status_code == 401
    assert thief.post("/console/games", json={"settings": SETTINGS},
                      headers=SAME_SITE).status_code == 401
    # Logging in again opens a new session; the old cookie stays dead.
    assert opens_console(logged_in(app)) and not opens_console(thief)


def test_a_get_or_another_sites_post_does_not_log_out(database_url):
    """«Salir» is a POST of this site's pages: a link or an image of another site (a GET),
    or another site's form, leaves the session open; the GET answers the button."""
    app = make_app(database_url)
    gm = logged_in(app)
    page = gm.get("/console/logout")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert 'method="post" action="/console/logout"' in text and "Salir de la consola" in text
    assert opens_console(gm) and rows(app)[0].ended_at is None
    assert gm.post("/console/logout", headers={"Origin": "http://evil.example"}).status_code == 400
    assert opens_console(gm) and rows(app)[0].ended_at is None
    # Every console page offers «Salir» as that form, never as a link.
    console = gm.get("/console").get_data(as_text=True)
    assert 'href="/console/logout"' not in console
    assert 'action="/console/logout"' in console and 'data-testid="logout"' in console
    assert gm.post("/console/logout", headers=SAME_SITE).status_code == 302
    assert not opens_console(gm)


def test_log_out_every_console_ends_the_sessions_of_every_client(database_url):
    app = make_app(database_url)
    laptop, tablet = logged_in(app), logged_in(app)
    game_id = new_game(laptop)
    assert opens_console(laptop) and opens_console(tablet)
    page = laptop.get("/console").get_data(as_text=True)
    assert 'action="/console/logout-all"' in page and "Cerrar la sesión en todas las consolas" in page
    assert "Log out every console" in laptop.get("/console?lang=en").get_data(as_text=True)

    # Not from another site, and not by someone who is not logged in.
    assert laptop.post("/console/logout-all", headers={"Origin": "http://evil.example"}
                       ).status_code == 400
    stranger = app.test_client().post("/console/logout-all", headers=SAME_SITE)
    assert stranger.status_code == 302 and "/console/login" in stranger.headers["Location"]
    assert opens_console(laptop) and opens_console(tablet)

    response = laptop.post("/console/logout-all", headers=SAME_SITE)
    assert response.status_code == 302 and response.headers["Location"].endswith("/console/login")
    assert not opens_console(laptop) and not opens_console(tablet)
    assert not gm_socket_accepted(app, tablet, game_id)
    assert all(row.ended_at is not None for row in rows(app))
    assert opens_console(logged_in(app))         # a new login works


def test_a_session_expires_after_its_hours(database_url, monkeypatch):
    app = make_app(database_url, SESSION_HOURS=0.5)
    gm = logged_in(app)
    [row] = rows(app)
    assert row.expires_at - row.created_at == timedelta(minutes=30)
    assert opens_console(gm)
    from facilitator.extensions import database
    with database.session() as session:      # half an hour later...
        session.execute(update(ConsoleSession).values(expires_at=utcnow() - timedelta(seconds=1)))
    monkeypatch.setattr(kept, "clock", lambda: 1e12)     # ...and the cache's seconds too
    assert not opens_console(gm)


def test_the_session_hours_come_from_the_environment(database_url, monkeypatch):
    monkeypatch.setenv("FACILITATOR_SESSION_HOURS", "3")
    app = make_app(database_url)
    assert app.config["SESSION_HOURS"] == 3
    assert app.config["PERMANENT_SESSION_LIFETIME"] == timedelta(hours=3)
    client = app.test_client()
    response = client.post("/console/login", data={"secret": PASSWORD})
    assert "Expires=" in response.headers["Set-Cookie"]         # the cookie expires too
    [row] = rows(app)
    assert row.expires_at - row.created_at == timedelta(hours=3)
    for wrong in ("0", "-1", "doce", "nan", "1e9"):
        monkeypatch.setenv("FACILITATOR_SESSION_HOURS", wrong)
        with pytest.raises(ValueError, match="FACILITATOR_SESSION_HOURS"):
            make_app(database_url)


def test_a_restarted_server_still_knows_the_session(database_url, tmp_path, monkeypatch):
    # The signing key comes from the instance folder, as under ``facilitator serve``.
    monkeypatch.setenv("FACILITATOR_INSTANCE", str(tmp_path / "instance"))
    first = make_app(database_url)
    gm = logged_in(first)
    game_id = new_game(gm)
    cookie = gm.get_cookie("session").value
    sessions.forget_cache()                  # a new process remembers nothing
    second = make_app(database_url)              # same database, same instance folder
    assert second is not first
    browser = second.test_client()
    browser.set_cookie("session", cookie)
    assert opens_console(browser)
    assert gm_socket_accepted(second, browser, game_id)


def test_the_cookie_of_old_releases_is_refused(database_url):
    app = make_app(database_url)
    game_id = new_game(logged_in(app))
    old = app.test_client()
    with old.session_transaction() as cookie:
        cookie["gm"] = True
        cookie.permanent = True
    assert not opens_console(old)
    assert not gm_socket_accepted(app, old, game_id)
    assert old.get(f"/api/games/{game_id}/codes").status_code == 401


def test_positive_answers_are_remembered_a_few_seconds_at_most(database_url, monkeypatch):
    """Another process's logout (simulated: the row ended behind this process's back)
    takes effect here within ``CACHE_SECONDS``; this process's own logout at once."""
    make_app(database_url)
    from facilitator.extensions import database
    now = [1000.0]
    monkeypatch.setattr(kept, "clock", lambda: now[0])
    secret = sessions.open_session(database, 12)
    assert sessions.session_is_valid(database, secret)
    with database.session() as session:
        session.execute(update(ConsoleSession).values(ended_at=utcnow()))
    assert sessions.session_is_valid(database, secret)          # remembered...
    now[0] += sessions.CACHE_SECONDS
    assert not sessions.session_is_valid(database, secret)      # ...a few seconds only
    assert 0 < sessions.CACHE_SECONDS <= 10

    other = sessions.open_session(database, 12)
    assert sessions.session_is_valid(database, other)
    assert sessions.end_session(database, other)
    assert not sessions.session_is_valid(database, other)       # at once in this process
    assert not sessions.end_session(database, other)
    for nonsense in (None, "", True, "x" * 500, "ñ", 42):
        assert not sessions.session_is_valid(database, nonsense)
    a, b = sessions.open_session(database, 12), sessions.open_session(database, 12)
    assert sessions.end_all_sessions(database) == 2
    assert not sessions.session_is_valid(database, a) and not sessions.session_is_valid(database, b)


def test_the_console_after_a_login_asks_the_database_nothing_about_the_session(database_url):
    from sqlalchemy import event

    from facilitator.extensions import database
    app = make_app(database_url)
    client = logged_in(app)
    asked = []

    def looked_up(_conn, _cursor, statement, *_args):
        if "console_sessions" in statement:
            asked.append(statement)
    event.listen(database.engine, "before_cursor_execute", looked_up)
    try:
        assert opens_console(client)
        assert gm_socket_accepted(app, client, new_game(client))
    finally:
        event.remove(database.engine, "before_cursor_execute", looked_up)
    assert asked == []                  # the login opened it here: remembered


def test_a_console_in_use_is_kept_remembered_and_a_logout_elsewhere_still_counts(database_url, 
        tmp_path, monkeypatch):
    """The server asks every CACHE_SECONDS / 2 about the sessions it remembers (one
    query): an open one is never found expired by the GM's next action, one ended by
    another process is forgotten at that refresh, one ended here stays ended."""
    make_app(database_url)
    from facilitator.extensions import database
    now = [1000.0]
    monkeypatch.setattr(kept, "clock", lambda: now[0])
    in_use, ended_elsewhere, ended_here = (sessions.open_session(database, 12)
                                           for _ in range(3))
    for secret in (in_use, ended_elsewhere, ended_here):
        assert sessions.session_is_valid(database, secret)
    with database.session() as session:      # another process's logout
        session.execute(update(ConsoleSession).where(
            ConsoleSession.secret_hash == sessions.secret_hash(ended_elsewhere))
            .values(ended_at=utcnow()))
    asked = []
    real_read = database.read

    class Answered:
        def __init__(self, rows):
            self.rows = rows

        def all(self):
            return self.rows

    class Connection:
        def execute(self, statement):
            with real_read() as connection:
                rows = connection.execute(statement).all()
            # This process ends a session after the database answered (still open).
            assert sessions.end_session(database, ended_here)
            return Answered(rows)

    @contextmanager
    def read():
        asked.append(1)
        yield Connection()
    monkeypatch.setattr(database, "read", read)
    now[0] += sessions.CACHE_SECONDS / 2
    assert sessions.refresh_remembered(database) == 1
    monkeypatch.setattr(database, "read", real_read)
    assert len(asked) == 1                                      # one query for all
    now[0] += sessions.CACHE_SECONDS - 0.1    # past the first answer's trust, not the refresh's
    lookups = []
    monkeypatch.setattr(database, "read", lambda: lookups.append(1) or real_read())
    assert sessions.session_is_valid(database, in_use) and lookups == []
    assert not sessions.session_is_valid(database, ended_elsewhere)
    assert not sessions.session_is_valid(database, ended_here)
    assert sessions.refresh_remembered(database) == 1


def test_off_the_loop_is_a_plain_call_unless_the_app_runs_under_gevent(database_url):
    from flask import Flask

    from facilitator.web.offload import off_the_loop
    here = threading.get_ident()
    assert off_the_loop(threading.get_ident) == here                 # outside any app
    app = make_app(database_url)
    with app.app_context():
        assert off_the_loop(threading.get_ident) == here             # threading mode
    gevent_app = Flask("offload")
    gevent_app.config["ASYNC_MODE"] = "gevent"
    import gevent
    with gevent_app.app_context():
        assert off_the_loop(threading.get_ident) != here             # gevent's thread pool
        assert off_the_loop(divmod, 7, 2) == (3, 1)
        with pytest.raises(ZeroDivisionError):
            off_the_loop(divmod, 1, 0)
    gevent.get_hub().threadpool.kill()


def test_a_gm_connection_open_at_logout_acts_no_more(database_url):
    """Logging out (or out of every console) also closes a console already connected."""
    from facilitator.extensions import socketio
    app = make_app(database_url)
    gm = logged_in(app)
    game_id = new_game(gm)
    sio = socketio.test_client(app, flask_test_client=gm, auth={"role": "gm", "game": game_id})
    try:
        assert sio.is_connected()
        before = sio.emit("act", {"id": "a1", "action": {"do": "declare", "mode": "normal"}},
                          callback=True)
        assert before["ok"], before
        assert gm.post("/console/logout", headers=SAME_SITE).status_code == 302
        # Closed by the logout itself, before it sends anything (tests/live: what it
        # receives no more).
        assert not sio.is_connected()
    finally:
        if sio.is_connected():
            sio.disconnect()
