"""Addresses shown to people: join links and QR codes must work from a phone."""
from __future__ import annotations

from flask import current_app, request, url_for


def public_base() -> str:
    """The address phones reach this server at (the LAN address ``serve`` found), else this request's."""
    return (current_app.config.get("PUBLIC_URL") or request.host_url).rstrip("/")


def listens_local_only() -> bool:
    """Whether the server listens on this computer's loopback only (``serve`` says so in
    ``LISTENS_LOCAL_ONLY``): its join links and QR codes then open on no phone, and every
    page that shows them says so (templates/_local_only.html)."""
    return bool(current_app.config.get("LISTENS_LOCAL_ONLY"))


def restart_command() -> str:
    """The command that starts this server listening on the room's network."""
    return f"{current_app.config['START_COMMAND']} --host 0.0.0.0"


def join_url(code: str) -> str:
    """The address a team's QR code encodes."""
    return public_base() + url_for("team.join_code", code=code)


def pretty_code(code: str) -> str:
    """ABCDEFGH → ABCD-EFGH, easier to read off a projector."""
    return f"{code[:4]}-{code[4:]}" if len(code) == 8 else code


def team_links(row) -> list[dict]:
    """Each seat of a game (a team, a player, a colour) with its name, join code, join
    address and QR image address; the computer's seat is never listed."""
    names = seat_names(row)
    return [{"number": jc.team, "name": names[jc.team], **_code_links(jc.code)}
            for jc in row.join_codes if jc.team in names]


def seat_names(row) -> dict[int, str]:
    """The name of each seat a person may hold: a game of teams names them in its
    settings; a game of personal seats lists them (``seats``)."""
    from ..extensions import store
    from ..store.seats import seat_list
    teams = row.settings.get("teams") if isinstance(row.settings, dict) else None
    if isinstance(teams, list):
        return {n: str(t.get("name", n)) if isinstance(t, dict) else str(n)
                for n, t in enumerate(teams, start=1)}
    match, _row = store.current(row.id)
    return {seat["seat"]: str(seat["name"]) for seat in seat_list(match)}


def door_link(row) -> dict | None:
    """The game's own code (seat 0: the one the whole room opens; each device picks its
    name, or its team, there) with its join address and QR image address; None for a
    game made before it had one."""
    code = next((jc.code for jc in row.join_codes if jc.team == 0), None)
    return {"number": 0, **_code_links(code)} if code is not None else None


def _code_links(code: str) -> dict:
    return {"join_code": pretty_code(code), "join_url": join_url(code),
            "qr_url": url_for("assets.qr", code=code)}
