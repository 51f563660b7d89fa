"""Teams join with their code and play on their own device."""
from __future__ import annotations

from flask import (Blueprint, current_app, make_response, redirect, render_template, request,
                   url_for)

from ..extensions import store
from ..live.audience import issue_device_token, read_device_token
from . import use_game_language
from .ratelimit import join_attempts, limiter

bp = Blueprint("team", __name__)
TOKEN_COOKIE = "team_token"


def _too_many_attempts(_limit):
    return make_response(render_template("team/join.html", error="join.too_many"), 429)


def _join_limit(method: str):
    # One allowance (scope "join") for typing a code and scanning one; only unknown
    # codes (404) use it up.
    return limiter.shared_limit(join_attempts, scope="join", methods=[method],
                                deduct_when=lambda response: response.status_code == 404,
                                on_breach=_too_many_attempts)


def _join(code: str):
    """Make this device a member of the team ``code`` belongs to, or say what went wrong."""
    found = store.find_join_code(code)
    public_id = store.public_id(found.game_id) if found is not None else None
    if public_id is None:      # the mistyped code stays in the field, the error beside it
        return render_template("team/join.html", error="join.unknown", code=str(code)[:20]), 404
    token = issue_device_token(current_app.config["SECRET_KEY"], public_id, found.team)
    response = make_response(redirect(url_for("team.play")))
    response.set_cookie(TOKEN_COOKIE, token, max_age=30 * 86400, httponly=True, samesite="Lax")
    return response


@bp.route("/join", methods=["GET", "POST"])
@_join_limit("POST")
def join():
    """The form where a team types its code."""
    if request.method == "POST":
        return _join(request.form.get("code", ""))
    return render_template("team/join.html", error=None)


@bp.route("/j/<code>")
@_join_limit("GET")
def join_code(code: str):
    """The address a QR code encodes: joins and goes to the team page."""
    return _join(code)


@bp.route("/team")
def play():
    """The team's page; a reload keeps the device in its team (the token is a cookie)."""
    from ..store.games import BROKEN_ERRORS
    token = request.cookies.get(TOKEN_COOKIE)
    try:
        audience = read_device_token(current_app.config["SECRET_KEY"], token, store,
                                     current_app.config["DEVICE_GRACE_HOURS"]) if token else None
        why = store.broken(audience.game_id) if audience else None
        row = store.row(audience.game_id) if audience and why is None else None
    except BROKEN_ERRORS as error:       # the game's row is damaged past reading its token
        audience, why, row = None, f"{type(error).__name__}: {error}"[:300], None
    if why is not None:
        from .errors import broken_game_page
        return broken_game_page(audience.game_id if audience else 0, why, False)
    if row is None or not 1 <= audience.team <= len(row.settings["teams"]):
        # A game deleted, a device removed, a game long over, a forged token: join again.
        response = redirect(url_for("team.join"))
        if token:
            response.delete_cookie(TOKEN_COOKIE, httponly=True, samesite="Lax")
        return response
    use_game_language(row.settings)          # the game's language unless this device chose one
    name = row.settings["teams"][audience.team - 1]["name"]
    roster = row.settings.get("roster")
    members = (list(roster[audience.team - 1]) if isinstance(roster, list)
               and len(roster) >= audience.team and isinstance(roster[audience.team - 1], list) else [])
    return render_template("team/play.html", token=token, game_id=row.id,
                           team={"number": audience.team, "name": name, "members": members})
