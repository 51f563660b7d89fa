"""A tablet whose Wi-Fi drops for a second, or for longer than the server keeps its session.

The server runs with ``FACILITATOR_PING_INTERVAL=1 FACILITATOR_PING_TIMEOUT=2``:
a silent device is forgotten after about 3 s (the pings run in real time). Its
clock is one the test moves: being away ten minutes of a lecture is the clock
advanced ten minutes while the tablet's attempts to come back are refused. The
tablet is a real Socket.IO client
(reconnecting like the page's client) connected through a TCP proxy whose
connections the test cuts.
"""
import time

import pytest

from campaigns import LiveClient, cookie_header, join_token, quick_close, start_server
from server import Server
from tcp_proxy import TcpProxy

PING = {"FACILITATOR_PING_INTERVAL": "1", "FACILITATOR_PING_TIMEOUT": "2"}
SESSION_EXPIRY = 1 + 2          # ping interval + ping timeout, in seconds


def act(do, **fields):
    return {"do": do, **fields}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = start_server(Server(tmp_path_factory.mktemp("instance"), env=PING, clocked=True))
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def http(server):
    session = server.gm_session()
    yield session
    session.close()


class Game:
    """A simple challenge of team 2 at deliberation; team 2's tablet goes through a proxy."""

    def __init__(self, server, http, seconds=60):
        settings = {"teams": [{"name": f"Equipo {n}", "members": 4} for n in range(1, 5)],
                    "round_modes": [["simple", "risky"]], "deliberation_seconds": seconds}
        self.game_id = server.create_game(http, settings)
        codes = http.get(f"{server.url}/api/games/{self.game_id}/codes", timeout=10).json()
        self.token = join_token(server.url, next(t["code"] for t in codes["teams"]
                                                 if t["team"] == 2))
        self.gm = self.tablet = self.proxy = None
        try:
            self.gm = LiveClient(server.url, {"role": "gm", "game": self.game_id},
                                 cookies=cookie_header(http)).connect()
            self.proxy = TcpProxy(server.port)
            # The only client of the live tests that reconnects by itself, as the page does.
            self.tablet = LiveClient(self.proxy.url, {"role": "team", "token": self.token},
                                     reconnection=True).connect()
            self.gm_act(act("declare", mode="simple", target=2))
            choose = next(d for d in self.gm.last["legal"] if d["do"] == "choose")
            pair = choose["options"]["choices"][0]
            self.gm_act(act("choose", author=pair["author"], type=pair["type"]))
            self.gm_act(act("question", id=self.gm.last["candidates"][0]["id"]))
            self.gm.wait_for(lambda s: s["devices"].get("2") == 1)
        except BaseException:
            self.close()                # no fixture or ``finally`` gets a half-made game
            raise

    def gm_act(self, action) -> int:
        ack = self.gm.act(action)
        assert ack["ok"], (action, ack)
        return self.gm.wait_seq(ack["seq"])["seq"]

    def tablet_is_back(self, seq: int, timeout: float = 20) -> dict:
        """Wait until the tablet is connected again and holds state ``seq``."""
        state = self.tablet.wait_for(lambda s: s["seq"] == seq, timeout=timeout)
        self.gm.wait_for(lambda s: s["devices"].get("2") == 1, timeout=timeout)
        return state

    def close(self):
        quick_close(self.tablet, self.gm)
        if self.proxy is not None:
            self.proxy.close()


@pytest.fixture
def game(server, http):
    g = Game(server, http)
    yield g
    g.close()


def test_a_second_offline_comes_back_to_its_team_with_its_answer_and_what_changed(game):
    assert game.tablet.act(act("write", team=2, text="Kant"))["ok"]
    first_sid = game.tablet.sio.sid
    game.proxy.refuse()
    assert game.proxy.cut() >= 1
    game.gm.wait_for(lambda s: "2" not in s["devices"])       # the server saw it leave
    seq = game.gm_act(act("spokesperson", team=1, name="Ana"))
    game.proxy.wait_refused(1)                  # it tried to come back, and could not
    game.proxy.accept()
    back = game.tablet_is_back(seq)
    assert game.tablet.sio.sid != first_sid, "a new connection"
    assert (back["role"], back["team"], back["view"]["me"]) == ("team", 2, 2)
    assert game.tablet.auth["token"] == game.token
    assert back["view"]["turn"]["written"] == "Kant"           # its own sealed answer
    assert back["view"]["turn"]["spokespersons"] == {"1": "Ana"}   # what changed meanwhile
    assert "write" in {d["do"] for d in back["legal"]}
    # The draft typed offline is sent on reconnection: the time is not up, it counts.
    ack = game.tablet.act(act("write", team=2, text="Kant, Crítica de la razón pura"))
    assert ack["ok"]
    game.gm.wait_for(lambda s: s["view"]["turn"]["written"] == "Kant, Crítica de la razón pura")


def test_away_longer_than_the_session_timeout_still_in_its_team(server, game):
    assert game.tablet.act(act("write", team=2, text="V"))["ok"]
    first_sid = game.tablet.sio.sid
    # Walks out of range: nothing is closed, nobody is told; only the pings notice.
    game.proxy.refuse()
    assert game.proxy.blackhole() >= 1
    gone = time.monotonic()
    game.gm.wait_for(lambda s: "2" not in s["devices"], timeout=SESSION_EXPIRY + 5)
    expired_after = time.monotonic() - gone
    assert expired_after >= SESSION_EXPIRY - 1.5, "the server forgot it because of the pings"
    seq = game.gm_act(act("adjust", team=2, points=1, reason="Buena participación"))
    seq = game.gm_act(act("spokesperson", team=1, name="Marta"))
    server.advance(10 * 60)                                      # the rest of the lecture
    game.proxy.cut()
    game.proxy.wait_refused(1)                  # it knows it is offline: it tried again
    game.proxy.accept()
    back = game.tablet_is_back(seq)
    assert game.tablet.sio.sid != first_sid
    assert (back["role"], back["team"]) == ("team", 2)
    assert back["view"]["turn"]["written"] == "V"
    assert back["view"]["teams"][1]["score"] == 1
    assert back["view"]["turn"]["spokespersons"] == {"1": "Marta"}
    gm_turn = dict(game.gm.last["view"]["turn"], question=None)
    tablet_turn = dict(back["view"]["turn"], question=None)
    assert tablet_turn == gm_turn, "the tablet sees the turn as it is now"


def test_a_draft_that_arrives_after_the_time_ran_out_is_refused_and_the_answer_stays(
        server, http):
    game = Game(server, http, seconds=60)
    try:
        assert game.tablet.act(act("write", team=2, text="F"))["ok"]
        assert game.gm.call("timer", {"op": "start"})["ok"]
        game.proxy.refuse()
        game.proxy.cut()
        server.advance(60)                      # the time runs out while it is offline
        locked = game.gm.wait_for(lambda s: s["view"]["turn"]["locked"])
        game.proxy.accept()
        back = game.tablet_is_back(locked["seq"])
        assert back["timer"]["state"] == "expired" and back["view"]["turn"]["locked"]
        assert not [d for d in back["legal"] if d["do"] == "write"]
        refusal = game.tablet.act(act("write", team=2, text="V"))
        assert (refusal["ok"], refusal["error"]) == (False, "R-U5")
        assert game.gm.call("sync", {"seq": -1})["seq"] == locked["seq"]
        assert game.gm.last["view"]["turn"]["written"] == "F"
    finally:
        game.close()
