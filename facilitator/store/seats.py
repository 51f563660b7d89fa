"""Who holds a seat: one device per personal seat, a table's screens the teacher
admitted, and a second device's request to take a seat over (docs/protocol.md,
"Seats and devices").

A game whose seats are personal (a hand of cards, a colour: it has a table's screen)
keeps in its row the device holding each seat (``claims``), the table screens the
teacher admitted (``screens``) and the requests waiting for the teacher (``asks``).
Every write goes through ``GameStore.transact``, so two devices asking at once, in two
processes, get one winner; each answer here is the one of the run that committed (the
locked path may run a change again).
"""
from __future__ import annotations

import time

from ..games import Refusal
from .games import Change, GameStore

#: At most this many shared screens per table (a tablet, a second one, the teacher's
#: laptop on the table): more is someone playing with the code.
MAX_SCREENS = 4

#: Claim answers: taken now or already this device's; asked for (another device holds
#: it: the teacher decides); the device holds another seat of this game; the device was
#: removed; no such seat (or the computer's).
OK, ASKED, ELSEWHERE, REMOVED, UNKNOWN = "ok", "asked", "elsewhere", "removed", "unknown"


def seat_list(match) -> list[dict]:
    """The seats of ``match`` a person may hold: ``{"seat", "name", "as"}`` (the
    computer's seat is never offered)."""
    seats = match.seats()
    return [seat for seat in seats if not seat.get("bot")]


def personal(match) -> bool:
    """Whether ``match``'s seats are each one person's (it lists them: a hand, a colour)."""
    return match.personal_seats


class Seats:
    """The seats of the games of one store (see the module)."""

    def __init__(self, store: GameStore, clock=time.time):
        self.store = store
        self.clock = clock

    def _run(self, game_id: int, decide) -> object:
        """Run ``decide(change)`` in the game's transaction; its answer from the run that
        committed (an optimistic run may be done again under the row's lock)."""
        answers = []

        def change(c: Change) -> None:
            answers.append(decide(c))
            if not c.extras:
                c.unchanged = True
        try:
            self.store.transact(game_id, "gm", change)
        except Refusal:
            return UNKNOWN
        return answers[-1] if answers else UNKNOWN

    def claim(self, game_id: int, seat: int, device: str, holder: str | None = None,
              again: bool = False) -> str:
        """Device ``device`` takes seat ``seat`` of game ``game_id``, or asks for it when
        another device holds it (the teacher answers, ``answer``). ``holder``: the device
        the hall gave this player to, when the game is a hall's (only it takes a free
        seat; another device asks). The answer: ``ok``, ``asked``, ``elsewhere``,
        ``removed`` or ``unknown``."""
        def decide(c: Change) -> str:
            if seat not in {s["seat"] for s in seat_list(c.match)}:
                return UNKNOWN
            if device in (c.row.removed_devices or ()):
                return REMOVED
            claims = dict(c.row.claims or {})
            held = claims.get(str(seat))
            if held == device:
                return OK
            if any(d == device for s, d in claims.items() if s != str(seat)):
                return ELSEWHERE
            if held is None and holder in (None, device):
                c.set(claims={**claims, str(seat): device})
                return OK
            asks = dict(c.row.asks or {})
            asked = asks.get(str(seat)) or {}
            if asked.get("device") != device or (asked.get("refused") and again):
                asks[str(seat)] = {"device": device, "at": int(self.clock())}
                c.set(asks=asks)
            return ASKED
        return self._run(game_id, decide)

    def asked(self, game_id: int, seat: int, device: str) -> str:
        """Where ``device``'s request for seat ``seat`` stands: ``waiting``, ``refused``,
        ``ok`` (accepted: the seat is its own) or ``none`` (no such request)."""
        found = self.store.find_public_id(self.store.public_id(game_id) or "")
        if found is None:
            return "none"
        if (found.claims or {}).get(str(seat)) == device:
            return "ok"
        ask = (found.asks or {}).get(str(seat)) or {}
        if ask.get("device") != device:
            return "none"
        return "refused" if ask.get("refused") else "waiting"

    def answer(self, game_id: int, seat: int, device: str, accept: bool) -> str | None:
        """The teacher answers the request of ``device`` for seat ``seat``: accepted, the
        seat is its own and the device that held it is removed (its token refused, its
        connections closed by the caller); refused, the request says so to the device.
        The device that held the seat when accepted (None if none, or if refused);
        a Refusal when there is no such request."""
        def decide(c: Change):
            asks = dict(c.row.asks or {})
            ask = asks.get(str(seat)) or {}
            if ask.get("device") != device or ask.get("refused"):
                return Refusal("seat", "this device no longer asks for that seat")
            if not accept:
                asks[str(seat)] = {**ask, "refused": True}
                c.set(asks=asks)
                return None
            claims = dict(c.row.claims or {})
            old = claims.get(str(seat))
            claims = {s: d for s, d in claims.items() if d != device}
            claims[str(seat)] = device
            asks.pop(str(seat))
            removed = list(c.row.removed_devices or [])
            if old is not None and old != device and old not in removed:
                removed.append(old)
            c.set(claims=claims, asks=asks, removed_devices=removed)
            return old
        result = self._run(game_id, decide)
        if isinstance(result, Refusal):
            raise result
        if result == UNKNOWN:
            raise Refusal("not_found", f"there is no game {game_id}")
        return result

    def admit_screen(self, game_id: int, device: str) -> str:
        """Device ``device`` becomes one of the table's screens (it joined with the screen
        code the teacher's console shows): ``ok``, ``removed`` or ``unknown`` (too many
        screens already, or no such game)."""
        def decide(c: Change) -> str:
            if device in (c.row.removed_devices or ()):
                return REMOVED
            screens = list(c.row.screens or [])
            if device in screens:
                return OK
            if len(screens) >= MAX_SCREENS:
                return UNKNOWN
            c.set(screens=[*screens, device])
            return OK
        return self._run(game_id, decide)

    def drop_screens(self, game_id: int) -> list[str]:
        """Every admitted table screen of ``game_id`` stops being one (the screen code was
        renewed): the devices, for the caller to close their connections."""
        def decide(c: Change) -> list[str]:
            screens = list(c.row.screens or [])
            if screens:
                removed = list(c.row.removed_devices or [])
                c.set(screens=[], removed_devices=removed + [d for d in screens
                                                           if d not in removed])
            return screens
        result = self._run(game_id, decide)
        return result if isinstance(result, list) else []
