"""Every change this project makes to a library's private behaviour, in one place.

python-socketio and python-engineio are used through their public API everywhere
else. What needs more is here, each with why, applied once when the app is made
(``apply``), and each checked by ``tests/test_patches.py``, which fails loudly
when an attribute patched here moves or changes its shape in a new release
(pyproject.toml pins the versions the tests ran on).

- ``PACKETS``: python-socketio's ``Packet.data_is_binary`` walks every payload
  looking for bytes; the facilitator never sends bytes.
- ``drop_malformed_packets``: a packet no client library sends gets one log line,
  not a traceback a curious student could fill the teacher's log with.
- ``gate_events``: at most MAX_IN_FLIGHT events of one connection at once, before
  a task is started for an event.
- ``gate_messages``: a connection that writes messages faster than any page has
  the excess dropped unread, before any JSON is decoded, and is cut at the
  transport if it goes on.
- ``pace_websocket_reads``: a WebSocket's reader gives the loop back after each
  read and reads no faster than READ_LIMIT.
- ``hear_changes``: with several processes, each counts the changes the others
  broadcast (what it holds of a game is read again).
- ``subscribe_now``: with several processes, a starting process subscribes to the
  message queue before it answers anyone.
"""
from __future__ import annotations

import logging
import socket
import threading
import time

from .live.flood import (FIRST_MESSAGES, IN_FLIGHT_REFUSAL, MAX_IN_FLIGHT, MESSAGE_LIMIT,
                         MESSAGE_STRIKES, PROBATION_MESSAGES, PROBATION_STRIKES, STRIKES,
                         TokenBuckets, _PacedSocket)

log = logging.getLogger(__name__)


def binary_free_packets():
    """A Socket.IO packet class that skips python-socketio's search for bytes.

    ``Packet.data_is_binary`` walks the whole payload with recursive list
    comprehensions and ``functools.reduce`` on every emit: for a state message of a
    few kilobytes, hundreds of calls, about a third of the server's CPU per action.
    The facilitator never sends bytes, so the answer is always False. With a message
    queue the pub/sub manager asks the class it imported (``pubsub_manager.Packet``).
    """
    from socketio import packet, pubsub_manager

    class JsonPacket(packet.Packet):
        @classmethod
        def data_is_binary(cls, data):
            return False
    pubsub_manager.Packet = JsonPacket
    return JsonPacket


def drop_malformed_packets(server) -> None:
    """Wrap ``server`` (a python-socketio Server) so malformed packets are dropped quietly.

    python-socketio logs a full traceback for a packet it cannot decode (broken JSON,
    an unknown packet type, nesting deeper than the decoder's recursion) and for an
    event whose name is not text. Nothing changes in either case: the packet is
    dropped and one line says so."""
    decode_and_dispatch = server._handle_eio_message
    dispatch_event = server._handle_event

    def on_message(eio_sid, data):
        try:
            return decode_and_dispatch(eio_sid, data)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError,
                RecursionError) as error:
            log.warning("dropped a malformed Socket.IO packet from %s (%s)", eio_sid,
                        error.__class__.__name__)
            return None

    def on_event(eio_sid, namespace, id, data):
        if not isinstance(data, list) or not data or not isinstance(data[0], str):
            log.warning("dropped a Socket.IO event without a text name from %s", eio_sid)
            return None
        return dispatch_event(eio_sid, namespace, id, data)

    server._handle_event = on_event          # found before the class's method
    server.eio.on("message", on_message)     # replaces the handler registered at start


def gate_events(server, on_cut=None) -> None:
    """Wrap ``server`` (a python-socketio Server): at most MAX_IN_FLIGHT events of one
    connection are handled at once; the others are answered ``rate`` on the spot, and a
    connection that draws more than STRIKES such answers is closed (after
    ``on_cut(sid)``, when given)."""
    from socketio import packet

    dispatch = server._handle_event
    handle = server._handle_event_internal
    in_flight: dict[str, int] = {}
    strikes = TokenBuckets()
    lock = threading.Lock()

    def on_event(eio_sid, namespace, id, data):
        namespace = namespace or "/"
        sid = server.manager.sid_from_eio_sid(eio_sid, namespace)
        if sid is None or not server.manager.is_connected(sid, namespace):
            return dispatch(eio_sid, namespace, id, data)     # it drops the event
        with lock:
            count = in_flight.get(sid, 0)
            if count < MAX_IN_FLIGHT:
                in_flight[sid] = count + 1
        if count < MAX_IN_FLIGHT:
            try:
                return dispatch(eio_sid, namespace, id, data)
            except BaseException:
                _done(sid)
                raise
        if id is not None:
            server._send_packet(eio_sid, server.packet_class(
                packet.ACK, namespace=namespace, id=id, data=[IN_FLIGHT_REFUSAL]))
        if not strikes.take(sid, *STRIKES):
            if on_cut is not None:
                on_cut(sid)
            server.disconnect(sid, namespace)
        return None

    def _done(sid):
        with lock:
            count = in_flight.get(sid, 1) - 1
            if count > 0:
                in_flight[sid] = count
            else:
                in_flight.pop(sid, None)

    def handled(srv, sid, *rest):
        try:
            return handle(srv, sid, *rest)
        finally:
            _done(sid)

    server._handle_event = on_event
    server._handle_event_internal = handled




def gate_messages(eio, scale: float = 1.0, on_cut=None, is_console=None) -> None:
    """Wrap ``eio`` (the Engine.IO server under Socket.IO) so a connection that writes
    messages faster than MESSAGE_LIMIT has the excess dropped unread, and one that goes
    on past MESSAGE_STRIKES is cut off at the transport (after ``on_cut(eio_sid)``, when
    given). A logged-in console (``is_console(eio_sid)``) is not counted: a dropped
    message is never answered, and the GM, trusted with the console secret, must never
    wait for an answer that will not come (scripted consoles, like the browser tests',
    send hundreds of messages a second); its events keep their buckets and the
    in-flight gate, which answer.

    The per-event limits of :class:`FloodGuard` answer an honest client that went too
    fast; this one is for a client that does not wait for answers at all. A flood of
    thousands of packets reaches the server in one read: each would otherwise cost a
    task and a JSON decoding before any limit saw it (bench/faults.py, flood phase).
    """
    from engineio.exceptions import SocketIsClosedError

    if scale <= 0 or getattr(eio, "_facilitator_gate", False):
        return getattr(eio, "_facilitator_gate", None) or None
    trigger = eio._trigger_event
    buckets = TokenBuckets()
    capacity, rate = MESSAGE_LIMIT[0] * scale, MESSAGE_LIMIT[1] * scale
    dropped: dict[str, int] = {}
    probation: set[str] = set()

    def gated(event, *args, **kwargs):
        if event == "message" and args:
            eio_sid = args[0]
            if is_console is not None and is_console(eio_sid):
                return trigger(event, *args, **kwargs)
            if eio_sid not in buckets:          # a new connection: a small first burst
                buckets.put(eio_sid, FIRST_MESSAGES * scale, capacity, rate)
            if not buckets.take(eio_sid, capacity, rate):
                count = dropped.get(eio_sid, 0) + 1
                strikes = PROBATION_STRIKES if eio_sid in probation else MESSAGE_STRIKES
                if count < strikes * max(scale, 1):
                    dropped[eio_sid] = count
                    return None
                dropped.pop(eio_sid, None)
                probation.discard(eio_sid)
                if on_cut is not None:
                    on_cut(eio_sid)
                # Raised inside Engine.IO's read of the packet: it stops reading this
                # connection and closes it (WebSocket), or disconnects it (polling).
                raise SocketIsClosedError()
        elif event == "disconnect" and args:
            dropped.pop(args[0], None)
            probation.discard(args[0])
            buckets.drop([args[0]])
        return trigger(event, *args, **kwargs)

    def on_probation(eio_sid: str) -> None:
        """The connection ``eio_sid`` comes back from a bar: it starts over with
        PROBATION_MESSAGES and is cut after PROBATION_STRIKES drops."""
        probation.add(eio_sid)
        buckets.put(eio_sid, PROBATION_MESSAGES * scale, capacity, rate)

    eio._trigger_event = gated
    eio._facilitator_gate = on_probation
    return on_probation




def pace_websocket_reads(eio, scale: float = 1.0) -> None:
    """Make ``eio``'s WebSocket connections (gevent, simple-websocket) read with
    :class:`_PacedSocket` (READ_LIMIT times ``scale``). Nothing to do in other modes,
    or when already done."""
    websocket = (eio._async or {}).get("websocket")
    if eio.async_mode != "gevent" or websocket is None or getattr(websocket, "_paced", False):
        return

    def paced_thread(make_thread):
        def start(target, *args, **kwargs):
            connection = getattr(target, "__self__", None)     # simple_websocket's Base
            if connection is not None and getattr(connection, "sock", None) is not None:
                connection.sock = _PacedSocket(connection.sock, eio.sleep, scale)
            return make_thread(target, *args, **kwargs)
        return start

    class PacedWebSocket(websocket):
        _paced = True

        def __init__(self, handler, server, *args, **kwargs):
            super().__init__(handler, server, *args, **kwargs)
            arguments = getattr(self, "server_args", None)
            if isinstance(arguments, dict) and arguments.get("thread_class") is not None:
                arguments["thread_class"] = paced_thread(arguments["thread_class"])

        def __call__(self, environ, start_response):
            """Serve the connection; when Engine.IO is done with it, end it at once.

            simple-websocket reads with a thread of its own, on a duplicate of the
            socket, until the client answers the close: a connection cut for flooding
            has megabytes ahead of that answer, read at READ_LIMIT, and its client was
            seen to learn of the cut only 25 s later (1-2 runs in 12 of
            tests/live/test_flood.py). Shutting the socket down (not closing one of
            its descriptors) ends it for both and tells the client now."""
            try:
                return super().__call__(environ, start_response)
            finally:
                connection = getattr(self, "ws", None)
                sock = getattr(connection, "sock", None)
                if sock is not None:
                    try:
                        sock.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass        # already closed: nothing left to end

    eio._async = {**eio._async, "websocket": PacedWebSocket}


def hear_changes(manager, heard) -> None:
    """With a message queue: hand ``heard(message, own_host_id)`` every broadcast the
    queue brings (``manager``: Socket.IO's pub/sub manager), before it reaches this
    process's screens. python-socketio has no hook there: its ``_handle_emit`` is
    wrapped."""
    handle_emit = manager._handle_emit
    own = getattr(manager, "host_id", None)

    def heard_emit(message):
        heard(message, own)
        return handle_emit(message)
    manager._handle_emit = heard_emit


def subscribe_now(socketio, wait: float) -> bool:
    """Subscribe to the message queue now, before this process answers anyone; True
    once subscribed (at once without a message queue), False if the queue did not
    answer within ``wait`` seconds (it keeps trying meanwhile).

    python-socketio subscribes at its first connection, in a background task: after a
    restart that task competed with hundreds of connections coming back, and the
    changes other processes broadcast until it ran were lost for the screens that had
    their first state already. Subscribed first, every change committed after a
    screen's first state was read reaches it."""
    from socketio import RedisManager
    from socketio.pubsub_manager import PubSubManager
    server = socketio.server
    manager = server.manager
    if not isinstance(manager, PubSubManager):
        return True
    if not server.manager_initialized:
        server.manager_initialized = True
        manager.initialize()              # starts the listening task
    if not isinstance(manager, RedisManager):
        return True                       # (another queue: nothing to wait on)
    deadline = time.monotonic() + wait
    while True:
        pubsub = getattr(manager, "pubsub", None)     # RedisManager's subscription
        if pubsub is not None and pubsub.subscribed:  # set once SUBSCRIBE was sent
            return True
        if time.monotonic() >= deadline:
            return False
        socketio.sleep(0.005)


def apply(app, socketio, live, guard, scale: float) -> None:
    """Apply every patch to the app's Socket.IO server, once (``guard``: the flood
    guard; ``scale``: the flood limits' scale, 0 for none)."""
    server = socketio.server
    if getattr(server, "_facilitator_patched", False):
        return
    drop_malformed_packets(server)
    if scale > 0:
        # A connection cut for flooding bars its credentials for a while (flood.bar).
        gate_events(server, on_cut=guard.bar)
        guard.on_probation = gate_messages(
            server.eio, scale,
            on_cut=lambda eio_sid: guard.bar(server.manager.sid_from_eio_sid(eio_sid, "/")),
            is_console=guard.is_console)
        pace_websocket_reads(server.eio, scale)
    if not live.sole_process:
        hear_changes(server.manager, live.count_heard)
    server._facilitator_patched = True
