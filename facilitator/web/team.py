"""Teams join with their code and play on their own device."""
from __future__ import annotations

from flask import (Blueprint, abort, current_app, make_response, redirect, render_template,
                   request, send_from_directory, url_for)

from ..extensions import store
from ..games import kind, names
from ..live.audience import issue_device_token, read_device_token
from . import use_game_language
from .ratelimit import join_attempts, limiter

bp = Blueprint("team", __name__)
TOKEN_COOKIE = "team_token"
#: The seat of a device token that joined with a table's code and has not chosen yet.
CHOOSING = -1


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
    # A table's code (seat 0): the device chooses its seat, or to be the table's screen.
    seat = CHOOSING if found.team == 0 else found.team
    token = issue_device_token(current_app.config["SECRET_KEY"], public_id, seat)
    return _with_token(redirect(url_for("team.play")), token)


def _with_token(response, token: str):
    """``response`` making its device hold ``token`` (a cookie kept 30 days)."""
    response = make_response(response)
    response.set_cookie(TOKEN_COOKIE, token, max_age=30 * 86400, httponly=True, samesite="Lax")
    return response


def _token_audience(token: str | None):
    """The team audience the device token ``token`` names now, or None (no token, or one
    that no longer admits its device)."""
    if not token:
        return None
    return read_device_token(current_app.config["SECRET_KEY"], token, store,
                             current_app.config["DEVICE_GRACE_HOURS"], store.utcnow())


def _device_team():
    """The team this device already belongs to (its token cookie), or None."""
    token = request.cookies.get(TOKEN_COOKIE)
    audience = _token_audience(token)
    row = store.row(audience.game_id) if audience else None
    if row is None or not any(code.team == max(audience.team, 0) for code in row.join_codes):
        return None
    return audience, row


def _seats_to_choose(row) -> list[dict]:
    """The seats of a game with a table's code, as its chooser lists them: each seat's
    number, its player's name, its kind's word for it (``as``: a catalog key) and
    whether a device holds it already."""
    match, _row = store.current(row.id)
    claims = row.claims or {}
    return [{**seat, "taken": str(seat["seat"]) in claims} for seat in match.seats()]


@bp.post("/team/seat")
def choose_seat():
    """The chooser's answer: this device takes a seat (``seat``: its number) or becomes
    the table's shared screen (``seat`` = ``table``)."""
    found = _device_team()
    if found is None or found[0].team != CHOOSING:
        return redirect(url_for("team.play"))
    audience, row = found
    secret = current_app.config["SECRET_KEY"]
    choice = request.form.get("seat", "")
    if choice == "table":
        token = issue_device_token(secret, row.public_id, 0, audience.device)
        return _with_token(redirect(url_for("team.play")), token)
    seat = int(choice) if choice.isdigit() and len(choice) < 3 else 0
    answer = store.claim_seat(row.id, seat, audience.device) if seat else "unknown"
    if answer != "ok":
        return _chooser(row, error=f"seatpick.{answer}"), 409
    token = issue_device_token(secret, row.public_id, seat, audience.device)
    return _with_token(redirect(url_for("team.play")), token)


def _chooser(row, error: str | None = None):
    """The page where a device that joined with a table's code chooses its seat."""
    use_game_language(row.settings)
    return render_template("team/choose.html", game_name=row.name, seats=_seats_to_choose(row),
                           error=error)


@bp.route("/games/<game>/<name>")
def screen_script(game: str, name: str):
    """A screen script a game's kind brings from its own folder (``screens_folder``)."""
    if game not in names():
        abort(404)
    folder = getattr(kind(game), "screens_folder", None)
    if folder is None or not name.endswith(".js") or "/" in name or name.startswith("."):
        abort(404)
    return send_from_directory(folder, name, mimetype="text/javascript")


@bp.route("/join", methods=["GET", "POST"])
@_join_limit("POST")
def join():
    """The form where a team types its code. A device already in a team that comes back
    here (the browser's back button after joining, a reload) goes on to its team's page;
    ``?other`` shows the form to join another team."""
    if request.method == "POST":
        return _join(request.form.get("code", ""))
    if "other" not in request.args and _device_team() is not None:
        return redirect(url_for("team.play"))
    response = make_response(render_template("team/join.html", error=None))
    # Not kept in the back-forward cache: going back here asks the server, which sends a
    # device in a team on to its team's page.
    response.headers["Cache-Control"] = "no-store"
    return response


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
        audience = _token_audience(token)
        why = store.broken(audience.game_id) if audience else None
        found = _device_team() if audience and why is None else None
    except BROKEN_ERRORS as error:       # the game's row is damaged past reading its token
        audience, why, found = None, f"{type(error).__name__}: {error}"[:300], None
    if why is not None:
        from .errors import broken_game_page
        return broken_game_page(audience.game_id if audience else 0, why, False)
    if found is None:
        # A game deleted, a device removed, a game long over, a forged token: join again.
        response = redirect(url_for("team.join"))
        if token:
            response.delete_cookie(TOKEN_COOKIE, httponly=True, samesite="Lax")
        return response
    audience, row = found
    if audience.team == CHOOSING:
        return _chooser(row)
    use_game_language(row.settings)          # the game's language unless this device chose one
    game_kind = kind(row.kind)
    page = getattr(game_kind, "pages", {}).get("seat")
    if page is None:
        # A game whose kind brings its own screen scripts: the generic page, as a seat's
        # screen or (seat 0) as the table's.
        table = audience.team == 0
        match, _row = store.current(row.id)
        names = {s["seat"]: s["name"] for s in match.seats()} if hasattr(match, "seats") else {}
        return render_template("games/screen.html", kind_prefix=row.kind + ".", role="table" if table else "team",
                               token=token, game_id=row.id, seat=audience.team,
                               game_name=row.name,
                               seat_name=row.name if table
                               else names.get(audience.team, str(audience.team)),
                               script=url_for("team.screen_script", game=row.kind,
                                              name="table.js" if table else "seat.js"))
    name = row.settings["teams"][audience.team - 1]["name"]
    roster = row.settings.get("roster")
    members = (list(roster[audience.team - 1]) if isinstance(roster, list)
               and len(roster) >= audience.team and isinstance(roster[audience.team - 1], list) else [])
    return render_template("team/play.html", token=token, game_id=row.id,
                           team={"number": audience.team, "name": name, "members": members})
