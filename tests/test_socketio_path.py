"""Socket.IO events run in a request context that matches a URL rule (live/contexts.py).

Without the rule every connection and every event raised and kept a NotFound
(a reference cycle the garbage collector alone frees); the rule must not take
the path from Socket.IO itself.
"""
import gc

from facilitator.extensions import socketio


def test_the_socketio_path_matches_a_rule_for_every_method_socketio_uses(app):
    adapter = app.url_map.bind("localhost")
    for path in ("/socket.io/", "/socket.io"):
        for method in ("GET", "POST"):
            assert adapter.match(path, method=method)[0] == "socketio_path"


def test_socketio_still_answers_its_path(app):
    # The rule's view is never reached: the Socket.IO middleware answers first.
    response = app.test_client().get("/socket.io/?EIO=4&transport=polling")
    assert response.status_code == 200
    assert response.get_data(as_text=True).startswith('0{"sid":')


def test_a_team_connection_leaves_no_request_behind_for_the_collector(app, gm):
    teams = [{"name": f"Equipo {n}", "members": 4} for n in (1, 2, 3, 4)]
    game = gm.post("/console/games", json={"name": "Sin basura", "settings": {"teams": teams}})
    codes = gm.get(f"/api/games/{game.get_json()['game_id']}/codes").get_json()
    device = app.test_client()
    assert device.get("/j/" + codes["teams"][0]["code"]).status_code == 302
    token = device.get_cookie("team_token").value
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        clients = [socketio.test_client(app, auth={"role": "team", "token": token})
                   for _ in range(5)]
        gc.collect()
        kept = {type(o).__name__ for o in gc.garbage}
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert all(client.is_connected() for client in clients)
    assert not kept & {"NotFound", "RequestContext", "Request"}, sorted(kept)


def _websocket_environ(app) -> dict:
    """The environ Flask-SocketIO keeps for a tablet's WebSocket: its upgrade request."""
    from werkzeug.test import EnvironBuilder
    return EnvironBuilder(path="/socket.io/", query_string="EIO=4&transport=websocket",
                          headers={"Upgrade": "websocket", "Connection": "Upgrade"}).get_environ()


def test_the_socketio_path_matches_a_rule_for_a_websocket_too(app):
    # werkzeug binds an upgrade request as ws://: only a WebSocket rule matches it.
    adapter = app.url_map.bind_to_environ(_websocket_environ(app))
    assert adapter.websocket
    assert adapter.match()[0] == "socketio_websocket"


def test_an_event_on_a_websocket_leaves_nothing_for_the_collector(app):
    # Every event of a WebSocket connection runs in a request context made from that
    # environ; a WebsocketMismatch raised there is a reference cycle per event.
    environ = _websocket_environ(app)
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for _ in range(20):
            with app.request_context(environ):
                pass
        gc.collect()
        kept = {type(o).__name__ for o in gc.garbage}
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert not kept & {"WebsocketMismatch", "NotFound", "RequestContext", "Request",
                       "traceback"}, sorted(kept)


def test_a_connection_s_session_cookie_is_read_once_not_at_every_event(app, gm, monkeypatch):
    # Every event of a connection runs with its handshake's environ: its (GM's) signed
    # cookie is verified and decoded at its first event only; a page still reads its own.
    from flask.sessions import SecureCookieSessionInterface
    teams = [{"name": f"Equipo {n}", "members": 4} for n in (1, 2, 3, 4)]
    game_id = gm.post("/console/games", json={"name": "Una vez",
                                              "settings": {"teams": teams}}).get_json()["game_id"]
    opened = []
    read = SecureCookieSessionInterface.open_session
    monkeypatch.setattr(SecureCookieSessionInterface, "open_session",
                        lambda self, app, request: opened.append(request.path) or
                        read(self, app, request))
    console = socketio.test_client(app, flask_test_client=gm, auth={"role": "gm", "game": game_id})
    assert console.is_connected() and opened == ["/socket.io"]
    for n in range(5):
        answer = console.emit("act", {"id": f"a{n}", "action": {
            "do": "adjust", "team": 1, "points": 1, "reason": "Participación"}}, callback=True)
        assert answer["ok"], answer
    assert opened == ["/socket.io"]
    assert gm.get("/console").status_code == 200 and opened[-1] == "/console"
