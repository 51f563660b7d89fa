"""A real facilitator server process and real Socket.IO clients, for live tests."""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import weakref
from pathlib import Path

import requests
import socketio

ROOT = Path(__file__).resolve().parents[2]
GM_PASSWORD = "contraseña-de-prueba"


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``facilitator serve`` in a subprocess, with its own instance folder and database."""

    def __init__(self, instance: Path, database_url: str | None = None, port: int | None = None,
                 env: dict | None = None, clocked: bool = False):
        """``clocked``: run it with a clock the test moves (``advance``, clocked_serve.py)
        instead of ``facilitator serve``."""
        self.instance = instance
        self.clocked = clocked
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "FACILITATOR_INSTANCE": str(instance),
                    "FACILITATOR_GM_PASSWORD": GM_PASSWORD, **(env or {})}
        if database_url:
            self.env["FACILITATOR_DATABASE_URL"] = database_url
        self.process: subprocess.Popen | None = None

    def start(self, timeout: float = 30) -> "Server":
        """Start the process and wait until it answers. A new SQLite database is a copy
        of the run's migrated file (tests/services.py): the start migrates nothing."""
        database = self.instance / "facilitator.db"
        if "FACILITATOR_DATABASE_URL" not in self.env and not database.exists():
            from services import migrated_sqlite
            shutil.copy(migrated_sqlite(), database)
        with open(self.instance / f"server-{self.port}.log", "ab") as log:
            command = ([sys.executable, str(ROOT / "tests/live/clocked_serve.py"), str(self.port)]
                       if self.clocked else
                       [sys.executable, "-m", "facilitator.cli", "serve", "--port", str(self.port)])
            env = self.env
            if self.clocked:            # a script's folder, not the repository, leads sys.path
                env = {**env, "PYTHONPATH": os.pathsep.join(
                    filter(None, [str(ROOT), env.get("PYTHONPATH")]))}
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {self.log()}")
            try:
                requests.get(self.url + "/join", timeout=1)
                return self
            except requests.RequestException:     # refused, or too slow under load
                time.sleep(0.1)
        raise RuntimeError(f"server did not start: {self.log()}")

    def advance(self, seconds: float) -> None:
        """Move a clocked server's clock ``seconds`` ahead; returns once every deadline
        passed by then has acted (its screens sent before the answer)."""
        assert self.clocked, "only a Server(clocked=True) has a clock to move"
        response = requests.post(self.url + "/_test/clock", json={"advance": seconds},
                                 timeout=15)
        assert response.status_code == 200 and response.json()["ok"], response.text[:300]

    def log(self) -> str:
        """What the server printed."""
        path = self.instance / f"server-{self.port}.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""

    def kill(self) -> None:
        """SIGKILL the server: no chance to flush or say goodbye."""
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        """Stop the server politely, then firmly."""
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.kill()

    def gm_session(self) -> requests.Session:
        """An HTTP session logged in to the console."""
        http = requests.Session()
        response = http.post(self.url + "/console/login", data={"secret": GM_PASSWORD},
                             allow_redirects=False, timeout=10)
        assert response.status_code == 302, response.text[:300]
        return http

    def create_game(self, http: requests.Session, settings: dict, name: str = "Prueba") -> int:
        """Create a game with the sample bank; returns its id."""
        response = http.post(self.url + "/console/games",
                             json={"name": name, "settings": settings}, timeout=10)
        data = response.json()
        assert data["ok"], data
        return data["game_id"]


#: Every Socket.IO client these tests made, while it exists: the guard of ``conftest.py``
#: names and stops any that still runs threads when its test module has ended.
CLIENTS: "weakref.WeakSet[socketio.Client]" = weakref.WeakSet()


def socketio_client(reconnection: bool = False, **options) -> socketio.Client:
    """A python-socketio client of these tests (kept in ``CLIENTS``).

    It reconnects only when asked to: a reconnecting client runs a thread that
    draws its delays from the global ``random`` module, and one that outlives
    its test (its server gone) goes on doing so for the rest of the run.
    """
    sio = socketio.Client(reconnection=reconnection, reconnection_delay=0.2,
                          reconnection_delay_max=1, **options)
    CLIENTS.add(sio)
    return sio


def client_threads(sio: socketio.Client) -> list[threading.Thread]:
    """The threads a python-socketio client runs now: reading, writing, reconnecting."""
    eio = sio.eio
    tasks = (eio.read_loop_task, eio.write_loop_task, sio._reconnect_task)
    return [t for t in tasks if isinstance(t, threading.Thread) and t.is_alive()]


def stop_client(sio: socketio.Client, websockets=(), timeout: float = 10) -> None:
    """Disconnect a python-socketio client for good and wait until its threads end.

    ``sio.shutdown()`` alone is not enough: it does nothing to a client whose
    connection is dropping just then (the server stopped, a proxy cut it), which
    starts reconnecting a moment later; and a reconnection attempt that succeeds
    as it is aborted leaves the client connected. So reconnection is switched off
    first, any connection left is then closed, the WebSockets python-engineio gave
    up on without closing them (``websockets``) are shut down, and every thread
    of the client is joined.
    """
    reconnecting = sio.reconnection
    sio.reconnection = False            # a connection dropping from now on stays down
    eio = sio.eio
    sockets = [getattr(eio, "ws", None), *websockets]
    threads = client_threads(sio)
    try:
        sio.shutdown()                  # disconnects, or aborts (and joins) the reconnection
        if sio.connected or eio.state != "disconnected":
            threads += client_threads(sio)
            sio.disconnect()            # a reconnection that succeeded as it was aborted
    except Exception:                   # noqa: BLE001 - a client of a dead server may fail to say bye
        pass
    for ws in [*sockets, getattr(eio, "ws", None)]:
        if ws is not None:
            try:
                ws.shutdown()
            except Exception:           # noqa: BLE001 - already closed
                pass
    if reconnecting:
        # A drop handled just before reconnection was switched off decides to reconnect,
        # runs the client's disconnect handlers, and only then starts the reconnection
        # thread, which clears the abort flag as it begins: shutdown() may have run in
        # between and seen nothing to stop. Watch for such a thread a moment and stop it.
        watch_until = time.monotonic() + 1.5
        while time.monotonic() < watch_until:
            task = getattr(sio, "_reconnect_task", None)
            if task is not None and task.is_alive():
                threads.append(task)
                if sio._reconnect_abort is not None:
                    sio._reconnect_abort.set()
                task.join(0.1)
            else:
                time.sleep(0.05)
        if sio.connected:
            sio.disconnect()
    deadline = time.monotonic() + timeout
    for thread in {*threads, *client_threads(sio)}:
        if thread is not threading.current_thread():
            thread.join(max(0.0, deadline - time.monotonic()))


class Client:
    """A real Socket.IO client that keeps every ``state`` message it receives.

    It does not reconnect unless ``reconnection=True`` (tests of reconnection
    only); ``close()`` stops it and its threads.
    """

    def __init__(self, server: Server, auth: dict, cookies: str | None = None,
                 transports=("websocket",), reconnection: bool = False, **options):
        self.server = server
        self.states: list[dict] = []
        self.raw: list[str] = []
        self.changed = threading.Condition()
        self.sio = socketio_client(reconnection, **options)
        self.sio.on("state", self._on_state)
        self.auth, self.cookies, self.transports = auth, cookies, list(transports)
        self.websockets: list = []

    def _on_state(self, message):
        import json
        with self.changed:
            self.states.append(message)
            self.raw.append(json.dumps(message, ensure_ascii=False))
            self.changed.notify_all()

    def connect(self) -> "Client":
        """Connect and wait for the first state."""
        headers = {"Cookie": self.cookies} if self.cookies else {}
        try:
            self.sio.connect(self.server.url, auth=self.auth, headers=headers,
                             transports=self.transports, wait_timeout=10)
            self.wait_for(lambda s: True)
        except BaseException:
            self.close()                # the caller never gets this client to close it
            raise
        return self

    @property
    def last(self) -> dict:
        """The newest state received."""
        return self.states[-1]

    def wait_for(self, predicate, timeout: float = 10) -> dict:
        """Wait until the newest state satisfies ``predicate``; returns it."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                if self.states and predicate(self.states[-1]):
                    return self.states[-1]
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no matching state; last seq "
                                         f"{self.states[-1]['seq'] if self.states else None}")
                self.changed.wait(left)

    def wait_seq(self, seq: int, timeout: float = 10) -> dict:
        """Wait for a state with sequence number ``seq`` or later."""
        return self.wait_for(lambda s: s["seq"] >= seq, timeout)

    def settled(self) -> int:
        """How many states the client holds once the server answered one more event (a
        ``sync`` naming the seq it holds): every state the server sent it before that
        answer has arrived, since they share one connection, in order. What a test checks
        instead of waiting a while to see that nothing more came."""
        self.call("sync", {"seq": self.last["seq"]} if self.states else {})
        return len(self.states)

    def act(self, action: dict, action_id: str | None = None) -> dict:
        """Send an action and return the server's acknowledgement."""
        payload = {"action": action}
        if action_id:
            payload["id"] = action_id
        return self.call("act", payload)

    def call(self, event: str, payload) -> dict:
        """Send any event and return its acknowledgement (waiting out a reconnection)."""
        deadline = time.monotonic() + 15
        while "/" not in self.sio.namespaces and time.monotonic() < deadline:
            time.sleep(0.05)
        return self.sio.call(event, payload, timeout=15)

    def close(self) -> None:
        """Disconnect, stop any reconnection attempt, and wait until the client's threads end:
        a client left reconnecting in the background would outlive its test (and stir the
        global random module from its thread)."""
        stop_client(self.sio, self.websockets)
