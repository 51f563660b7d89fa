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


def due_games(database, now: float) -> list[int]:
    """Games whose running timer has passed its deadline."""
    with database.session() as session:
        return list(session.scalars(select(GameRow.id).where(
            GameRow.timer_deadline.is_not(None), GameRow.timer_deadline <= now)))


def watch(live, socketio) -> None:
    """Run forever: every POLL_SECONDS, end the timers that ran out."""
    while True:
        try:
            for game_id in due_games(live.store.database, time.time()):
                live.time_up(game_id)
        except Exception:     # a database hiccup must not stop the clock for good
            log.exception("timer watcher")
        socketio.sleep(POLL_SECONDS)
