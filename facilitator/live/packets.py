"""Socket.IO packets: those no client library sends are dropped with one log line, and
the JSON every packet is written and read with (``PacketJson``).

python-socketio logs a full traceback for a packet it cannot decode (broken
JSON, an unknown packet type, nesting deeper than the decoder's recursion)
and for an event whose name is not text. Nothing changes in either case, but
a curious student should not be able to fill the teacher's log: the packet is
dropped and one line says so.
"""
from __future__ import annotations

import json
import logging

import orjson
from engineio import json as engineio_json

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


class PacketJson:
    """The JSON of Socket.IO's packets (``json=`` of the server): written with orjson,
    read with Engine.IO's own module.

    Every accepted change writes each audience its state (a few kilobytes of nested
    lists and dicts): the standard encoder took some 40 µs a message, orjson a sixth
    of that, and writes accented text as UTF-8 instead of ``\\u00f1`` escapes. A text
    orjson refuses (a lone surrogate, which no page sends and the handlers refuse) is
    written by the standard module, as before. Reading stays with Engine.IO's module:
    it refuses integers of hundreds of digits, and lets a lone surrogate reach the
    handlers, which answer ``format`` instead of dropping the packet unread.
    """

    @staticmethod
    def dumps(value, **_options) -> str:
        """``value`` as compact JSON text (python-socketio's separators are orjson's)."""
        try:
            return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
        except TypeError:          # orjson.JSONEncodeError: what json may still write
            return json.dumps(value, separators=(",", ":"))

    loads = staticmethod(engineio_json.loads)
