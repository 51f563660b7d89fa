"""The timer watcher: locks written answers when the deliberation time runs out (R-U5).

Each server process runs one watcher. Deadlines are in the database, so a
timer survives a restart, and when several processes watch the same game the
store's lock lets exactly one of them append the ``time_up`` action.
"""
from __future__ import annotations

import logging
import time

from sqlalchemy import select

from ..store.models import GameRow

log = logging.getLogger(__name__)
POLL_SECONDS = 0.2
#: How often the database is asked even when this process knows of no timer due:
#: a timer started through another process that died meanwhile is still ended.
SAFETY_SECONDS = 1.0


def due_games(database, now: float) -> list[int]:
    """Games whose running timer has passed its deadline (one plain query, asked every
    SAFETY_SECONDS by every process: no ORM session, no transaction around it)."""
    with database.read() as connection:
        return list(connection.scalars(select(GameRow.id).where(
            GameRow.timer_deadline.is_not(None), GameRow.timer_deadline <= now)))


def watch(live, socketio) -> None:
    """Run forever: end the timers that ran out, within POLL_SECONDS of their deadline.

    The database is asked when a deadline this process knows of (a timer it
    started, or saw in a game it loaded) has passed, and every SAFETY_SECONDS
    anyway; not five times a second on a laptop where no timer runs.
    """
    store = live.store
    asked = 0.0
    while True:
        now = time.time()
        known = store.earliest_deadline()
        if (known is not None and known <= now) or now - asked >= SAFETY_SECONDS:
            asked = now
            try:
                for game_id in due_games(store.database, now):
                    live.time_up(game_id)
                store.forget_deadlines_until(now)
            except Exception:     # a database hiccup must not stop the clock for good
                log.exception("timer watcher")
        socketio.sleep(POLL_SECONDS)
