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
    """Each team of a game with its join code, join address and QR image address."""
    names = [t["name"] for t in row.settings["teams"]]
    return [{"number": jc.team, "name": names[jc.team - 1], **_code_links(jc.code)}
            for jc in row.join_codes if jc.team >= 1]


def door_link(row) -> dict | None:
    """The game's own code (seat 0: the one the whole room opens; each device picks its
    name, or its team, there) with its join address and QR image address; None for a
    game made before it had one."""
    code = next((jc.code for jc in row.join_codes if jc.team == 0), None)
    return {"number": 0, **_code_links(code)} if code is not None else None


def _code_links(code: str) -> dict:
    return {"join_code": pretty_code(code), "join_url": join_url(code),
            "qr_url": url_for("assets.qr", code=code)}
