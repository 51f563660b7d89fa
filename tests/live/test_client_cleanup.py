"""Closing a test client stops it for good: no thread of it is left to stir ``random``.

A python-socketio client that reconnects runs a thread drawing its delays
from the global ``random`` module; left running after its test, it made
Hypothesis fail later tests of the same run ("Do not use the `random` module
inside strategies"). The conftest's guard fails any module leaving threads;
these tests check that clients do not reconnect unless asked, and that closing
one that does stops it.
"""
import random
import threading
import time

import pytest

from campaigns import LiveClient, cookie_header
from server import client_threads
from tcp_proxy import TcpProxy


@pytest.fixture(scope="module")
def before() -> set[threading.Thread]:
    """The threads that ran before this module's clients (the run's own, its server's)."""
    return set(threading.enumerate())


@pytest.fixture(scope="module")
def gm_auth(server):
    http = server.gm_session()
    game_id = server.create_game(http, {"teams": [{"name": f"E{n}", "members": 4}
                                                  for n in range(1, 5)]}, name="Cierre")
    yield {"role": "gm", "game": game_id}, cookie_header(http)
    http.close()


@pytest.fixture
def reconnecting(server, gm_auth):
    """A GM client that reconnects by itself, through a proxy the test can cut."""
    proxy = TcpProxy(server.port)
    auth, cookie = gm_auth
    client = LiveClient(proxy.url, auth, cookies=cookie, reconnection=True).connect()
    yield client, proxy
    client.close()
    proxy.close()


def quiet(before: set, *proxies: TcpProxy, timeout: float = 5) -> bool:
    """Whether every thread started since ``before`` has ended but the ``proxies``' (polled
    up to ``timeout``): then nothing is left to draw from the global ``random`` module,
    and the state it had stays."""
    state = random.getstate()
    deadline = time.monotonic() + timeout
    while True:
        kept = {t for proxy in proxies for t in proxy.threads}
        left = [t for t in threading.enumerate()
                if t not in before and t not in kept and t.is_alive()]
        if not left or time.monotonic() >= deadline:
            return not left and random.getstate() == state
        time.sleep(0.02)


def test_closing_a_client_that_is_reconnecting_stops_its_thread(reconnecting, before):
    client, proxy = reconnecting
    proxy.refuse()
    proxy.cut()
    deadline = time.monotonic() + 10
    while client.sio._reconnect_task is None and time.monotonic() < deadline:
        time.sleep(0.02)
    threads = client_threads(client.sio)
    assert threads, "the client is reconnecting"
    client.close()
    assert not any(t.is_alive() for t in threads)
    assert not client_threads(client.sio) and not client.sio.connected
    assert quiet(before, proxy), "nothing draws from the global random module any more"


def test_closing_a_client_as_its_connection_drops_leaves_no_reconnection(reconnecting,
                                                                       before):
    """The drop may not be seen yet when ``close`` starts: no reconnection may follow."""
    client, proxy = reconnecting
    proxy.refuse()
    cutter = threading.Thread(target=proxy.cut)
    cutter.start()
    client.close()
    cutter.join()
    # close() watched for a reconnection starting late (server.stop_client): none is left.
    assert client.sio._reconnect_task is None or not client.sio._reconnect_task.is_alive()
    assert not client_threads(client.sio) and not client.sio.connected
    assert quiet(before, proxy)


def test_a_client_does_not_reconnect_unless_asked(server, gm_auth, before):
    auth, cookie = gm_auth
    with TcpProxy(server.port) as proxy:
        client = LiveClient(proxy.url, auth, cookies=cookie).connect()
        try:
            proxy.cut()
            deadline = time.monotonic() + 10
            while client_threads(client.sio) and time.monotonic() < deadline:
                time.sleep(0.02)
            assert not client_threads(client.sio) and not client.sio.connected
            assert client.sio._reconnect_task is None
            assert quiet(before, proxy)
        finally:
            client.close()
