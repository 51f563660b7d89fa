"""The JSON every Socket.IO packet is written and read with (``PacketJson``).

(Dropping the packets no client library sends is a change to python-socketio's
private behaviour: it is in facilitator/patches.py.)
"""
from __future__ import annotations

import json

import orjson
from engineio import json as engineio_json

class PacketJson:
    """The JSON of Socket.IO's packets (``json=`` of the server): written with orjson,
    read with Engine.IO's own module.

    Every accepted change writes each audience its state (a few kilobytes of nested
    lists and dicts): orjson writes it several times faster than the standard
    encoder (docs/performance.md), and writes accented text as UTF-8 instead of ``\\u00f1`` escapes. A text
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
