"""A small in-memory rate limit, for join-code attempts and console logins."""
from __future__ import annotations

import threading
import time
from collections import defaultdict, deque


class RateLimit:
    """At most ``limit`` attempts per key in any ``window`` seconds."""

    def __init__(self, limit: int, window: float = 60.0):
        self.limit, self.window = limit, window
        self._hits: dict[str, deque] = defaultdict(deque)
        self._lock = threading.Lock()

    def allow(self, key: str) -> bool:
        """Count an attempt by ``key``; False when it is over the limit."""
        now = time.monotonic()
        with self._lock:
            hits = self._hits[key]
            while hits and hits[0] <= now - self.window:
                hits.popleft()
            if len(hits) >= self.limit:
                return False
            hits.append(now)
            return True


def limiter(name: str, limit: int) -> RateLimit:
    """The app's rate limit called ``name`` (one per app, so each app counts its own)."""
    from flask import current_app
    limits = current_app.extensions.setdefault("facilitator_rate_limits", {})
    if name not in limits:
        limits[name] = RateLimit(limit)
    return limits[name]
