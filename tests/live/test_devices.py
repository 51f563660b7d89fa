"""A game's devices belong to that game only (issue 12).

A device token names its game by the game's random public id (never the integer
id), carries the device's id, and is refused when the game was deleted, when
the GM removed the device, or a grace period after the game ended. Deleting a
game closes every connection of it; the GM removes devices and gives a team a
fresh join code. Real server processes, real python-socketio clients.
"""
from __future__ import annotations

import time
from pathlib import Path

import pytest
import socketio

from facilitator.live.audience import decode_device_token, issue_device_token
from server import Client, Server, socketio_client, stop_client
from table import SETTINGS, tablet_session

HOUR = 3600

#: Each test's tablets leave from their own loopback addresses (the join limit counts per address).
ADDRESSES = iter(range(40, 250))


def codes_of(server: Server, http, game_id: int) -> dict:
    return http.get(f"{server.url}/api/games/{game_id}/codes", timeout=10).json()


def cookie_of(http) -> str:
    return "; ".join(f"{k}={v}" for k, v in http.cookies.items())


def join(server: Server, code: str):
    """A tablet joins with ``code``: its HTTP session (cookie set) and its device token."""
    device = tablet_session(next(ADDRESSES))
    response = device.get(f"{server.url}/j/{code}", allow_redirects=False, timeout=10)
    assert response.status_code == 302, response.status_code
    return device, device.cookies["team_token"]


def team_page(server: Server, device) -> int:
    """What the team page answers this tablet: 200, or 302 (back to the join page)."""
    response = device.get(f"{server.url}/team", allow_redirects=False, timeout=10)
    if response.status_code == 302:
        assert response.headers["Location"].endswith("/join")
    return response.status_code


def refused(server: Server, auth: dict, cookie: str | None = None) -> str | None:
    """The refusal of a Socket.IO connection with ``auth`` (and cookies), or None if it
    was let in."""
    client = socketio_client()
    said = []
    client.on("connect_error", lambda data=None: said.append(data))
    try:
        client.connect(server.url, auth=auth, headers={"Cookie": cookie} if cookie else {},
                       transports=["websocket"], wait_timeout=5)
    except socketio.exceptions.ConnectionError as error:
        data = said[-1] if said else None
        return str(data.get("message") if isinstance(data, dict) else data or error)
    finally:
        stop_client(client, timeout=5)
    return None


def wait_disconnected(*clients: Client, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while any(c.sio.connected for c in clients):
        assert time.monotonic() < deadline, "a connection stayed open"
        time.sleep(0.05)


def secret_key(server: Server) -> str:
    return (Path(server.instance) / "secret_key").read_text().strip()


@pytest.fixture
def gm_http(server):
    http = server.gm_session()
    yield http
    http.close()


def test_a_deleted_games_devices_never_reach_the_next_game(server, gm_http):
    """The old attack: game A (the newest), a team device joined, A deleted, game B made.
    The device's open connection closed at the delete; its token (socket and cookie)
    opens nothing in B; B has an id of its own."""
    a = server.create_game(gm_http, SETTINGS, name="A")
    codes = codes_of(server, gm_http, a)
    device, token = join(server, codes["teams"][0]["code"])
    assert team_page(server, device) == 200
    assert decode_device_token(secret_key(server), token).public_id != str(a)
    tablet = Client(server, {"role": "team", "token": token}).connect()
    gm = Client(server, {"role": "gm", "game": a}, cookies=cookie_of(gm_http)).connect()
    projector = Client(server, {"role": "projector", "watch": codes["watch"]}).connect()
    try:
        assert tablet.last["game"] == a and tablet.last["team"] == 1
        response = gm_http.post(f"{server.url}/console/{a}/delete", allow_redirects=False,
                                headers={"Origin": server.url}, timeout=10)
        assert response.status_code == 302
        wait_disconnected(tablet, gm, projector)
        b = server.create_game(gm_http, SETTINGS, name="B")
        assert b != a
        b_codes = codes_of(server, gm_http, b)
        # B is as new as it looks: no devices, no state of A.
        gm_b = Client(server, {"role": "gm", "game": b}, cookies=cookie_of(gm_http)).connect()
        try:
            assert gm_b.last["seq"] == 0 and gm_b.last["devices"] == {}
            assert gm_b.last["device_ids"] == {} and gm_b.last["name"] == "B"
        finally:
            gm_b.close()
        # The old token: refused by the socket (in auth or as the cookie) and the page.
        assert "auth" in refused(server, {"role": "team", "token": token})
        assert "auth" in refused(server, {"role": "team"}, cookie=f"team_token={token}")
        assert team_page(server, device) == 302
        assert "team_token" not in device.cookies          # the page dropped the dead cookie
        # A's codes are gone; B's join.
        gone = tablet_session(next(ADDRESSES))
        assert gone.get(f"{server.url}/j/{codes['teams'][0]['code']}", allow_redirects=False,
                        timeout=10).status_code == 404
        fresh, fresh_token = join(server, b_codes["teams"][0]["code"])
        assert team_page(server, fresh) == 200
        assert refused(server, {"role": "team", "token": fresh_token}) is None
    finally:
        for client in (tablet, gm, projector):
            client.close()


def test_tokens_name_a_public_id_never_a_game_number(server, gm_http):
    """A well-signed token naming an integer id, or a public id no game has: refused."""
    game_id = server.create_game(gm_http, SETTINGS, name="Números")
    key = secret_key(server)
    for forged in (issue_device_token(key, game_id, 1), issue_device_token(key, str(game_id), 1),
                   issue_device_token(key, "0" * 32, 1)):
        assert "auth" in refused(server, {"role": "team", "token": forged})


def test_a_token_expires_a_grace_period_after_its_game_ended(tmp_path_factory):
    """A grace of 12 h, on a server whose clock the test moves: a finished game's device
    token works for the results, then is refused; an undo that reopens the game revives it."""
    srv = Server(tmp_path_factory.mktemp("grace"), clocked=True,
                 env={"FACILITATOR_DEVICE_GRACE_HOURS": "12"}).start()
    http = srv.gm_session()
    gm = tablet = None
    try:
        game_id = srv.create_game(http, SETTINGS, name="Gracia")
        device, token = join(srv, codes_of(srv, http, game_id)["teams"][1]["code"])
        gm = Client(srv, {"role": "gm", "game": game_id}, cookies=cookie_of(http)).connect()
        srv.advance(13 * HOUR)               # a game still being played: no expiry
        assert refused(srv, {"role": "team", "token": token}) is None
        assert team_page(srv, device) == 200
        assert gm.act({"do": "end_game"})["ok"]
        tablet = Client(srv, {"role": "team", "token": token}).connect()   # the results
        assert tablet.last["view"]["over"]
        tablet.close()
        srv.advance(11 * HOUR)               # within the grace: the results still show
        assert refused(srv, {"role": "team", "token": token}) is None
        srv.advance(2 * HOUR)
        assert "auth" in refused(srv, {"role": "team", "token": token})
        assert team_page(srv, device) == 302
        # The game reopened by an undo: no end, no expiry.
        assert gm.act({"do": "undo"})["ok"]
        _, again = join(srv, codes_of(srv, http, game_id)["teams"][1]["code"])
        assert refused(srv, {"role": "team", "token": again}) is None
    finally:
        for client in (gm, tablet):
            if client is not None:
                client.close()
        http.close()
        srv.stop()


def test_the_gm_removes_one_device_and_the_others_stay(server, gm_http):
    game_id = server.create_game(gm_http, SETTINGS, name="Quitar")
    code = codes_of(server, gm_http, game_id)["teams"][0]["code"]
    intruder_http, intruder_token = join(server, code)
    kept_http, kept_token = join(server, code)
    key = secret_key(server)
    intruder_id = decode_device_token(key, intruder_token).device
    kept_id = decode_device_token(key, kept_token).device
    assert intruder_id != kept_id
    gm = Client(server, {"role": "gm", "game": game_id}, cookies=cookie_of(gm_http)).connect()
    intruder = Client(server, {"role": "team", "token": intruder_token}).connect()
    kept = Client(server, {"role": "team", "token": kept_token}).connect()
    try:
        # The GM console lists each team's devices (and still counts them per team).
        state = gm.wait_for(lambda s: s["devices"] == {"1": 2})
        assert state["device_ids"] == {"1": sorted([intruder_id, kept_id])}
        stranger = tablet_session(next(ADDRESSES))
        assert stranger.post(f"{server.url}/console/{game_id}/devices/remove",
                             json={"device": kept_id}, headers={"Origin": server.url},
                             allow_redirects=False, timeout=10).status_code == 401
        assert gm_http.post(f"{server.url}/console/{game_id}/devices/remove", json={"device": 7},
                            headers={"Origin": server.url}, timeout=10).status_code == 400
        response = gm_http.post(f"{server.url}/console/{game_id}/devices/remove",
                                json={"device": intruder_id}, headers={"Origin": server.url},
                                timeout=10)
        assert response.json()["ok"], response.text
        wait_disconnected(intruder)
        assert "auth" in refused(server, {"role": "team", "token": intruder_token})
        assert team_page(server, intruder_http) == 302
        # The other device of the team plays on; the GM sees it alone.
        assert kept.sio.connected and team_page(server, kept_http) == 200
        assert kept.call("sync", {"seq": -1})["ok"]
        assert kept.act({"do": "declare", "mode": "normal"})["ok"]     # team 1 hosts first
        state = gm.wait_for(lambda s: s["devices"] == {"1": 1} and s["seq"] == 1)
        assert state["device_ids"] == {"1": [kept_id]}
        # Joining again with the team's code is a new device, which the GM may keep.
        _, rejoined = join(server, code)
        assert refused(server, {"role": "team", "token": rejoined}) is None
    finally:
        for client in (gm, intruder, kept):
            client.close()


def test_a_fresh_join_code_replaces_the_old_one(server, gm_http):
    game_id = server.create_game(gm_http, SETTINGS, name="Código")
    old = codes_of(server, gm_http, game_id)["teams"][2]["code"]
    joined, joined_token = join(server, old)
    response = gm_http.post(f"{server.url}/console/{game_id}/teams/3/code",
                            headers={"Origin": server.url}, timeout=10)
    data = response.json()
    assert data["ok"] and data["team"] == 3 and data["code"] != old
    assert data["join_url"].endswith("/j/" + data["code"])
    assert codes_of(server, gm_http, game_id)["teams"][2]["code"] == data["code"]
    late = tablet_session(next(ADDRESSES))
    assert late.get(f"{server.url}/j/{old}", allow_redirects=False, timeout=10).status_code == 404
    device, token = join(server, data["code"])
    assert team_page(server, device) == 200
    assert refused(server, {"role": "team", "token": token}) is None
    # The device that joined with the old code stays in its team.
    assert team_page(server, joined) == 200
    assert refused(server, {"role": "team", "token": joined_token}) is None
    for team in (-1, 5, 99):        # no screen code (no table), no team 5
        assert gm_http.post(f"{server.url}/console/{game_id}/teams/{team}/code",
                            headers={"Origin": server.url}, timeout=10).status_code == 404


# --------------------------------------------------------------------------- two processes

def test_removing_and_deleting_close_connections_on_every_process(two_servers):
    """The GM works on process A; devices and the projector are on process B. A removal
    and a delete made on A close B's connections; A's GM lists B's devices."""
    a, b = two_servers
    http = a.gm_session()
    game_id = a.create_game(http, SETTINGS, name="Dos")
    codes = codes_of(a, http, game_id)
    _, removed_token = join(b, codes["teams"][0]["code"])
    _, kept_token = join(b, codes["teams"][0]["code"])
    removed_id = decode_device_token("shared-secret-of-the-deployment", removed_token).device
    kept_id = decode_device_token("shared-secret-of-the-deployment", kept_token).device
    gm = Client(a, {"role": "gm", "game": game_id}, cookies=cookie_of(http)).connect()
    removed = Client(b, {"role": "team", "token": removed_token}).connect()
    kept = Client(b, {"role": "team", "token": kept_token}).connect()
    projector = Client(b, {"role": "projector", "watch": codes["watch"]}).connect()
    gm_b = Client(b, {"role": "gm", "game": game_id}, cookies=cookie_of(http)).connect()
    try:
        gm.wait_for(lambda s: s["device_ids"] == {"1": sorted([removed_id, kept_id])})
        assert http.post(f"{a.url}/console/{game_id}/devices/remove", json={"device": removed_id},
                         headers={"Origin": a.url}, timeout=10).json()["ok"]
        wait_disconnected(removed)
        assert "auth" in refused(b, {"role": "team", "token": removed_token})
        assert kept.sio.connected
        gm.wait_for(lambda s: s["device_ids"] == {"1": [kept_id]})
        assert http.post(f"{a.url}/console/{game_id}/delete", allow_redirects=False,
                         headers={"Origin": a.url}, timeout=10).status_code == 302
        wait_disconnected(gm, kept, projector, gm_b)
        assert "auth" in refused(b, {"role": "team", "token": kept_token})
    finally:
        for client in (gm, removed, kept, projector, gm_b):
            client.close()
        http.close()
