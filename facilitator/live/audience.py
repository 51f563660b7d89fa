"""Who is on the other end of a connection: the GM, a team's device, or a projector."""
from __future__ import annotations

import secrets
from dataclasses import dataclass

from itsdangerous import BadSignature, URLSafeSerializer

GM, TEAM, PROJECTOR = "gm", "team", "projector"


@dataclass(frozen=True, slots=True)
class Audience:
    """The role of a connection, the game it belongs to and, for a device, its team."""

    role: str
    game_id: int
    team: int | None = None

    @property
    def sent_by(self) -> str:
        """How the action log names the sender: ``gm`` or ``team:3``."""
        return f"team:{self.team}" if self.role == TEAM else self.role


def _serializer(secret_key: str) -> URLSafeSerializer:
    return URLSafeSerializer(secret_key, salt="facilitator-team-device")


def issue_device_token(secret_key: str, game_id: int, team: int) -> str:
    """A token that makes one device a member of one team of one game."""
    return _serializer(secret_key).dumps({"g": game_id, "t": team,
                                          "d": secrets.token_urlsafe(6)})


def read_device_token(secret_key: str, token: object) -> Audience | None:
    """The team audience a device token names, or None if it is forged or malformed."""
    if not isinstance(token, str) or len(token) > 300:
        return None
    try:
        data = _serializer(secret_key).loads(token)
    except BadSignature:
        return None
    if (not isinstance(data, dict) or not isinstance(data.get("g"), int)
            or not isinstance(data.get("t"), int)):
        return None
    return Audience(TEAM, data["g"], data["t"])
