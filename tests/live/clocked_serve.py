"""``facilitator serve`` with a clock the live test moves (``Server(clocked=True)``).

Run as ``python tests/live/clocked_serve.py PORT``: the same server as the command
(gevent, the watcher, the same app), but every time source of the games' clocks and
of a game's end reads one ``OffsetClock``, real time plus an offset. The launcher adds
one route, ``POST /_test/clock`` with ``{"advance": seconds}``: the offset grows and
whatever deadline has passed by the new now acts before the answer, as the watcher
would have done had that time really gone by. The app itself never registers it.
"""
from __future__ import annotations

import gc
import sys

# As ``facilitator.cli`` does for ``serve``: gevent patches the standard library first.
gc.disable()
from gevent import monkey  # noqa: E402

monkey.patch_all()

import threading  # noqa: E402
import time  # noqa: E402

CLOCK_ROUTE = "/_test/clock"


class OffsetClock:
    """Seconds since the epoch, ahead of the real ones by what the test advanced."""

    def __init__(self) -> None:
        self.offset = 0.0
        self._lock = threading.Lock()

    def __call__(self) -> float:
        return time.time() + self.offset

    def advance(self, seconds: float) -> float:
        """Move the clock ``seconds`` ahead; returns the new offset."""
        with self._lock:
            self.offset += seconds
            return self.offset


def add_clock_route(clock: OffsetClock):
    """``prepare`` for ``serve``: the route the test moves ``clock`` with."""
    def prepare(app) -> None:
        from flask import jsonify, request

        from facilitator.live.watcher import act_on_due

        def move_clock():
            seconds = (request.get_json(silent=True) or {}).get("advance")
            if not isinstance(seconds, (int, float)) or isinstance(seconds, bool) \
                    or not 0 <= seconds <= 10 ** 7:
                return jsonify(ok=False, error="advance: seconds, not negative"), 400
            offset = clock.advance(seconds)
            # Woken now, not at the watcher's next poll: a passed deadline has acted
            # (and its screens were sent) by the time the test reads the answer.
            act_on_due(app.extensions["facilitator_live"], clock())
            return jsonify(ok=True, offset=offset)

        app.add_url_rule(CLOCK_ROUTE, "test_clock", move_clock, methods=["POST"])
    return prepare


def main(port: int) -> None:
    """Serve on 127.0.0.1:``port`` with an ``OffsetClock``."""
    from facilitator.serve import serve
    clock = OffsetClock()
    serve("127.0.0.1", port, clock=clock, prepare=add_clock_route(clock))


if __name__ == "__main__":
    main(int(sys.argv[1]))
