"""WebSocket closes complete (issue 12, item 5): a client's close frame is answered, so a
python-socketio client disconnects at once, and the server does not read the close frame
as a new HTTP request ("Expected GET method; Got command='\\x88...'" per disconnect)."""
from __future__ import annotations

import time

import pytest

from server import GM_PASSWORD, Client, Server  # noqa: F401
from table import SETTINGS

CYCLES = 4


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = Server(tmp_path_factory.mktemp("instance")).start()
    yield srv
    srv.stop()


def test_a_websocket_client_disconnects_at_once_and_the_server_logs_no_garbage(server):
    http = server.gm_session()
    game_id = server.create_game(http, SETTINGS)
    watch = http.get(f"{server.url}/api/games/{game_id}/codes", timeout=10).json()["watch"]
    times = []
    for _ in range(CYCLES):
        client = Client(server, {"role": "projector", "watch": watch}).connect()
        try:
            assert client.sio.transport() == "websocket"
            started = time.monotonic()
            client.sio.disconnect()
            times.append(time.monotonic() - started)
        finally:
            client.close()
    # One more client's round trip: the server has run past each close it answered (the
    # garbage line would come from reading on after the close frame), and is still fine.
    again = Client(server, {"role": "projector", "watch": watch}).connect()
    try:
        again.settled()
    finally:
        again.close()
    log = server.log()
    assert "Expected GET method" not in log, log[-1500:]
    assert "Invalid HTTP method" not in log, log[-1500:]
    assert max(times) < 0.5, times
