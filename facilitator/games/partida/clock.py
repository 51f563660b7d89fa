"""The deliberation clock of the live game (R-U5, R-U8, R-G2): state, not a thread.

A timer is a small dict stored with the game: ``state`` (idle, running,
paused), ``seconds`` (the time given), ``deadline`` (epoch seconds, while
running), ``remaining`` (seconds, while paused) and ``turn`` (the turn it
belongs to). Every screen computes the same time left from the deadline and
the server's clock. Functions here are pure: they take ``now`` and return a
new dict.
"""
from __future__ import annotations

from .game import Game
from .resolution import DELIBERATE, next_step

IDLE, RUNNING, PAUSED, EXPIRED = "idle", "running", "paused", "expired"
OPS = ("start", "pause", "resume", "extend", "restart")


def deliberating(game: Game) -> bool:
    """Whether the turn is in step 6, where a timer runs."""
    return not game.state.over and next_step(game.state.turn).name == DELIBERATE


def round_seconds(game: Game) -> int:
    """The deliberation time of the current round (R-U8)."""
    return game.settings.seconds_for(game.state.turn.round)


def current(timer: dict, game: Game) -> dict:
    """The stored timer if it belongs to this deliberation, else a fresh idle one."""
    if deliberating(game) and timer and timer.get("turn") == game.state.turn.number:
        return timer
    return {"state": IDLE, "seconds": round_seconds(game), "turn": game.state.turn.number}


def public(timer: dict, game: Game, now: float) -> dict:
    """What screens show: state, seconds, milliseconds left and the deadline (epoch ms)."""
    timer = current(timer, game)
    state, seconds = timer["state"], timer["seconds"]
    if state == RUNNING:
        left = max(0.0, timer["deadline"] - now)
        return {"state": RUNNING if left > 0 else EXPIRED, "seconds": seconds,
                "remaining_ms": int(left * 1000), "deadline": int(timer["deadline"] * 1000)}
    if deliberating(game) and game.state.turn.locked:
        return {"state": EXPIRED, "seconds": seconds, "remaining_ms": 0, "deadline": None}
    if state == PAUSED:
        return {"state": PAUSED, "seconds": seconds,
                "remaining_ms": int(timer["remaining"] * 1000), "deadline": None}
    return {"state": IDLE, "seconds": seconds, "remaining_ms": seconds * 1000, "deadline": None}


def operate(timer: dict, game: Game, op: str, now: float, seconds: int = 30) -> tuple[dict, bool]:
    """Apply a GM timer operation; returns the new timer and whether the writing must reopen.

    Reopening (the engine's ``more_time``) is needed when the time had run out
    and the GM starts, extends or restarts it.
    """
    timer = dict(current(timer, game))
    locked = game.state.turn.locked
    state = timer["state"]
    if op == "pause" and state == RUNNING:
        timer.update(state=PAUSED, remaining=max(0.0, timer["deadline"] - now), deadline=None)
    elif op == "resume" and state == PAUSED:
        timer.update(state=RUNNING, deadline=now + timer.get("remaining", 0.0), remaining=None)
    elif op == "start" and state in (IDLE, PAUSED) and not locked:
        left = timer.get("remaining") if state == PAUSED else timer["seconds"]
        timer.update(state=RUNNING, deadline=now + left, remaining=None)
    elif op == "extend":
        if locked or (state == RUNNING and timer["deadline"] <= now):
            timer.update(state=RUNNING, deadline=now + seconds, remaining=None,
                         seconds=timer["seconds"] + seconds)
        elif state == RUNNING:
            timer.update(deadline=timer["deadline"] + seconds, seconds=timer["seconds"] + seconds)
        elif state == PAUSED:
            timer.update(remaining=timer["remaining"] + seconds, seconds=timer["seconds"] + seconds)
        else:
            timer.update(seconds=timer["seconds"] + seconds)
    elif op in ("restart", "start"):
        total = round_seconds(game)
        timer.update(state=RUNNING, seconds=total, deadline=now + total, remaining=None)
    reopen = locked and timer["state"] == RUNNING
    return timer, reopen


def deadline_of(timer: dict) -> float | None:
    """The epoch second at which the timer runs out, if it is running."""
    return timer.get("deadline") if timer.get("state") == RUNNING else None


#: A timer put back by an undo with less time left than this is put back paused at 0:00:
#: running, it would run out at once and lock the writing again behind the GM's back.
NEARLY_UP = 0.5


def as_seen(timer: dict, game: Game, now: float) -> dict:
    """The timer as the screens show it now, in relative terms (time left, not a
    deadline): what is kept with each action, so an undo can put it back (R-G1)."""
    timer = current(timer, game)
    seen = {"state": timer["state"], "seconds": timer["seconds"], "turn": timer["turn"]}
    if timer["state"] == RUNNING:
        seen["remaining"] = max(0.0, timer["deadline"] - now)
    elif timer["state"] == PAUSED:
        seen["remaining"] = timer.get("remaining", 0.0)
    return seen


def put_back(seen: dict, now: float) -> dict:
    """The stored timer that shows again what ``seen`` (from :func:`as_seen`) showed:
    a running clock runs on from the time it had left, a paused one stays paused."""
    timer = {"state": seen["state"], "seconds": seen["seconds"], "turn": seen["turn"]}
    if seen["state"] == RUNNING and seen.get("remaining", 0.0) > NEARLY_UP:
        timer.update(deadline=now + seen["remaining"], remaining=None)
    elif seen["state"] in (RUNNING, PAUSED):
        timer.update(state=PAUSED, remaining=seen.get("remaining", 0.0), deadline=None)
    return timer
