"""Socket.IO packets no client library sends are dropped with one log line.

python-socketio logs a full traceback for a packet it cannot decode (broken
JSON, an unknown packet type, nesting deeper than the decoder's recursion)
and for an event whose name is not text. Nothing changes in either case, but
a curious student should not be able to fill the teacher's log: the packet is
dropped and one line says so.
"""
from __future__ import annotations

import logging

log = logging.getLogger(__name__)


def drop_malformed_packets(server) -> None:
    """Wrap ``server`` (a python-socketio Server) so malformed packets are dropped quietly."""
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
