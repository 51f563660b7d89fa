"""A hall through the real seams (issues 37 and 38): the toy counter of
tests/counter_game.py, plugged in from outside with hall rules of its own, played by a
"class" at once on a real server (live layer, store, SQLite file) with real Socket.IO
clients: the teacher makes the hall from a pasted list, each table's code lets a phone
take a seat (one device a seat) or be the table's screen, the hall's screens follow
every table, and the next round comes when the hall rules allow it.
"""
from __future__ import annotations

import json
import time

import pytest
import requests

from server import ROOT, Server, socketio_client

TOY = {"FACILITATOR_GAMES": "counter=counter_game", "PYTHONPATH": str(ROOT / "tests")}
CLASS = "Ana\nBea\nCarla\nDani\nEli\n"


@pytest.fixture
def toy_server(tmp_path):
    server = Server(tmp_path, env=TOY).start()
    yield server
    server.stop()


def _cookie(http: requests.Session) -> str:
    return "; ".join(f"{k}={v}" for k, v in http.cookies.items())


def hall_client(server: Server, auth: dict, http: requests.Session | None = None):
    """A hall's screen: the teacher's (``hall_gm``, logged in) or its projector's."""
    messages = []
    sio = socketio_client()
    sio.on("hall", messages.append)
    sio.connect(server.url, auth=auth, headers={"Cookie": _cookie(http)} if http else {},
                transports=["websocket"], wait_timeout=10)
    return sio, messages


def wait_hall(messages: list, predicate, timeout: float = 10.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for message in reversed(messages):
            if predicate(message):
                return message
        time.sleep(0.02)
    raise AssertionError(f"no such hall message: {messages[-1:]}")


def phone(server: Server, table_code: str) -> requests.Session:
    device = requests.Session()
    joined = device.get(f"{server.url}/j/{table_code}", allow_redirects=False, timeout=10)
    assert joined.status_code == 302
    return device


def seat_socket(server: Server, device: requests.Session, role: str = "team"):
    states = []
    sio = socketio_client()
    sio.on("state", states.append)
    sio.connect(server.url, auth={"role": role, "token": device.cookies["team_token"]},
                transports=["websocket"], wait_timeout=10)
    return sio, states


def make_hall(server: Server):
    http = server.gm_session()
    made = http.post(server.url + "/console/halls",
                     json={"kind": "counter", "name": "Clase del martes", "players": CLASS,
                           "settings": {"target": 3}}, timeout=10).json()
    assert made["ok"], made
    return http, made["hall_id"]


def test_a_class_plays_a_hall_table_by_table_and_its_screens_follow(toy_server):
    http, hall_id = make_hall(toy_server)
    page = http.get(f"{toy_server.url}/console/halls/{hall_id}", timeout=10)
    assert page.status_code == 200 and "Ronda 1, mesa 2" in page.text
    gm, gm_messages = hall_client(toy_server, {"role": "hall_gm", "hall": hall_id}, http)
    first = wait_hall(gm_messages, lambda m: True)
    games = {g["key"]: g for g in first["games"]}
    assert sorted(games) == ["1.1", "1.2"]                  # Eli waits: pairs only
    watch = page.text.split("/halls/")[1].split('"')[0]
    projector, seen = hall_client(toy_server, {"role": "hall_watcher", "watch": watch})
    assert wait_hall(seen, lambda m: True)["view"]["teacher"] is False
    try:
        # Ana takes seat 1 of table 1.1 on her phone; Bea's phone may not take it too.
        ana = phone(toy_server, games["1.1"]["table_code"])
        chooser = ana.get(f"{toy_server.url}/team", timeout=10)
        assert "Ana" in chooser.text and "Bea" in chooser.text
        assert ana.post(f"{toy_server.url}/team/seat", data={"seat": "1"},
                        allow_redirects=False, timeout=10).status_code == 302
        asker = phone(toy_server, games["1.1"]["table_code"])
        taken = asker.post(f"{toy_server.url}/team/seat", data={"seat": "1"}, timeout=10)
        assert taken.status_code == 200 and 'data-testid="waiting-text"' in taken.text
        bea = phone(toy_server, games["1.1"]["table_code"])
        assert bea.post(f"{toy_server.url}/team/seat", data={"seat": "2"},
                        allow_redirects=False, timeout=10).status_code == 302
        # The tablet joins with the table's screen code, shown on the teacher's console.
        tablet = phone(toy_server, games["1.1"]["screen_code"])
        ana_sio, ana_states = seat_socket(toy_server, ana)
        bea_sio, _ = seat_socket(toy_server, bea)
        table_sio, table_states = seat_socket(toy_server, tablet, role="table")
        try:
            # The table's screen is the game's table audience: it sees, it does not act.
            assert table_states and table_states[-1]["view"]["me"] is None
            assert table_sio.call("act", {"id": "t1", "action": {"do": "add", "n": 1}},
                                  timeout=10)["ok"] is False
            assert ana_sio.call("act", {"id": "a1", "action": {"do": "add", "n": 2}},
                                timeout=10)["ok"]
            # Every table's step reaches the hall's screens, the teacher's and the room's.
            for messages in (gm_messages, seen):
                wait_hall(messages, lambda m: m["view"]["games"]["1.1"]["count"] == 2)
            # The next round waits for every game of this one.
            refused = gm.call("hall", {"do": "next_round"}, timeout=10)
            assert refused["ok"] is False and refused["error"] == "H1"
            assert bea_sio.call("act", {"id": "b1", "action": {"do": "add", "n": 1}},
                                timeout=10)["ok"]
        finally:
            for sio in (ana_sio, bea_sio, table_sio):
                sio.disconnect()
        # The bell: the teacher's hall action plays each game's bell action.
        assert gm.call("hall", {"do": "bell"}, timeout=10)["ok"]
        wait_hall(gm_messages, lambda m: m["view"]["games"]["1.2"]["count"] == 1)
        # Table 1.2 ends from the teacher's console (its game, as any other).
        game_12 = games["1.2"]["game_id"]
        sio = socketio_client()
        sio.connect(toy_server.url, auth={"role": "gm", "game": game_12},
                    headers={"Cookie": _cookie(http)}, transports=["websocket"], wait_timeout=10)
        try:
            assert sio.call("act", {"id": "g1", "action": {"do": "add", "n": 2}}, timeout=10)["ok"]
        finally:
            sio.disconnect()
        wait_hall(gm_messages, lambda m: all(g["over"] for g in m["view"]["games"].values()))
        # Only the teacher acts on a hall.
        assert projector.call("hall", {"do": "next_round"}, timeout=10)["error"] == "auth"
        ack = gm.call("hall", {"do": "next_round"}, timeout=10)
        assert ack["ok"] and len(ack["games"]) == 2
        second = wait_hall(gm_messages, lambda m: m["view"]["round"] == 2)
        assert sorted(g["key"] for g in second["games"]) == ["1.1", "1.2", "2.1", "2.2"]
        assert gm.call("hall", {"do": "next_round"}, timeout=10)["error"] == "H2"
        # The room never gets the tables' codes nor any device.
        for message in seen:
            text = json.dumps(message)
            assert "table_code" not in text and games["1.1"]["table_code"] not in text
    finally:
        gm.disconnect()
        projector.disconnect()


def test_a_lost_phone_gets_its_seat_back_when_the_teacher_frees_it(toy_server):
    http, hall_id = make_hall(toy_server)
    games = {g["key"]: g for g in http.get(f"{toy_server.url}/console/halls/{hall_id}.json",
                                           timeout=10).json()["games"]}
    code, game_id = games["1.2"]["table_code"], games["1.2"]["game_id"]
    lost = phone(toy_server, code)
    assert lost.post(f"{toy_server.url}/team/seat", data={"seat": "1"},
                     allow_redirects=False, timeout=10).status_code == 302
    new = phone(toy_server, code)
    asked = new.post(f"{toy_server.url}/team/seat", data={"seat": "1"}, timeout=10)
    assert asked.status_code == 200 and 'data-testid="waiting-text"' in asked.text
    # The teacher removes the lost phone (its device id, as the console lists it).
    devices = http.get(f"{toy_server.url}/console/halls/{hall_id}.json", timeout=10).json()
    held = next(g for g in devices["games"] if g["key"] == "1.2")["claims"]["1"]
    assert http.post(f"{toy_server.url}/console/{game_id}/devices/remove",
                     json={"device": held}, timeout=10).json()["ok"]
    # The new phone's waiting page, looked at again, finds the seat free and takes it.
    assert 'data-testid="waiting-text"' not in new.get(f"{toy_server.url}/team", timeout=10).text
    # The lost phone, found again, is no longer in the game.
    sio = socketio_client()
    with pytest.raises(Exception):
        sio.connect(toy_server.url, auth={"role": "team", "token": lost.cookies["team_token"]},
                    transports=["websocket"], wait_timeout=5)
