"""The GM console: log in, list and create games, run one, download its record."""
from __future__ import annotations

import json

from flask import (Blueprint, Response, abort, current_app, jsonify, make_response, redirect,
                   render_template, request, session, url_for)

from ..engine import Refusal
from ..engine.settings import (DEFAULT_BANK_SPECIAL_CARDS, DEFAULT_DELIBERATION_SECONDS,
                               DEFAULT_EXCHANGE_COST, DEFAULT_MAX_MEMBERS, DEFAULT_POINTS,
                               DEFAULT_ROUNDS, DEFAULT_SPECIAL_CARDS)
from ..extensions import database, store
from ..store.banks import bank_questions, list_banks
from ..store.credentials import check_gm
from ..store.sessions import end_all_sessions, end_session, open_session
from ..engine.numbers import is_unicode
from ..safe_text import control_character
from .auth import gm_required, read_json
from .links import join_url, pretty_code, public_base, team_links
from .ratelimit import limiter, login_attempts

bp = Blueprint("console", __name__, url_prefix="/console")


def _too_many_logins(_limit):
    return make_response(render_template("console/login.html", error="login.too_many"), 429)


@bp.route("/login", methods=["GET", "POST"])
@limiter.limit(login_attempts, methods=["POST"], deduct_when=lambda r: r.status_code == 401,
               on_breach=_too_many_logins)
def login():
    """The console password form; only wrong passwords count towards the login limit."""
    error = None
    if request.method == "POST":
        if check_gm(database, request.form.get("secret", ""), current_app.config["GM_PASSWORD"]):
            end_session(database, session.get("gm"))   # this browser's earlier login, if any
            session.clear()
            # The cookie holds only the secret of a session the server can end (logout).
            session["gm"] = open_session(database, current_app.config["SESSION_HOURS"])
            session.permanent = True
            target = request.args.get("next", "")
            return redirect(target if target.startswith("/console") else url_for("console.games"))
        else:
            error = "login.wrong"
    return render_template("console/login.html", error=error), (401 if error else 200)


@bp.route("/logout", methods=["GET", "POST"])
def logout():
    """Leave the console on this device: its session ends on the server too, so a copy
    of the cookie opens nothing any more."""
    end_session(database, session.get("gm"))
    session.clear()
    return redirect(url_for("console.login"))


@bp.post("/logout-all")
@gm_required
def logout_all():
    """End every console session, this one included ("log out every console")."""
    end_all_sessions(database)
    session.clear()
    return redirect(url_for("console.login"))


@bp.route("")
@bp.route("/")
@gm_required
def games():
    """Past games and the set-up form of a new one."""
    return render_template("console/games.html", games=games_listing(), banks=list_banks(database),
                           defaults=setup_defaults())


def setup_defaults() -> dict:
    """The set-up form's defaults (the engine's): rounds, times, cards, points, team size."""
    return {"rounds": DEFAULT_ROUNDS, "deliberation_seconds": DEFAULT_DELIBERATION_SECONDS,
            "special_cards": DEFAULT_SPECIAL_CARDS, "bank_special_cards": DEFAULT_BANK_SPECIAL_CARDS,
            "exchange_cost": DEFAULT_EXCHANGE_COST, "points": DEFAULT_POINTS,
            "max_members": DEFAULT_MAX_MEMBERS}


def games_listing() -> list[dict]:
    """Every game, newest first, as the console lists them: id, name, created_at,
    over, winner, team names, the console's address of the game, and ``broken``: None,
    or why its stored row cannot be read (it is listed, to be deleted; the others are
    listed as always)."""
    return [{**game, "created_at": game["created_at"].isoformat(timespec="minutes"),
             "url": url_for("console.game", game_id=game["id"])} for game in store.listing()]


def broken_or_none(game_id: int, gm: bool = True):
    """The page (or JSON) saying game ``game_id`` is stored broken, or None when it is not."""
    why = store.broken(game_id)
    if why is None:
        return None
    from .errors import broken_game_page
    return broken_game_page(game_id, why, gm)


def delete_any_game(game_id: int) -> bool:
    """Delete a game, even one stored broken: its consoles, devices and projectors are
    disconnected (every process) and its device tokens refused from then on. False when
    there was no such game."""
    live = current_app.extensions["facilitator_live"]
    if store.broken(game_id) is None:
        return live.delete_game(game_id)
    # Its settings cannot be read: the team rooms to close are counted from its codes.
    teams = store.team_count(game_id)
    deleted = store.delete_game(game_id)
    live.presence.kick(game_id, None, teams)
    live.close_here(game_id, None, teams)
    return deleted


@bp.post("/games")
@gm_required
def create_game():
    """Create a game from the set-up form (JSON); answers where to go or what is wrong."""
    try:
        game_id = create_game_from_setup(read_json())
    except Refusal as refusal:
        return jsonify(ok=False, error=refusal.rule, message=refusal.message), 400
    return jsonify(ok=True, game_id=game_id, url=url_for("console.game", game_id=game_id))


def create_game_from_setup(data: object, leave_out: set[str] | None = None) -> int:
    """Create a game from the set-up form's JSON ``{"name", "settings", "bank_id",
    "roster"}``; returns its id.

    Without ``bank_id`` the first bank is used. The settings are checked by the
    engine. Raises a Refusal: ``format`` for a malformed form (no such bank, a
    name that is not text...), else the rule the settings break (R-T1...).
    Shared by the console's set-up form and the JSON API (``POST /api/v1/games``).
    ``leave_out``: ids of questions read in a class's earlier games, left out of this
    game's questions (issue 15: the engine offers only what the live layer gives it).
    """
    if not isinstance(data, dict):
        raise Refusal("format", "send the game as JSON")
    bank_id = data.get("bank_id")
    banks = list_banks(database)
    if bank_id is None and banks:
        bank_id = banks[0]["id"]
    bank_id = str(bank_id)
    bank = (bank_questions(database, int(bank_id))
            if bank_id.isdecimal() and bank_id.isascii() and len(bank_id) < 10 else None)
    if bank is None:
        raise Refusal("format", "choose a question bank")
    name = data.get("name") if isinstance(data.get("name"), str) else ""
    if not is_unicode(name):
        raise Refusal("format", "the class name is not valid text")
    settings = data.get("settings")
    if isinstance(settings, dict) and isinstance(data.get("roster"), list):
        settings = {**settings, "roster": distinct_roster(data["roster"])}
    questions = bank[1]
    if leave_out:
        questions = [q for q in questions if q.id not in leave_out]
    return store.create_game(name or "Partida", settings, questions, bank_name=bank[0])


def distinct_roster(roster: list) -> list:
    """A class list (names per team) whose namesakes are told apart, "Ana García" and
    "Ana García (2)" (:func:`facilitator.classes.roster.roster_names`), so that naming a
    spokesperson names one student; anything not a list of lists of names is left as it
    is for the engine to refuse."""
    from ..classes.roster import roster_names
    if not all(isinstance(team, list) and all(isinstance(n, str) for n in team)
               for team in roster):
        return roster
    flat = roster_names([" ".join(n.split()) for team in roster for n in team])
    out, at = [], 0
    for team in roster:
        out.append(flat[at:at + len(team)])
        at += len(team)
    return out


@bp.route("/<int:game_id>")
@gm_required
def game(game_id: int):
    """The console of one game (a game stored broken: a page saying so, to delete it)."""
    broken = broken_or_none(game_id)
    if broken is not None:
        return broken
    row = store.row(game_id)
    if row is None:
        abort(404)
    roster = row.settings.get("roster")
    return render_template("console/game.html", game={"id": row.id, "name": row.name},
                           roster=roster if isinstance(roster, list) else None,
                           teams=team_links(row),
                           watch_url=public_base() + url_for("projector.show", watch=row.watch_code),
                           record_url=url_for("console.record", game_id=game_id))


@bp.route("/<int:game_id>/record.json")
@gm_required
def record(game_id: int):
    """The game's partida/1 record, as a download."""
    broken = broken_or_none(game_id)
    if broken is not None:
        return broken
    data = store.record(game_id)
    if data is None:
        abort(404)
    return Response(json.dumps(data, ensure_ascii=False, indent=1), mimetype="application/json",
                    headers={"Content-Disposition": f"attachment; filename=partida-{game_id}.json"})


@bp.post("/<int:game_id>/delete")
@gm_required
def delete(game_id: int):
    """Delete a game: its consoles, devices and projectors are disconnected (every
    process), and its device tokens are refused from then on. A game stored broken is
    deleted too."""
    delete_any_game(game_id)
    return redirect(url_for("console.games"))


@bp.post("/<int:game_id>/devices/remove")
@gm_required
def remove_device(game_id: int):
    """Remove a team's device (JSON ``{"device": ID}``, an id the GM view's
    ``device_ids`` lists): disconnected now, its token refused from now on."""
    data = read_json()
    device = data.get("device") if isinstance(data, dict) else None
    if (not isinstance(device, str) or not 0 < len(device) <= 64 or not is_unicode(device)
            or control_character(device) is not None):
        return jsonify(ok=False, error="format", message='send {"device": "<device id>"}'), 400
    if not current_app.extensions["facilitator_live"].remove_device(game_id, device):
        return jsonify(ok=False, error="format", message="no such game"), 404
    return jsonify(ok=True, device=device)


@bp.post("/<int:game_id>/teams/<int:team>/code")
@gm_required
def rotate_code(game_id: int, team: int):
    """Give a team a fresh join code: the old one stops working; devices that already
    joined stay (remove them one by one)."""
    code = store.rotate_code(game_id, team)
    if code is None:
        return jsonify(ok=False, error="format", message="no such game or team"), 404
    return jsonify(ok=True, team=team, code=code, join_code=pretty_code(code),
                   join_url=join_url(code), qr_url=url_for("assets.qr", code=code))


# -- issue 15: a class game's league on the projector, and who could speak next ------------

@bp.post("/<int:game_id>/league")
@gm_required
def show_league(game_id: int):
    """Show (``{"shown": true}``) or hide the class's league on a class game's projector,
    before the game's first action or once it is over (hiding it: at any time). Answers
    ``{"ok": true, "shown": bool}``; 400 ``format`` or ``not_now``; 404 ``not_found`` for
    no such game or a game made without a class. Every screen then gets its ``state``."""
    data = read_json()
    if not isinstance(data, dict) or not isinstance(data.get("shown"), bool) or set(data) - {"shown"}:
        return jsonify(ok=False, error="format", message='send {"shown": true} or {"shown": false}'), 400
    try:
        return jsonify(current_app.extensions["facilitator_live"].show_league(game_id, data["shown"]))
    except Refusal as refusal:
        return (jsonify(ok=False, error=refusal.rule, message=refusal.message),
                404 if refusal.rule == "not_found" else 400)


@bp.route("/<int:game_id>/speakers")
@gm_required
def speakers(game_id: int):
    """Who could speak next in a class game: per team, its members (the game's roster
    names) with the times each has spoken this term (spokesperson or representative, in
    every game of the class, this one included), least first; ties in roster order, so
    each team's first is :func:`facilitator.classes.participation.least_spoken`'s pick.
    ``{"ok": true, "teams": {"1": [{"name", "spoke"}, ...]}}``; ``teams`` is ``{}`` for
    a game made without a class; 404 for no such game."""
    from ..store import classes as stored
    broken = broken_or_none(game_id)
    if broken is not None:
        return broken
    row = store.row(game_id)
    if row is None:
        return jsonify(ok=False, error="not_found", message=f"there is no game {game_id}"), 404
    link = stored.game_class(database, game_id)
    if link is None:
        return jsonify(ok=True, teams={})
    counts = stored.speaking_counts(database, store, link["class_id"])
    roster = row.settings.get("roster") or []
    teams = {}
    for number, ids in enumerate(link["lineup"], start=1):
        names = roster[number - 1] if len(roster) >= number and isinstance(roster[number - 1], list) else []
        members = [{"name": name, "spoke": counts.get(sid, 0)} for name, sid in zip(names, ids)]
        teams[str(number)] = sorted(members, key=lambda m: m["spoke"])
    return jsonify(ok=True, teams=teams)
