"""Answers compressed with gzip for browsers that accept it: pages, scripts, styles, data.

A lecture hall's tablets load the team page at once through one access point,
often a poor one: compressed, its text travels in about a third of the bytes.
Files (scripts, styles, the npm libraries) are compressed once per version
(their ETag) and kept in memory; pages and data are compressed as they are
answered, which takes well under a millisecond for the largest page.
Socket.IO's own answers are left to Engine.IO (it compresses its polling
answers itself) and WebSocket frames are never compressed.
"""
from __future__ import annotations

import gzip
import threading

from flask import Flask, Response, request

#: What is worth compressing: text. Images other than SVG are compressed already.
COMPRESSIBLE = frozenset({"text/html", "text/css", "text/javascript", "application/javascript",
                          "application/json", "image/svg+xml", "text/csv", "text/plain"})
#: Smaller answers gain nothing that pays for the header and the work.
MIN_BYTES = 1024
LEVEL = 6


class _FileCache:
    """Compressed bodies of files, by path and ETag (a new version gets a new entry)."""

    def __init__(self, limit: int = 64):
        self._entries: dict[tuple[str, str], bytes] = {}
        self._limit = limit
        self._lock = threading.Lock()

    def get(self, key: tuple[str, str], body: bytes) -> bytes:
        with self._lock:
            found = self._entries.get(key)
        if found is None:
            found = gzip.compress(body, LEVEL, mtime=0)
            with self._lock:
                if len(self._entries) >= self._limit:
                    self._entries.pop(next(iter(self._entries)))
                self._entries[key] = found
        return found


def accepts_gzip(header: str) -> bool:
    """Whether an ``Accept-Encoding`` header accepts gzip (``gzip;q=0`` refuses it).

    >>> accepts_gzip("gzip, deflate, br"), accepts_gzip("br;q=1, gzip;q=0"), accepts_gzip("")
    (True, False, False)
    """
    for part in header.lower().split(","):
        name, _, params = part.strip().partition(";")
        if name.strip() in ("gzip", "*"):
            return params.replace(" ", "") not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
    return False


def init_app(app: Flask) -> None:
    """Compress the app's answers (after every other ``after_request`` step)."""
    files = _FileCache()

    @app.after_request
    def compress(response: Response) -> Response:
        if (response.status_code != 200 or response.mimetype not in COMPRESSIBLE
                or "Content-Encoding" in response.headers
                or (response.is_streamed and not response.direct_passthrough)):
            return response
        response.vary.add("Accept-Encoding")
        if not accepts_gzip(request.headers.get("Accept-Encoding", "")):
            return response
        etag, _weak = response.get_etag()
        response.direct_passthrough = False         # a file: read it to compress it
        source = response.response
        body = response.get_data()
        if hasattr(source, "close"):
            source.close()                          # read to the end: let the file go now
        if len(body) < MIN_BYTES:
            return response
        if etag:
            compressed = files.get((request.path, etag), body)
            # The same content in another coding: a weak validator (RFC 9110, 8.8.1).
            response.set_etag(etag, weak=True)
        else:
            compressed = gzip.compress(body, LEVEL, mtime=0)
        response.set_data(compressed)
        response.headers["Content-Encoding"] = "gzip"
        return response
