"""Room names, in one place: who receives what (docs/protocol.md, "Rooms")."""
from __future__ import annotations


def gm_room(game_id: int) -> str:
    """The GM consoles of a game: they receive the GM view."""
    return f"game:{game_id}:gm"


def team_room(game_id: int, team: int) -> str:
    """The devices of one team: they receive that team's view."""
    return f"game:{game_id}:team:{team}"


def table_room(game_id: int) -> str:
    """The shared screens of a game's table: they receive the table's view."""
    return f"game:{game_id}:table"


def public_room(game_id: int) -> str:
    """The projectors of a game: they receive the public view."""
    return f"game:{game_id}:public"


def game_of_room(room) -> int | None:
    """The game whose room ``room`` is (any of its rooms), or None for another room or
    a single connection."""
    if not isinstance(room, str) or not room.startswith("game:"):
        return None
    number = room[5:].partition(":")[0]
    return int(number) if number.isdigit() else None


def hall_room(hall_id: int, gm: bool) -> str:
    """The room of a hall's screens: the teacher's hall views, or its projectors."""
    return f"hall:{hall_id}:{'gm' if gm else 'public'}"


def room_of(audience) -> str:
    """The room of one audience."""
    if audience.role in ("hall_gm", "hall_watcher"):
        return hall_room(audience.game_id, audience.role == "hall_gm")
    if audience.role == "gm":
        return gm_room(audience.game_id)
    if audience.role == "team":
        return team_room(audience.game_id, audience.team)
    if audience.role == "table":
        return table_room(audience.game_id)
    return public_room(audience.game_id)
