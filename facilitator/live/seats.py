"""The live side of who holds a seat: a change of hands closes the old device's
connections at once (in every process) and shows the teacher's screens who holds what.

The rules are the store's (``store/seats.py``): one device per personal seat, a second
device asks and the teacher answers, a table's screens only by the teacher's screen code.
"""
from __future__ import annotations

from ..games import Refusal
from ..store.games import SCREEN_CODE
from ..store.seats import Seats, personal, seat_list


class LiveSeats:
    """Seat changes of this process's games, told to their screens (see the module)."""

    def __init__(self, live):
        self.live = live
        self.seats = Seats(live.store, live.clock)

    def _shown(self, game_id: int) -> None:
        """Every screen of the game (and its hall's) sees who holds what now."""
        self.live.broadcast(game_id)

    def _cut_off(self, game_id: int, device: str) -> None:
        """Close every connection of ``device`` in ``game_id``, in every process."""
        self.live.presence.kick(game_id, device)
        self.live.close_here(game_id, device)

    def claim(self, game_id: int, seat: int, device: str, holder: str | None = None,
              again: bool = False) -> str:
        """``Seats.claim``; the teacher's screens are told of a new holder or request."""
        answer = self.seats.claim(game_id, seat, device, holder, again)
        if answer in ("ok", "asked"):
            self._shown(game_id)
        return answer

    def answer(self, game_id: int, seat: int, device: str, accept: bool) -> dict:
        """The teacher accepts or refuses ``device``'s request for ``seat``; accepted, the
        device that held it is cut off now. The acknowledgement."""
        old = self.seats.answer(game_id, seat, device, accept)
        if old is not None:
            self._cut_off(game_id, old)
        self._shown(game_id)
        return {"ok": True, "accepted": accept, "removed": old}

    def asked(self, game_id: int, seat: int, device: str) -> str:
        """``Seats.asked``: where ``device``'s request for ``seat`` stands."""
        return self.seats.asked(game_id, seat, device)

    def admit_screen(self, game_id: int, device: str) -> str:
        """``Seats.admit_screen``; the teacher's screens list the new screen."""
        answer = self.seats.admit_screen(game_id, device)
        if answer == "ok":
            self._shown(game_id)
        return answer

    def renew_code(self, game_id: int, seat: int) -> str | None:
        """A fresh code for ``seat`` (``SCREEN_CODE``: the table's screen code, whose
        screens are then cut off: a code that leaked admits no one any more)."""
        code = self.live.store.rotate_code(game_id, seat)
        if code is not None and seat == SCREEN_CODE:
            for device in self.seats.drop_screens(game_id):
                self._cut_off(game_id, device)
            self._shown(game_id)
        return code


def seating(match, row) -> dict:
    """What the teacher's screens show of a game's seats: each seat's holder, the table's
    screens and the requests waiting (JSON data)."""
    return {"holders": dict(getattr(row, "claims", None) or {}),
            "screens": list(getattr(row, "screens", None) or []),
            "asks": open_asks(match, getattr(row, "asks", None))}


def open_asks(match, asks: dict | None) -> list[dict]:
    """The requests of a game still waiting for the teacher, by seat: ``{"seat", "name",
    "device", "at"}`` (the seat's name from the game)."""
    names = {s["seat"]: s["name"] for s in seat_list(match)}
    return [{"seat": int(seat), "name": names.get(int(seat), seat), "device": ask["device"],
             "at": ask.get("at")}
            for seat, ask in sorted((asks or {}).items(), key=lambda item: int(item[0]))
            if isinstance(ask, dict) and not ask.get("refused")]


def refuse_table_for_held(match, action: object, claims: dict, game_kind) -> None:
    """A table's shared screen acts for a seat only while no device of its own holds it:
    a Refusal (the kind's ``seat_rule``) when ``action`` is one the table sends for a
    seat (the kind's ``table_for_seat``: a Hive pair's moves and agreements) and its legal
    entry names a seat a device holds. What the table decides as a table (who starts, a
    penalty) is the game's own rule."""
    acting_for_seat = game_kind.table_for_seat
    if not isinstance(action, dict) or not claims or action.get("do") not in acting_for_seat:
        return
    for entry in match.legal(None):
        if entry.do == action.get("do") and any(str(s) in claims for s in entry.seats):
            raise Refusal(game_kind.seat_rule,
                          "a player's own device holds that seat: only it acts for "
                          "that player, not the table's screen")


def refuse_device_not_seated(match, row, role: str, seat: int | None, device: str | None,
                             game_kind) -> None:
    """A device acts only while it still holds its place, checked in the action's own
    transaction: a device the teacher removed (``auth``), a seat's device whose seat is
    now another device's, or a table screen no longer admitted (the kind's
    ``seat_rule``). Its connection is closed when that happens; this closes the gap of a
    connection set up at that same moment, or whose close another process missed."""
    if device is None:
        return
    if device in (row.removed_devices or ()):
        raise Refusal("auth", "the teacher removed this device from the game")
    if not personal(match):
        return
    rule = game_kind.seat_rule
    if role == "team" and (row.claims or {}).get(str(seat)) != device:
        raise Refusal(rule, "another device holds this seat now: ask the teacher for it")
    if role == "table" and device not in (row.screens or ()):
        raise Refusal(rule, "this screen is no longer the table's: ask the teacher for its code")
