"""Teams join with their code and play on their own device."""
from __future__ import annotations

from flask import (Blueprint, abort, current_app, jsonify, make_response, redirect,
                   render_template, request, send_from_directory, url_for)

from ..extensions import store
from ..games import kind, names
from ..live.audience import (decode_device_token, issue_device_token, new_device_id,
                             read_device_token)
from ..store.games import SCREEN_CODE
from ..store.seats import personal, seat_list
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
    """Make this device a member of the seat ``code`` belongs to (a team, a player, a
    table's screen), or send it to the lecture's door (a hall's code); or say what went
    wrong."""
    from .door import door_of_code, enter_door
    hall = door_of_code(code)
    if hall is not None:
        return enter_door(hall)
    found = store.find_join_code(code)
    public_id = store.public_id(found.game_id) if found is not None else None
    if public_id is None:      # the mistyped code stays in the field, the error beside it
        return render_template("team/join.html", error="join.unknown", code=str(code)[:20]), 404
    secret = current_app.config["SECRET_KEY"]
    device = _own_device(public_id)
    if found.team == SCREEN_CODE:
        # The table's screen code, shown only on the teacher's console: this device
        # becomes one of the table's screens, listed there and removable.
        answer = _live().seats.admit_screen(found.game_id, device)
        if answer != "ok":
            return _error_page(found.game_id, f"seatpick.{answer}", 409)
        token = issue_device_token(secret, public_id, 0, device)
        return _with_token(redirect(url_for("team.play")), token)
    if found.team == 0:
        # A table's code: the device chooses its seat.
        token = issue_device_token(secret, public_id, CHOOSING, device)
        return _with_token(redirect(url_for("team.play")), token)
    match, _row = store.current(found.game_id)
    if personal(match):
        # A player's own code: the seat is this device's, or it asks the teacher for it.
        answer = _live().seats.claim(found.game_id, found.team, device)
        if answer not in ("ok", "asked"):
            return _error_page(found.game_id, f"seatpick.{answer}", 409)
    token = issue_device_token(secret, public_id, found.team, device)
    return _with_token(redirect(url_for("team.play")), token)


def _live():
    return current_app.extensions["facilitator_live"]


def _own_device(public_id: str) -> str:
    """This device's id in the game ``public_id`` names, kept from the token it already
    holds for that game (a phone that scans its code again is the same device), else a
    new one."""
    held = decode_device_token(current_app.config["SECRET_KEY"], request.cookies.get(TOKEN_COOKIE))
    return held.device if held is not None and held.public_id == public_id else new_device_id()


def _error_page(game_id: int, error: str, status: int):
    """The join form with what went wrong with a seat (in the game's language)."""
    row = store.row(game_id)
    if row is not None:
        use_game_language(row.settings)
    return render_template("team/join.html", error=error), status


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
    whether a device holds it already (the computer's seat is never offered)."""
    match, _row = store.current(row.id)
    claims = row.claims or {}
    return [{**seat, "taken": str(seat["seat"]) in claims} for seat in seat_list(match)]


@bp.post("/team/seat")
def choose_seat():
    """The chooser's answer: this device takes a seat (``seat``: its number), or asks
    the teacher for it when another device holds it. A device holds one seat of a game."""
    found = _device_team()
    if found is None or found[0].team != CHOOSING:
        return redirect(url_for("team.play"))
    audience, row = found
    choice = request.form.get("seat", "")
    seat = int(choice) if choice.isascii() and choice.isdigit() and len(choice) < 3 else 0
    match, _row = store.current(row.id)
    if not personal(match):
        # A team's seat (la partida's): any device of the room may join its team.
        if not 1 <= seat <= store.team_count(row.id):
            return _team_door(row, error="door.unknown"), 409
    else:
        answer = _live().seats.claim(row.id, seat, audience.device) if seat else "unknown"
        if answer not in ("ok", "asked"):
            return _chooser(row, error=f"seatpick.{answer}"), 409
    token = issue_device_token(current_app.config["SECRET_KEY"], row.public_id, seat,
                               audience.device)
    return _with_token(redirect(url_for("team.play")), token)


def _token_seat(token: str | None):
    """The game and seat a device token names, and its device: ``(game_id, seat,
    device)``, or None (no token, a forged one, a game gone, no seat)."""
    found = decode_device_token(current_app.config["SECRET_KEY"], token)
    game_id = store.game_of_public_id(found.public_id) if found is not None else None
    if game_id is None or found.team < 1:
        return None
    return game_id, found.team, found.device


@bp.route("/team/ask")
def ask_state():
    """Where this device's request for its seat stands (the waiting page asks):
    ``{"state": "waiting" | "refused" | "ok" | "none"}``."""
    mine = _token_seat(request.cookies.get(TOKEN_COOKIE))
    return jsonify(state=_live().seats.asked(*mine) if mine is not None else "none")


@bp.post("/team/ask")
def ask_again():
    """Ask the teacher again for this device's seat (after a refusal)."""
    mine = _token_seat(request.cookies.get(TOKEN_COOKIE))
    if mine is not None:
        _live().seats.claim(*mine, again=True)
    return redirect(url_for("team.play"))


def waiting_page(game_id: int, seat: int, refused: bool, state_url: str, again_url: str):
    """The page of a device asking for a seat another device holds: it waits for the
    teacher's answer (asking ``state_url``) and goes on to the seat once accepted."""
    match, row = store.current(game_id)
    use_game_language(row.settings)
    names = {s["seat"]: s["name"] for s in seat_list(match)}
    response = make_response(render_template(
        "team/waiting.html", game_name=row.name, seat_name=names.get(seat, str(seat)),
        game_kind=row.kind,
        refused=refused, state_url=state_url, again_url=again_url))
    response.headers["Cache-Control"] = "no-store"
    return response


def _asking(token: str):
    """The waiting page of a device whose token names a seat it asked the teacher for
    (another device holds it), or None when it asked for nothing."""
    mine = _token_seat(token)
    if mine is None:
        return None
    game_id, seat, device = mine
    state = _live().seats.asked(game_id, seat, device)
    if state not in ("waiting", "refused"):
        return None
    if state == "waiting" and _live().seats.claim(game_id, seat, device) == "ok":
        return redirect(url_for("team.play"))     # the seat came free: it is this device's
    return waiting_page(game_id, seat, state == "refused", url_for("team.ask_state"),
                        url_for("team.ask_again"))


def seat_screen(row, seat: int, token: str, follow: dict | None = None,
                spot: dict | None = None) -> str:
    """The generic page of a game whose kind brings its own screen scripts: seat
    ``seat``'s screen, or (seat 0) the table's, connecting with ``token``. ``follow``: what
    a hall's student page asks to follow its student to the next round (lib/follow.js);
    ``spot``: where the student plays in the hall (``{"words": catalog key, "n": place,
    "round": the round's number, or None when the hall has one}``)."""
    table = seat == 0
    match, _row = store.current(row.id)
    names = {s["seat"]: s["name"] for s in seat_list(match)}
    return render_template("games/screen.html", kind_prefix=row.kind + ".",
                           role="table" if table else "team", token=token, game_id=row.id,
                           seat=seat, game_name=row.name,
                           seat_name=row.name if table else names.get(seat, str(seat)),
                           follow=follow, spot=spot,
                           script=url_for("team.screen_script", game=row.kind,
                                          name="table.js" if table else "seat.js"))


def _chooser(row, error: str | None = None):
    """The page where a device that joined with a game's own code chooses its seat: its
    name at a table, or (a game of teams) its name in the class list or its team."""
    match, _row = store.current(row.id)
    if not personal(match):
        return _team_door(row, error)
    use_game_language(row.settings)
    return render_template("team/choose.html", game_name=row.name, seats=_seats_to_choose(row),
                           error=error, hint=f"{row.kind}.seatpick_hint", game_kind=row.kind)


def team_door_people(settings: dict) -> list[dict]:
    """Who a game of teams lists at its door: each student of its class list (``roster``:
    names per team) with their team, by name; a team with no names listed, as itself
    (after them). Each entry: ``{"value": team number, "key", "name", "detail"}``."""
    teams = [t.get("name", "") for t in settings.get("teams") or [] if isinstance(t, dict)]
    roster = settings.get("roster") if isinstance(settings.get("roster"), list) else []
    people, unnamed = [], []
    for number, team in enumerate(teams, start=1):
        members = roster[number - 1] if len(roster) >= number and isinstance(
            roster[number - 1], list) else []
        people += [{"value": number, "key": f"{number}-{i}", "name": str(name), "detail": team}
                   for i, name in enumerate(members, start=1)]
        if not members:
            unnamed.append({"value": number, "key": f"t{number}", "name": team, "detail": None})
    return sorted(people, key=lambda p: p["name"].casefold()) + unnamed


def _team_door(row, error: str | None = None):
    """The door of a game of teams: a student taps their name (or their team) and this
    device joins that team."""
    use_game_language(row.settings)
    people = team_door_people(row.settings)
    named = any(p["detail"] for p in people)
    response = make_response(render_template(
        "team/door.html", place_name=row.name, people=people, action=url_for("team.choose_seat"),
        field="seat", title="door.title" if named else "door.team_title",
        hint="door.team_hint" if named else "door.team_only_hint", error=error,
        game_kind=row.kind))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.route("/games/<game>/<name>")
def screen_script(game: str, name: str):
    """A screen script a game's kind brings from its own folder (``screens_folder``)."""
    if game not in names():
        abort(404)
    folder = kind(game).screens_folder
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
    if found is None and audience is None and token:
        waiting = _asking(token)
        if waiting is not None:
            return waiting
    if found is None:
        # A game deleted, a device removed, a game long over, a forged token: join again.
        response = redirect(url_for("team.join"))
        if token:
            response.delete_cookie(TOKEN_COOKIE, httponly=True, samesite="Lax")
        return response
    audience, row = found
    if audience.team == CHOOSING:
        return _chooser(row)
    if audience.team > 0 and str(audience.team) not in (row.claims or {}):
        # A personal seat nobody holds (its holder was removed): this device takes it.
        match, _row = store.current(row.id)
        if personal(match):
            _live().seats.claim(row.id, audience.team, audience.device)
    use_game_language(row.settings)          # the game's language unless this device chose one
    game_kind = kind(row.kind)
    page = game_kind.pages.get("seat")
    if page is None:
        # A game whose kind brings its own screen scripts: the generic page, as a seat's
        # screen or (seat 0) as the table's.
        return seat_screen(row, audience.team, token)
    name = row.settings["teams"][audience.team - 1]["name"]
    roster = row.settings.get("roster")
    members = (list(roster[audience.team - 1]) if isinstance(roster, list)
               and len(roster) >= audience.team and isinstance(roster[audience.team - 1], list) else [])
    # The summaries of the rules a team's device is refused by most (its kind's list):
    # the page explains a refusal in the team's words without a round trip.
    refusal_words = tuple(f"rule.{rule}" for rule in game_kind.seat_refusals)
    return render_template("team/play.html", token=token, game_id=row.id,
                           team={"number": audience.team, "name": name, "members": members},
                           refusal_words=refusal_words)
