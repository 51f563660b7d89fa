"""Fixtures of live tests: a real server on a real SQLite file, GM, teams and projector.

And a guard: no thread a live test module started may outlive it. A Socket.IO
client left running after its test (its server gone, reconnecting for ever)
draws its reconnection delays from the global ``random`` module in its own
thread, and Hypothesis, later in the same run, takes that for a strategy
using ``random`` (tests/questions, tests/test_properties.py failed so).
"""
from __future__ import annotations

import sys
import threading
import time
import traceback

import pytest

from server import CLIENTS, Server, client_threads, stop_client
from table import Table
from tcp_proxy import PROXIES

#: A server launcher run as a script: importing it (--doctest-modules would) patches the
#: standard library with gevent and stops the garbage collector in the test process.
collect_ignore = ["clocked_serve.py"]

#: How long a module's threads may take to end after its last teardown.
GRACE_SECONDS = 5


@pytest.fixture(scope="module", autouse=True)
def no_thread_outlives_its_module(request):
    """Fail the module (an error at its last teardown) if threads it started still run
    ``GRACE_SECONDS`` after all its fixtures were torn down; they are named, with what
    they were doing, and the clients and proxies among them are stopped, so the rest
    of the run goes on clean.

    Module scope and autouse: set up before, torn down after, every other fixture of
    the module (its servers included). Costs nothing when no thread is left.
    """
    before = set(threading.enumerate())
    yield
    deadline = time.monotonic() + GRACE_SECONDS
    while True:
        left = [t for t in threading.enumerate() if t not in before and t.is_alive()]
        if not left or time.monotonic() >= deadline:
            break
        time.sleep(0.05)
    if not left:
        return
    report = [_describe(thread) for thread in left]
    for sio in list(CLIENTS):
        if set(client_threads(sio)) & set(left):
            stop_client(sio, timeout=5)
    for proxy in list(PROXIES):
        if set(proxy.threads) & set(left):
            proxy.close()
    still = [t.name for t in left if t.is_alive()]
    pytest.fail(f"{request.module.__name__}: {len(left)} thread(s) it started still ran "
                f"{GRACE_SECONDS} s after its teardown (close every client and proxy in the "
                f"test or fixture that made it):\n" + "\n".join(report)
                + (f"\nstill running after stopping them: {still}" if still else
                   "\n(they are stopped now)"), pytrace=False)


def _describe(thread: threading.Thread) -> str:
    """The thread's name, whose it is (a Socket.IO client, a proxy) and where it is."""
    owner = ""
    for sio in list(CLIENTS):
        if thread in client_threads(sio):
            auth = sio.connection_auth if isinstance(sio.connection_auth, dict) else {}
            owner = (f" of a Socket.IO client of {sio.connection_url} (role "
                     f"{auth.get('role')}, reconnection {'on' if sio.reconnection else 'off'})")
    for proxy in list(PROXIES):
        if thread in proxy.threads:
            owner = f" of the TCP proxy {proxy.url} -> port {proxy.target_port}"
    frame = sys._current_frames().get(thread.ident)
    where = "".join(traceback.format_stack(frame, limit=3)) if frame is not None else ""
    return f"- {thread.name}{owner}\n{where}"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One server process for the module, on a SQLite file of its own."""
    srv = Server(tmp_path_factory.mktemp("instance")).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def clocked_server(tmp_path_factory):
    """One server process for the module whose clock the test moves (``advance``)."""
    srv = Server(tmp_path_factory.mktemp("instance"), clocked=True).start()
    yield srv
    srv.stop()


@pytest.fixture
def table(server):
    """A fresh game at a fresh table."""
    t = Table(server)
    yield t
    t.close()


@pytest.fixture
def two_servers(tmp_path):
    """Two server processes of one deployment: one PostgreSQL database, one Redis message
    queue, one signing key (tests of scale-out; they fail under CI without the services)."""
    import secrets

    from services import fresh_postgres_database, redis_url
    database, drop = fresh_postgres_database()
    env = {"FACILITATOR_MESSAGE_QUEUE": redis_url(),
           "FACILITATOR_MESSAGE_QUEUE_CHANNEL": "test-" + secrets.token_hex(4),
           "FACILITATOR_SECRET_KEY": "shared-secret-of-the-deployment"}
    servers = []
    try:
        for name in ("a", "b"):
            (tmp_path / name).mkdir()
            servers.append(Server(tmp_path / name, database, env=env).start())
        yield servers
    finally:
        for srv in servers:
            srv.stop()
        drop()
