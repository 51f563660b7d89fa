"""Fault campaigns against a real server process: SIGKILL at many points, and fuzzing.

Both are plain functions so that the live tests and ``bench/faults.py`` run
the very same code:

- ``kill_campaign(workdir, points=..., log=print)`` plays a scripted game
  covering every step of a turn, and at each kill point sends one more
  action without waiting for its acknowledgement and SIGKILLs the server;
  after each restart it checks the record against what was acknowledged
  and the replayed state against what a reconnecting GM receives.
- ``fuzz_campaign(server, payloads=5000, seed=0)`` sends random and hostile
  payloads over real Socket.IO connections, none of which may change the
  game, and counts server errors.
"""
from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import requests
import socketio
import websocket

from facilitator.games.partida import ACTION_TYPES, Refusal, new_game, parse_action, replay
from facilitator.games.partida.views import gm_view
from server import ROOT, Client, Server, stop_client

#: The settings of the scripted game: a normal round, then a round of challenges.
KILL_SETTINGS = {"teams": [{"name": f"Equipo {n}", "members": 4} for n in range(1, 5)],
                 "round_modes": [["normal"], ["simple", "risky"]], "deliberation_seconds": 60}

#: Pauses between sending the last action and the SIGKILL, cycled over the kill points.
KILL_DELAYS = (0.0, 0.001, 0.002, 0.004, 0.008, 0.015)


# --------------------------------------------------------------------------- clients

class QuickCloseWebSocket(websocket.WebSocket):
    """websocket-client's WebSocket, waiting 0.05 s rather than 3 s for the close frame.

    The server never answers a WebSocket close frame (gevent hands the socket
    back to HTTP, which reads the frame as a bad request), so every client
    close would otherwise take 3 s.
    """

    def close(self, status=websocket.STATUS_NORMAL, reason=b"", timeout=0.05):
        super().close(status, reason, timeout)


#: Options of every Socket.IO client of these tests.
WEBSOCKET_OPTIONS = {"class_": QuickCloseWebSocket}


class LiveClient(Client):
    """A ``server.Client`` that may connect elsewhere (a proxy) and closes quickly."""

    def __init__(self, url: str, auth: dict, cookies: str | None = None,
                 reconnection: bool = False, **kwargs):
        kwargs.setdefault("websocket_extra_options", dict(WEBSOCKET_OPTIONS))
        super().__init__(SimpleNamespace(url=url), auth, cookies=cookies,
                         reconnection=reconnection, **kwargs)
        self.sio.on("connect", self._on_connect)

    def _on_connect(self):
        # python-engineio's client does not close a WebSocket it gives up on (a dead
        # server, a silent network): remember each one, to close it at the end.
        ws = getattr(self.sio.eio, "ws", None)
        if ws is not None:
            self.websockets.append(ws)


def quick_close(*clients) -> None:
    """Stop clients (``Client`` or ``socketio.Client``) at once, without 3 s waits each.

    Each is disconnected, its reconnection attempts (if any) stopped, the
    WebSockets python-engineio's client gave up on without closing them (a dead
    server, a silent network) shut down, and its threads joined: see
    ``server.stop_client``.
    """
    def close(client):
        stop_client(getattr(client, "sio", client), getattr(client, "websockets", ()))
    threads = [threading.Thread(target=close, args=(c,)) for c in clients if c is not None]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(15)


#: A ``facilitator serve`` process started ahead: it imports everything, then waits
#: for a line on its standard input before it runs the command (and so before it
#: opens the database or the port).
WARM_SERVE = """
import sys
port = sys.argv[1]
sys.argv = ["facilitator", "serve", "--port", port]
import facilitator.cli                      # patches the standard library for gevent first
import engineio.async_drivers.gevent, flask, flask_socketio, gevent.pywsgi, sqlalchemy
import facilitator.extensions, facilitator.live.handlers, facilitator.live.service
import facilitator.live.watcher, facilitator.serve, facilitator.store.banks
import facilitator.web.api, facilitator.web.assets, facilitator.web.banks
import facilitator.web.console, facilitator.web.projector, facilitator.web.team
sys.stdin.readline()
facilitator.cli.main()
"""


class WarmServer(Server):
    """A ``Server`` whose next process is started ahead of the restart.

    A restart after SIGKILL is still a new process running ``facilitator
    serve`` on the same database: only the imports (~1-2 s, no state at all)
    are done before the kill, so a kill campaign spends its time on kills.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._next: subprocess.Popen | None = None

    def prepare(self) -> None:
        """Start the next process, to wait for its turn."""
        if self._next is None:
            with open(self.instance / f"server-{self.port}.log", "ab") as log:
                self._next = subprocess.Popen(
                    [sys.executable, "-c", WARM_SERVE, str(self.port)], cwd=ROOT,
                    env=self.env, stdin=subprocess.PIPE, stdout=log, stderr=subprocess.STDOUT,
                    start_new_session=True)

    def start(self, timeout: float = 60) -> "WarmServer":
        self.prepare()
        self.process, self._next = self._next, None
        self.process.stdin.write(b"go\n")
        self.process.stdin.close()
        _wait_until_up(self, timeout)
        return self

    def stop(self) -> None:
        super().stop()
        if self._next is not None:
            os.killpg(self._next.pid, signal.SIGKILL)
            self._next.stdin.close()
            self._next.wait(10)
            self._next = None


def _wait_until_up(server: Server, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"server exited: {server.log()}")
        try:
            requests.get(server.url + "/join", timeout=5).close()
            return
        except requests.RequestException:
            time.sleep(0.05)
    raise RuntimeError(f"server did not start: {server.log()}")


def start_server(server: Server, timeout: float = 60) -> Server:
    """``server.start()``, waiting longer for a first page that is slow on a loaded machine.

    ``Server.start`` gives each probe one second and only retries when the
    connection is refused; a process that is up but slow to answer raises
    ReadTimeout there.
    """
    try:
        return server.start(timeout)
    except requests.exceptions.ReadTimeout:
        _wait_until_up(server, timeout)
        return server


def cookie_header(http: requests.Session) -> str:
    """The ``Cookie`` header of a logged-in HTTP session, for a Socket.IO client."""
    return "; ".join(f"{k}={v}" for k, v in http.cookies.items())


def join_token(url: str, code: str) -> str:
    """Join a team with its code, as a phone scanning the QR code does; the device token."""
    with requests.Session() as device:
        response = device.get(f"{url}/j/{code}", allow_redirects=False, timeout=10)
        assert response.status_code == 302, response.status_code
        return device.cookies["team_token"]


def fetch_record(server: Server, http: requests.Session, game_id: int) -> dict:
    """The game's record, as the GM downloads it."""
    response = http.get(f"{server.url}/console/{game_id}/record.json", timeout=10)
    assert response.status_code == 200, response.status_code
    return response.json()


def as_json(data) -> str:
    """Canonical JSON text, to compare two states."""
    return json.dumps(data, ensure_ascii=False, sort_keys=True, default=str)


def normal(action: dict) -> dict:
    """An action as the record keeps it."""
    return parse_action(action).to_dict()


# --------------------------------------------------------------------------- the scripted game

def _legal(game, do: str):
    return next(entry for entry in game.legal_actions() if entry.do == do)


def _choose(pick: int = 0):
    def make(game):
        choices = _legal(game, "choose").options["choices"]
        pair = choices[(pick * 7) % len(choices)]
        return {"do": "choose", "author": pair["author"], "type": pair["type"]}
    return make


def _question(game):
    return {"do": "question", "id": _legal(game, "question").options["ids"][0]}


def _exchange(team: int, take: str):
    def make(game):
        cards = sorted(game.state.team(team).cards)[:game.settings.exchange_cost]
        return {"do": "exchange", "team": team, "give": cards, "take": take}
    return make


def _a(do, **fields):
    return {"do": do, **fields}


#: The script: eight turns (four normal, four challenges), every kind of action at
#: least once. A verdict while the writing is open comes after a ``time_up``, as the
#: live game records it (R-G1: the lock is its own action). Items are actions, or functions of the game that make one (question
#: ids, authors and types come from the game's own questions).
SCRIPT = [
    # round 1, turn 1 (host 1): a Seguro that saves a wrong answer
    _a("spokesperson", team=1, name="Ana"), _a("declare", mode="normal"), _a("seguro", team=1),
    _choose(0), _question, _a("verdict", result="wrong"), _a("end_turn"),
    # turn 2 (host 2): team 3 plays Elijo and chooses; a half answer and its pick
    _a("elijo", team=3), _a("declare", mode="normal"), _choose(1), _question,
    _a("verdict", result="half"), _a("pick", team=2, card="author"), _a("end_turn"),
    # turn 3 (host 3): an adjustment, undone and redone
    _a("declare", mode="normal"), _choose(2), _question,
    _a("adjust", team=3, points=1, reason="Buena pregunta"), _a("undo"), _a("redo"),
    _a("verdict", result="full"), _a("end_turn"),
    # turn 4 (host 4): a verdict taken back
    _a("declare", mode="normal"), _choose(3), _question, _a("verdict", result="wrong"),
    _a("undo"), _a("verdict", result="full"), _a("end_turn"),
    # round 2 (individual), turn 5 (host 4): simple challenge, Desvío, Seguro, time up
    _a("representative", team=4, name="Luis"), _a("declare", mode="simple", target=1),
    _a("desvio", team=1, target=2), _a("seguro", team=4), _choose(4), _question,
    _a("write", team=2, text="V"), _a("time_up"), _a("more_time", seconds=30),
    _a("write", team=2, text="F <b>seguro</b>"), _a("time_up"), _a("verdict", result="full"),
    _a("written", correct=True), _a("end_turn"),
    # turn 6 (host 3): risky challenge of team 1, half, good argument (+4)
    _a("declare", mode="risky", target=1), _choose(5), _question,
    _a("write", team=3, text="Kant"), _a("spokesperson", team=1, name="Marta"), _a("time_up"),
    _a("verdict", result="half"), _a("pick", team=1, card="type"), _a("written", correct=True),
    _a("argument", result="good"), _a("end_turn"),
    # turn 7 (host 2): team 3 exchanges three cards; simple challenge, wrong, poor argument
    _exchange(3, "desvio"), _a("declare", mode="simple", target=4), _choose(6), _question,
    _a("write", team=4, text="Marx, en el Manifiesto"), _a("time_up"),
    _a("verdict", result="wrong"),
    _a("written", correct=True), _a("argument", result="poor"),
    _a("pick", team=4, card="author"), _a("end_turn"),
    # turn 8 (host 1): risky challenge of team 2, wrong, wrong writing; the game ends
    _a("declare", mode="risky", target=2), _choose(7), _question, _a("write", team=1, text="F"),
    _a("time_up"), _a("verdict", result="wrong"), _a("written", correct=False), _a("end_turn"),
    # after the end: a correction, taken back
    _a("adjust", team=2, points=-0.5, reason="Corrección"), _a("undo"),
]

TEAM_CAN_SEND = frozenset(name for name, cls in ACTION_TYPES.items() if not cls.gm_only)


def build_script(record: dict) -> list[tuple[dict, str]]:
    """The scripted game for a record's settings and questions: ``(action, sender)`` pairs.

    Every action is played on a local engine as it is built, so the script is
    one the server must accept. The sender is ``"gm"`` or a team number: team
    actions come from the team's own device, except every fifth, which the
    GM sends for the team (R-G4).
    """
    game = new_game(record)
    script = []
    for index, item in enumerate(SCRIPT):
        action = item(game) if callable(item) else dict(item)
        sender: object = "gm"
        if action["do"] in TEAM_CAN_SEND and index % 5:
            turn = game.state.turn
            sender = {"declare": turn.host, "choose": turn.chooser}.get(action["do"],
                                                                      action.get("team"))
        game.play(parse_action(action))
        script.append((normal(action), sender))
    assert game.state.over, "the script plays a whole game"
    return script


def pick_kill_points(script: list[tuple[dict, str]], points: int) -> list[int]:
    """Indexes of the script to kill at: the first of every kind of action, then spread evenly."""
    if points >= len(script):
        return list(range(len(script)))
    chosen: dict[str, int] = {}
    for index, (action, _sender) in enumerate(script):
        chosen.setdefault(action["do"], index)
    rest = [i for i in range(len(script)) if i not in chosen.values()]
    need = max(0, points - len(chosen))
    spread = {rest[k * len(rest) // need] for k in range(need)} if need else set()
    return sorted(set(chosen.values()) | spread)


# --------------------------------------------------------------------------- the kill campaign

class _Table:
    """The GM and the team devices of the scripted game, connected to one server run."""

    def __init__(self, server: Server, game_id: int, cookie: str, tokens: dict[int, str]):
        self.server, self.game_id, self.cookie, self.tokens = server, game_id, cookie, tokens
        self.clients: dict[object, LiveClient] = {}

    def client(self, sender) -> LiveClient:
        if sender not in self.clients:
            if sender == "gm":
                auth, cookie = {"role": "gm", "game": self.game_id}, self.cookie
            else:
                auth, cookie = {"role": "team", "token": self.tokens[sender]}, None
            self.clients[sender] = LiveClient(self.server.url, auth, cookies=cookie).connect()
        return self.clients[sender]

    def forget(self) -> None:
        quick_close(*self.clients.values())
        self.clients = {}


def kill_campaign(workdir, points: int = 24, log=print, delays=KILL_DELAYS,
                  warm: bool = True) -> dict:
    """Kill the server with SIGKILL at ``points`` points of a scripted game; count losses.

    At each kill point the actions before it have all been acknowledged; one
    more is sent without waiting and the server is killed 0 to 15 ms later.
    After the restart on the same database:

    - the record must start with every acknowledged action, in order, and
      hold at most the in-flight one after them (which it must hold if its
      acknowledgement arrived before the kill);
    - a reconnecting GM must receive the state replayed from that record;
    - sending the in-flight action again with the same id applies it once.

    Returns ``kill_points``, ``actions_lost`` (acknowledged actions missing
    or changed), ``mismatches`` (replayed state differs from the GM's),
    ``in_flight_committed``/``in_flight_dropped``/``in_flight_acked``,
    ``actions`` (the script's length), ``kinds`` (kinds of action killed at)
    and ``seconds``.
    """
    started = time.monotonic()
    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    server = start_server(WarmServer(workdir) if warm else Server(workdir))
    result = {"kill_points": 0, "actions_lost": 0, "mismatches": 0, "in_flight_committed": 0,
              "in_flight_dropped": 0, "in_flight_acked": 0, "duplicates_applied_twice": 0,
              "refused": 0, "kinds": []}
    table = None
    http = requests.Session()
    try:
        http = server.gm_session()
        game_id = server.create_game(http, KILL_SETTINGS, name="Partida interrumpida")
        codes = http.get(f"{server.url}/api/games/{game_id}/codes", timeout=10).json()
        tokens = {t["team"]: join_token(server.url, t["code"]) for t in codes["teams"]}
        script = build_script(fetch_record(server, http, game_id))
        kills = pick_kill_points(script, points)
        result["actions"] = len(script)
        log(f"kill campaign: {len(script)} actions, {len(kills)} kill points, "
            f"database {workdir / 'facilitator.db'}")
        table = _Table(server, game_id, cookie_header(http), tokens)
        done = 0                       # script[:done] is acknowledged

        def send(index: int) -> dict:
            action, sender = script[index]
            ack = table.client(sender).act(action, f"s{index}")
            if not ack.get("ok"):
                result["refused"] += 1
                raise AssertionError(f"action {index} {action} from {sender} refused: {ack}")
            return ack

        for number, point in enumerate(kills, start=1):
            while done < point:
                ack = send(done)
                assert ack["seq"] == done + 1 and not ack.get("duplicate"), (done, ack)
                done += 1
            action, sender = script[point]
            acked = threading.Event()
            answer: dict = {}

            def on_ack(*data, _answer=answer, _acked=acked):
                _answer["ack"] = data[0] if data else None
                _acked.set()
            table.client(sender).sio.emit("act", {"id": f"s{point}", "action": action},
                                          callback=on_ack)
            delay = delays[number % len(delays)]
            if delay:
                time.sleep(delay)
            server.kill()
            acked.wait(0.05)            # an ack already received is read by the client now
            was_acked = acked.is_set() and bool((answer.get("ack") or {}).get("ok"))
            table.forget()
            start_server(server)
            if warm:
                server.prepare()            # the next restart's process, imports done

            record = fetch_record(server, http, game_id)
            stored = record["actions"]
            expected = [a for a, _ in script[:done]]
            lost = sum(1 for i, a in enumerate(expected) if i >= len(stored) or stored[i] != a)
            extra = stored[done:]
            committed = extra == [action]
            if lost or (extra and not committed):
                log(f"  point {number}: LOST {lost} acknowledged action(s); after them "
                    f"the record holds {extra}")
            result["actions_lost"] += lost + (1 if was_acked and not committed else 0)
            result["in_flight_acked"] += was_acked
            result["in_flight_committed" if committed else "in_flight_dropped"] += 1
            if lost or (extra and not committed) or (was_acked and not committed):
                result["mismatches"] += bool(extra and not committed)
                result["kill_points"] += 1
                log(f"  kill {number} at action {point}: the record is not what was "
                    f"acknowledged; stopping")
                break

            # What a GM reconnecting now receives is the replay of the record.
            gm = table.client("gm")
            replayed = gm_view(replay(record).state)
            first = gm.states[0]
            if as_json(first["view"]) != as_json(replayed) or first["seq"] != len(stored):
                result["mismatches"] += 1
                log(f"  point {number}: the GM's state differs from the replay of the record")

            # Sending the in-flight action again applies it once.
            ack = send(point)
            if committed and not ack.get("duplicate"):
                result["duplicates_applied_twice"] += 1
            assert ack["seq"] == point + 1, (point, ack)
            done = point + 1
            result["kill_points"] += 1
            result["kinds"].append(action["do"])
            log(f"  kill {number:2}/{len(kills)} at action {point:2} ({action['do']}, "
                f"+{delay * 1000:.0f} ms): in flight {'committed' if committed else 'dropped'}"
                f"{', acknowledged' if was_acked else ''}; record {len(stored)} actions, "
                f"replay = GM view: {as_json(first['view']) == as_json(replayed)}")
        else:
            while done < len(script):
                send(done)
                done += 1
            final = fetch_record(server, http, game_id)
            if [a for a, _ in script] != final["actions"]:
                result["mismatches"] += 1
                log("  the final record is not the script")
            result["final_over"] = replay(final).state.over
    finally:
        if table is not None:
            table.forget()
        http.close()
        server.stop()
    result["seconds"] = round(time.monotonic() - started, 1)
    result["kinds"] = sorted(set(result["kinds"]))
    return result


# --------------------------------------------------------------------------- the fuzz campaign

#: Texts a curious student types: markup, script, injections, odd Unicode.
HOSTILE_TEXT = (
    "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "\"><svg onload=alert(1)>",
    "</script><script>alert(document.cookie)</script>", "javascript:alert(1)",
    "{{7*7}}", "${jndi:ldap://127.0.0.1/x}", "' OR 1=1 --", "'; DROP TABLE actions; --",
    "../../../../etc/passwd", "%s%s%s%n", "\x00", "\x00\x01\x02\x1b[31m", "a\nb\r\nc\t",
    "\u202egnp.exe", "\u200b\u200b", "\ufeff", "Z\u0351\u0352a\u0353l\u0354g\u0355o\u0356",
    "🎲" * 60, "ñ" * 2001, "x" * 2001, " ", "", "NaN", "Infinity", "-Infinity", "null",
    "true", "1e309", "٣", "１", "0x10", "-0", "__proto__", "constructor",
    "\ud800", "a\udfffb",
)

#: Values of the wrong type or out of range for any field.
WEIRD = (
    None, True, False, 0, -1, 9, 99, 2 ** 31, 2 ** 63, -(2 ** 63), 10 ** 30, 1.5, -0.0,
    1e308, -1e308, 1e-320, float("nan"), float("inf"), float("-inf"), [], {}, [1, 2, 3],
    {"$gt": ""}, [[[]]], {"do": "undo"}, ["author:Kant"], "1", "3",
) + HOSTILE_TEXT

UNKNOWN_EVENTS = ("hack", "admin", "ACT", "act ", "state", "message", "error", "json",
                  "connect_error", "join", "leave", "<script>", "", " ", "__proto__",
                  "undo", "x" * 300, "act\x00", "ñ")

FUZZ_SETTINGS = KILL_SETTINGS

#: Payloads of the main connections stay under the server's 64 KB message limit.
MAIN_LIMIT = 60_000
#: Events left unanswered (5 s each) before the campaign gives up: the server is broken.
MAX_UNANSWERED = 20


class _Oracle:
    """What the server must answer to a payload, from a local copy of the game.

    The copy is the game as the server holds it (nothing the fuzz sends may
    change it). A payload the rules could accept is never sent: ``classify``
    returns None for it and the generator draws another.
    """

    def __init__(self, game, committed_ids: set[str]):
        self.game, self.committed_ids = game, committed_ids

    def _authorise(self, team: int, action: dict) -> None:
        parsed = parse_action(action)
        if ACTION_TYPES[parsed.do].gm_only:
            raise Refusal("R-G4", "the GM's")
        own = getattr(parsed, "team", None)
        if own is not None and own != team:
            raise Refusal("R-G4", "another team")
        turn = self.game.state.turn
        if (parsed.do == "declare" and turn.host != team) or (
                parsed.do == "choose" and turn.chooser != team):
            raise Refusal("R-G4", "not its turn")

    def classify(self, role: str, team: int | None, event: str, args: tuple) -> str | None:
        """``refuse``, ``sync`` (an ok answer with the same seq), ``silent`` or None."""
        if event not in ("act", "timer", "request_exchange", "dismiss_exchange", "sync",
                         "connect", "disconnect"):
            return "silent"
        if event == "sync":
            return "sync"
        if event in ("connect", "disconnect"):
            return "refuse"
        payload = args[0] if args else None
        try:
            if event == "act":
                if not isinstance(payload, dict) or not isinstance(payload.get("action"), dict):
                    return "refuse"
                client_id = payload.get("id")
                if client_id is not None and (not isinstance(client_id, str)
                                              or not 0 < len(client_id) <= 64):
                    return "refuse"
                if role == "projector":
                    return "refuse"
                if role == "team":
                    self._authorise(team, payload["action"])
                if client_id in self.committed_ids:
                    return None                   # the ack would repeat the first answer
                self.game.check(payload["action"])
                return None
            if event == "timer":
                from facilitator.live.timers import deliberating
                return "refuse" if role != "gm" or not deliberating(self.game) else None
            if event == "request_exchange":
                if role != "team" or not isinstance(payload, dict):
                    return "refuse"
                self.game.check({"do": "exchange", "team": team, "give": payload.get("give"),
                                 "take": payload.get("take")})
                return None
            if event == "dismiss_exchange":
                if role == "gm" and isinstance(payload, dict) and isinstance(payload.get("team"),
                                                                           int):
                    return None                   # accepted, and changes nothing
                return "refuse"
        except Refusal:
            return "refuse"
        except Exception:     # noqa: BLE001 - the server must refuse what the engine chokes on
            return "refuse"
        return "refuse"


class _Generator:
    """Random and hostile payloads for one sender."""

    def __init__(self, rng: random.Random, record: dict, role: str, team: int | None):
        self.rng, self.role, self.team = rng, role, team
        self.authors = sorted({q["author"] for q in record["questions"]})
        self.question_ids = [q["id"] for q in record["questions"]]
        self.ids = [f"dup-{n}" for n in range(5)]

    def weird(self):
        rng = self.rng
        roll = rng.random()
        if roll < 0.08:
            return self.nested(rng.randint(5, 300))
        if roll < 0.12:
            return "x" * rng.choice((2001, 10_000, 60_000))
        return rng.choice(WEIRD)

    def nested(self, depth: int):
        value: object = "deep"
        for level in range(depth):
            value = [value] if level % 2 else {"a": value}
        return value

    def text(self):
        rng = self.rng
        return rng.choice(HOSTILE_TEXT) if rng.random() < 0.7 else f"Ana {rng.randint(1, 99)}"

    def team_number(self):
        rng = self.rng
        others = [n for n in (1, 2, 3, 4, 9, 0, -1, 5, 10 ** 9) if n != self.team]
        return rng.choice(others) if rng.random() < 0.8 else rng.choice(WEIRD)

    def plausible(self, do: str) -> dict:
        """An action of kind ``do`` with fields of the right shape (not necessarily legal)."""
        rng = self.rng
        fields: dict = {}
        if do == "declare":
            fields["mode"] = rng.choice(("normal", "simple", "risky"))
            if fields["mode"] != "normal":
                fields["target"] = rng.randint(1, 4)
        elif do == "desvio":
            fields.update(team=self.team_number(), target=rng.randint(1, 4))
        elif do in ("elijo", "seguro"):
            fields["team"] = self.team_number()
        elif do == "choose":
            fields.update(author=rng.choice(self.authors),
                          type=rng.choice(("vf", "quien", "abierta")))
        elif do == "question":
            fields["id"] = rng.choice(self.question_ids)
        elif do == "write":
            fields.update(team=self.team_number(), text=self.text())
        elif do == "more_time":
            fields["seconds"] = rng.choice((30, 0, -5, 3601, 10 ** 9))
        elif do in ("verdict", "argument"):
            fields["result"] = rng.choice(("full", "half", "wrong", "good", "poor"))
        elif do == "pick":
            fields.update(team=self.team_number(), card=rng.choice(("author", "type")))
        elif do == "written":
            fields["correct"] = rng.choice((True, False))
        elif do in ("spokesperson", "representative"):
            fields.update(team=self.team_number(), name=self.text())
        elif do == "exchange":
            fields.update(team=self.team_number(), give=["author:Kant", "type:vf", "type:vf"],
                          take=rng.choice(("desvio", "seguro", "elijo")))
        elif do == "adjust":
            fields.update(team=self.team_number(), points=rng.choice((1, -0.5, 2.5)),
                          reason=self.text())
        return {"do": do, **fields}

    def mutate(self, action: dict) -> dict:
        rng = self.rng
        action = dict(action)
        for _ in range(rng.randint(0, 3)):
            roll = rng.random()
            keys = list(action)
            if roll < 0.45 and keys:
                action[rng.choice(keys)] = self.weird()
            elif roll < 0.6 and keys:
                del action[rng.choice(keys)]
            elif roll < 0.75:
                action[rng.choice(("extra", "team", "role", "gm", "seq", "__proto__"))] = \
                    self.weird()
            elif roll < 0.85:
                action["do"] = rng.choice(("fly", "DECLARE", "declare ", "", "__class__",
                                           "undo\x00", "end-game")) \
                    if rng.random() < 0.7 else self.weird()
            else:
                for key in ("name", "text", "reason", "author", "id"):
                    if key in action:
                        action[key] = self.text()
        return action

    def action(self) -> dict:
        rng = self.rng
        return self.mutate(self.plausible(rng.choice(sorted(ACTION_TYPES))))

    def envelope(self, action) -> tuple:
        """The arguments of an ``act`` event around ``action``."""
        rng = self.rng
        roll = rng.random()
        if roll < 0.5:
            return ({"id": f"fz-{rng.getrandbits(48):x}", "action": action},)
        if roll < 0.6:
            return ({"action": action},)                               # no id
        if roll < 0.68:
            return ({"id": rng.choice(self.ids), "action": action},)   # duplicated ids
        if roll < 0.76:
            return ({"id": self.weird(), "action": action},)
        if roll < 0.82:
            return ({"id": "x", "action": self.weird()},)
        if roll < 0.88:
            return (self.weird(),)
        if roll < 0.92:
            return ()
        if roll < 0.96:
            return ({"id": "y", "action": action}, self.weird(), self.weird())
        return ({"id": "z", "action": action, "extra": self.weird(), "seq": -1},)

    def payload(self) -> tuple[str, tuple]:
        """One event name and its arguments."""
        rng = self.rng
        roll = rng.random()
        if roll < 0.6:
            return "act", self.envelope(self.action())
        if roll < 0.68:
            op = rng.choice(("start", "pause", "resume", "extend", "restart", "stop", "", None))
            body = {"op": op, "seconds": rng.choice((30, 0, -1, 3601, 1.5, True, "30", None))}
            return "timer", (self.mutate(body) if rng.random() < 0.5 else body,)
        if roll < 0.76:
            body = {"id": "ex", "give": rng.choice((["author:Kant", "type:vf", "type:vf"],
                                                     self.weird(), [self.weird()] * 3)),
                    "take": rng.choice(("desvio", "seguro", "elijo", "carta", self.weird()))}
            return "request_exchange", (self.mutate(body) if rng.random() < 0.5 else body,)
        if roll < 0.82:
            return "dismiss_exchange", ({"team": self.weird()} if rng.random() < 0.8
                                        else self.weird(),)
        if roll < 0.87:
            return "sync", rng.choice(((), ({"seq": self.weird()},), (self.weird(),)))
        if roll < 0.9:
            return rng.choice(("connect", "disconnect")), rng.choice(
                ((), (self.weird(),), ("x", {"role": "gm", "game": 1}),
                 ("x", {"role": "team", "token": "forged"})))
        return rng.choice(UNKNOWN_EVENTS), rng.choice(((), (self.weird(),),
                                                       ({"action": self.action()},)))


def _judge(kind: str, ack, seq: int) -> str:
    """``ok`` when the answer is the one owed, else what was wrong with it."""
    if kind == "sync" and isinstance(ack, dict) and ack.get("ok") is True:
        return "ok" if ack.get("seq") == seq else "unclear"
    if not isinstance(ack, dict):
        return "unclear"
    if ack.get("error") == "server":
        return "server"
    if ack.get("ok") is not False:
        return "accepted"
    error, message = ack.get("error"), ack.get("message")
    clear = isinstance(error, str) and (error in ("format", "auth", "R-G4", "busy")
                                        or re.fullmatch(r"R-[A-Z]\d+", error))
    return "ok" if clear and isinstance(message, str) and message.strip() else "unclear"


def _log_text(server: Server) -> str:
    path = server.instance / f"server-{server.port}.log"
    return path.read_text(errors="replace") if path.exists() else ""


def fuzz_campaign(server: Server, payloads: int = 5000, seed: int = 0, log=print,
                  oversized: int = 12) -> dict:
    """Send ``payloads`` random and hostile payloads to a running server; count what went wrong.

    A game is set up (a normal turn, declared: the prepare step) with a GM, a
    device of team 3, a projector and a device of team 2 that only watches.
    The GM, team 3 and the projector each send their share of payloads from
    their own thread; ``oversized`` more (100 KB and 1 MB, over the server's
    64 KB limit) go over connections of their own, which the server may drop.
    No payload may be a legal change for its sender (a local copy of the game
    draws again when one could be).

    Returns ``payloads`` (sent), ``server_errors`` (acks with error
    ``server``, tracebacks in the server's log, events that got no answer,
    and a dead server), ``accepted`` and ``unclear`` (acks that are not a
    clear refusal), ``changed`` (the game or GM view changed), ``dropped``
    (connections the server closed on an oversized payload), ``observers_ok``
    (every client still receives states afterwards), ``by_error`` and
    ``seconds``.
    """
    started = time.monotonic()
    log_offset = len(_log_text(server))
    http = server.gm_session()
    game_id = server.create_game(http, FUZZ_SETTINGS, name="Partida de fuzz")
    codes = http.get(f"{server.url}/api/games/{game_id}/codes", timeout=10).json()
    tokens = {t["team"]: join_token(server.url, t["code"]) for t in codes["teams"]}
    cookie = cookie_header(http)
    gm = LiveClient(server.url, {"role": "gm", "game": game_id}, cookies=cookie).connect()
    team3 = LiveClient(server.url, {"role": "team", "token": tokens[3]}).connect()
    projector = LiveClient(server.url, {"role": "projector", "watch": codes["watch"]}).connect()
    observer = LiveClient(server.url, {"role": "team", "token": tokens[2]}).connect()
    clients = [gm, team3, projector, observer]
    for index, action in enumerate([{"do": "spokesperson", "team": 1, "name": "Ana"},
                                    {"do": "declare", "mode": "normal"}]):
        assert gm.act(action, f"setup-{index}")["ok"]
    seq = gm.call("sync", {"seq": -1})["seq"]
    before_view = as_json(gm.last["view"])
    record = fetch_record(server, http, game_id)
    oracle = _Oracle(replay(record), {"setup-0", "setup-1"})

    counts = {"payloads": 0, "ok": 0, "server": 0, "accepted": 0, "unclear": 0,
              "no_answer": 0, "silent": 0, "dropped": 0}
    by_error: dict[str, int] = {}
    examples: list[str] = []
    lock = threading.Lock()

    def tally(outcome: str, event: str, args: tuple, ack) -> None:
        with lock:
            counts["payloads"] += 1
            counts[outcome] = counts.get(outcome, 0) + 1
            if isinstance(ack, dict) and ack.get("error"):
                by_error[ack["error"]] = by_error.get(ack["error"], 0) + 1
            if outcome not in ("ok", "silent", "dropped") and len(examples) < 10:
                examples.append(f"{outcome}: {event} {str(args)[:200]} -> {str(ack)[:200]}")

    def worker(client: LiveClient, role: str, team: int | None, share: int, rng_seed: int):
        generator = _Generator(random.Random(rng_seed), record, role, team)
        sent = 0
        while sent < share and counts["no_answer"] <= MAX_UNANSWERED:
            event, args = generator.payload()
            kind = oracle.classify(role, team, event, args)
            if kind is None or len(json.dumps(args)) > MAIN_LIMIT:
                continue                      # a legal change, or too big here: draw another
            sent += 1
            try:
                if kind == "silent":
                    client.sio.emit(event, args if args else None)
                    tally("silent", event, args, None)
                    continue
                ack = client.sio.call(event, args if args else None, timeout=5)
            except (socketio.exceptions.TimeoutError, socketio.exceptions.SocketIOError) as error:
                tally("no_answer", event, args, type(error).__name__)
                if not client.sio.connected:    # the server dropped a connection it should keep
                    client.sio.connect(server.url, auth=client.auth, transports=["websocket"],
                                       headers={"Cookie": client.cookies} if client.cookies else {})
                continue
            tally(_judge(kind, ack, seq), event, args, ack)
            if sent % 500 == 0:
                log(f"  fuzz {role}: {sent}/{share} payloads")

    main = payloads - oversized
    shares = [(gm, "gm", None, main * 3 // 10), (projector, "projector", None, main * 3 // 10)]
    shares.append((team3, "team", 3, main - sum(s[3] for s in shares)))
    log(f"fuzz campaign: {payloads} payloads against game {game_id} (seed {seed})")
    threads = [threading.Thread(target=worker, args=(*share, seed * 10 + n))
               for n, share in enumerate(shares)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    # Over the server's 64 KB: the connection may be dropped; the server must stand.
    rng = random.Random(seed)
    for n in range(oversized):
        size = 100_000 if n % 2 == 0 else 1_000_000
        auth, who = [({"role": "projector", "watch": codes["watch"]}, None),
                     ({"role": "team", "token": tokens[3]}, None),
                     ({"role": "gm", "game": game_id}, cookie)][n % 3]
        victim = LiveClient(server.url, auth, cookies=who).connect()
        answer: dict = {}
        done = threading.Event()

        def on_ack(*data, _answer=answer, _done=done):
            _answer["ack"] = data[0] if data else None
            _done.set()
        unit = rng.choice(("x", "<script>", "ñ"))
        text = (unit * (size // len(unit) + 1))[:size]
        victim.sio.emit("act", {"id": f"big-{n}", "action": {"do": "write", "team": 9,
                                                             "text": text}}, callback=on_ack)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not done.is_set() and victim.sio.connected:
            time.sleep(0.02)
        if done.is_set():
            tally(_judge("refuse", answer.get("ack"), seq), "act", ("<oversized>",),
                  answer.get("ack"))
        elif not victim.sio.connected:
            tally("dropped", "act", ("<oversized>",), None)
        else:
            tally("no_answer", "act", ("<oversized>",), None)
        quick_close(victim)

    # Nothing changed, and everyone still hears the game.
    alive = server.process is not None and server.process.poll() is None
    after = gm.call("sync", {"seq": -1})
    changed = after.get("seq") != seq or as_json(gm.last["view"]) != before_view
    changed = changed or fetch_record(server, http, game_id)["actions"] != record["actions"]
    observers_ok = False
    if alive:
        ack = gm.act({"do": "spokesperson", "team": 2, "name": "Luis"}, "after-fuzz")
        try:
            for client in clients:
                client.wait_seq(ack["seq"], timeout=10)
            observers_ok = ack.get("ok") is True
        except AssertionError:
            observers_ok = False
    quick_close(*clients)
    tracebacks = _log_text(server)[log_offset:].count("Traceback")
    server_errors = counts["server"] + tracebacks + counts["no_answer"] + (0 if alive else 1)
    result = {"payloads": counts["payloads"], "server_errors": server_errors,
              "server_acks": counts["server"], "tracebacks": tracebacks,
              "no_answer": counts["no_answer"], "accepted": counts["accepted"],
              "unclear": counts["unclear"], "clear_answers": counts["ok"],
              "silent": counts["silent"],
              "dropped": counts["dropped"], "changed": changed, "alive": alive,
              "observers_ok": observers_ok, "by_error": dict(sorted(by_error.items())),
              "examples": examples, "seconds": round(time.monotonic() - started, 1)}
    log(f"  fuzz done: {result['payloads']} payloads, {result['clear_answers']} clear answers, "
        f"{result['silent']} unknown events, {result['dropped']} dropped connections, "
        f"{server_errors} server errors, {result['accepted']} accepted, "
        f"{result['unclear']} unclear; game changed: {changed}")
    return result
