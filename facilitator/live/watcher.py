"""The clock watcher: a game whose deadline passed acts by itself (its ``due`` action).

Each server process runs one watcher. Deadlines are in the database, so a clock
survives a restart, and when several processes watch the same game the store's
lock lets exactly one of them act.
"""
from __future__ import annotations

import logging

from ..store.kept import KEPT

log = logging.getLogger(__name__)
POLL_SECONDS = 0.2
#: How often the database is asked even when this process knows of no deadline due:
#: a clock started through another process that died meanwhile is still ended.
SAFETY_SECONDS = KEPT["clock deadlines"].seconds
#: How often a process with a message queue looks for games whose committed state no
#: broadcast carried (the process that committed died first: LiveGames.catch_up).
CATCH_UP_SECONDS = 2.0


def watch(live, socketio) -> None:
    """Run forever: let the games whose deadline passed act, within POLL_SECONDS of it.

    The database is asked when a deadline this process knows of (a clock it
    started, or saw in a game it loaded) has passed, and every SAFETY_SECONDS
    anyway; not five times a second on a laptop where no clock runs.
    """
    store = live.store
    asked = caught_up = 0.0
    while True:
        now = live.clock()
        if now - caught_up >= CATCH_UP_SECONDS:
            caught_up = now
            try:
                live.catch_up()
            except Exception:     # a database hiccup must not stop the watcher for good
                log.exception("catch-up")
        known = store.earliest_deadline()
        if (known is not None and known <= now) or now - asked >= SAFETY_SECONDS:
            asked = now
            try:
                act_on_due(live, now, socketio.start_background_task)
            except Exception:     # a database hiccup must not stop the clock for good
                log.exception("timer watcher")
        socketio.sleep(POLL_SECONDS)


#: The games whose clock is searching now (a computer player thinking), in this process.
_searching: set[int] = set()


def act_on_due(live, now: float, spawn=None) -> None:
    """Let every game whose deadline is ``now`` or before act (its ``due`` action); several
    callers at once act once, under the store's lock. ``spawn(function, *args)`` runs a
    task beside this one: a game whose clock searches (a computer player) acts in one, so
    the other games' clocks (another room's timer) never wait for its search."""
    store = live.store
    for game_id in store.due_games(now):
        if game_id in _searching:
            continue          # its search is under way: not loaded again every poll
        if spawn is not None and live.clock_searches(game_id):
            _searching.add(game_id)
            spawn(_search_and_act, live, game_id)
            continue
        live.clock_due(game_id)
    store.forget_deadlines_until(now)


def _search_and_act(live, game_id: int) -> None:
    try:
        live.clock_due(game_id)
    except Exception:     # a failed search must not stop that game's clock for good
        log.exception("timer watcher: game %s", game_id)
    finally:
        _searching.discard(game_id)
