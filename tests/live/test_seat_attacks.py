"""Issue 45, "one device per seat": each attack of the issue replayed against a real server
(live layer, store, a SQLite file, and the same on a PostgreSQL database) with real
Socket.IO clients over a real socket, and shown refused (docs/protocol.md, "Seats and
devices").

1. The table's code (seat 0, printed for the table) leads to a seat chooser only: its
   token opens no table screen; only the screen code (the teacher's console's) does.
2. Hive: with White and Black each on their own phone, neither a second browser of
   White's student nor a table screen moves Black's piece, nor offers and accepts a draw
   for both (H-G8).
3. A seat's own code used twice: the second device waits for the teacher; accepted, the
   first device's open connections are closed at once and the second plays.
4. The chooser's cookie takes one seat only: another seat is "elsewhere" (409), the old
   cookie replayed too.
5. «Quitar» and a new screen code close the open connections they concern at once.

Besides the python-socketio clients a page would run, the attacker speaks Socket.IO frame
by frame (``RawSocket``): it sends its actions whether or not the server let it in, and
every frame it receives is kept, to show that none held a secret.
"""
from __future__ import annotations

import html
import json
import time
from types import SimpleNamespace

import pytest
import requests
import websocket

from campaigns import QuickCloseWebSocket, cookie_header, quick_close, start_server
from facilitator.i18n import translate
from server import Client, Server
from test_devices import refused, wait_disconnected

#: A test acts faster than a table does: the devices' event limits, scaled up.
FAST = {"FACILITATOR_SOCKET_RATE_SCALE": "50"}
#: The join codes of a game with a table: the screen code (the teacher's console shows
#: it: store.games.SCREEN_CODE) and the table's code (printed for the table: a chooser).
SCREEN, TABLE = -1, 0
#: How long an attacker waits for the answer to an action the server must drop.
NO_ANSWER_SECONDS = 0.5
#: What the chooser says to a device that holds another seat of the game (409).
ELSEWHERE = html.escape(translate("es", "seatpick.elsewhere"))


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgres", marks=pytest.mark.slow)])
def server(request, tmp_path_factory):
    """One server for the module's attacks on each database: a SQLite file, or a fresh
    PostgreSQL database (skipped saying why where PostgreSQL does not answer; a failure
    under CI=true). The PostgreSQL runs are slow, as every live test's (tests/conftest.py:
    it marks those whose id ends in "[postgres]", which a parametrized test's does not)."""
    folder = tmp_path_factory.mktemp(request.param)
    url, drop = None, None              # SQLite: a copy of the run's migrated file
    if request.param == "postgres":
        from services import fresh_postgres_database
        url, drop = fresh_postgres_database()
    srv = Server(folder, url, env=FAST)
    try:
        yield start_server(srv)
    finally:
        srv.stop()
        if drop is not None:
            drop()


@pytest.fixture(scope="module")
def console(server):
    """The teacher's console session."""
    with server.gm_session() as http:
        yield http


class RawSocket:
    """An attacker's Socket.IO connection, spoken frame by frame (websocket-client): it
    asks to join with any ``auth``, sends events whether or not it was let in, and keeps
    every frame it receives (``frames``)."""

    def __init__(self, server: Server, auth: dict):
        self.ws = websocket.create_connection(
            server.url.replace("http://", "ws://") + "/socket.io/?EIO=4&transport=websocket",
            timeout=5, class_=QuickCloseWebSocket)
        self.frames: list[str] = []
        self.sent = 0
        assert self.wait(lambda f: f.startswith("0{")), "no Engine.IO handshake"
        self.refusal = self.join(auth)

    def wait(self, predicate, timeout: float = 5.0) -> str | None:
        """The next frame that satisfies ``predicate`` (pings answered on the way), or
        None when none came within ``timeout`` or the connection closed."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            self.ws.settimeout(left)
            try:
                frame = self.ws.recv()
            except websocket.WebSocketTimeoutException:
                return None
            except (websocket.WebSocketConnectionClosedException, OSError):
                return None
            if frame == "2":                   # Engine.IO's ping
                self.ws.send("3")
                continue
            self.frames.append(frame)
            if predicate(frame):
                return frame
        return None

    def join(self, auth: dict) -> str | None:
        """Ask to join the default namespace with ``auth``: None when let in, else the
        server's refusal."""
        self.ws.send("40" + json.dumps(auth))
        frame = self.wait(lambda f: f.startswith(("40", "44")))
        assert frame is not None, "the server never answered a namespace connect"
        return None if frame.startswith("40") else json.loads(frame[2:])["message"]

    def call(self, event: str, payload: object) -> dict | None:
        """Send ``event`` asking for an acknowledgement: the answer, or None when none
        came (the server dropped it: this connection is not, or no longer, let in)."""
        self.sent += 1
        prefix = f"43{self.sent}["
        try:
            self.ws.send(f"42{self.sent}" + json.dumps([event, payload]))
        except (websocket.WebSocketConnectionClosedException, OSError):
            return None
        frame = self.wait(lambda f: f.startswith(prefix), NO_ANSWER_SECONDS)
        return json.loads(frame[len(prefix) - 1:])[0] if frame is not None else None

    def cut_off(self, timeout: float = 5.0) -> bool:
        """Whether the server closed this connection's namespace (a ``41`` frame) within
        ``timeout``, or already had."""
        return "41" in self.frames or self.wait(lambda f: f == "41", timeout) is not None

    @property
    def states(self) -> list[dict]:
        return [json.loads(f[2:])[1] for f in self.frames if f.startswith('42["state"')]

    def close(self) -> None:
        try:
            self.ws.close()
        except Exception:                     # noqa: BLE001 - the server closed it first
            pass


def make_game(server: Server, http: requests.Session, game_kind: str) -> SimpleNamespace:
    """A game with a table made from the console (la colmena of three, or a Hive pair):
    its id and its join codes by seat (``SCREEN``, ``TABLE``, then each seat's own)."""
    settings = {"players": ["Ana", "Bea", "Carla"]} if game_kind == "colmena" else {}
    made = http.post(server.url + "/console/games", json={
        "kind": game_kind, "name": f"Ataques {game_kind}", "settings": settings}, timeout=10).json()
    assert made["ok"], made
    codes = http.get(f"{server.url}/api/games/{made['game_id']}/codes", timeout=10).json()
    return SimpleNamespace(id=made["game_id"], codes={t["team"]: t["code"] for t in codes["teams"]})


def joined(server: Server, code: str, seat: int | None = None,
           cookies=None) -> requests.Session:
    """A browser that opened ``/j/<code>`` (the QR code) and, at a chooser, took ``seat``."""
    browser = requests.Session()
    if cookies:
        browser.cookies.update(cookies)
    assert browser.get(f"{server.url}/j/{code}", allow_redirects=False,
                       timeout=10).status_code == 302
    if seat is not None:
        answer = browser.post(f"{server.url}/team/seat", data={"seat": str(seat)},
                              allow_redirects=False, timeout=10)
        assert answer.status_code == 302, (seat, answer.status_code)
    return browser


def token(browser: requests.Session) -> str:
    return browser.cookies["team_token"]


def page(server: Server, browser: requests.Session) -> requests.Response:
    return browser.get(f"{server.url}/team", allow_redirects=False, timeout=10)


def screen(server: Server, browser: requests.Session, role: str = "team") -> Client:
    """The page's own Socket.IO connection, with the browser's device token."""
    return Client(server, {"role": role, "token": token(browser)}).connect()


def teacher(server: Server, http: requests.Session, game_id: int) -> Client:
    return Client(server, {"role": "gm", "game": game_id}, cookies=cookie_header(http)).connect()


def post(server: Server, http: requests.Session, path: str, data: dict | None = None):
    """A console button's POST (its page's origin), JSON in and out."""
    return http.post(server.url + path, json=data, headers={"Origin": server.url}, timeout=10)


def seated(gm: Client, predicate) -> dict:
    """The teacher's ``seating`` once it satisfies ``predicate``."""
    return gm.wait_for(lambda s: predicate(s["seating"]))["seating"]


def secrets_of(gm_state: dict) -> set[str]:
    """Every card of la colmena only its holder and the teacher may see: the hands, the
    deck, the two cards a player chooses from."""
    view = gm_state["view"]
    return ({c["id"] for hand in view["hands"].values() for c in hand} | set(view["deck_order"])
            | {c["id"] for c in view.get("choosing") or []})


def shown(frames: list[str], secrets: set[str]) -> set[str]:
    """The secrets that stand in any of ``frames``."""
    text = "\n".join(frames)
    return {card for card in secrets if f'"{card}"' in text}


def assert_cut_off(server: Server, client: Client, raw: RawSocket, auth: dict) -> None:
    """``client`` (a page) and ``raw`` (a script), connections of one device, were closed
    by the server at once; the action the script sends next gets no answer, its page
    connecting again is refused, and so is the script asking to join again."""
    wait_disconnected(client, timeout=3)
    assert raw.cut_off(timeout=3)
    assert raw.call("sync", {}) is None
    assert raw.call("act", {"id": "after-cut", "action": {"do": "pass"}}) is None
    assert refused(server, auth).startswith("auth")
    assert raw.join(auth).startswith("auth")


# --------------------------------------------------------------------------- the attacks

def test_the_tables_code_leads_to_a_chooser_never_to_a_table_screen(server, console):
    """Attack 1: the table's code (on paper at the table) opens a chooser; its token
    refused as a table's (no state, its actions never answered). The screen code the
    teacher's console shows admits a table screen."""
    game = make_game(server, console, "colmena")
    gm = teacher(server, console, game.id)
    chooser = joined(server, game.codes[TABLE])
    tablet = attacker = None
    try:
        answer = page(server, chooser)
        assert answer.status_code == 200 and 'data-testid="choose-form"' in answer.text
        assert '"role": "table"' not in answer.text and "/table.js" not in answer.text
        for role in ("table", "team"):
            assert refused(server, {"role": role, "token": token(chooser)}).startswith("auth")
        # A script that joins as the table with the chooser's token and acts anyway.
        attacker = RawSocket(server, {"role": "table", "token": token(chooser)})
        assert attacker.refusal.startswith("auth")
        first = gm.last["legal"][0]
        assert first["do"] == "first_task" and first["table"]
        naming = {"do": "first_task", "player": first["options"]["players"][0]}
        assert attacker.call("act", {"id": "by-chooser", "action": naming}) is None
        assert attacker.call("sync", {}) is None
        assert attacker.states == [] and shown(attacker.frames, secrets_of(gm.last)) == set()
        assert gm.call("sync", {"seq": 0})["seq"] == 0
        assert seated(gm, lambda s: True)["screens"] == []
        # The screen code admits a table screen: its page, its view, its action.
        screen_device = joined(server, game.codes[SCREEN])
        answer = page(server, screen_device)
        assert answer.status_code == 200 and '"role": "table"' in answer.text
        assert "/games/colmena/table.js" in answer.text
        tablet = screen(server, screen_device, role="table")
        assert tablet.last["role"] == "table" and "hands" not in tablet.last["view"]
        assert tablet.act(naming, "by-screen") == {"ok": True, "seq": 1}
        assert len(seated(gm, lambda s: s["screens"])["screens"]) == 1
        assert attacker.states == []
    finally:
        if attacker is not None:
            attacker.close()
        quick_close(gm, tablet)


def test_no_second_screen_acts_for_the_other_colour(server, console):
    """Attack 2 (Hive): White's and Black's phones each hold their colour. White's
    student's second browser is not let in as Black, nor as White; a table screen moves
    no piece and offers and accepts no draw for them (H-G8). The board only moves by the
    phones."""
    game = make_game(server, console, "hive")
    white_phone, black_phone = joined(server, game.codes[1]), joined(server, game.codes[2])
    white = black = gm = tablet = None
    try:
        white, black = screen(server, white_phone), screen(server, black_phone)
        gm = teacher(server, console, game.id)
        seated(gm, lambda s: set(s["holders"]) == {"1", "2"})
        white_move = next(e for e in white.last["legal"]
                          if e["do"] == "move")["options"]["moves"][0]
        assert white.act({"do": "move", "move": white_move}, "w1") == {"ok": True, "seq": 1}
        black_moves = next(e for e in black.wait_seq(1)["legal"]
                           if e["do"] == "move")["options"]["moves"]
        # White's second browser at the table's chooser: Black's seat asks the teacher...
        second = joined(server, game.codes[TABLE], seat=2)
        waiting = page(server, second)
        assert waiting.status_code == 200 and 'data-testid="waiting-text"' in waiting.text
        assert refused(server, {"role": "team", "token": token(second)}).startswith("auth")
        script = RawSocket(server, {"role": "team", "token": token(second)})
        try:
            assert script.refusal.startswith("auth")
            assert script.call("act", {"id": "b?", "action": {"do": "move",
                                                              "move": black_moves[0]}}) is None
            assert script.states == []
        finally:
            script.close()
        # ...and so does White's own code again; the phone's own browser holds White, so
        # Black is elsewhere for it.
        again = joined(server, game.codes[1])
        assert 'data-testid="waiting-text"' in page(server, again).text
        assert refused(server, {"role": "team", "token": token(again)}).startswith("auth")
        same = joined(server, game.codes[TABLE], cookies=white_phone.cookies)
        answer = same.post(f"{server.url}/team/seat", data={"seat": "2"}, timeout=10)
        assert answer.status_code == 409 and ELSEWHERE in answer.text
        # A table screen (the screen code leaked): acts for neither colour.
        tablet = screen(server, joined(server, game.codes[SCREEN]), role="table")
        for action in ({"do": "move", "move": black_moves[0]}, {"do": "offer_draw"}):
            answer = tablet.act(action)
            assert answer["ok"] is False and answer["error"] == "H-G8", (action, answer)
        assert white.act({"do": "offer_draw"}, "w2")["ok"]
        offered = black.wait_seq(2)["view"]["pending"]["draw"]
        assert offered == 1
        for action in ({"do": "accept_draw"}, {"do": "move", "move": black_moves[0]}):
            answer = tablet.act(action)
            assert answer["ok"] is False and answer["error"] == "H-G8", (action, answer)
        assert not white.act({"do": "accept_draw"}, "w3")["ok"]    # not White's to accept
        # Nothing of it reached the board: one White move and White's offer, not over.
        view = gm.wait_seq(2)["view"]
        assert view["moves"] == [white_move] and not view["over"]
        assert gm.call("sync", {"seq": 2})["seq"] == 2
        assert black.act({"do": "decline_draw"}, "b1")["ok"]
    finally:
        quick_close(white, black, gm, tablet)


@pytest.mark.parametrize("game_kind", ["colmena", "hive"])
def test_a_seats_code_used_twice_waits_for_the_teacher(server, console, game_kind):
    """Attack 3: a seat's own code opened on a second device. The first holds the seat;
    the second waits (its socket refused, its actions unanswered, no card of any hand in
    any frame it got) until the teacher accepts it. Then the first device's open
    connections close at once and act no more, and the second plays the seat."""
    game = make_game(server, console, game_kind)
    gm = teacher(server, console, game.id)
    first = second = None
    raws: list[RawSocket] = []
    try:
        if game_kind == "colmena":      # a seat holding a task: its phone may start
            seat = int(next(iter(gm.last["legal"][0]["options"]["cards"])))
        else:
            seat = 1                    # White moves first
        code = game.codes[seat]
        holder = joined(server, code)
        first = screen(server, holder)
        first_auth = {"role": "team", "token": token(holder)}
        raws.append(first_script := RawSocket(server, first_auth))
        assert first_script.refusal is None and first_script.states[0]["team"] == seat
        held = seated(gm, lambda s: str(seat) in s["holders"])["holders"][str(seat)]
        # The same code on a second device: it asks.
        taker = joined(server, code)
        assert 'data-testid="waiting-text"' in page(server, taker).text
        assert taker.get(f"{server.url}/team/ask", timeout=10).json() == {"state": "waiting"}
        taker_auth = {"role": "team", "token": token(taker)}
        assert refused(server, taker_auth).startswith("auth")
        raws.append(asking := RawSocket(server, taker_auth))
        assert asking.refusal.startswith("auth")
        if game_kind == "colmena":      # the seat's first task, from its own hand
            action = {"do": "first_task",
                      "card": gm.last["legal"][0]["options"]["cards"][str(seat)][0]}
        else:
            moves = next(e for e in first.last["legal"] if e["do"] == "move")["options"]["moves"]
            action = {"do": "move", "move": moves[0]}
        assert asking.call("act", {"id": "asker", "action": action}) is None
        asks = seated(gm, lambda s: s["asks"])["asks"]
        assert [a["seat"] for a in asks] == [seat] and asks[0]["device"] != held
        assert gm.call("sync", {"seq": 0})["seq"] == 0
        # The teacher accepts: the first device is cut off at once, the second plays.
        answer = post(server, console, f"/console/{game.id}/seats/{seat}/answer",
                      {"device": asks[0]["device"], "accept": True})
        assert answer.json() == {"ok": True, "accepted": True, "removed": held}
        assert_cut_off(server, first, first_script, first_auth)
        assert page(server, holder).status_code == 302
        assert taker.get(f"{server.url}/team/ask", timeout=10).json() == {"state": "ok"}
        assert page(server, taker).status_code == 200
        second = screen(server, taker)
        assert second.last["team"] == seat
        assert second.act(action, "taker") == {"ok": True, "seq": 1}
        assert seated(gm, lambda s: not s["asks"])["holders"][str(seat)] == asks[0]["device"]
        if game_kind == "colmena":
            assert {c["id"] for c in second.last["view"]["hand"]} == {
                c["id"] for c in gm.wait_seq(1)["view"]["hands"][str(seat)]}
            assert shown(asking.frames, secrets_of(gm.last)) == set()
    finally:
        for raw in raws:
            raw.close()
        quick_close(gm, first, second)


def test_the_chooser_cookie_takes_one_seat_only(server, console):
    """Attack 4: a phone that joined with the table's code and took seat 1 takes no other
    seat: with its cookie it goes back to its seat; the chooser's cookie replayed, or the
    table's code opened again, answers 409 "elsewhere" for seat 2."""
    game = make_game(server, console, "colmena")
    gm = teacher(server, console, game.id)
    phone = None
    try:
        browser = requests.Session()
        assert browser.get(f"{server.url}/j/{game.codes[TABLE]}", allow_redirects=False,
                           timeout=10).status_code == 302
        choosing = token(browser)
        assert browser.post(f"{server.url}/team/seat", data={"seat": "1"},
                            allow_redirects=False, timeout=10).status_code == 302
        seat_one = token(browser)
        device = seated(gm, lambda s: "1" in s["holders"])["holders"]["1"]
        # With its cookie: back to its own seat, seat 2 untouched.
        back = browser.post(f"{server.url}/team/seat", data={"seat": "2"},
                            allow_redirects=False, timeout=10)
        assert back.status_code == 302 and token(browser) == seat_one
        # The chooser's cookie replayed, and the table's code opened again (the same
        # device): seat 2 is elsewhere for it.
        replayed = requests.Session()
        replayed.cookies.set("team_token", choosing)
        rescanned = joined(server, game.codes[TABLE], cookies=browser.cookies)
        for attempt in (replayed, rescanned):
            for other in ("2", "3"):
                answer = attempt.post(f"{server.url}/team/seat", data={"seat": other},
                                      allow_redirects=False, timeout=10)
                assert answer.status_code == 409, (other, answer.status_code)
                assert 'data-testid="choose-error"' in answer.text and ELSEWHERE in answer.text
        assert seated(gm, lambda s: True) == {"holders": {"1": device}, "screens": [],
                                              "asks": []}
        # Its own seat it keeps, and its seat's token plays on.
        phone = Client(server, {"role": "team", "token": seat_one}).connect()
        assert phone.last["team"] == 1
        # Another phone still finds seat 2 free.
        other = joined(server, game.codes[TABLE], seat=2)
        assert page(server, other).status_code == 200
        assert set(seated(gm, lambda s: "2" in s["holders"])["holders"]) == {"1", "2"}
    finally:
        quick_close(gm, phone)


def test_quitar_and_a_new_screen_code_close_open_connections_at_once(server, console):
    """Attack 5: the teacher removes a phone («Quitar») while it is connected, then gives
    the table a new screen code while its tablet is connected: each connection (the page's
    and a script's) is closed at once and acts no more, and the teacher's console shows the
    seat freed, the screen gone, at once (it went on listing a removed phone as its seat's
    holder until the next change: LiveGames.remove_device now tells it); the old screen
    code admits no one, the new one does."""
    game = make_game(server, console, "colmena")
    gm = teacher(server, console, game.id)
    phone_browser = joined(server, game.codes[1])
    tablet_browser = joined(server, game.codes[SCREEN])
    phone_auth = {"role": "team", "token": token(phone_browser)}
    tablet_auth = {"role": "table", "token": token(tablet_browser)}
    phone = tablet = kept = None
    raws: list[RawSocket] = []
    try:
        phone, tablet = screen(server, phone_browser), screen(server, tablet_browser, "table")
        raws += [phone_script := RawSocket(server, phone_auth),
                 tablet_script := RawSocket(server, tablet_auth)]
        seating = seated(gm, lambda s: s["holders"] and s["screens"])
        phone_id, (tablet_id,) = seating["holders"]["1"], seating["screens"]
        # «Quitar» the phone.
        assert post(server, console, f"/console/{game.id}/devices/remove",
                    {"device": phone_id}).json() == {"ok": True, "device": phone_id}
        assert_cut_off(server, phone, phone_script, phone_auth)
        assert page(server, phone_browser).status_code == 302
        assert seated(gm, lambda s: not s["holders"])["screens"] == [tablet_id]
        assert tablet.sio.connected and tablet.call("sync", {})["ok"]
        assert tablet_script.call("sync", {}) == {"ok": True, "seq": 0}
        # A new screen code: the tablet it admitted is cut off, the old code dead.
        renewed = post(server, console, f"/console/{game.id}/screen/code").json()
        assert renewed["ok"] and renewed["team"] == SCREEN and renewed["code"] != game.codes[SCREEN]
        assert_cut_off(server, tablet, tablet_script, tablet_auth)
        assert page(server, tablet_browser).status_code == 302
        assert requests.get(f"{server.url}/j/{game.codes[SCREEN]}", allow_redirects=False,
                            timeout=10).status_code == 404
        assert seated(gm, lambda s: not s["screens"])["holders"] == {}
        kept = screen(server, joined(server, renewed["code"]), "table")
        assert kept.last["role"] == "table"
        assert len(seated(gm, lambda s: s["screens"])["screens"]) == 1
        assert gm.call("sync", {"seq": 0})["seq"] == 0
    finally:
        for raw in raws:
            raw.close()
        quick_close(gm, phone, tablet, kept)
