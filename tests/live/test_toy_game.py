"""A second game through the real seams (issue 35): the toy counter of
tests/counter_game.py, plugged in from outside the package, plays through a real
server (live layer, store, SQLite file), real Socket.IO clients and a real browser
page, with no line of it in the facilitator.

Who may act is the game's rule (a seat out of turn is refused with the game's own
rule id and nothing changes), each audience gets the view the game gives it, the GM
undoes, the record is the game's own format, and a restarted server resumes it.
"""
from __future__ import annotations

import pytest
import requests

from server import ROOT, Server, socketio_client

TOY = {"FACILITATOR_GAMES": "counter=counter_game", "PYTHONPATH": str(ROOT / "tests")}


@pytest.fixture
def toy_server(tmp_path):
    server = Server(tmp_path, env=TOY).start()
    yield server
    server.stop()


def create_toy(server: Server, target: int = 5) -> tuple[requests.Session, int, dict]:
    http = server.gm_session()
    answer = http.post(server.url + "/console/games",
                       json={"kind": "counter", "name": "Contador",
                             "settings": {"target": target}}, timeout=10).json()
    assert answer["ok"], answer
    game_id = answer["game_id"]
    codes = http.get(f"{server.url}/api/games/{game_id}/codes", timeout=10).json()
    return http, game_id, {t["team"]: t["code"] for t in codes["teams"]}


def seat_client(server: Server, code: str, device: requests.Session | None = None):
    """A phone that joined with a seat's ``code`` (``device``: the same phone again, which
    keeps its seat: a seat is one device's) and its connection."""
    device = device or requests.Session()
    joined = device.get(f"{server.url}/j/{code}", allow_redirects=False, timeout=10)
    assert joined.status_code == 302
    states = []
    sio = socketio_client()
    sio.on("state", states.append)
    sio.connect(server.url, auth={"role": "team", "token": device.cookies["team_token"]},
                transports=["websocket"], wait_timeout=10)
    return sio, states, device


def gm_client(server: Server, http: requests.Session, game_id: int):
    states = []
    sio = socketio_client()
    sio.on("state", states.append)
    cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
    sio.connect(server.url, auth={"role": "gm", "game": game_id}, headers={"Cookie": cookie},
                transports=["websocket"], wait_timeout=10)
    return sio, states


def wait_for(states: list, seq: int, timeout: float = 10.0) -> dict:
    import time
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if states and states[-1]["seq"] >= seq:
            return states[-1]
        time.sleep(0.02)
    raise AssertionError(f"no state at seq {seq}: {states[-1:] }")


def test_a_toy_game_plays_through_the_live_layer_and_the_store(toy_server):
    http, game_id, codes = create_toy(toy_server, target=5)
    gm, gm_states = gm_client(toy_server, http, game_id)
    one, one_states, phone = seat_client(toy_server, codes[1])
    two, two_states, _ = seat_client(toy_server, codes[2])
    try:
        assert wait_for(one_states, 0)["view"] == {"count": 0, "target": 5, "turn": 1,
                                                   "over": False, "winner": None, "me": 1}
        assert [e["do"] for e in wait_for(two_states, 0)["legal"]] == []   # not its turn
        # A seat out of turn: the game's rule, nothing changes.
        refused = two.call("act", {"id": "x1", "action": {"do": "add", "n": 1}}, timeout=10)
        assert refused == {"ok": False, "error": "C1", "message": "it is player 1's turn"}
        assert one.call("act", {"id": "a1", "action": {"do": "add", "n": 3}},
                        timeout=10)["error"] == "C2"
        assert one.call("act", {"id": "a2", "action": {"do": "add", "n": 2}},
                        timeout=10) == {"ok": True, "seq": 1}
        # Sent again with its id (a lost acknowledgement): applied once.
        assert one.call("act", {"id": "a2", "action": {"do": "add", "n": 2}},
                        timeout=10) == {"ok": True, "seq": 1, "duplicate": True}
        for states in (gm_states, one_states, two_states):
            assert wait_for(states, 1)["view"]["count"] == 2
        assert [e["do"] for e in two_states[-1]["legal"]] == ["add"]
        assert two.call("act", {"id": "b1", "action": {"do": "add", "n": 2}}, timeout=10)["ok"]
        assert one.call("act", {"id": "a3", "action": {"do": "add", "n": 1}}, timeout=10)["ok"]
        over = wait_for(gm_states, 3)
        assert over["view"]["over"] and over["view"]["winner"] == "Jugador 1"
        assert one.call("act", {"id": "a4", "action": {"do": "add", "n": 1}},
                        timeout=10)["error"] == "C3"
        # The teacher undoes; a seat may not.
        assert two.call("act", {"id": "b2", "action": {"do": "undo"}}, timeout=10)["error"] == "C1"
        assert gm.call("act", {"id": "g1", "action": {"do": "undo"}}, timeout=10)["ok"]
        assert wait_for(two_states, 4)["view"]["count"] == 4
        record = http.get(f"{toy_server.url}/console/{game_id}/record.json", timeout=10).json()
        assert record["format"] == "counter/1" and record["settings"] == {"target": 5}
        assert [a["do"] for a in record["actions"]] == ["add", "add", "add", "undo"]
    finally:
        for sio in (gm, one, two):
            sio.disconnect()

    # A restarted server resumes the game where it was.
    toy_server.stop()
    toy_server.start()
    one, one_states, _ = seat_client(toy_server, codes[1], phone)
    try:
        assert wait_for(one_states, 4)["view"]["count"] == 4
    finally:
        one.disconnect()
