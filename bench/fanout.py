#!/usr/bin/env python
"""Fan-out benchmark: the facilitator against the floor of bare Flask-SocketIO, in one run.

    python bench/fanout.py --scenario classroom|campus|scaleout|restart

Real Socket.IO clients (python-socketio's ``AsyncClient``, WebSocket transport,
run by one or a few load-generator processes) connect to real server processes
on 127.0.0.1. Each game has a GM console, team devices and projectors. The
GMs play a legal, endless stream of actions computed with the rules engine
from the game's own record (declare, choose, question, verdict, end_turn,
spokesperson, adjust with a reason, undo; then adjust/undo once the game is
over), so every action takes the whole path: validation, engine, database
commit, per-audience views, broadcast. Each GM waits for the acknowledgement
of its previous action before sending the next one (actions of one game are
sequential, as with a real GM); sends that left later than planned are
counted (``late_sends``).

Per phase (first the facilitator, then the floor: ``bench/floor_server.py``,
same WSGI server, same clients, same rooms, ``state`` messages replayed from
the ones just measured, with no game logic and no database) it prints:

- fan-out latency: action sent → the last screen of that game has the
  ``state`` carrying the action's ``seq``; p50, p95, p99, max;
- messages lost: (client, seq) pairs a client should have seen and never did;
- connect time (connect → first ``state``) and the wall time to connect all;
- server memory per connection: RSS (``/proc/PID/status``) after connecting
  minus before, divided by the number of sockets;

then the ratio of ours to the floor and whether each target of issue 6 is met.
The last line is one JSON object (``scenario``, ``p50_ms``, ``p99_ms``,
``floor_p99_ms``, ``ratio``, ``lost``, ``clients``, ...).

Scenarios (the issue's targets):

- ``classroom``: 1 game, 40 clients (GM, 4 teams × 9 devices, 3 projectors),
  5 actions/s, SQLite (as ``facilitator serve`` on a laptop); p99 ≤ 50 ms and
  ≤ 2× the floor's, p50 ≤ 1.5× the floor's. Finishes in under a minute.
- ``campus``: 100 games × 10 clients on one process, 20 actions/s in all,
  PostgreSQL; p99 ≤ 100 ms and ≤ 2× the floor, 0 lost, ≤ 100 KB per connection.
- ``scaleout``: 2 processes + Redis + PostgreSQL, 200 games × 10 clients
  (each game's clients spread over both processes), 40 actions/s; p99 ≤ 150 ms, 0 lost.
- ``restart``: process A holds 1,000 sockets (100 games × 10), process B the
  100 GMs who keep playing; A is SIGKILLed and restarted; every client of A
  must be back with the current state within 10 s of the kill, and see every
  later change.
- ``colmena``: a hall of la colmena (issue 37): 10 tables of 4, each with a phone
  per player and the table's tablet, plus the teacher's hall view and the hall's
  projector (52 sockets), SQLite; the phones (and the tablets, which answer the
  library question) play at a lecture's pace, 4 actions/s in all (an action of
  each table every 2.5 s). An action's fan-out ends when the last of its table's
  screens and of the two hall screens shows it (a ``hall`` message names each
  table's seq). Targets: p50 and p99 within 1.25× the floor's, 0 lost.

PostgreSQL and Redis are those of this machine, as for the tests
(``FACILITATOR_TEST_POSTGRES``, default postgresql://postgres@127.0.0.1:5432/test;
``FACILITATOR_TEST_REDIS``, default redis://127.0.0.1:6379/0); a fresh database
is created and dropped for each phase. The GM logs in with ``POST
/console/login`` and passes the session cookie (each game's GM a login of their own,
``--gm-sessions``); team devices join through ``GET
/j/<code>`` like a browser (the join rate limit counts per client address, so
joins leave from loopback source addresses 127.0.1.x; only 127.0.0.1 is ever
the destination); projectors use the watch code. Clients reconnect like
socket.io-client in a browser (0.8 s, doubling to 5 s, a 20 s connect
timeout) and send ``sync`` after a reconnection, as ``static/js/live.js`` does.

Options worth knowing:

- ``--floor-payload canned|pad``: by default (canned) the floor sends real
  state messages recorded in the facilitator phase (same bytes *and shape*);
  ``pad`` sends a padded flat object of the same size instead. Encoding and
  parsing nested JSON costs clients and server more than one flat string:
  any server that sends these screens pays it, so the default floor includes
  it (``pad`` gives a floor 1-4 ms lower at p99).
- ``--via-nginx``: every socket goes through nginx running ``deploy/nginx.conf``.
- ``--profile DIR`` (``--profile-connect``, ``--profile-floor``): py-spy (not in the
  test extras: ``.venv/bin/pip install py-spy``) records the facilitator server(s)
  during the load (and the connections; and, in ``restart``, the restarted
  process; and the floor's, to compare) and prints the functions that dominate.
- ``--root PATH``: run the server from another checkout (to measure a change).
- ``--nice -10``, ``--quiet PCT``: on a machine shared with other work, give
  our processes priority, or wait until other programs are quiet; every phase
  prints the CPU that other programs used meanwhile ("others").
- ``--dump FILE``: one JSON line per action (time, game, fan-out ms, ack ms).
- ``--load [RATES]``: the capacity curve: the scenario at each action rate (after
  a warm-up in which every game plays one unmeasured action), ours and the
  floor, and the highest rate at which each keeps p99 under 100 ms.
"""
from __future__ import annotations

import argparse
import asyncio
import functools
import gc
import json
import math
import os
import resource
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GM_PASSWORD = "bench-" + secrets.token_hex(6)
SECRET_KEY = "bench-shared-secret-" + secrets.token_hex(8)
POSTGRES = os.environ.get("FACILITATOR_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
REDIS = os.environ.get("FACILITATOR_TEST_REDIS", "redis://127.0.0.1:6379/0")

SCENARIOS = {
    "classroom": dict(games=1, devices=9, projectors=3, rate=5.0, duration=16.0, processes=1,
                      db="sqlite", queue=False, workers=1),
    "campus": dict(games=100, devices=2, projectors=1, rate=20.0, duration=30.0, processes=1,
                   db="postgres", queue=False, workers=1),
    "scaleout": dict(games=200, devices=2, projectors=1, rate=40.0, duration=30.0, processes=2,
                     db="postgres", queue=True, workers=2),
    "restart": dict(games=100, devices=2, projectors=1, rate=20.0, duration=24.0, processes=2,
                    db="postgres", queue=True, workers=1, kill_at=6.0),
    "colmena": dict(games=10, devices=1, projectors=0, rate=4.0, duration=30.0, processes=1,
                    db="sqlite", queue=False, workers=1, kind="colmena"),
}
#: A colmena table's seats; its screens are their phones (indexes 0..3) and its tablet (4).
COLMENA_SEATS = 4
TABLET = COLMENA_SEATS
TEAMS = 4
GAME_SETTINGS = {"teams": [{"name": f"Equipo {n}", "members": 5} for n in range(1, TEAMS + 1)],
                 "rounds": 20, "round_modes": [["normal"]] * 20, "individual_rounds": [],
                 "deliberation_seconds": 600}


def log(*parts) -> None:
    print(*parts, file=sys.stderr, flush=True)


def raise_open_files() -> int:
    """Raise the soft limit of open files to the hard limit; returns it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


NICE = 0


def renice(pid: int) -> None:
    """Give a process we started the --nice priority (negative: ahead of other programs)."""
    if NICE:
        try:
            os.setpriority(os.PRIO_PROCESS, pid, NICE)
        except OSError as error:
            log(f"warning: cannot renice {pid} to {NICE}: {error}")


def percentile(values: list[float], p: float) -> float | None:
    """The p-th percentile (nearest rank) of ``values``."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


def summary(values: list[float]) -> dict:
    return {"n": len(values), "p50": percentile(values, 50), "p95": percentile(values, 95),
            "p99": percentile(values, 99), "max": max(values) if values else None}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def restart_cpu(samples: list[tuple[float, float]], ready: float, all_back: float) -> dict:
    """From a restarted process's CPU ``samples`` ((seconds since the kill, CPU seconds)):
    what it spent until ``all_back`` s after the kill, and its CPU % second by second from
    ``ready`` (when it first answered) for 25 s."""
    import bisect
    times = [t for t, _ in samples]

    def cpu_at(t: float) -> float | None:
        i = bisect.bisect_right(times, t)
        return samples[i - 1][1] if i else None

    timeline = []
    for k in range(1, 26):
        if not samples or ready + k > times[-1]:
            break
        before, after = cpu_at(ready + k - 1), cpu_at(ready + k)
        timeline.append(round(100 * (after - (before or 0.0))))
    until = cpu_at(all_back)
    return {"cpu_s_until_all_back": round(until, 2) if until is not None else None,
            "cpu_pct_per_second_after_restart": timeline}


def cpu_s(pid: int) -> float:
    """User + system CPU seconds used so far by process ``pid`` (/proc/PID/stat)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rpartition(")")[2].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def postgres_cpu_s() -> float:
    """CPU seconds of every postgres process (the database's share of the work)."""
    total = 0.0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/comm") as f:
                    if f.read().strip() != "postgres":
                        continue
            except OSError:
                continue
            total += cpu_s(int(entry))
    return total


def machine_cpu_s() -> float:
    """Busy CPU seconds of the whole machine so far (/proc/stat), all cores together."""
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    idle = values[3] + (values[4] if len(values) > 4 else 0)
    return (sum(values[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def rss_kb(pid: int) -> int:
    """Resident memory of process ``pid`` in kB, from /proc/PID/status."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


# -- the action stream --------------------------------------------------------------------------

def action_stream(record: dict, count: int) -> list[dict]:
    """``count`` legal GM actions for the game of ``record``, computed with the rules engine.

    Per turn: declare, choose, question, verdict, end_turn, spokesperson,
    adjust (with a reason), undo (of the adjust). Once no turn can be played,
    adjust and undo alternate forever.
    """
    sys.path.insert(0, str(ROOT))
    from facilitator.games.partida import Game, Question, parse_settings
    questions = [Question(q["id"], q["author"], q["type"], q["text"], q["answer"],
                          q.get("notes", "")) for q in record["questions"]]
    game = Game(parse_settings(record["settings"]), questions)
    for action in record.get("actions", []):
        game.play(action)
    out: list[dict] = []
    extra: list[dict] = []
    n = 0
    while len(out) < count:
        n += 1
        if extra:
            action = extra.pop(0)
        else:
            legal = {entry.do: entry for entry in game.legal_actions()}
            turn = game.state.turn
            if "declare" in legal and "normal" in legal["declare"].options.get("modes", {}):
                action = {"do": "declare", "mode": "normal"}
            elif "choose" in legal:
                pair = legal["choose"].options["choices"][0]
                action = {"do": "choose", "author": pair["author"], "type": pair["type"]}
            elif "question" in legal:
                question = next(q for q in game.questions.values()
                                if q.author == turn.author and q.type == turn.type
                                and q.id not in game.state.used)
                action = {"do": "question", "id": question.id}
            elif "verdict" in legal:
                action = {"do": "verdict", "result": "full"}
            elif "end_turn" in legal:
                action = {"do": "end_turn"}
                extra = [{"do": "spokesperson", "team": 1 + n % TEAMS, "name": f"Alumno {n}"},
                         {"do": "adjust", "team": 1 + n % TEAMS, "points": 1,
                          "reason": "Buena pregunta"},
                         {"do": "undo"}]
            else:
                action = ({"do": "adjust", "team": 1 + n % TEAMS, "points": 1,
                           "reason": "Participación"} if not game.can_undo
                          or game.last_action().do != "adjust" else {"do": "undo"})
        if game.state.over and action["do"] == "spokesperson":
            continue                    # the game just ended: only adjust and undo remain
        game.play(action)
        out.append(action)
    return out


def colmena_stream(record: dict, count: int, seed: int) -> tuple[list[dict], list[int]]:
    """At most ``count`` actions of a table of la colmena (its game ends with its deck)
    as its players play them, computed with the rules engine from the table's record,
    and which of the table's screens sends each: its phones (0..3, seat 1..4) play their
    turns, the tablet (4) names the first task's player (the library question). Picked
    from the legal list with a seeded generator, as the live tests' phones do."""
    import random
    from types import SimpleNamespace
    sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "games" / "colmena")]
    from colmena_hall_play import NOT_PLAYED
    from colmena_play import WEIGHTS, concrete_actions
    from facilitator.games.colmena import KIND
    from facilitator.games.protocol import Role
    match = KIND.replay(record)
    rng = random.Random(seed)
    actions, senders = [], []
    while len(actions) < count and not match.over:
        entries = [e for e in match.legal(None) if e.do not in NOT_PLAYED]
        entry = rng.choices(entries, [WEIGHTS.get(e.do, 1.0) for e in entries])[0]
        options = concrete_actions(SimpleNamespace(**entry.to_dict()))
        if entry.do == "first_task" and entry.options.get("starter") is None:
            action, by = rng.choice([a for a in options if "card" not in a]), Role.table()
        else:
            seat = entry.seats[0]
            action = rng.choice([a for a in options if entry.do != "first_task"
                                 or a.get("player") == seat and "card" in a])
            by = Role.of_seat(seat)
        match.play(action, by)
        actions.append(action)
        senders.append(TABLET if by.kind == "table" else by.seat - 1)
    return actions, senders


# -- server processes ------------------------------------------------------------------------------

class Proc:
    """A server process we started (facilitator or floor), in its own process group."""

    def __init__(self, name: str, argv: list[str], env: dict, cwd: Path, logfile: Path,
                 port: int, ready_path: str):
        self.name, self.argv, self.env, self.cwd = name, argv, env, cwd
        self.logfile, self.port, self.ready_path = logfile, port, ready_path
        self.url = f"http://127.0.0.1:{port}"
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 40) -> float:
        """Start and wait until it answers HTTP; returns the seconds it took."""
        import requests
        began = time.monotonic()
        with open(self.logfile, "ab") as out:
            self.process = subprocess.Popen(self.argv, cwd=self.cwd, env=self.env, stdout=out,
                                            stderr=subprocess.STDOUT, start_new_session=True)
        renice(self.process.pid)
        while time.monotonic() - began < timeout:
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited:\n{self.tail()}")
            try:
                requests.get(self.url + self.ready_path, timeout=1)
                return time.monotonic() - began
            except requests.RequestException:
                time.sleep(0.05)
        raise RuntimeError(f"{self.name} did not start:\n{self.tail()}")

    @property
    def pid(self) -> int:
        return self.process.pid

    def tail(self) -> str:
        return self.logfile.read_text(errors="replace")[-3000:] if self.logfile.exists() else ""

    def kill(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(3)
            except subprocess.TimeoutExpired:
                self.kill()


class Nginx:
    """deploy/nginx.conf, its upstreams pointed at this run's processes, on a free port."""

    def __init__(self, workdir: Path, ports: list[int]):
        import re
        self.dir = workdir / "nginx"
        (self.dir / "logs").mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        text = (ROOT / "deploy" / "nginx.conf").read_text()
        servers = "".join(f"        server 127.0.0.1:{p} max_fails=1 fail_timeout=5s;\n"
                          for p in ports)
        text = re.sub(r"(?m)^        server 127\.0\.0\.1:50\d\d[^\n]*\n(?:        server 127\.0"
                      r"\.0\.1:50\d\d[^\n]*\n)*", lambda _m: servers, text)
        text = text.replace("listen 80;", f"listen 127.0.0.1:{self.port};")
        text = text.replace("/run/nginx-facilitator.pid", str(self.dir / "nginx.pid"))
        text = text.replace("/var/log/nginx/facilitator-error.log",
                            str(self.dir / "logs/error.log"))
        text = text.replace("worker_processes auto;", "worker_processes 1;")
        temp = "".join(f"    {kind}_temp_path {self.dir / kind};\n"
                       for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        text = text.replace("http {\n", "http {\n" + temp, 1)
        self.conf = self.dir / "nginx.conf"
        self.conf.write_text(text)
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        import requests
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        check = subprocess.run([nginx, "-t", "-q", "-c", str(self.conf), "-p", str(self.dir)],
                               capture_output=True, text=True)
        if check.returncode:
            raise RuntimeError("nginx -t failed: " + check.stderr)
        self.process = subprocess.Popen([nginx, "-c", str(self.conf), "-p", str(self.dir),
                                         "-g", "daemon off;"], start_new_session=True,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                requests.get(self.url + "/", timeout=1)
                return
            except requests.RequestException:
                time.sleep(0.05)
        raise RuntimeError("nginx did not start")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)


class Postgres:
    """A fresh PostgreSQL database for one phase."""

    def __init__(self):
        import psycopg
        self.admin = psycopg.connect(POSTGRES, autocommit=True, connect_timeout=3)
        self.name = "bench_" + secrets.token_hex(4)
        self.admin.execute(f'CREATE DATABASE "{self.name}"')
        self.url = POSTGRES.rsplit("/", 1)[0] + "/" + self.name

    def drop(self) -> None:
        self.admin.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
        self.admin.close()


def _console_cookies(url: str, count: int) -> list[str]:
    """``count`` console logins (each a session of its own), as Cookie header values; a
    few at a time, as the server checks each secret in its thread pool."""
    import requests
    from concurrent.futures import ThreadPoolExecutor

    def login(_index: int) -> str:
        with requests.Session() as http:
            r = http.post(url + "/console/login", data={"secret": GM_PASSWORD},
                          allow_redirects=False, timeout=60)
            assert r.status_code == 302, r.text[:300]
            return "; ".join(f"{k}={v}" for k, v in http.cookies.items())
    with ThreadPoolExecutor(4) as pool:
        return list(pool.map(login, range(count)))


def join_session(index: int):
    """An HTTP session whose requests leave from loopback address 127.0.1.(1 + index // 15).

    The join rate limit counts attempts per client address (20 a minute), as
    the tablets of a real classroom each have their own.
    """
    import requests
    from requests.adapters import HTTPAdapter

    source = f"127.0.1.{1 + (index // 15) % 250}"

    class SourceAdapter(HTTPAdapter):
        def init_poolmanager(self, *args, **kwargs):
            kwargs["source_address"] = (source, 0)
            return super().init_poolmanager(*args, **kwargs)
    http = requests.Session()
    http.mount("http://", SourceAdapter())
    return http


# -- the load generator (worker process) ----------------------------------------------------

@functools.lru_cache(maxsize=None)
def _browser_like_client():
    import socketio

    class BrowserLikeClient(socketio.AsyncClient):
        """Waits for the server's answer to a (re)connection as long as socket.io-client
        does in a browser (its ``timeout``, 20 s), not python-socketio's 1 s default:
        a server busy with a reconnection storm is not abandoned and retried."""

        async def connect(self, *args, wait_timeout=20, **kwargs):
            return await super().connect(*args, wait_timeout=wait_timeout, **kwargs)
    return BrowserLikeClient


class Screen:
    """One Socket.IO client: a GM console, a team device or a projector."""

    def __init__(self, spec: dict):
        BrowserLikeClient = _browser_like_client()
        self.spec = spec
        self.seen: dict[int, float] = {}
        self.connects: list[float] = []
        self.disconnects: list[float] = []
        # (time, seq) of the first state after each (re)connection
        self.first_after: list[tuple[float, int]] = []
        self._await_first = True
        self.first = asyncio.Event()
        self.sizes: list[int] = []
        self.samples: list[dict] = []
        self.sio = BrowserLikeClient(reconnection=True, reconnection_delay=0.8,
                                     reconnection_delay_max=5, randomization_factor=0.5)
        self.sio.on("state", self.on_state)
        self.sio.on("connect", self.on_connect)
        self.sio.on("disconnect", self.on_disconnect)
        self.sio.on("connect_error", self.on_connect_error)
        self.errors: list[str] = []

    def on_connect_error(self, data=None):
        if len(self.errors) < 3:
            self.errors.append(str(data)[:200])

    def on_connect(self):
        self.connects.append(time.monotonic())
        if self.seen:
            # As static/js/live.js does after a reconnection: ask for anything newer.
            asyncio.get_running_loop().create_task(self._sync(max(self.seen)))

    async def _sync(self, seq: int) -> None:
        try:
            await self.sio.emit("sync", {"seq": seq})
        except Exception:       # noqa: BLE001 - disconnected again: the next connect retries
            pass

    def on_disconnect(self, *args):
        # The server sends the connection's first state before the CONNECT packet, so the
        # first state after a disconnection is the reconnection snapshot.
        self.disconnects.append(time.monotonic())
        self._await_first = True

    def on_state(self, message):
        now = time.monotonic()
        seq = message.get("seq")
        if seq not in self.seen:
            self.seen[seq] = now
        if self._await_first:
            self._await_first = False
            self.first_after.append((now, seq))
            self.first.set()
        if len(self.sizes) < 8 and len(self.seen) % 5 == 2:
            self.sizes.append(len(json.dumps(message, separators=(",", ":"))))
            self.samples.append(message)

    async def connect(self) -> float:
        began = time.monotonic()
        cookie = self.spec.get("cookie")
        # A function, not a dict: engineio moves a Cookie header into its HTTP session's
        # jar and deletes it from the dict, so a reconnection (new HTTP session) would
        # go without it; a function gives every attempt the cookie, as a browser does.
        headers = (lambda: {"Cookie": cookie}) if cookie else {}
        await self.sio.connect(self.spec["url"], auth=self.spec["auth"], headers=headers,
                               transports=["websocket"], wait_timeout=15)
        await asyncio.wait_for(self.first.wait(), 15)
        return time.monotonic() - began


class HallScreen(Screen):
    """A hall's screen (the teacher's hall view or the hall's projector): one socket for
    every table of the hall, each ``hall`` message naming how far it shows each table
    (``seqs``: the table's key → its seq)."""

    def __init__(self, spec: dict):
        super().__init__(spec)
        self.by_key: dict[str, dict[int, float]] = {}
        self.messages = 0
        self.sio.on("hall", self.on_hall)

    def of(self, key: str) -> "TableOnHall":
        """The table ``key`` as this screen shows it."""
        return TableOnHall(self, key)

    def on_connect(self):
        self.connects.append(time.monotonic())
        if self.by_key:
            asyncio.get_running_loop().create_task(self._hall_sync())

    async def _hall_sync(self) -> None:
        try:
            await self.sio.emit("hall", {"do": "sync"})
        except Exception:       # noqa: BLE001 - disconnected again: the next connect retries
            pass

    def on_hall(self, message):
        now = time.monotonic()
        self.messages += 1
        for key, seq in (message.get("seqs") or {}).items():
            seen = self.by_key.setdefault(str(key), {})
            # The hall's view at a table's seq shows every action of that table up to it.
            for shown in range(max(seen, default=-1) + 1, seq + 1):
                seen[shown] = now
        if self._await_first:
            self._await_first = False
            self.first_after.append((now, None))
            self.first.set()
        if len(self.sizes) < 8 and self.messages % 5 == 2:
            self.sizes.append(len(json.dumps(message, separators=(",", ":"))))
            self.samples.append({**message, "role": self.spec["auth"]["role"]})


class TableOnHall:
    """One table of a hall as one of the hall's screens shows it: what the measures read
    of a table's screen (``seen``: seq → when it was first shown)."""

    def __init__(self, hall: HallScreen, key: str):
        self.hall, self.key = hall, key

    @property
    def seen(self) -> dict[int, float]:
        return self.hall.by_key.setdefault(self.key, {})

    @property
    def spec(self) -> dict:
        return self.hall.spec

    @property
    def first_after(self) -> list:
        return self.hall.first_after


async def worker_main() -> None:
    raise_open_files()
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=64 * 1024 * 1024)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)

    def say(obj) -> None:
        sys.stdout.write(json.dumps(obj) + "\n")
        sys.stdout.flush()

    plan = json.loads(await reader.readline())
    games = plan["games"]
    screens: dict[int, list[Screen]] = {}
    gms: dict[int, Screen] = {}
    halls = [HallScreen(spec) for spec in plan.get("halls", [])]
    for game in games:
        screens[game["id"]] = ([Screen(spec) for spec in game["screens"]]
                               + [hall.of(game["key"]) for hall in halls])
        gms[game["id"]] = (Screen(game["driver"]) if game.get("driver")
                           else screens[game["id"]][0])
    # Every socket once (a hall's screens show every table).
    everyone = [s for group in screens.values() for s in group if isinstance(s, Screen)] + halls
    drivers = [gms[g["id"]] for g in games if g.get("driver")]
    connect_times: list[float] = []
    failures: list[str] = []
    gate = asyncio.Semaphore(plan.get("concurrency", 50))

    async def connect(screen: Screen) -> None:
        async with gate:
            try:
                connect_times.append(await screen.connect())
            except Exception as error:      # noqa: BLE001 - counted and reported
                failures.append(f"{screen.spec['auth'].get('role')}: {error!r}"[:200])
    began = time.monotonic()
    await asyncio.gather(*(connect(s) for s in drivers + everyone))
    # The load generator must not add pauses of its own to what it measures: its
    # clients live until the end, and full collections of them found nothing to
    # free and stalled every client for up to 160 ms (seen on this machine); even
    # young collections every 10,000 allocations took 10-32 ms each on a busy
    # machine, and the actions whose screens they delayed were a campus run's
    # slowest (2026-12-03). Keep the clients out of the collector's sight and do
    # not collect at all while measuring: a worker lives a minute or two.
    gc.collect()
    gc.freeze()
    gc.disable()
    say({"ready": True, "connected": len(connect_times), "failed": len(failures),
         "failures": failures[:5], "connect": summary(connect_times),
         "connect_wall_s": time.monotonic() - began})

    events: dict[str, float] = {}
    go = json.loads(await reader.readline())
    t0 = go["t0"]

    async def listen() -> None:
        while True:
            line = await reader.readline()
            if not line:
                return
            events.update(json.loads(line))
    listener = asyncio.create_task(listen())

    rate = plan["rate_per_game"]
    duration = plan["duration"]
    sent_log: dict[int, list[dict]] = {g["id"]: [] for g in games}
    # --load: every game plays its first action before the measured window (the
    # server loads the game then), spread over the warm-up; none of it is measured.
    warm_from, warm = go.get("warm_from"), plan.get("warmup") or 0
    first = 0
    if warm and warm_from is not None:
        async def warm_up(game: dict, i: int) -> None:
            delay = warm_from + warm * i / len(games) - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            try:
                await gms[game["id"]].sio.call("act", {"id": uuid.uuid4().hex,
                                                       "action": game["actions"][0]}, timeout=20)
            except Exception as error:     # noqa: BLE001 - the measured window will show it
                say({"log": f"game {game['id']} warm-up action failed: {error!r}"})
        await asyncio.gather(*(warm_up(g, i) for i, g in enumerate(games)))
        first = 1

    async def drive(game: dict, phase: float) -> None:
        actions = game["actions"]
        senders = game.get("senders")           # which of the game's screens sends each
        k = first
        action_id = uuid.uuid4().hex
        while k < len(actions):
            planned = t0 + phase + (k - first) / rate
            if planned > t0 + duration:
                break
            delay = planned - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            sent = time.monotonic()
            gm = screens[game["id"]][senders[k]] if senders else gms[game["id"]]
            try:
                # A retry (after a lost acknowledgement) keeps the action's id: applied once.
                ack = await gm.sio.call("act", {"id": action_id, "action": actions[k]},
                                        timeout=20)
            except Exception as error:     # noqa: BLE001
                ack = {"ok": False, "error": "client", "message": repr(error)}
            acked = time.monotonic()
            sent_log[game["id"]].append({"k": k, "planned": planned, "sent": sent,
                                         "acked": acked, "ack": ack})
            if not ack.get("ok"):
                if ack.get("error") == "client":
                    await asyncio.sleep(0.2)
                    continue                # retry the same action (reconnecting GM)
                say({"log": f"game {game['id']} action {k} {actions[k]} refused: {ack}"})
            k += 1
            action_id = uuid.uuid4().hex
    total_rate = rate * len(games)
    offsets = plan["offsets"]
    await asyncio.gather(*(drive(g, offsets[i]) for i, g in enumerate(games)))

    # Drain: wait until every screen saw its game's last seq (at most 8 s; 20 s after a restart).
    final = {gid: max([e["ack"]["seq"] for e in log_ if e["ack"].get("ok")] or [0])
             for gid, log_ in sent_log.items()}
    drain_until = time.monotonic() + (20 if plan.get("restart") else 8)
    while time.monotonic() < drain_until:
        if all(max(s.seen, default=-1) >= final[gid] for gid, group in screens.items()
               for s in group):
            break
        await asyncio.sleep(0.05)

    fanout, screen_lat, ack_lat, late = [], [], [], 0
    hall_lat, table_fanout = [], []             # a hall's screens; a table's own screens
    series = []
    lost, expected, lost_examples = 0, 0, []
    superseded = 0
    restart = plan.get("restart")
    killed = events.get("killed")
    back_s, stale, never_back = [], 0, 0
    for game in games:
        gid = game["id"]
        group = screens[gid]
        log_ = [e for e in sent_log[gid] if e["ack"].get("ok")]
        for entry in sent_log[gid]:
            ack_lat.append((entry["acked"] - entry["sent"]) * 1000)
            if entry["sent"] - entry["planned"] > 0.05:
                late += 1
        back = {}
        if restart and killed:
            # Clients of the killed process: when did they get a state again?
            for s in group:
                if not s.spec.get("on_killed"):
                    continue
                after = [(t, q) for t, q in s.first_after if t > killed]
                if after:
                    back[id(s)] = after[0]
                    back_s.append(after[0][0] - killed)
                else:
                    never_back += 1
        final_seq = max([e["ack"]["seq"] for e in log_] or [0])
        for s in group:
            if max(s.seen, default=-1) < final_seq:
                stale += 1              # never reached the game's current state
        for entry in log_:
            seq = entry["ack"]["seq"]
            outage = bool(restart and killed and entry["sent"] > killed - 1)
            times, own = [], []
            for s in group:
                if outage and s.spec.get("on_killed"):
                    # Changes made while the client was away come in its reconnection
                    # snapshot; everything after that snapshot must reach it, each one.
                    if id(s) not in back:
                        continue
                    t_back, seq_back = back[id(s)]
                    required = (seq > seq_back if not plan.get("floor")
                                else entry["acked"] > t_back + 0.05)
                    if not required:
                        continue
                expected += 1
                t = s.seen.get(seq)
                if t is None:
                    lost += 1
                    if any(q > seq for q in s.seen):
                        superseded += 1
                    if len(lost_examples) < 5:
                        lost_examples.append({"game": gid, "seq": seq,
                                              "role": s.spec["auth"].get("role"),
                                              "max_seen": max(s.seen, default=None)})
                    continue
                times.append(t)
                screen_lat.append((t - entry["sent"]) * 1000)
                if isinstance(s, TableOnHall):
                    hall_lat.append((t - entry["sent"]) * 1000)
                else:
                    own.append(t)
            if times and not (outage and entry["sent"] < killed + 12):
                fanout.append((max(times) - entry["sent"]) * 1000)
                if halls and own:
                    table_fanout.append((max(own) - entry["sent"]) * 1000)
                series.append([round(entry["sent"] - t0, 3), gid, round(fanout[-1], 1),
                               round((entry["acked"] - entry["sent"]) * 1000, 1)])
    sizes: dict[str, list[int]] = {}
    for s in everyone:
        sizes.setdefault(s.spec["auth"].get("role") if "role" in s.spec["auth"] else "team",
                         []).extend(s.sizes)
    disconnects = sum(len(s.disconnects) for s in everyone)
    # One real message per audience for the floor's --floor-payload canned: the one of
    # median size (messages grow as the game's history does).
    by_role: dict[str, list[tuple[int, dict]]] = {}
    for s in everyone:
        for size, message in zip(s.sizes, s.samples):
            by_role.setdefault(message.get("role"), []).append((size, message))
    samples = {role: sorted(v, key=lambda x: x[0])[len(v) // 2][1]
               for role, v in by_role.items()}
    reconnected = sum(1 for s in everyone if killed and any(t > killed for t in s.connects))
    connect_errors = {}
    for s in everyone:
        for e in s.errors:
            key = f"{s.spec['auth'].get('role')}: {e}"
            connect_errors[key] = connect_errors.get(key, 0) + 1
    say({"result": True, "fanout_ms": fanout, "screen": summary(screen_lat),
         "hall_ms": hall_lat, "table_fanout_ms": table_fanout,
         "ack": summary(ack_lat), "late_sends": late, "lost": lost, "expected": expected,
         "superseded": superseded, "lost_examples": lost_examples,
         "actions": sum(1 for log_ in sent_log.values() for e in log_ if e["ack"].get("ok")),
         "refused": sum(1 for log_ in sent_log.values() for e in log_ if not e["ack"].get("ok")),
         "sizes": {role: sorted(v)[len(v) // 2] for role, v in sizes.items() if v},
         "disconnects": disconnects, "samples": samples, "back_s": back_s,
         "reconnected": reconnected, "connect_errors": connect_errors, "stale": stale,
         "never_back": never_back,
         "offered_rate": total_rate, "series": series})
    listener.cancel()
    sys.stdout.flush()
    os._exit(0)        # no polite disconnects: the servers see the sockets close


def _py_spy() -> Path:
    """Where py-spy is: on the PATH, else beside this Python (a virtualenv's bin)."""
    found = shutil.which("py-spy")
    return Path(found) if found else Path(sys.executable).parent / "py-spy"


# -- the orchestrator -----------------------------------------------------------------------------

class Phase:
    """One measured run against one kind of server (facilitator or floor)."""

    def __init__(self, kind: str, scenario: str, cfg: dict, args, tmp: Path,
                 sizes: dict[str, int] | None = None, canned: dict | None = None):
        self.kind, self.scenario, self.cfg, self.args, self.tmp = kind, scenario, cfg, args, tmp
        self.sizes = sizes or {}
        self.canned = canned
        self.procs: list[Proc] = []
        self.nginx: Nginx | None = None
        self.postgres: Postgres | None = None
        self.channel = "bench-" + secrets.token_hex(4)
        self.workdir = tmp / kind
        self.workdir.mkdir(parents=True, exist_ok=True)

    # servers
    def make_proc(self, index: int, port: int | None = None) -> Proc:
        port = port or free_port()
        root = Path(self.args.root).resolve()
        env = {**os.environ, "FACILITATOR_SECRET_KEY": SECRET_KEY,
               "FACILITATOR_GM_PASSWORD": GM_PASSWORD, "PYTHONUNBUFFERED": "1"}
        for key in ("FACILITATOR_MESSAGE_QUEUE", "FACILITATOR_DATABASE_URL"):
            env.pop(key, None)
        if self.cfg["queue"]:
            env["FACILITATOR_MESSAGE_QUEUE"] = REDIS
            env["FACILITATOR_MESSAGE_QUEUE_CHANNEL"] = self.channel
        name = f"{self.kind}-{'AB'[index] if index < 2 else index}"
        if self.kind == "ours":
            instance = self.workdir / f"instance-{index}"
            instance.mkdir(exist_ok=True)
            env["FACILITATOR_INSTANCE"] = str(instance)
            env["FACILITATOR_DATABASE_URL"] = self.database_url
            env["PYTHONPATH"] = str(root)
            argv = [sys.executable, "-m", "facilitator.cli", "serve", "--port", str(port)]
            ready = "/join"
        else:
            env["PYTHONPATH"] = str(root)
            sizes = ",".join(f"{k}={v}" for k, v in self.sizes.items())
            argv = [sys.executable, str(ROOT / "bench" / "floor_server.py"), "--port", str(port),
                    "--teams", str(TEAMS), "--sizes", sizes or "gm=8000,team=4000,projector=3000"]
            if self.cfg.get("kind") == "colmena":
                argv += ["--kind", "colmena"]
            if self.canned:
                path = self.workdir / "canned.json"
                path.write_text(json.dumps(self.canned))
                argv += ["--canned", str(path)]
            argv += ["--gc", self.args.floor_gc]
            ready = "/ping"
        return Proc(name, argv, env, root, self.workdir / f"{name}.log", port, ready)

    def start_servers(self) -> None:
        # As an installed package is (pip compiles it): a server started from a checkout
        # under PYTHONDONTWRITEBYTECODE would compile its sources at every start, which
        # the restart scenario would count as the server's.
        subprocess.run([sys.executable, "-m", "compileall", "-q",
                        str(Path(self.args.root).resolve() / "facilitator")],
                       check=False, stdout=subprocess.DEVNULL)
        if self.kind == "ours":
            if self.cfg["db"] == "postgres":
                self.postgres = Postgres()
                self.database_url = self.postgres.url
            else:
                self.database_url = "sqlite:///" + str(self.workdir / "facilitator.db")
        # The first process creates the tables alone, then the others start.
        for index in range(self.cfg["processes"]):
            proc = self.make_proc(index)
            proc.start()
            self.procs.append(proc)
        if self.args.via_nginx:
            self.nginx = Nginx(self.workdir, [p.port for p in self.procs])
            self.nginx.start()

    def stop(self) -> None:
        if self.nginx:
            self.nginx.stop()
        for proc in self.procs:
            proc.stop()
        if self.postgres:
            self.postgres.drop()

    # games and screens
    def layout(self) -> list[dict]:
        """Every game with its screens' specs (and, for the facilitator, its action stream)."""
        cfg, procs = self.cfg, self.procs
        games = []
        count = math.ceil(cfg["rate"] / cfg["games"] * cfg["duration"]) + 4
        self.halls: list[dict] = []             # the screens of a hall, shown every game
        if cfg.get("kind") == "colmena":
            return self._colmena_layout(count)
        if self.kind == "ours":
            import requests
            http = requests.Session()
            r = http.post(procs[0].url + "/console/login", data={"secret": GM_PASSWORD},
                          allow_redirects=False, timeout=10)
            assert r.status_code == 302, r.text[:300]
            cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
            # As in a campus, each game's GM has a console session of their own (the
            # server checks each one as the GM acts); --gm-sessions one: all share one.
            consoles = (_console_cookies(procs[0].url, cfg["games"])
                        if self.args.gm_sessions == "each" else [cookie] * cfg["games"])
            streams: dict[str, list[dict]] = {}
            joins = 0
            for g in range(cfg["games"]):
                r = http.post(procs[0].url + "/console/games",
                              json={"name": f"Bench {g + 1}", "settings": GAME_SETTINGS},
                              timeout=30)
                gid = r.json()["game_id"]
                codes = http.get(f"{procs[0].url}/api/games/{gid}/codes", timeout=10).json()
                tokens = {}
                for team in codes["teams"]:
                    device = join_session(joins)
                    joins += 1
                    r = device.get(procs[0].url + "/j/" + team["code"], allow_redirects=False,
                                   timeout=10)
                    assert r.status_code == 302, (r.status_code, r.text[:200])
                    tokens[team["team"]] = device.cookies["team_token"]
                record = http.get(f"{procs[0].url}/console/{gid}/record.json", timeout=10).json()
                key = json.dumps([record["settings"], record["questions"]], sort_keys=True)
                if key not in streams:
                    streams[key] = action_stream(record, count)
                games.append(self._game(gid, consoles[g], tokens, codes["watch"], streams[key]))
        else:
            for g in range(cfg["games"]):
                gid = g + 1
                games.append(self._game(gid, None, None, None, [{"do": "bench"}] * count))
        return games

    def _colmena_layout(self, count: int) -> list[dict]:
        """A hall of la colmena: its tables, each with a phone per seat and its tablet
        (joined with the table's code, each taking its seat at the chooser, as a class
        does), the phones' and tablets' action streams, and the hall's two screens."""
        cfg, url = self.cfg, self.procs[0].url
        seats = range(1, COLMENA_SEATS + 1)
        if self.kind != "ours":
            self.halls = [{"url": url, "auth": {"role": role, "hall": 0}}
                          for role in ("hall_gm", "hall_watcher")]
            streams = [[{"do": "bench"}] * count, [0] * count]
            return [{"id": gid, "key": str(gid), "actions": streams[0], "senders": streams[1],
                     "screens": [{"url": url, "auth": {"role": "team", "game": gid, "team": n}}
                                 for n in seats] + [{"url": url, "auth": {"role": "table",
                                                                          "game": gid}}]}
                    for gid in range(1, cfg["games"] + 1)]
        (cookie,) = _console_cookies(url, 1)
        import requests
        http = requests.Session()
        http.headers["Cookie"] = cookie
        names = [f"Estudiante {n}" for n in range(1, COLMENA_SEATS * cfg["games"] + 1)]
        made = http.post(url + "/console/halls", json={"kind": "colmena", "name": "Bench",
                                                       "players": "\n".join(names), "seed": 2026},
                         timeout=60).json()
        assert made["ok"], made
        hall = http.get(f"{url}/console/halls/{made['hall_id']}.json", timeout=30).json()
        self.halls = [{"url": url, "auth": {"role": "hall_gm", "hall": made["hall_id"]},
                       "cookie": cookie},
                      {"url": url, "auth": {"role": "hall_watcher",
                                            "watch": hall["hall"]["watch_code"]}}]
        games, joins = [], 0
        for table in hall["games"]:
            gid, specs = table["game_id"], []
            for seat in [*seats, "table"]:
                device = join_session(joins)
                joins += 1
                # A phone chooses its seat at the table's code; the tablet joins with the
                # table's screen code (shown on the teacher's console only).
                code = table["screen_code"] if seat == "table" else table["table_code"]
                r = device.get(f"{url}/j/{code}", allow_redirects=False, timeout=10)
                assert r.status_code == 302, (r.status_code, r.text[:200])
                if seat != "table":
                    r = device.post(f"{url}/team/seat", data={"seat": str(seat)},
                                    allow_redirects=False, timeout=10)
                    assert r.status_code == 302, (r.status_code, r.text[:200])
                specs.append({"url": url, "auth": {"role": "team" if seat != "table" else "table",
                                                   "token": device.cookies["team_token"]}})
            record = http.get(f"{url}/console/{gid}/record.json", timeout=10).json()
            actions, senders = colmena_stream(record, count, seed=gid)
            games.append({"id": gid, "key": table["key"], "screens": specs, "actions": actions,
                          "senders": senders})
        return games

    def _game(self, gid, cookie, tokens, watch, actions) -> dict:
        cfg, procs = self.cfg, self.procs
        ours = self.kind == "ours"
        restart = self.scenario == "restart"

        def auth(role, team=None):
            if ours:
                return {"gm": {"role": "gm", "game": gid},
                        "team": {"role": "team", "token": tokens and tokens.get(team)},
                        "projector": {"role": "projector", "watch": watch}}[role]
            return {"role": role, "game": gid, **({"team": team} if team else {})}
        screens = []
        if self.nginx:
            # Through the proxy: it picks the process (WebSocket-only clients: any process).
            via = self.nginx.url
            screens = [{"url": via, "auth": auth("gm"), "cookie": cookie}]
            screens += [{"url": via, "auth": auth("team", team)}
                        for team in range(1, TEAMS + 1) for _ in range(cfg["devices"])]
            screens += [{"url": via, "auth": auth("projector")} for _ in range(cfg["projectors"])]
            return {"id": gid, "screens": screens, "actions": actions}
        # A: all screens in restart; else spread the game over every process.
        screens.append({"url": procs[0].url, "auth": auth("gm"), "cookie": cookie,
                        "on_killed": restart})
        i = 0
        for team in range(1, TEAMS + 1):
            for _ in range(cfg["devices"]):
                proc = procs[0] if restart else procs[(i + 1) % len(procs)]
                i += 1
                screens.append({"url": proc.url, "auth": auth("team", team), "on_killed": restart})
        for p in range(cfg["projectors"]):
            proc = procs[0] if restart else procs[(len(procs) - 1 + p) % len(procs)]
            screens.append({"url": proc.url, "auth": auth("projector"), "on_killed": restart})
        game = {"id": gid, "screens": screens, "actions": actions}
        if restart:
            # The GM who keeps playing is on B, which is not killed.
            game["driver"] = {"url": procs[1].url, "auth": auth("gm"), "cookie": cookie}
        return game

    def run(self) -> dict:
        cfg, args = self.cfg, self.args
        t_start = time.monotonic()
        self.start_servers()
        try:
            games = self.layout()
            sockets = (sum(len(g["screens"]) + (1 if g.get("driver") else 0) for g in games)
                       + len(self.halls))
            time.sleep(0.5)
            rss_before = {p.name: rss_kb(p.pid) for p in self.procs}
            cpu_connect = sum(cpu_s(p.pid) for p in self.procs)
            connect_profilers = (self._start_profilers("connect", 120)
                                 if (args.profile and args.profile_connect
                                     and (self.kind == "ours" or args.profile_floor)) else [])
            n_workers = max(1, min(args.workers or cfg["workers"], len(games)))
            total_rate = cfg["rate"]
            # Spread each game's first action evenly over one period of the whole load.
            offsets = {g["id"]: i / total_rate for i, g in enumerate(games)}
            workers = []
            for w in range(n_workers):
                mine = games[w::n_workers]
                plan = {"games": mine, "rate_per_game": cfg["rate"] / cfg["games"],
                        "duration": cfg["duration"], "offsets": [offsets[g["id"]] for g in mine],
                        "restart": self.scenario == "restart", "floor": self.kind == "floor",
                        "halls": self.halls,
                        "warmup": cfg.get("warmup"),
                        "concurrency": args.concurrency}
                proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--worker"],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True, cwd=ROOT)
                renice(proc.pid)
                proc.stdin.write(json.dumps(plan) + "\n")
                proc.stdin.flush()
                workers.append(proc)
            ready = [self._read(w, "ready") for w in workers]
            cpu_connect = sum(cpu_s(p.pid) for p in self.procs) - cpu_connect
            for p, _path in connect_profilers:
                p.send_signal(signal.SIGINT)      # py-spy writes what it has on SIGINT
            self._stop_profilers(connect_profilers)
            time.sleep(1.0)
            rss_after = {p.name: rss_kb(p.pid) for p in self.procs}
            connect_times = [r["connect"] for r in ready]
            profilers = (self._start_profilers("load", int(cfg["duration"]) + 1)
                         if (args.profile and (self.kind == "ours" or args.profile_floor))
                         else [])
            if args.quiet is not None:
                self._wait_for_quiet(workers)
            warm = cfg.get("warmup") or 0
            warm_from = time.monotonic() + 0.5
            t0 = warm_from + (warm + 1.0 if warm else 0.0)
            for w in workers:
                w.stdin.write(json.dumps({"t0": t0, **({"warm_from": warm_from} if warm else {})})
                              + "\n")
                w.stdin.flush()
            # The CPU figures cover the measured window only (not a --load warm-up).
            time.sleep(max(0.0, t0 - 0.5 - time.monotonic()))
            cpu_before = {p.name: cpu_s(p.pid) for p in self.procs}
            cpu_before["loadgen"] = sum(cpu_s(w.pid) for w in workers)
            cpu_before["postgres"] = postgres_cpu_s()
            cpu_before["machine"] = machine_cpu_s()
            restart_info = {}
            if self.scenario == "restart":
                restart_info = self._restart(workers, t0)
            t_end = t0 + cfg["duration"]
            time.sleep(max(0.0, t_end - time.monotonic()))
            cpu_after = {p.name: cpu_s(p.pid) for p in self.procs}
            cpu_after["loadgen"] = sum(cpu_s(w.pid) for w in workers)
            cpu_after["postgres"] = postgres_cpu_s()
            cpu_after["machine"] = machine_cpu_s()
            results = [self._read(w, "result") for w in workers]
            for w in workers:
                w.wait(10)
            self._stop_profilers(profilers + getattr(self, "restart_profilers", []))
        finally:
            self.stop()
        fanout = [x for r in results for x in r["fanout_ms"]]
        before, after = sum(rss_before.values()), sum(rss_after.values())
        held = sockets
        if self.scenario == "restart":
            held = sum(len(g["screens"]) for g in games)
            before, after = rss_before[self.procs[0].name], rss_after[self.procs[0].name]
        sizes: dict[str, int] = {}
        samples: dict[str, dict] = {}
        for r in results:
            sizes.update(r["sizes"])
            samples.update(r.get("samples") or {})
        out = {"kind": self.kind, "fanout": summary(fanout),
               "hall": summary([x for r in results for x in r["hall_ms"]]),
               "table_fanout": summary([x for r in results for x in r["table_fanout_ms"]]),
               "payload": "canned" if self.canned else "pad",
               "screen": results[0]["screen"] if len(results) == 1 else None,
               "ack": results[0]["ack"] if len(results) == 1 else None,
               "lost": sum(r["lost"] for r in results),
               "expected": sum(r["expected"] for r in results),
               "superseded": sum(r["superseded"] for r in results),
               "lost_examples": [x for r in results for x in r["lost_examples"]][:5],
               "actions": sum(r["actions"] for r in results),
               "refused": sum(r["refused"] for r in results),
               "late_sends": sum(r["late_sends"] for r in results),
               "disconnects": sum(r["disconnects"] for r in results),
               "sockets": sockets, "connected": sum(r["connected"] for r in ready),
               "connect_failed": sum(r["failed"] for r in ready),
               "connect_failures": [f for r in ready for f in r["failures"]][:3],
               "connect_p50_ms": _ms(max(c["p50"] or 0 for c in connect_times)),
               "connect_p99_ms": _ms(max(c["p99"] or 0 for c in connect_times)),
               "connect_wall_s": round(max(r["connect_wall_s"] for r in ready), 2),
               "cpu_ms_per_connect": round(1000 * cpu_connect / max(1, sockets), 2),
               "rss_before_kb": rss_before, "rss_after_kb": rss_after,
               "mem_kb_per_conn": round((after - before) / max(1, held), 1),
               "sizes": sizes, "samples": samples,
               "wall_s": round(time.monotonic() - t_start, 1),
               "cpu_pct": {k: max(0, round(100 * (cpu_after[k] - cpu_before.get(k, 0))
                                              / cfg["duration"]))
                           for k in cpu_after}}
        cpu = out["cpu_pct"]
        server_cpu = sum(cpu_after[p.name] - cpu_before.get(p.name, 0) for p in self.procs)
        out["cpu_ms_per_action"] = (round(1000 * server_cpu / out["actions"], 2)
                                    if out["actions"] and self.scenario != "restart" else None)
        # What else ran on the machine meanwhile (other users' tests, ...): noise to watch.
        cpu["others"] = max(0, cpu["machine"] - sum(v for k, v in cpu.items() if k != "machine"))
        if self.scenario == "restart":
            cpu.pop(self.procs[0].name, None)
        if self.args.dump:
            with open(self.args.dump, "a") as f:
                for r in results:
                    for row in sorted(r["series"]):
                        f.write(json.dumps([self.kind, *row]) + "\n")
        if self.scenario == "restart":
            back = [x for r in results for x in r["back_s"]]
            out["restart"] = {**restart_info, "back": summary([b * 1000 for b in back]),
                              "back_count": len(back),
                              "reconnected": sum(r["reconnected"] for r in results),
                              "connect_errors": {k: v for r in results
                                                 for k, v in r["connect_errors"].items()},
                              "never_back": sum(r["never_back"] for r in results),
                              "stale": sum(r["stale"] for r in results)}
            out["restart"].update(restart_cpu(list(getattr(self, "restart_cpu", [])),
                                              getattr(self, "restart_ready", 0.0),
                                              max(back, default=0.0)))
        return out

    def _wait_for_quiet(self, workers) -> None:
        """Wait (at most --quiet-wait s) until other programs use under --quiet % of a core."""
        mine = [p.pid for p in self.procs] + [w.pid for w in workers]
        deadline = time.monotonic() + self.args.quiet_wait
        while True:
            m0, o0, g0 = machine_cpu_s(), sum(cpu_s(p) for p in mine), postgres_cpu_s()
            time.sleep(1.0)
            others = 100 * ((machine_cpu_s() - m0) - (sum(cpu_s(p) for p in mine) - o0)
                            - (postgres_cpu_s() - g0))
            if others <= self.args.quiet or time.monotonic() > deadline:
                log(f"  ({self.kind}: other programs use {others:.0f}% of a core; starting)")
                return

    def _restart(self, workers, t0: float) -> dict:
        cfg = self.cfg
        time.sleep(max(0.0, t0 + cfg["kill_at"] - time.monotonic()))
        victim = self.procs[0]
        killed = time.monotonic()
        victim.kill()
        for w in workers:
            w.stdin.write(json.dumps({"killed": killed}) + "\n")
            w.stdin.flush()
        fresh = self.make_proc(0, port=victim.port)
        # The restarted process's CPU from its start, every 50 ms (seconds since the kill,
        # CPU seconds), read off at the end: what it spent until its last client was back
        # (start-up and reconnections), and how busy it was second by second once it answered.
        self.restart_cpu: list[tuple[float, float]] = []

        def follow() -> None:
            while fresh.process is None and time.monotonic() - killed < 10:
                time.sleep(0.005)
            if self.args.profile and self.kind == "ours":
                # The restarted process from its start (imports, app) while its clients
                # come back (reported at the end); the clients queue in its listening
                # socket from its first instant, so its storm begins before it answers.
                time.sleep(0.05)              # py-spy needs the interpreter running
                self.restart_profilers = self._start_profilers("reconnect", 12, [fresh])
            while (fresh.process is not None and fresh.process.poll() is None
                   and time.monotonic() - killed < 40):
                self.restart_cpu.append((time.monotonic() - killed, cpu_s(fresh.pid)))
                time.sleep(0.05)
        threading.Thread(target=follow, daemon=True).start()
        took = fresh.start()
        self.procs[0] = fresh
        ready = time.monotonic()
        self.restart_ready = ready - killed
        for w in workers:
            w.stdin.write(json.dumps({"restarted": ready}) + "\n")
            w.stdin.flush()
        return {"killed_at_s": round(killed - t0, 2), "restart_s": round(took, 2)}

    def _read(self, worker, key: str) -> dict:
        while True:
            line = worker.stdout.readline()
            if not line:
                raise RuntimeError(f"load generator exited (rc {worker.poll()}) before {key}")
            data = json.loads(line)
            if "log" in data:
                log("  [worker]", data["log"])
                continue
            if data.get(key):
                return data

    def _start_profilers(self, what: str, seconds: int, procs=None):
        out = []
        pyspy = str(_py_spy())
        Path(self.args.profile).mkdir(parents=True, exist_ok=True)
        for proc in procs or self.procs:
            path = Path(self.args.profile) / f"{self.scenario}-{what}-{proc.name}.txt"
            p = subprocess.Popen([pyspy, "record", "-p", str(proc.pid), "-r",
                                  str(self.args.profile_rate), "-f", "raw",
                                  "-o", str(path), "-d", str(seconds), "--nonblocking"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            out.append((p, path))
        return out

    def _stop_profilers(self, profilers) -> None:
        for p, path in profilers:
            try:
                p.wait(15)
            except subprocess.TimeoutExpired:
                p.send_signal(signal.SIGINT)
                p.wait(10)
            if path.exists():
                log(f"\n  py-spy profile of {path.name}:")
                for line in profile_summary(path):
                    log("   ", line)


def profile_summary(path: Path, top: int = 25) -> list[str]:
    """The functions of a py-spy raw (collapsed) profile by inclusive and self share."""
    inclusive: dict[str, int] = {}
    own: dict[str, int] = {}
    total = 0
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        n = int(count)
        total += n
        frames = [f.split(" (")[0] + " (" + f.split(" (")[1].split(":")[0].rsplit("/", 2)[-1]
                  + ")" if " (" in f else f for f in stack.split(";")]
        for f in set(frames):
            inclusive[f] = inclusive.get(f, 0) + n
        if frames:
            own[frames[-1]] = own.get(frames[-1], 0) + n
    if not total:
        return ["(no samples)"]
    lines = [f"{total} samples; top by inclusive share:"]
    for f, n in sorted(inclusive.items(), key=lambda kv: -kv[1])[:top]:
        lines.append(f"{100 * n / total:5.1f}%  {f}")
    lines.append("top by self share:")
    for f, n in sorted(own.items(), key=lambda kv: -kv[1])[:top // 2]:
        lines.append(f"{100 * n / total:5.1f}%  {f}")
    return lines


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 1)


def _r(x):
    return None if x is None else round(x, 1)


def report(scenario: str, ours: dict, floor: dict | None, cfg: dict) -> dict:
    """Print the figures of both phases and return the final JSON object."""
    def line(name, d):
        f = d["fanout"]
        log(f"  {name:12s} fan-out ms p50 {_r(f['p50'])}  p95 {_r(f['p95'])}  p99 {_r(f['p99'])}  "
            f"max {_r(f['max'])}  (n={f['n']})")
        log(f"  {'':12s} lost {d['lost']} of {d['expected']} (superseded {d['superseded']}), "
            f"actions {d['actions']} (refused {d['refused']}, late sends {d['late_sends']}), "
            f"disconnects {d['disconnects']}")
        log(f"  {'':12s} connect: {d['connected']}/{d['sockets']} sockets "
            f"(failed {d['connect_failed']}) in {d['connect_wall_s']} s, per socket p50 "
            f"{d['connect_p50_ms']} ms p99 {d['connect_p99_ms']} ms; server CPU per connect "
            f"{d['cpu_ms_per_connect']} ms")
        log(f"  {'':12s} memory: {d['mem_kb_per_conn']} KB per connection "
            f"(RSS before {d['rss_before_kb']} after {d['rss_after_kb']} kB); "
            f"state sizes {d['sizes']}")
        log(f"  {'':12s} CPU during the load (% of one core): {d['cpu_pct']}; server CPU per "
            f"action {d['cpu_ms_per_action']} ms")
        if d["hall"]["n"]:
            h, t = d["hall"], d["table_fanout"]
            log(f"  {'':12s} a table's own screens (phones, tablet): fan-out ms p50 "
                f"{_r(t['p50'])} p99 {_r(t['p99'])}; a hall screen shows it, ms p50 "
                f"{_r(h['p50'])} p99 {_r(h['p99'])}")
        if d.get("screen"):
            s = d["screen"]
            log(f"  {'':12s} per-screen ms p50 {_r(s['p50'])} p99 {_r(s['p99'])}; GM ack ms p50 "
                f"{_r(d['ack']['p50'])} p99 {_r(d['ack']['p99'])}")
        if d.get("restart"):
            r = d["restart"]
            log(f"  {'':12s} restart: killed at {r['killed_at_s']} s, process back in "
                f"{r['restart_s']} s; clients back (kill → first state) ms p50 "
                f"{_r(r['back']['p50'])} p99 {_r(r['back']['p99'])} max {_r(r['back']['max'])}; "
                f"reconnected {r['reconnected']}, back {r['back_count']}, "
                f"never back {r['never_back']}, stale {r['stale']}")
            if r.get("connect_errors"):
                log(f"  {'':12s} connect errors while reconnecting: {r['connect_errors']}")
            log(f"  {'':12s} restarted process CPU %/s: {r['cpu_pct_per_second_after_restart']}; "
                f"CPU from its start until every client was back: {r.get('cpu_s_until_all_back')} s")
        if d["connect_failures"]:
            log(f"  {'':12s} connect failures: {d['connect_failures']}")
        if d["lost_examples"]:
            log(f"  {'':12s} lost e.g. {d['lost_examples'][:3]}")

    log(f"\n== {scenario}: {cfg['games']} game(s), {ours['sockets']} sockets, "
        f"{cfg['rate']:g} actions/s, {cfg['processes']} process(es), {cfg['db']}"
        f"{' + redis' if cfg['queue'] else ''}, {cfg['duration']:g} s per phase")
    line("facilitator", ours)
    if floor:
        line("floor", floor)
    f, fl = ours["fanout"], (floor or {}).get("fanout", {})
    ratio = (f["p99"] / fl["p99"]) if (fl.get("p99") and f["p99"] is not None) else None
    ratio50 = (f["p50"] / fl["p50"]) if (fl.get("p50") and f["p50"] is not None) else None
    result = {"scenario": scenario, "p50_ms": _r(f["p50"]), "p95_ms": _r(f["p95"]),
              "p99_ms": _r(f["p99"]), "max_ms": _r(f["max"]),
              "floor_p50_ms": _r(fl.get("p50")), "floor_p95_ms": _r(fl.get("p95")),
              "floor_p99_ms": _r(fl.get("p99")), "floor_max_ms": _r(fl.get("max")),
              "ratio": None if ratio is None else round(ratio, 2),
              "ratio_p50": None if ratio50 is None else round(ratio50, 2),
              "lost": ours["lost"], "floor_lost": (floor or {}).get("lost"),
              "clients": ours["sockets"], "actions": ours["actions"],
              "refused": ours["refused"], "samples": f["n"],
              "connect_wall_s": ours["connect_wall_s"], "connect_p99_ms": ours["connect_p99_ms"],
              "floor_connect_wall_s": (floor or {}).get("connect_wall_s"),
              "cpu_ms_per_connect": ours["cpu_ms_per_connect"],
              "floor_cpu_ms_per_connect": (floor or {}).get("cpu_ms_per_connect"),
              "mem_kb_per_conn": ours["mem_kb_per_conn"],
              "floor_mem_kb_per_conn": (floor or {}).get("mem_kb_per_conn"),
              "state_bytes": ours["sizes"], "processes": cfg["processes"], "db": cfg["db"],
              "floor_payload": (floor or {}).get("payload"),
              "cpu_pct": ours["cpu_pct"], "floor_cpu_pct": (floor or {}).get("cpu_pct"),
              "cpu_ms_per_action": ours["cpu_ms_per_action"],
              "floor_cpu_ms_per_action": (floor or {}).get("cpu_ms_per_action")}
    targets = {}
    if scenario == "classroom":
        targets = {"p99<=50ms": f["p99"] <= 50,
                   "p99<=2x_floor": ratio is not None and ratio <= 2,
                   "p50<=1.5x_floor": ratio50 is not None and ratio50 <= 1.5}
    elif scenario == "campus":
        targets = {"p99<=100ms": f["p99"] <= 100,
                   "p99<=2x_floor": ratio is not None and ratio <= 2, "lost==0": ours["lost"] == 0,
                   "mem<=100KB/conn": ours["mem_kb_per_conn"] <= 100}
    elif scenario == "scaleout":
        targets = {"p99<=150ms": f["p99"] <= 150, "lost==0": ours["lost"] == 0}
    elif scenario == "colmena":
        for side, d in (("", ours), ("floor_", floor or {})):
            for part in ("hall", "table_fanout"):
                if d.get(part):
                    result[f"{side}{part}_p50_ms"] = _r(d[part]["p50"])
                    result[f"{side}{part}_p99_ms"] = _r(d[part]["p99"])
        targets = {"p50<=1.25x_floor": ratio50 is not None and ratio50 <= 1.25,
                   "p99<=1.25x_floor": ratio is not None and ratio <= 1.25,
                   "lost==0": ours["lost"] == 0}
    elif scenario == "restart":
        r = ours["restart"]
        result["back_p99_ms"] = _r(r["back"]["p99"])
        result["back_max_ms"] = _r(r["back"]["max"])
        result["never_back"] = r["never_back"]
        result["stale"] = r["stale"]
        result["restart_s"] = r["restart_s"]
        result["cpu_s_until_all_back"] = r.get("cpu_s_until_all_back")
        if floor and floor.get("restart"):
            result["floor_back_max_ms"] = _r(floor["restart"]["back"]["max"])
            result["floor_cpu_s_until_all_back"] = floor["restart"].get("cpu_s_until_all_back")
        targets = {"all_back<=10s": (r["never_back"] == 0 and r["back"]["max"] is not None
                                     and r["back"]["max"] <= 10000),
                   "lost==0": ours["lost"] == 0, "stale==0": r["stale"] == 0}
    result["targets"] = targets
    result["met"] = all(targets.values()) if targets else None
    log("  targets: " + ", ".join(f"{k} {'OK' if v else 'MISSED'}" for k, v in targets.items()))
    if ratio is not None:
        log(f"  ratio p99 {ratio:.2f}, p50 {ratio50:.2f} (facilitator / floor)")
    return result


#: The latency under which a rate counts as carried, for ``--load``.
CAPACITY_P99_MS = 100
#: Seconds in which every game plays one unmeasured action before ``--load`` measures.
LOAD_WARMUP_S = 8.0


def capacity_curve(args) -> dict:
    """``--load``: the scenario at rising action rates, ours then the floor at each, until
    both have gone past CAPACITY_P99_MS at p99 at two rates in a row (a side that has is
    not run at higher rates: one slow tail at a low rate is noise, two are the limit).
    Before each measured window every game plays its first action (a warm-up of
    LOAD_WARMUP_S, not measured): at the lowest rates a window holds fewer actions
    than there are games, and would otherwise measure only games being loaded.
    Prints a table and, last, one JSON line with the capacities: the highest rate
    each side carried with p99 under the limit and nothing lost."""
    global NICE
    NICE = args.nice
    raise_open_files()
    rates = [float(r) for r in args.load.split(",") if r.strip()]
    base = dict(SCENARIOS[args.scenario])
    for key in ("games", "db"):
        if getattr(args, key) is not None:
            base[key] = getattr(args, key)
    base["duration"] = args.duration or min(base["duration"], 15.0)
    base["warmup"] = LOAD_WARMUP_S
    tmp = Path(tempfile.mkdtemp(prefix=f"fanout-load-{args.scenario}-"))
    rows, capacity, over = [], {"ours": None, "floor": None}, set()
    misses = {"ours": 0, "floor": 0}          # rates in a row past the limit
    try:
        for rate in rates:
            cfg = dict(base, rate=rate)
            row = {"rate": rate}
            canned = sizes = None
            for side in ("ours", "floor"):
                if side in over or (side == "floor" and args.no_floor):
                    continue
                phase = (Phase(side, args.scenario, cfg, args, tmp / f"{side}-{rate:g}")
                         if side == "ours" else
                         Phase(side, args.scenario, cfg, args, tmp / f"{side}-{rate:g}",
                               sizes=sizes, canned=canned))
                result = phase.run()
                if side == "ours":
                    sizes = result["sizes"]
                    canned = result["samples"] if args.floor_payload == "canned" else None
                f = result["fanout"]
                row[side] = {"p50": _r(f["p50"]), "p99": _r(f["p99"]), "lost": result["lost"],
                             "cpu_ms_per_action": result["cpu_ms_per_action"],
                             "late": result.get("late_sends")}
                if f["p99"] is not None and f["p99"] < CAPACITY_P99_MS and not result["lost"]:
                    capacity[side] = rate
                    misses[side] = 0
                else:
                    misses[side] += 1
                    if misses[side] >= 2:
                        over.add(side)
            rows.append(row)
            if {"ours", "floor"} <= over or ("ours" in over and args.no_floor):
                break
            if "ours" in over and "floor" not in over:
                continue
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)

    def cell(side_row):
        if not side_row:
            return "—"
        return f"{side_row['p50']} / {side_row['p99']}" + (
            f" (lost {side_row['lost']})" if side_row["lost"] else "")
    log(f"\n== capacity of {args.scenario} ({base['games']} games, {base['db']}, "
        f"{base['duration']:g} s per rate after a {LOAD_WARMUP_S:g} s warm-up): "
        f"p99 under {CAPACITY_P99_MS} ms")
    log("| actions/s | ours p50 / p99 ms | floor p50 / p99 ms |")
    log("| --- | --- | --- |")
    for row in rows:
        log(f"| {row['rate']:g} | {cell(row.get('ours'))} | {cell(row.get('floor'))} |")
    log(f"capacity: ours {capacity['ours']} actions/s, floor {capacity['floor']} actions/s")
    result = {"scenario": args.scenario, "load": rows, "capacity_ours": capacity["ours"],
              "capacity_floor": capacity["floor"], "p99_limit_ms": CAPACITY_P99_MS}
    print(json.dumps(result), flush=True)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description="Fan-out benchmark of the facilitator "
                                                 "against bare Flask-SocketIO (issue 6).")
    parser.add_argument("--scenario", choices=sorted(SCENARIOS), default="classroom")
    parser.add_argument("--duration", type=float, help="seconds of load per phase")
    parser.add_argument("--rate", type=float, help="actions per second, all games together")
    parser.add_argument("--games", type=int)
    parser.add_argument("--db", choices=("sqlite", "postgres"))
    parser.add_argument("--workers", type=int, help="load-generator processes")
    parser.add_argument("--via-nginx", action="store_true",
                        help="connect every socket through nginx run with deploy/nginx.conf "
                             "(joins and logins still go straight to the processes)")
    parser.add_argument("--no-floor", action="store_true", help="skip the floor phase")
    parser.add_argument("--floor-payload", choices=("pad", "canned"), default="canned",
                        help="floor messages: real state messages recorded in the facilitator "
                             "phase (canned, the default: same bytes and shape, so clients and "
                             "server encode and parse the same), or a flat padded object of "
                             "the measured size (pad)")
    parser.add_argument("--floor-sizes", help="gm=N,team=N,projector=N (default: as measured)")
    parser.add_argument("--profile", metavar="DIR", help="py-spy the facilitator server(s)")
    parser.add_argument("--nice", type=int, default=0,
                        help="scheduling priority of the servers and load generators we start "
                             "(e.g. -10, as root, on a machine shared with other work)")
    parser.add_argument("--quiet", type=float, metavar="PCT",
                        help="before each phase, wait until other programs use under PCT%% of "
                             "a core (the machine is shared)")
    parser.add_argument("--quiet-wait", type=float, default=120, metavar="S",
                        help="wait at most S seconds for --quiet")
    parser.add_argument("--profile-connect", action="store_true",
                        help="with --profile: also record while the clients connect")
    parser.add_argument("--profile-floor", action="store_true",
                        help="with --profile: record the floor's server too (to compare)")
    parser.add_argument("--profile-rate", type=int, default=250, help="py-spy samples per second")
    parser.add_argument("--root", default=str(ROOT),
                        help="checkout whose facilitator package the server runs")
    parser.add_argument("--keep", action="store_true", help="keep the logs folder")
    parser.add_argument("--dump", metavar="FILE",
                        help="append [phase, t, game, fan-out ms, ack ms] per action (JSON lines)")
    parser.add_argument("--load", nargs="?", const="10,20,40,80,160,240", metavar="RATES",
                        help="the capacity curve: run the scenario at each of these action "
                             "rates (comma separated, all games together), ours and the floor, "
                             "and print the highest rate at which each keeps p99 under "
                             f"{CAPACITY_P99_MS} ms")
    parser.add_argument("--floor-gc", choices=("server", "default"), default="server",
                        help="the floor collects garbage as facilitator serve does (the "
                             "default), or with Python's default thresholds (as before "
                             "2026-12-02: its full collections then weighed on its figures)")
    parser.add_argument("--gm-sessions", choices=("each", "one"), default="each",
                        help="each game's GM logs in (a console session each, as teachers "
                             "do: the default), or all GMs share one session")
    parser.add_argument("--concurrency", type=int, default=50, metavar="N",
                        help="connections each load generator opens at once (1: one after "
                             "the other, so the CPU per connection is the connection's alone)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        asyncio.run(worker_main())
        return
    if args.profile and not _py_spy().exists():
        parser.error("--profile needs py-spy, which the test extras do not install: "
                     f"{Path(sys.executable).parent / 'pip'} install py-spy")
    if args.load:
        capacity_curve(args)
        return
    global NICE
    NICE = args.nice
    limit = raise_open_files()
    cfg = dict(SCENARIOS[args.scenario])
    for key in ("duration", "rate", "games", "db"):
        if getattr(args, key) is not None:
            cfg[key] = getattr(args, key)
    need = cfg["games"] * (1 + TEAMS * cfg["devices"] + cfg["projectors"]) * 2 + 200
    if limit < need:
        log(f"warning: open-files limit {limit} is below the ~{need} this scenario needs")
    tmp = Path(tempfile.mkdtemp(prefix=f"fanout-{args.scenario}-"))
    began = time.monotonic()
    log(f"fanout: scenario {args.scenario}, logs in {tmp}, open files {limit}")
    try:
        ours = Phase("ours", args.scenario, cfg, args, tmp).run()
        floor = None
        if not args.no_floor:
            sizes = (__import__("bench.floor_server", fromlist=["parse_sizes"]).parse_sizes(
                args.floor_sizes) if args.floor_sizes else ours["sizes"])
            canned = ours["samples"] if args.floor_payload == "canned" else None
            floor = Phase("floor", args.scenario, cfg, args, tmp, sizes=sizes,
                          canned=canned).run()
        result = report(args.scenario, ours, floor, cfg)
        result["wall_s"] = round(time.monotonic() - began, 1)
        print(json.dumps(result, ensure_ascii=False), flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
