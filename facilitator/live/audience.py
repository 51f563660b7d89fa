"""Who is on the other end of a connection: the GM, a seat's device (a partida's team),
a table's shared screen, or a projector."""
from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from itsdangerous import BadSignature, URLSafeSerializer

from ..games.protocol import SEAT, TABLE as TABLE_ROLE, WATCHER, Role

GM, TEAM, TABLE, PROJECTOR = "gm", "team", "table", "projector"


@dataclass(frozen=True, slots=True)
class Audience:
    """The role of a connection, the game it belongs to and, for a device, its team and
    its device id (from the device token: the id the GM removes a device by)."""

    role: str
    game_id: int
    team: int | None = None
    device: str | None = None

    @property
    def sent_by(self) -> str:
        """How the action log names the sender: ``gm`` or ``team:3``."""
        return f"team:{self.team}" if self.role == TEAM else self.role


@dataclass(frozen=True, slots=True)
class DeviceToken:
    """What a device token says: the game (its public id, never its integer id), the
    team, the device's id and when it was issued (seconds since the epoch)."""

    public_id: str
    team: int
    device: str
    issued: int


def _serializer(secret_key: str) -> URLSafeSerializer:
    return URLSafeSerializer(secret_key, salt="facilitator-team-device")


def new_device_id() -> str:
    """A random id for one device (what the GM console lists and removes)."""
    return secrets.token_urlsafe(9)


def issue_device_token(secret_key: str, public_id: str, team: int, device: str | None = None,
                       issued: float | None = None) -> str:
    """A token that makes one device a member of one team of one game (named by its
    ``public_id``, which no other game ever has)."""
    return _serializer(secret_key).dumps({
        "g": public_id, "t": team, "d": device or new_device_id(),
        "i": int(time.time() if issued is None else issued)})


def _signed_fields(serializer: URLSafeSerializer, token: object, keys: str) -> tuple | None:
    """The values of ``keys`` (one letter each) in the signed token ``token``, when it is
    genuine and holds: an id (text of 1 to 64 characters), a whole number, a device id and
    when it was issued (a whole number); else None."""
    if not isinstance(token, str) or len(token) > 300:
        return None
    try:
        data = serializer.loads(token)
    except BadSignature:
        return None
    if not isinstance(data, dict):
        return None
    public_id, number, device, issued = (data.get(key) for key in keys)
    if (not isinstance(public_id, str) or not 0 < len(public_id) <= 64
            or not isinstance(number, int) or isinstance(number, bool)
            or not isinstance(device, str) or not 0 < len(device) <= 64
            or not isinstance(issued, int) or isinstance(issued, bool)):
        return None
    return public_id, number, device, issued


def decode_device_token(secret_key: str, token: object) -> DeviceToken | None:
    """What a device token says, or None if it is forged, malformed or of the old form
    (an integer game id: such tokens are refused, join again)."""
    found = _signed_fields(_serializer(secret_key), token, "gtdi")
    return DeviceToken(*found) if found is not None else None


def read_device_token(secret_key: str, token: object, games, grace_hours: float,
                      now: datetime | None = None) -> Audience | None:
    """The team audience a device token names, or None when the device must join again.

    ``games`` finds a game by its public id (``GameStore.find_public_id``). Refused:
    a forged or malformed token, a game that does not exist (deleted: public ids are
    never reused), a device the GM removed, and any token of a game that ended more
    than ``grace_hours`` ago (its results stay visible that long).
    """
    found = decode_device_token(secret_key, token)
    if found is None:
        return None
    game = games.find_public_id(found.public_id)
    if game is None or not device_admitted(found, game, grace_hours, now):
        return None
    return Audience(TEAM, game.id, found.team, found.device)


def device_admitted(found: DeviceToken, game, grace_hours: float,
                    now: datetime | None = None) -> bool:
    """Whether the device of token ``found`` may still be in ``game`` (its row, or what
    ``GameStore.find_public_id`` gives): not removed by the GM, and the game not over
    for longer than ``grace_hours``."""
    if found.device in (game.removed_devices or ()):
        return False
    # A table's screen: one the teacher admitted (its screen code), and only while it is.
    if found.team == 0 and found.device not in (getattr(game, "screens", None) or ()):
        return False
    # A personal seat (a hand of cards) another device holds: that device's, until the
    # GM removes it.
    held = (getattr(game, "claims", None) or {}).get(str(found.team))
    if found.team and held is not None and held != found.device:
        return False
    if game.ended_at is not None:
        now = now or datetime.now(timezone.utc).replace(tzinfo=None)    # stored naive, UTC
        if game.ended_at + timedelta(hours=grace_hours) < now:
            return False
    return True


@dataclass(frozen=True, slots=True)
class HallToken:
    """What a hall token says: the hall (its public id), the player this device picked
    (-1: none yet), the device's id and when it was issued."""

    public_id: str
    player: int
    device: str
    issued: int


def _hall_serializer(secret_key: str) -> URLSafeSerializer:
    return URLSafeSerializer(secret_key, salt="facilitator-hall-device")


def issue_hall_token(secret_key: str, public_id: str, player: int,
                     device: str | None = None) -> str:
    """A token that names one device at a hall's door: the player it picked (or -1)."""
    return _hall_serializer(secret_key).dumps({
        "h": public_id, "p": player, "d": device or new_device_id(), "i": int(time.time())})


def decode_hall_token(secret_key: str, token: object) -> HallToken | None:
    """What a hall token says, or None if it is forged or malformed."""
    found = _signed_fields(_hall_serializer(secret_key), token, "hpdi")
    return HallToken(*found) if found is not None and -1 <= found[1] < 10_000 else None


def role_of(audience: Audience) -> Role:
    """The game's role of a connection: the GM, a seat's device, a table's shared
    screen, or a watcher (a projector)."""
    if audience.role == GM:
        return Role.gm()
    if audience.role == TEAM:
        return Role.of_seat(audience.team)
    if audience.role == TABLE:
        return Role.table()
    return Role.watcher()


def audience_of(role: Role, game_id: int) -> Audience:
    """The connections of ``game_id`` that a role's view goes to."""
    if role.kind == SEAT:
        return Audience(TEAM, game_id, role.seat)
    if role.kind == TABLE_ROLE:
        return Audience(TABLE, game_id)
    if role.kind == WATCHER:
        return Audience(PROJECTOR, game_id)
    return Audience(GM, game_id)
