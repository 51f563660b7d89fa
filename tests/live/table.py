"""A game at a table: its GM console, four team devices and a projector, all connected."""
from __future__ import annotations

import requests

from server import Client, Server

SETTINGS = {"teams": [{"name": f"Equipo {n}", "members": 4} for n in range(1, 5)],
            "round_modes": [["normal"], ["simple", "risky"]], "deliberation_seconds": 60}


class Table:
    """One game with its GM console, four team devices and a projector, all connected."""

    def __init__(self, server: Server, settings: dict = SETTINGS, reconnection: bool = False):
        """``reconnection``: the clients reconnect by themselves (for tests that restart
        the server); otherwise a dropped connection stays down."""
        self.server = server
        self.http = server.gm_session()
        self.game_id = server.create_game(self.http, settings)
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        self.gm = self.projector = None
        self.tokens = {}
        self.teams = {}
        try:
            self.gm = Client(server, {"role": "gm", "game": self.game_id}, cookies=cookie,
                             reconnection=reconnection).connect()
            for team_link in self.join_codes():
                token = self.join(team_link)
                self.tokens[team_link["team"]] = token
                self.teams[team_link["team"]] = Client(
                    server, {"role": "team", "token": token},
                    reconnection=reconnection).connect()
            watch = self.watch_code()
            self.projector = Client(server, {"role": "projector", "watch": watch},
                                    reconnection=reconnection).connect()
        except BaseException:
            self.close()                # no fixture or ``finally`` gets a half-made table
            raise

    def join_codes(self) -> list[dict]:
        from facilitator.extensions import store  # noqa: F401  (only for the type of rows)
        page = self.http.get(f"{self.server.url}/api/games/{self.game_id}/codes", timeout=10)
        return page.json()["teams"]

    def join(self, team_link: dict) -> str:
        device = tablet_session(team_link["team"])
        response = device.get(self.server.url + "/j/" + team_link["code"], allow_redirects=False,
                              timeout=10)
        assert response.status_code == 302
        return device.cookies["team_token"]

    def watch_code(self) -> str:
        return self.http.get(f"{self.server.url}/api/games/{self.game_id}/codes",
                             timeout=10).json()["watch"]

    @property
    def everyone(self) -> list[Client]:
        return [self.gm, *self.teams.values(), self.projector]

    def gm_act(self, *actions: dict) -> int:
        """The GM plays each action; every screen must then show the last seq."""
        seq = None
        for action in actions:
            ack = self.gm.act(action)
            assert ack["ok"], (action, ack)
            seq = ack["seq"]
        for client in self.everyone:
            client.wait_seq(seq)
        return seq

    def close(self):
        """Stop every client and its threads (see ``server.stop_client``). A WebSocket client
        takes ~3 s to close: close them all at once."""
        import threading
        clients = [c for c in (self.gm, *self.teams.values(), self.projector) if c is not None]
        threads = [threading.Thread(target=c.close) for c in clients]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(15)
        self.http.close()


def tablet_session(number: int) -> requests.Session:
    """An HTTP session leaving from its own loopback address (127.0.1.N), as each tablet of
    a classroom has its own: the join rate limit counts per address, and a module's
    tests together join more than 20 devices a minute."""
    from requests.adapters import HTTPAdapter

    class FromAddress(HTTPAdapter):
        def init_poolmanager(self, *args, **kwargs):
            kwargs["source_address"] = (f"127.0.1.{number}", 0)
            return super().init_poolmanager(*args, **kwargs)
    session = requests.Session()
    session.mount("http://", FromAddress())
    return session
