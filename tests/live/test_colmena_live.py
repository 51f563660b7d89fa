"""La colmena live and reliable as the partida is (issue 37, item 5): a real server (live
layer, store, a SQLite file, and the same on a PostgreSQL database), real Socket.IO
clients over a real socket, a table made in a hall as a class makes it.

Each player's phone joins with the table's code and takes its seat, the table's tablet is
the table's screen, the teacher's hall view and the hall's projector look on. A whole game
is played by the phones (and the tablet, which answers the library question); every
``state`` that arrives is checked against the database it was read from: its action is
committed before it is broadcast. Mid-game: a phone reconnects mid-turn and gets its hand
and its two drawn cards back, the tablet is reloaded and shows the same board, an
acknowledgement is lost on the way back and the action sent again (the same id) is applied
once. A phone is lost: the teacher removes it and the hand goes to a new device, and only
there. The server is SIGKILLed and restarted mid-game: nothing acknowledged is lost, an
action in flight is applied once when sent again, each phone gets its hand back. The spy
check: no card of a hand (nor of the deck, nor of the two a player chooses from) is in any
payload any screen received but its owner's and the teacher's.
"""
from __future__ import annotations

import json
import random
import sqlite3
import threading
import time

import pytest
import requests

from campaigns import LiveClient, WarmServer, cookie_header, quick_close, start_server
from colmena_hall_play import NOT_PLAYED
from colmena_play import WEIGHTS, concrete_actions
from facilitator.games.colmena import KIND
from facilitator.games.protocol import Role
from server import Server
from tcp_proxy import TcpProxy

THREE = ["Ana", "Bea", "Carla"]
#: A test plays faster than a table does: the devices' event limits, scaled up.
FAST = {"FACILITATOR_SOCKET_RATE_SCALE": "50"}


@pytest.fixture(params=["sqlite", "postgres"])
def database(request, tmp_path):
    """The database URL the server writes: a SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        yield "sqlite:///" + str(tmp_path / "facilitator.db")
        return
    from services import fresh_postgres_database
    url, drop = fresh_postgres_database()
    yield url
    drop()


@pytest.fixture
def server(tmp_path, database):
    srv = start_server(Server(tmp_path, database, env=FAST))
    yield srv
    srv.stop()


class Stored:
    """The server's database read from outside it: what is committed, as the broadcasts
    arrive. One connection, one read at a time (python-socketio's client handles each
    message in a thread of its own), each read its own transaction."""

    def __init__(self, url: str):
        self.url = url
        self.lock = threading.Lock()
        self.connection = None

    def seq(self, game_id: int) -> int:
        """How many actions of the game the database holds."""
        with self.lock:
            if self.connection is None:
                if self.url.startswith("sqlite:///"):
                    self.connection = sqlite3.connect(
                        f"file:{self.url.removeprefix('sqlite:///')}?mode=ro", uri=True,
                        timeout=10, isolation_level=None, check_same_thread=False)
                else:
                    import psycopg
                    self.connection = psycopg.connect(self.url, autocommit=True)
            mark = "?" if self.url.startswith("sqlite") else "%s"
            row = self.connection.execute(
                f"SELECT max(seq) FROM actions WHERE game_id = {mark}", (game_id,)).fetchone()
            return row[0] or 0

    def close(self) -> None:
        with self.lock:
            if self.connection is not None:
                self.connection.close()
                self.connection = None


class Screen(LiveClient):
    """A real Socket.IO client that checks, as each ``state`` arrives, that the action it
    shows is in the database already (``early``: the seqs that came before their commit)."""

    def __init__(self, url: str, auth: dict, stored: Stored | None, game_id: int,
                 cookies: str | None = None, reconnection: bool = False):
        super().__init__(url, auth, cookies=cookies, reconnection=reconnection)
        self.stored, self.game_id = stored, game_id
        self.early: list[int] = []

    def _on_state(self, message):
        if self.stored is not None and self.stored.seq(self.game_id) < message["seq"]:
            self.early.append(message["seq"])
        super()._on_state(message)


class HallScreen:
    """One of the hall's screens (the teacher's hall view, the projector): its messages."""

    def __init__(self, url: str, auth: dict, cookies: str | None = None):
        from server import socketio_client
        self.messages: list[dict] = []
        self.sio = socketio_client()
        self.sio.on("hall", self.messages.append)
        self.sio.connect(url, auth=auth, headers={"Cookie": cookies} if cookies else {},
                         transports=["websocket"], wait_timeout=10)

    @property
    def raw(self) -> list[str]:
        return [json.dumps(m, ensure_ascii=False) for m in self.messages]


def join(url: str, code: str, seat: str | None = None) -> requests.Session:
    """A phone or tablet that scanned ``code`` and, at the chooser, took ``seat`` (a
    number); a tablet scans the table's screen code and chooses nothing."""
    device = requests.Session()
    assert device.get(f"{url}/j/{code}", allow_redirects=False, timeout=10).status_code == 302
    if seat is not None:
        answer = device.post(f"{url}/team/seat", data={"seat": seat}, allow_redirects=False,
                             timeout=10)
        assert answer.status_code == 302, (seat, answer.status_code)
    return device


class ColmenaTable:
    """A hall of one table of three made from the console, its phones (one per seat,
    through the chooser), its tablet, the teacher's table console, the hall's screens."""

    def __init__(self, server: Server, stored: Stored | None, players=THREE, seed: int = 7,
                 proxied_seat: int | None = None):
        self.server, self.stored = server, stored
        self.http = server.gm_session()
        made = self.http.post(server.url + "/console/halls",
                              json={"kind": "colmena", "name": "Martes", "seed": seed,
                                    "players": "\n".join(players)}, timeout=10).json()
        assert made["ok"], made
        self.hall_id = made["hall_id"]
        data = self.http.get(f"{server.url}/console/halls/{self.hall_id}.json",
                             timeout=10).json()
        (game,) = data["games"]
        self.game_id, self.code = game["game_id"], game["table_code"]
        self.screen_code = game["screen_code"]
        self.watch = data["hall"]["watch_code"]
        self.players = players
        self.phones: dict[int, Screen] = {}
        self.devices = {seat: join(server.url, self.code, str(seat))
                        for seat in range(1, len(players) + 1)}
        # The tablet joins with the screen code, which only the teacher's console shows.
        self.tablet_device = join(server.url, self.screen_code)
        self.proxy = TcpProxy(server.port) if proxied_seat else None
        self.proxied_seat = proxied_seat
        self.gone: list = []            # clients closed meanwhile (their payloads count)
        self.gm = self.tablet = self.projector = None
        self.hall_gm = self.hall_room = None
        try:
            for seat in self.devices:
                self.phones[seat] = self.phone(seat)
            self.tablet = self.screen(self.tablet_device, "table")
            self.gm = Screen(server.url, {"role": "gm", "game": self.game_id}, stored,
                             self.game_id, cookies=cookie_header(self.http)).connect()
            self.projector = Screen(server.url, {"role": "projector", "watch": self.watch_of()},
                                    stored, self.game_id).connect()
            self.hall_gm = HallScreen(server.url, {"role": "hall_gm", "hall": self.hall_id},
                                      cookie_header(self.http))
            self.hall_room = HallScreen(server.url, {"role": "hall_watcher",
                                                     "watch": self.watch})
        except BaseException:
            self.close()
            raise

    def watch_of(self) -> str:
        return self.http.get(f"{self.server.url}/api/games/{self.game_id}/codes",
                             timeout=10).json()["watch"]

    def screen(self, device: requests.Session, role: str = "team", url: str | None = None,
               reconnection: bool = False) -> Screen:
        return Screen(url or self.server.url, {"role": role, "token": device.cookies["team_token"]},
                      self.stored, self.game_id, reconnection=reconnection).connect()

    def phone(self, seat: int) -> Screen:
        """Seat ``seat``'s phone connects (through the proxy for the proxied seat)."""
        if seat == self.proxied_seat:
            return self.screen(self.devices[seat], url=self.proxy.url, reconnection=True)
        return self.screen(self.devices[seat])

    @property
    def screens(self) -> list[Screen]:
        return [*self.phones.values(), self.tablet, self.gm, self.projector]

    def settle(self, seq: int) -> dict:
        """Wait until every screen shows ``seq``; the teacher's state."""
        for client in self.screens:
            client.wait_seq(seq)
        return self.gm.last

    def sender(self, rng: random.Random):
        """Who acts now, and what: the phone whose legal list holds an action of the
        players' (the active player), else the tablet (the library question); None at
        the end. The tablet names the first task's player when it may."""
        tablet = [e for e in self.tablet.last["legal"] if e["do"] not in NOT_PLAYED]
        if any(e["do"] == "first_task" for e in tablet) \
                and self.tablet.last["view"]["awaiting"]["do"] == ["first_task"] \
                and rng.random() < 0.7:
            return self.tablet, pick(tablet, rng, None)
        for seat, phone in self.phones.items():
            entries = [e for e in phone.last["legal"] if e["do"] not in NOT_PLAYED]
            if entries:
                return phone, pick(entries, rng, seat)
        if tablet:
            return self.tablet, pick(tablet, rng, None)
        return None

    def play(self, rng: random.Random, steps: int, stop=None) -> int:
        """Play up to ``steps`` actions from the devices (until ``stop(state)``); each
        acknowledged, then shown on every screen. The last seq."""
        seq = self.gm.last["seq"]
        for n in range(steps):
            if stop is not None and stop(self.gm.last):
                break
            found = self.sender(rng)
            if found is None:
                break
            client, action = found
            ack = client.act(action, f"{self.game_id}-{seq}-{n}")
            assert ack.get("ok") and ack["seq"] == seq + 1, (action, ack)
            seq = ack["seq"]
            self.settle(seq)
        return seq

    def record(self) -> dict:
        return self.http.get(f"{self.server.url}/console/{self.game_id}/record.json",
                             timeout=10).json()

    def payloads(self) -> dict:
        """Every payload every screen received, by whose screen it was: a seat's number,
        ``table``, ``projector``, ``gm`` (the teacher's), ``hall``."""
        out: dict = {}
        for client in [*self.screens, *self.gone]:
            role = client.auth["role"]
            who = ("gm" if role == "gm" else "projector" if role == "projector"
                   else "table" if role == "table" else client.states[0]["team"])
            out.setdefault(who, []).extend(zip(client.states, client.raw))
        for hall in (self.hall_gm, self.hall_room):
            if hall is not None:
                out.setdefault("hall", []).extend((None, text) for text in hall.raw)
        return out

    def close(self) -> None:
        quick_close(*[c for c in (*self.phones.values(), self.tablet, self.gm, self.projector,
                                  *self.gone) if c is not None])
        for hall in (self.hall_gm, self.hall_room):
            if hall is not None:
                quick_close(hall.sio)
        if self.proxy is not None:
            self.proxy.close()
        self.http.close()


def pick(entries: list[dict], rng: random.Random, seat: int | None) -> dict:
    """A concrete action of one of ``entries``, as the device of ``seat`` (None: the
    table's screen) may send it: a player names a first task from its own hand."""
    from types import SimpleNamespace
    entry = rng.choices(entries, [WEIGHTS.get(e["do"], 1.0) for e in entries])[0]
    actions = concrete_actions(SimpleNamespace(**entry))
    if entry["do"] == "first_task":
        actions = [a for a in actions if ("card" in a) == (seat is not None)
                   and (seat is None or a["player"] == seat)] or actions
    return rng.choice(actions)


def hand_ids(state: dict) -> set[str]:
    return {card["id"] for card in state["view"]["hand"]}


def secrets_by_seq(gm_states: list[dict]) -> dict[int, dict]:
    """At each seq, the cards only their owner and the teacher may see: each seat's hand,
    the two the active player chooses from, and the deck."""
    found = {}
    for state in gm_states:
        view = state["view"]
        found[state["seq"]] = {
            "hands": {int(seat): {c["id"] for c in hand} for seat, hand in view["hands"].items()},
            "choosing": ({c["id"] for c in view["choosing"]}, view["seat"]),
            "deck": set(view["deck_order"])}
    return found


def spy_check(table: ColmenaTable) -> int:
    """No card of a hand, of the deck or of a player's choice in any payload any screen
    received, but its owner's and the teacher's; how many payloads were looked at."""
    payloads = table.payloads()
    secrets = secrets_by_seq([state for state, _ in payloads["gm"]])
    every = set().union(*(s["deck"] | set().union(*s["hands"].values())
                          for s in secrets.values()))
    looked = 0
    for who, received in payloads.items():
        if who == "gm":
            continue
        for state, text in received:
            looked += 1
            if state is None:                      # a hall message: no card of any hand
                secret = set().union(*(set().union(*s["hands"].values())
                                       for s in secrets.values()))
            else:
                at = secrets[state["seq"]]
                secret = set(at["deck"])
                for seat, hand in at["hands"].items():
                    if seat != who:
                        secret |= hand
                choosing, chooser = at["choosing"]
                if chooser != who:
                    secret |= choosing
            shown = [card for card in every & secret if f'"{card}"' in text]
            assert not shown, (who, state and state["seq"], shown)
    return looked


def test_a_whole_game_played_by_phones_every_broadcast_committed_first(server, database):
    stored = Stored(database)
    table = ColmenaTable(server, stored)
    rng = random.Random(11)
    try:
        first = table.gm.last
        assert first["view"]["awaiting"]["step"] == "first_task"
        for seat, phone in table.phones.items():
            assert phone.last["view"]["me"] == seat
            assert hand_ids(phone.last) == {c["id"] for c in first["view"]["hands"][str(seat)]}
        assert "hand" not in table.tablet.last["view"] and "hands" not in table.tablet.last["view"]
        seq = table.play(rng, 400)
        final = table.gm.last["view"]
        assert final["over"] and not final["ended_early"] and final["deck"] == 0
        for client in table.screens:
            assert client.last["seq"] == seq and client.last["view"]["over"]
            assert client.last["view"]["result"] == final["result"]
        # Persist before broadcast: every state any screen received was committed first.
        assert all(not client.early for client in table.screens), \
            {client.auth["role"]: client.early for client in table.screens}
        received = sum(len(client.states) for client in table.screens)
        assert received >= 6 * seq
        record = table.record()
        assert record["format"] == "colmena/1" and len(record["actions"]) == seq
        replayed = KIND.replay(record)
        assert replayed.over and replayed.score()["total"] == final["score"]["total"]
        # The hall's screens end on the table's result.
        hall = table.hall_gm
        deadline = time.monotonic() + 10
        while not (hall.messages and hall.messages[-1]["view"]["over"]):
            assert time.monotonic() < deadline, hall.messages[-1:]
            time.sleep(0.05)
        assert hall.messages[-1]["view"]["tables"][0]["tier"] == final["result"]["tier"]
        assert spy_check(table) >= 5 * seq          # every screen but the teacher's
    finally:
        table.close()
        stored.close()


def test_reconnect_mid_turn_reload_the_tablet_and_a_lost_ack_resent(server, database):
    stored = Stored(database)
    table = ColmenaTable(server, stored, proxied_seat=1)
    rng = random.Random(5)
    try:
        # Play on until player 1 has drawn two cards and must keep one (mid-turn).
        table.play(rng, 200, stop=lambda s: s["view"]["awaiting"] == {
            "step": "keep", "seat": 1, "do": ["keep"]})
        before = table.phones[1].last
        assert before["view"]["awaiting"]["step"] == "keep"
        hand, choosing = hand_ids(before), [c["id"] for c in before["view"]["choosing"]]
        assert len(choosing) == 2
        # The phone's connection drops (the proxy cuts it) and comes back by itself.
        table.proxy.cut()
        phone = table.phones[1]
        phone.wait_for(lambda s: s is not before and s["seq"] == before["seq"], timeout=20)
        assert hand_ids(phone.last) == hand
        assert [c["id"] for c in phone.last["view"]["choosing"]] == choosing
        assert [e["do"] for e in phone.last["legal"]] == ["keep"]
        # The table's tablet is reloaded: its page again, a new connection, the same board.
        board = table.tablet.last["view"]["board"]
        assert table.tablet_device.get(f"{server.url}/team", allow_redirects=False,
                                       timeout=10).status_code == 200
        table.gone.append(table.tablet)
        table.tablet.close()
        table.tablet = table.screen(table.tablet_device, "table")
        assert table.tablet.last["seq"] == before["seq"]
        assert table.tablet.last["view"]["board"] == board == table.gm.last["view"]["board"]
        # The keep is sent, the acknowledgement is lost on the way back: the server acts,
        # the phone never hears; it sends it again with the same id once it is back.
        seq = before["seq"]
        table.proxy.deafen()
        answered = threading.Event()
        phone.sio.emit("act", {"id": "keep-once", "action": {"do": "keep", "card": choosing[0]}},
                       callback=lambda *_: answered.set())
        deadline = time.monotonic() + 10
        while stored.seq(table.game_id) < seq + 1:
            assert time.monotonic() < deadline, "the action never reached the database"
            time.sleep(0.02)
        for client in table.screens:
            if client is not phone:
                client.wait_seq(seq + 1)
        assert not answered.is_set() and phone.last["seq"] == seq
        table.proxy.cut()
        # Back (its first state shows the kept card), the page sends what was not
        # acknowledged again.
        kept = phone.wait_seq(seq + 1, timeout=20)
        assert hand_ids(kept) == hand | {choosing[0]}
        again = phone.act({"do": "keep", "card": choosing[0]}, "keep-once")
        assert again == {"ok": True, "seq": seq + 1, "duplicate": True}
        assert stored.seq(table.game_id) == seq + 1
        actions = table.record()["actions"]
        assert len(actions) == seq + 1 and actions[-1]["do"] == "keep"
        # The game goes on from the phone that came back.
        table.play(rng, 30)
        assert table.gm.last["seq"] > seq + 1
        assert all(not client.early for client in [*table.screens, *table.gone])
        spy_check(table)
    finally:
        table.close()
        stored.close()


def test_a_lost_phone_the_teacher_moves_the_hand_to_a_new_device(server, database):
    table = ColmenaTable(server, None)
    rng = random.Random(2)
    try:
        table.play(rng, 12)
        lost = table.phones[2]
        hand = hand_ids(lost.last)
        claims = table.http.get(f"{server.url}/console/halls/{table.hall_id}.json",
                                timeout=10).json()["games"][0]["claims"]
        device = claims["2"]
        assert table.gm.last["device_ids"]["2"] == [device]
        # A new phone may not take a seat another device holds: it asks the teacher (C-Q1).
        fresh = requests.Session()
        assert fresh.get(f"{server.url}/j/{table.code}", allow_redirects=False,
                         timeout=10).status_code == 302
        assert fresh.post(f"{server.url}/team/seat", data={"seat": "2"}, allow_redirects=False,
                          timeout=10).status_code == 302
        assert 'data-testid="waiting-text"' in fresh.get(f"{server.url}/team", timeout=10).text
        # The teacher removes the lost phone: it is closed and refused; the seat is free.
        removed = table.http.post(f"{server.url}/console/{table.game_id}/devices/remove",
                                  json={"device": device}, headers={"Origin": server.url},
                                  timeout=10).json()
        assert removed["ok"], removed
        deadline = time.monotonic() + 10
        while lost.sio.connected:
            assert time.monotonic() < deadline, "the lost phone stayed connected"
            time.sleep(0.05)
        table.gone.append(table.phones.pop(2))
        assert table.devices[2].get(f"{server.url}/team", allow_redirects=False,
                                    timeout=10).status_code == 302
        # Its waiting page, looked at again, finds the seat free and takes it.
        assert 'data-testid="waiting-text"' not in fresh.get(f"{server.url}/team", timeout=10).text
        table.devices[2] = fresh
        table.phones[2] = table.phone(2)
        assert table.phones[2].last["view"]["me"] == 2 and hand_ids(table.phones[2].last) == hand
        claims = table.http.get(f"{server.url}/console/halls/{table.hall_id}.json",
                                timeout=10).json()["games"][0]["claims"]
        assert claims["2"] != device
        # The old phone's token opens nothing any more, even with the seat free again.
        from campaigns import LiveClient as Probe
        probe = Probe(server.url, {"role": "team", "token": lost.auth["token"]})
        with pytest.raises(Exception):
            probe.connect()
        # The new phone plays player 2's part from here on.
        table.play(rng, 30)
        assert table.phones[2].last["seq"] == table.gm.last["seq"]
        # The teacher's hall view lists the new phone on seat 2, and, once the table's
        # code is changed, the new code (the old one lets no one in).
        rotated = table.http.post(f"{server.url}/console/{table.game_id}/teams/0/code",
                                  headers={"Origin": server.url}, timeout=10).json()
        assert rotated["ok"] and rotated["code"] != table.code
        seq = table.play(rng, 1)
        assert not table.gm.last["view"]["over"]
        deadline = time.monotonic() + 10
        while not (table.hall_gm.messages
                   and table.hall_gm.messages[-1]["seqs"]["1.1"] >= seq):
            assert time.monotonic() < deadline, "the hall's view never showed the last action"
            time.sleep(0.05)
        (shown,) = table.hall_gm.messages[-1]["games"]
        assert shown["table_code"] == rotated["code"] and shown["claims"]["2"] == claims["2"]
        spy_check(table)
    finally:
        table.close()


#: Pauses between sending the last action and the SIGKILL, one per kill point.
KILL_DELAYS = (0.0, 0.002, 0.008, 0.015, 0.004)


def test_the_server_killed_mid_game_loses_nothing_acknowledged(tmp_path, database):
    server = start_server(WarmServer(tmp_path, database, env=FAST))
    stored = Stored(database)
    table = None
    rng = random.Random(9)
    try:
        table = ColmenaTable(server, stored)
        acked: list[dict] = []            # (the action as sent) of every acknowledged seq
        outcomes = []
        for number, delay in enumerate(KILL_DELAYS):
            seq = table.play(rng, 6)
            client, action = table.sender(rng)
            hands = {seat: hand_ids(phone.last) for seat, phone in table.phones.items()}
            answer: dict = {}
            sent = threading.Event()
            client.sio.emit("act", {"id": f"kill-{number}", "action": action},
                            callback=lambda data=None: (answer.update(ack=data), sent.set()))
            if delay:
                time.sleep(delay)
            server.kill()
            sent.wait(0.05)
            table_was = table
            quick_close(*table_was.screens)
            table_was.phones, table_was.tablet, table_was.gm, table_was.projector = {}, None, None, None
            start_server(server)
            server.prepare()
            stored_now = stored.seq(table.game_id)
            committed = stored_now == seq + 1
            assert stored_now in (seq, seq + 1), (stored_now, seq)
            if (answer.get("ack") or {}).get("ok"):
                assert committed, "an acknowledged action was lost"
            outcomes.append(committed)
            # Everyone comes back: each phone its own hand (the in-flight action's card
            # aside), the teacher the record's state.
            reconnect(table)
            assert table.gm.last["seq"] == stored_now
            for seat, phone in table.phones.items():
                if not committed:
                    assert hand_ids(phone.last) == hands[seat]
                assert hand_ids(phone.last) == {
                    c["id"] for c in table.gm.last["view"]["hands"][str(seat)]}
            # Sent again with its id: applied once.
            sender = (table.tablet if client.auth["role"] == "table"
                      else table.phones[client.states[0]["team"]])
            again = sender.act(action, f"kill-{number}")
            assert again["ok"] and again["seq"] == seq + 1, again
            assert again.get("duplicate", False) == committed
            table.settle(seq + 1)
        record = table.record()
        assert len(record["actions"]) == table.gm.last["seq"]
        assert KIND.replay(record).view(Role.gm())["board"] == table.gm.last["view"]["board"]
        table.play(rng, 400)
        assert table.gm.last["view"]["over"], "the game goes on to its end after the kills"
        print(f"in flight at the kills: {['committed' if c else 'dropped' for c in outcomes]}")
    finally:
        if table is not None:
            table.close()
        stored.close()
        server.stop()


def reconnect(table: ColmenaTable) -> None:
    """Every screen of the table connects again after a restart (its device's token, the
    teacher's session): as the pages do."""
    table.phones = {seat: table.phone(seat) for seat in table.devices}
    table.tablet = table.screen(table.tablet_device, "table")
    table.gm = Screen(table.server.url, {"role": "gm", "game": table.game_id}, table.stored,
                      table.game_id, cookies=cookie_header(table.http)).connect()
    table.projector = Screen(table.server.url, {"role": "projector", "watch": table.watch_of()},
                             table.stored, table.game_id).connect()
