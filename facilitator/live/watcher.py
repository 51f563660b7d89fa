"""The clock watcher: a game whose deadline passed acts by itself (its ``due`` action).

Each server process runs one watcher. Deadlines are in the database, so a clock
survives a restart, and when several processes watch the same game the store's
lock lets exactly one of them act.
"""
from __future__ import annotations

import logging

log = logging.getLogger(__name__)
POLL_SECONDS = 0.2
#: How often the database is asked even when this process knows of no deadline due:
#: a clock started through another process that died meanwhile is still ended.
SAFETY_SECONDS = 1.0


def watch(live, socketio) -> None:
    """Run forever: let the games whose deadline passed act, within POLL_SECONDS of it.

    The database is asked when a deadline this process knows of (a clock it
    started, or saw in a game it loaded) has passed, and every SAFETY_SECONDS
    anyway; not five times a second on a laptop where no clock runs.
    """
    store = live.store
    asked = 0.0
    while True:
        now = live.clock()
        known = store.earliest_deadline()
        if (known is not None and known <= now) or now - asked >= SAFETY_SECONDS:
            asked = now
            try:
                act_on_due(live, now)
            except Exception:     # a database hiccup must not stop the clock for good
                log.exception("timer watcher")
        socketio.sleep(POLL_SECONDS)


def act_on_due(live, now: float) -> None:
    """Let every game whose deadline is ``now`` or before act (its ``due`` action); several
    callers at once act once, under the store's lock."""
    store = live.store
    for game_id in store.due_games(now):
        live.clock_due(game_id)
    store.forget_deadlines_until(now)
