"""Nobody where they don't belong: the whole matrix of actions x roles x teams, and the doors.

R-G4: the GM may do anything; a team's device only its own team's part, and
only where the rules make it the team to act; the projector only watches.
Then the doors: Socket.IO authentication and origin, the console's login,
join codes and their rate limit, cross-site form posts.
"""
import dataclasses
import re
from pathlib import Path

import pytest
import requests
import socketio
from flask import Flask

from campaigns import (WEBSOCKET_OPTIONS, LiveClient, as_json, cookie_header, fetch_record,
                       join_token, quick_close, start_server)
from facilitator.games.partida import ACTION_TYPES, Refusal, replay
from facilitator.live.audience import issue_device_token
from facilitator.store.codes import CODE_ALPHABET, JOIN_CODE_LENGTH
from server import GM_PASSWORD, Server, socketio_client

SETTINGS = {"teams": [{"name": f"Equipo {n}", "members": 4} for n in range(1, 5)],
            "round_modes": [["simple", "risky"]], "deliberation_seconds": 60}
TEAM_FIELD = (1, 2, 3, 4, 9)          # 9: a forged team number
ROLES = ("gm", 1, 2, 3, 4, "projector")


def act(do, **fields):
    return {"do": do, **fields}


# --------------------------------------------------------------------------- the matrix

def has_team_field(do: str) -> bool:
    return any(f.name == "team" for f in dataclasses.fields(ACTION_TYPES[do]))


def plausible(do: str, team: int | None, game) -> dict:
    """An action of kind ``do`` with fields of the right form for this game."""
    state = game.state
    unused = [q for q in state.questions.values() if q.id not in state.used]
    turn = state.turn
    asked = [q for q in unused if (q.author, q.type) == (turn.author, turn.type)] or unused
    fields = {
        "declare": {"mode": "simple", "target": 2}, "desvio": {"target": 3},
        "choose": {"author": unused[0].author, "type": unused[0].type},
        "question": {"id": asked[0].id}, "write": {"text": "V"}, "more_time": {"seconds": 30},
        "verdict": {"result": "half"}, "pick": {"card": "author"}, "written": {"correct": True},
        "argument": {"result": "good"}, "spokesperson": {"name": "Ana"},
        "representative": {"name": "Luis"}, "adjust": {"points": 1, "reason": "Matriz"},
        "exchange": {"give": ["author:Kant", "type:vf", "type:vf"], "take": "desvio"},
    }.get(do, {})
    if team is not None:
        fields = {"team": team, **fields}
    return act(do, **fields)


def every_action(game):
    for do in sorted(ACTION_TYPES):
        for team in (TEAM_FIELD if has_team_field(do) else (None,)):
            yield plausible(do, team, game)


def expected(role, action: dict, game) -> str:
    """What the server must answer ``role`` (R-G4), else the engine's answer."""
    if role == "projector":
        return "R-G4"
    if role != "gm":
        turn = game.state.turn
        if ACTION_TYPES[action["do"]].gm_only:
            return "R-G4"
        if "team" in action and action["team"] != role:
            return "R-G4"
        if action["do"] == "declare" and turn.host != role:
            return "R-G4"
        if action["do"] == "choose" and turn.chooser != role:
            return "R-G4"
    try:
        game.check(action)
    except Refusal as refusal:
        return refusal.rule
    return "ok"


class Matrix:
    """A game with every role connected, a local copy of it, and the cells walked so far."""

    def __init__(self, server: Server, http: requests.Session):
        self.server, self.http = server, http
        self.game_id = server.create_game(http, SETTINGS, name="Matriz")
        codes = http.get(f"{server.url}/api/games/{self.game_id}/codes", timeout=10).json()
        self.gm = LiveClient(server.url, {"role": "gm", "game": self.game_id},
                             cookies=cookie_header(http)).connect()
        self.clients = {"gm": self.gm, "projector": LiveClient(
            server.url, {"role": "projector", "watch": codes["watch"]}).connect()}
        for link in codes["teams"]:
            token = join_token(server.url, link["code"])
            self.clients[link["team"]] = LiveClient(server.url,
                                                    {"role": "team", "token": token}).connect()
        # The GM's count of devices comes a moment after they connect: wait for it, so
        # that no message but those of the actions reaches the GM during the walk.
        self.gm.wait_for(lambda s: len(s["devices"]) == len(codes["teams"]))
        # A later burst's count may still be on its way (each connection's, gathered a
        # moment): the walk starts once no message has come for a while (bounded).
        import time
        heard, deadline = -1, time.monotonic() + 5
        while len(self.gm.states) != heard and time.monotonic() < deadline:
            heard = len(self.gm.states)
            time.sleep(0.7)
        self.game = replay(fetch_record(server, http, self.game_id))
        self.cells = {"ok": 0, "refused": 0}
        self.failures: list[str] = []

    def gm_state(self) -> dict:
        seq = self.gm.call("sync", {"seq": -1})["seq"]
        state = self.gm.last
        assert state["seq"] == seq
        return state

    def play(self, action: dict) -> None:
        """The GM moves the game on (the local copy too)."""
        ack = self.gm.act(action)
        assert ack["ok"], (action, ack)
        self.game.play(action)

    def walk(self, label: str) -> None:
        """Every action, by every role, for every team number, here; then check nothing moved."""
        from facilitator.games.partida.views import gm_view
        before = self.gm_state()
        assert as_json(before["view"]) == as_json(gm_view(self.game.state)), "local copy"
        seq, view = before["seq"], as_json(before["view"])
        received = len(self.gm.states)
        for role in ROLES:
            for action in every_action(self.game):
                want = expected(role, action, self.game)
                ack = self.clients[role].act(action)
                got = "ok" if ack.get("ok") else ack.get("error")
                cell = f"{label}: {role} sends {action}: expected {want}, got {ack}"
                if got != want or (want != "ok" and not ack.get("message")):
                    self.failures.append(cell)
                if ack.get("ok"):
                    self.cells["ok"] += 1
                    # A verdict while the writing is open comes after its own time_up
                    # (R-G1): two actions, taken back by two undos.
                    locked_first = ack["seq"] - seq - 1
                    assert locked_first == 0 or (locked_first == 1
                                                 and action["do"] == "verdict"), cell
                    if locked_first:
                        self.game.play(act("time_up"))
                    self.game.play(action)
                    undos = ([act("redo")] if action["do"] == "undo"
                             else [act("undo")] * (1 + locked_first))
                    for undo in undos:              # take it back for the next cell
                        back = self.gm.act(undo)
                        assert back["ok"], (cell, back)
                        self.game.play(undo)
                    seq += 2 * (1 + locked_first)
                    self.gm.wait_seq(seq)       # every broadcast is in
                    received = len(self.gm.states)
                else:
                    self.cells["refused"] += 1
                # Nothing moved: the same seq, and no state broadcast to the GM meanwhile.
                if self.gm.call("sync", {"seq": seq})["seq"] != seq or len(self.gm.states) \
                        != received:
                    self.failures.append(f"{cell}: the game changed")
                    now = self.gm_state()
                    view, seq, received = as_json(now["view"]), now["seq"], len(self.gm.states)
            now = self.gm_state()           # and the GM's whole view, after each role
            received = len(self.gm.states)
            if now["seq"] != seq or as_json(now["view"]) != view:
                self.failures.append(f"{label}: the game changed while {role} acted")
                view, seq = as_json(now["view"]), now["seq"]

    def close(self):
        quick_close(*self.clients.values())


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """This module's own server (its join and login limits are counted per process). The
    walk sends every action from every role back to back: its flood limits are raised."""
    srv = start_server(Server(tmp_path_factory.mktemp("instance"),
                              env={"FACILITATOR_SOCKET_RATE_SCALE": "1000"}))
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def http(server):
    session = server.gm_session()
    yield session
    session.close()


def test_every_action_by_every_role_for_every_team(server, http):
    matrix = Matrix(server, http)
    try:
        matrix.walk("before a declaration")
        matrix.play(act("declare", mode="simple", target=2))
        matrix.walk("a challenge's prepare step")
        pair = next(entry for entry in matrix.game.legal_actions() if entry.do == "choose")
        choice = pair.options["choices"][0]
        matrix.play(act("choose", author=choice["author"], type=choice["type"]))
        ids = next(e for e in matrix.game.legal_actions() if e.do == "question").options["ids"]
        matrix.play(act("question", id=ids[0]))
        matrix.play(act("write", team=2, text="V"))
        matrix.walk("deliberation")
        matrix.play(act("verdict", result="half"))
        matrix.walk("a pick")
        assert not matrix.failures, "\n".join(matrix.failures[:20])
        cells = matrix.cells["ok"] + matrix.cells["refused"]
        assert cells == 4 * len(ROLES) * sum(len(TEAM_FIELD) if has_team_field(do) else 1
                                             for do in ACTION_TYPES)
        assert matrix.cells["ok"] > 50 and matrix.cells["refused"] > 1000
    finally:
        matrix.close()


# --------------------------------------------------------------------------- Socket.IO doors

def refused(server: Server, auth, headers=None, origin=None) -> bool:
    """Whether a Socket.IO connection with ``auth``, ``headers`` and ``origin`` is refused.

    websocket-client sends its own ``Origin`` (the server's address) unless told
    not to: an ``Origin`` passed only in ``headers`` would be sent twice.
    """
    options = dict(WEBSOCKET_OPTIONS)
    if origin is not None:
        headers = {**(headers or {}), "Origin": origin}
        options["suppress_origin"] = True
    client = socketio_client(websocket_extra_options=options)
    states = []
    client.on("state", states.append)
    try:
        client.connect(server.url, auth=auth, headers=headers or {}, transports=["websocket"],
                       wait_timeout=5)
    except socketio.exceptions.ConnectionError:
        return not states
    finally:
        quick_close(client)
    return False


def test_socketio_connections_authenticate_and_check_the_origin(server, http):
    game_id = server.create_game(http, SETTINGS, name="Puertas")
    codes = http.get(f"{server.url}/api/games/{game_id}/codes", timeout=10).json()
    token = join_token(server.url, codes["teams"][0]["code"])
    cookie = {"Cookie": cookie_header(http)}
    key = (Path(server.instance) / "secret_key").read_text().strip()
    # The doors open for the right keys...
    assert not refused(server, {"role": "gm", "game": game_id}, cookie)
    assert not refused(server, {"role": "team", "token": token})
    assert not refused(server, {"role": "projector", "watch": codes["watch"]})
    # ...and for nothing else.
    for auth, headers in [
        (None, None), ({}, None), ({"role": "admin"}, None), ({"role": None}, None),
        ({"role": "team"}, None), ({"role": "team", "token": "forged"}, None),
        ({"role": "team", "token": token[:-2] + ("AA" if token[-2:] != "AA" else "BB")}, None),
        ({"role": "team", "token": issue_device_token("another-key", game_id, 1)}, None),
        ({"role": "team", "token": issue_device_token("another-key", 999, 1)}, None),
        ({"role": "team", "token": issue_device_token(key, 999, 1)}, None),   # no such game
        ({"role": "team", "token": 12345}, None),
        ({"role": "team", "token": "x" * 5000}, None),
        ({"role": "team"}, {"Cookie": "team_token=forged"}),
        ({"role": "gm", "game": game_id}, None),                       # no console session
        ({"role": "gm", "game": game_id}, {"Cookie": "session=forged"}),
        ({"role": "gm", "game": game_id}, {"Cookie": "team_token=" + token}),
        ({"role": "gm", "game": 999}, cookie), ({"role": "gm", "game": str(game_id)}, cookie),
        ({"role": "gm", "game": True}, cookie), ({"role": "gm"}, cookie),
        ({"role": "projector", "watch": "ABCDEFGHJKMN"}, None),
        ({"role": "projector", "watch": 123}, None), ({"role": "projector"}, None),
        ({"role": "projector", "watch": codes["watch"] + "X" * 100}, None),
        ({"role": "projector", "watch": codes["teams"][0]["code"]}, None),  # a team's code
    ]:
        assert refused(server, auth, headers), (auth, headers)
    # A page of another site cannot open a connection, whatever it holds.
    for evil in ("http://evil.example", server.url.replace("127.0.0.1", "localhost"),
                 server.url + ".evil.example", "null"):
        assert refused(server, {"role": "gm", "game": game_id}, cookie, origin=evil), evil
        assert refused(server, {"role": "team", "token": token}, origin=evil), evil
        assert refused(server, {"role": "projector", "watch": codes["watch"]}, origin=evil)
    assert not refused(server, {"role": "team", "token": token}, origin=server.url)
    assert not refused(server, {"role": "gm", "game": game_id}, cookie, origin=server.url)


def test_an_open_connection_cannot_change_who_it_is(server, http):
    game_id = server.create_game(http, SETTINGS, name="Identidad")
    codes = http.get(f"{server.url}/api/games/{game_id}/codes", timeout=10).json()
    token = join_token(server.url, codes["teams"][0]["code"])
    projector = LiveClient(server.url, {"role": "projector", "watch": codes["watch"]}).connect()
    gm = LiveClient(server.url, {"role": "gm", "game": game_id},
                    cookies=cookie_header(http)).connect()
    try:
        # Events named like the connection's own: no second authentication, no leaving.
        again = projector.call("connect", ("x", {"role": "team", "token": token}))
        assert (again["ok"], again["error"]) == (False, "format")
        assert projector.call("connect", ("x", {"role": "gm", "game": game_id}))["ok"] is False
        assert projector.act(act("spokesperson", team=1, name="Ana"))["error"] == "R-G4"
        assert projector.call("disconnect", ("x",))["ok"] is False
        assert projector.act(act("spokesperson", team=1, name="Ana"))["error"] == "R-G4"
        assert gm.call("sync", {"seq": -1})["seq"] == 0
    finally:
        quick_close(projector, gm)
    log = (Path(server.instance) / f"server-{server.port}.log").read_text(errors="replace")
    assert "Traceback" not in log


# --------------------------------------------------------------------------- HTTP doors

def gm_routes() -> list[tuple[str, str]]:
    """Every (method, rule) of the console and the API, from the app's own URL map."""
    from facilitator.web import register_blueprints
    app = Flask("routes")
    register_blueprints(app)
    found = []
    for rule in app.url_map.iter_rules():
        path = rule.rule
        if not (path.startswith("/console") or path.startswith("/api/")):
            continue
        if path in ("/console/login", "/console/logout"):
            continue
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            found.append((method, path))
    return found


def test_the_console_and_the_api_need_the_gm_login(server, http):
    game_id = server.create_game(http, SETTINGS, name="Consola")
    codes = http.get(f"{server.url}/api/games/{game_id}/codes", timeout=10).json()
    device = requests.Session()
    device.get(f"{server.url}/j/{codes['teams'][0]['code']}", allow_redirects=False, timeout=10)
    routes = gm_routes()
    assert ("POST", "/console/games") in routes and ("GET", "/api/games/<int:game_id>/codes") \
        in routes and len(routes) >= 10
    stranger = requests.Session()
    for who in (stranger, device):                     # a stranger; a team's tablet
        for method, rule in routes:
            url = server.url + re.sub(r"<(?:int:)?(\w+)>", lambda m: str(game_id)
                                      if m.group(1) == "game_id" else "1", rule)
            # Same-site, as the console's own pages would post: only the login is missing.
            response = who.request(method, url, json={} if method == "POST" else None,
                                   headers={"Origin": server.url}, allow_redirects=False,
                                   timeout=10)
            if response.status_code == 302:
                assert "/console/login" in response.headers["Location"], (method, rule)
            else:
                assert response.status_code == 401, (method, rule, response.status_code)
    assert server.create_game(http, SETTINGS, name="Sigue")   # nothing was deleted or changed
    assert http.get(f"{server.url}/console/{game_id}", timeout=10).status_code == 200
    stranger.close()
    device.close()


def test_a_wrong_console_secret_is_refused(server):
    stranger = requests.Session()
    response = stranger.post(server.url + "/console/login", data={"secret": "adivina"},
                             allow_redirects=False, timeout=10)
    assert response.status_code == 401
    assert stranger.get(server.url + "/console", allow_redirects=False,
                        timeout=10).status_code == 302
    stranger.close()


def test_cross_site_posts_to_the_console_are_refused(server, http):
    for header in ({"Origin": "http://evil.example"}, {"Referer": "http://evil.example/page"}):
        response = http.post(f"{server.url}/console/games", headers=header,
                             json={"name": "Intrusa", "settings": SETTINGS}, timeout=10)
        assert response.status_code == 400, header
    game_id = server.create_game(http, SETTINGS, name="Propia")
    response = http.post(f"{server.url}/console/{game_id}/delete",
                         headers={"Origin": "http://evil.example"}, allow_redirects=False,
                         timeout=10)
    assert response.status_code == 400
    assert http.get(f"{server.url}/console/{game_id}", timeout=10).status_code == 200
    assert "Intrusa" not in http.get(f"{server.url}/console", timeout=10).text
    same_site = http.post(f"{server.url}/console/games", headers={"Origin": server.url},
                          json={"name": "Legítima", "settings": SETTINGS}, timeout=10)
    assert same_site.json()["ok"]


def test_join_codes_are_long_and_attempts_and_logins_are_rate_limited(tmp_path):
    assert len(set(CODE_ALPHABET)) == len(CODE_ALPHABET) == 31 and JOIN_CODE_LENGTH == 8
    assert not set(CODE_ALPHABET) & set("01OIL")
    server = start_server(Server(tmp_path))   # its own process: the limits are per process
    try:
        http = server.gm_session()                                          # login 1
        game_id = server.create_game(http, SETTINGS, name="Límites")
        codes = http.get(f"{server.url}/api/games/{game_id}/codes", timeout=10).json()
        for code in [t["code"] for t in codes["teams"]]:
            assert re.fullmatch(f"[{CODE_ALPHABET}]{{{JOIN_CODE_LENGTH}}}", code), code
        assert len({t["code"] for t in codes["teams"]}) == 4
        # 20 wrong codes a minute from one address; then 429, even for a good code.
        guesser = requests.Session()
        for attempt in range(20):
            if attempt % 2:
                response = guesser.get(f"{server.url}/j/ABCD{attempt:04d}",
                                       allow_redirects=False, timeout=10)
            else:
                response = guesser.post(f"{server.url}/join", data={"code": f"ZZZZ{attempt:04d}"},
                                        allow_redirects=False, timeout=10)
            assert response.status_code == 404, (attempt, response.status_code)
        assert guesser.get(f"{server.url}/j/{codes['teams'][0]['code']}", allow_redirects=False,
                           timeout=10).status_code == 429
        assert guesser.post(f"{server.url}/join", data={"code": "ABCDEFGH"},
                            allow_redirects=False, timeout=10).status_code == 429
        assert "team_token" not in guesser.cookies
        # Logins: 10 wrong ones a minute (right ones do not count); then even the right
        # secret waits.
        for _ in range(10):
            response = guesser.post(server.url + "/console/login", data={"secret": "adivina"},
                                    allow_redirects=False, timeout=10)
            assert response.status_code == 401
        response = guesser.post(server.url + "/console/login", data={"secret": GM_PASSWORD},
                                allow_redirects=False, timeout=10)
        assert response.status_code == 429
        assert guesser.get(server.url + "/console", allow_redirects=False,
                           timeout=10).status_code == 302
        guesser.close()
        http.close()
    finally:
        server.stop()

