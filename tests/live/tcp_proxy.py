"""A small TCP proxy on 127.0.0.1 whose connections a test can cut, to play a flaky Wi-Fi.

Clients connect to ``proxy.url`` instead of the server's; every byte is
passed on both ways by two threads per connection. The test can then:

- ``cut()``: drop every current connection at once (both ends see it closed);
- ``refuse()`` / ``accept()``: while refusing, a new connection is accepted
  and closed at once, as when the network is gone; ``accept()`` lets them in
  again;
- ``blackhole()``: stop passing bytes on the current connections without
  closing them, as when a tablet walks out of range: nobody is told, and
  only the Socket.IO pings notice (``cut()`` then ends them);
- ``deafen()``: pass the client's bytes on to the server but none of the server's back
  (an acknowledgement lost on the way home: the server acted, the client never knows);
- ``refuse_websockets()``: answer every WebSocket handshake ``403 Forbidden``
  and close, as proxies that do not pass WebSockets do; plain HTTP goes on.

It only ever listens on and connects to 127.0.0.1, and holds at most
``max_connections`` connections (more are closed on arrival).
"""
from __future__ import annotations

import socket
import threading
import time
import weakref

LOOPBACK = "127.0.0.1"

#: Every proxy while it exists: the guard of the live tests' ``conftest.py`` names and
#: closes any whose threads still run when its test module has ended.
PROXIES: "weakref.WeakSet[TcpProxy]" = weakref.WeakSet()


class TcpProxy:
    """Forward ``127.0.0.1:<port>`` to ``127.0.0.1:<target_port>``, with a hand on the cable."""

    def __init__(self, target_port: int, max_connections: int = 64):
        self.target_port = target_port
        self.max_connections = max_connections
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener.bind((LOOPBACK, 0))
        self._listener.listen(64)
        self.port = self._listener.getsockname()[1]
        self.url = f"http://{LOOPBACK}:{self.port}"
        self._lock = threading.Lock()
        self._pairs: list[tuple[socket.socket, socket.socket]] = []
        self._refusing = False
        self._blackholed: set[int] = set()      # ids of pairs that pass nothing any more
        self._deaf: set[int] = set()            # ids of pairs that pass nothing back
        self._closed = False
        self._no_websockets = False
        self.websockets_refused = 0
        self.accepted = 0                        # connections passed on
        self.refused = 0                         # connections closed on arrival
        self._pumps: list[threading.Thread] = []
        self._thread = threading.Thread(target=self._accept_loop, name="tcp-proxy", daemon=True)
        self._thread.start()
        PROXIES.add(self)

    # -- the hand on the cable ------------------------------------------------------

    def cut(self) -> int:
        """Close every current connection; returns how many were cut."""
        with self._lock:
            pairs, self._pairs = self._pairs, []
            self._blackholed.clear()
            self._deaf.clear()
        for pair in pairs:
            for sock in pair:
                _close(sock)
        return len(pairs)

    def refuse(self) -> None:
        """From now on, close new connections as soon as they arrive."""
        self._refusing = True

    def accept(self) -> None:
        """Let new connections through again."""
        self._refusing = False

    def refuse_websockets(self) -> None:
        """From now on, refuse WebSocket handshakes (HTTP 403); other requests pass."""
        self._no_websockets = True

    def blackhole(self) -> int:
        """Stop passing bytes on every current connection, without closing them."""
        with self._lock:
            self._blackholed.update(id(pair) for pair in self._pairs)
            return len(self._pairs)

    def deafen(self) -> int:
        """Stop passing the server's bytes back on every current connection (the client's
        still reach the server), without closing them."""
        with self._lock:
            self._deaf.update(id(pair) for pair in self._pairs)
            return len(self._pairs)

    def wait_refused(self, count: int, timeout: float = 20) -> None:
        """Wait until the proxy has closed ``count`` connections on arrival in all: a
        client that tried to come back while the network was gone (what a test waits
        for instead of staying offline a while)."""
        deadline = time.monotonic() + timeout
        while self.refused < count:
            assert time.monotonic() < deadline, f"{self.refused} of {count} attempts refused"
            time.sleep(0.02)

    @property
    def connections(self) -> int:
        """How many connections are open through the proxy now."""
        with self._lock:
            return len(self._pairs)

    @property
    def threads(self) -> list[threading.Thread]:
        """The proxy's threads still running: its accept loop and its pumps."""
        with self._lock:
            return [t for t in (self._thread, *self._pumps) if t.is_alive()]

    def close(self) -> None:
        """Stop listening, cut everything, and wait until the proxy's threads end."""
        self._closed = True
        _close(self._listener)
        self._thread.join(5)            # no connection is accepted after this
        self.cut()
        for thread in self.threads:
            thread.join(5)

    def __enter__(self) -> "TcpProxy":
        return self

    def __exit__(self, *_exc) -> None:
        self.close()

    # -- passing bytes ----------------------------------------------------------------

    def _accept_loop(self) -> None:
        while not self._closed:
            try:
                client, _address = self._listener.accept()
            except OSError:
                return
            with self._lock:
                full = len(self._pairs) >= self.max_connections
            if self._refusing or full:
                self.refused += 1
                _close(client)
                continue
            try:
                upstream = socket.create_connection((LOOPBACK, self.target_port), timeout=5)
                upstream.settimeout(None)
            except OSError:
                self.refused += 1
                _close(client)
                continue
            for sock in (client, upstream):
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            pair = (client, upstream)
            with self._lock:
                self._pairs.append(pair)
            self.accepted += 1
            for source, sink in ((client, upstream), (upstream, client)):
                pump = threading.Thread(target=self._pump, args=(pair, source, sink),
                                        name="tcp-proxy-pump", daemon=True)
                with self._lock:
                    self._pumps = [t for t in self._pumps if t.is_alive()] + [pump]
                pump.start()

    def _pump(self, pair, source: socket.socket, sink: socket.socket) -> None:
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                if id(pair) in self._blackholed or (source is pair[1]
                                                    and id(pair) in self._deaf):
                    continue            # swallowed: the other end never hears of it
                if (self._no_websockets and source is pair[0]
                        and b"\r\nupgrade: websocket" in data.lower()):
                    self.websockets_refused += 1
                    source.sendall(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n"
                                   b"Connection: close\r\n\r\n")
                    break
                sink.sendall(data)
        except OSError:
            pass
        finally:
            if id(pair) not in self._blackholed:
                with self._lock:
                    if pair in self._pairs:
                        self._pairs.remove(pair)
                for sock in pair:
                    _close(sock)


def _close(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    try:
        sock.close()
    except OSError:
        pass
