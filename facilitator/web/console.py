"""The GM console: log in, list and create games, run one, download its record."""
from __future__ import annotations

import json
from urllib.parse import urlsplit

from flask import (Blueprint, Response, abort, current_app, g, jsonify, make_response, redirect,
                   render_template, request, session, url_for)

from ..extensions import database, store
from ..games import Refusal, kind, names
from ..i18n import translate
from ..services.games import (create_from_setup, create_from_text, create_plain, setup_kind,
                               setup_bounds, setup_defaults)
from ..services.halls import halls
from ..store.banks import list_banks
from ..store.credentials import check_gm
from ..store.sessions import end_all_sessions, end_session, open_session
from ..games import is_unicode
from ..safe_text import control_character
from ..live.consoles import EVERY_SESSION
from .downloads import attachment
from .auth import console_session_key, gm_required, read_json
from .links import door_link, join_url, pretty_code, public_base, team_links
from .ratelimit import limiter, login_attempts

bp = Blueprint("console", __name__, url_prefix="/console")
#: A game form's field at most, read before the game checks it (longer than any pasted
#: GameString the game takes, so that a cut text is always refused, never played).
MAX_FORM_FIELD = 20_000


def _too_many_logins(_limit):
    return make_response(render_template("console/login.html", error="login.too_many",
                                         next=safe_next(_asked_next())), 429)


def _asked_next() -> str:
    """The page the login was asked to return to: the form's ``next``, else the address's."""
    return request.form.get("next") or request.args.get("next", "")


def safe_next(target: object) -> str | None:
    r"""``target`` when it is a path on this server to go back to after the login, else None.

    Only a local path passes: it starts with one "/" (never "//host" nor a scheme such as
    "https:", which would leave the server), holds no backslash or control character (a
    browser reads "/\host", and "/" + tab + "/host", as "//host"), and is none of the
    login and logout pages (going back there would ask again, or end the session just opened).
    """
    if not isinstance(target, str) or not target.startswith("/") or len(target) > 2000:
        return None
    if target.startswith("//") or "\\" in target or any(ord(c) < 0x20 or ord(c) == 0x7F for c in target):
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return None
    if parts.path.rstrip("/") in (url_for("console.login"), url_for("console.logout"), url_for("console.logout_all")):
        return None
    return target


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
            # Back to the page that was asked for (a game's link opened while logged out).
            return redirect(safe_next(_asked_next()) or url_for("console.games"))
        else:
            error = "login.wrong"
    return (render_template("console/login.html", error=error, next=safe_next(_asked_next())),
            (401 if error else 200))


@bp.get("/logout")
def logout_page():
    """A page with the «Salir» button only: a GET never logs out, or a link or image of
    any other site could end the teacher's session."""
    return render_template("console/logout.html")


@bp.post("/logout")
def logout():
    """Leave the console on this device: its session ends on the server too, so a copy
    of the cookie opens nothing any more, and its open consoles (games, halls) close."""
    key = console_session_key()
    end_session(database, session.get("gm"))
    if key is not None:
        current_app.extensions["facilitator_live"].end_consoles(key)
    session.clear()
    return redirect(url_for("console.login"))


@bp.post("/logout-all")
@gm_required
def logout_all():
    """End every console session, this one included ("log out every console"), and close
    every console open on them (in every process)."""
    end_all_sessions(database)
    current_app.extensions["facilitator_live"].end_consoles(EVERY_SESSION)
    session.clear()
    return redirect(url_for("console.login"))


@bp.route("")
@bp.route("/")
@gm_required
def games():
    """The console's home: the games it plays side by side (a card each, with its ways
    to be played), then the halls and the games already made."""
    from ..services.halls import halls
    return render_template("console/games.html", games=games_listing(), halls=halls().listing(),
                           cards=game_cards())


def game_cards() -> list[dict]:
    """Each game the home offers, in the registry's order: its ``kind`` and its ways to
    be played, each ``{"key", "href", "testid"}``: a single game (the set-up form's game,
    or a kind with a form of its own) and the whole class at once (a kind with hall
    rules). The words are the game's catalog's: ``<kind>.home.pitch``, ``.home.single``,
    ``.home.hall``."""
    from .halls import hall_kinds
    in_halls = {found["kind"] for found in hall_kinds()}
    cards = []
    for name in names():
        ways = []
        if name == setup_kind() or name in text_kinds():
            ways.append({"key": f"{name}.home.single", "testid": f"new-{name}-link",
                         "href": url_for("console.new_game", game=name)})
        if name in in_halls:
            ways.append({"key": f"{name}.home.hall", "testid": f"hall-{name}-link",
                         "href": url_for("halls.new_hall", kind=name)})
        if ways:
            cards.append({"kind": name, "ways": ways})
    return cards


@bp.route("/new/<game>")
@gm_required
def new_game(game: str):
    """The form of a single new game of ``game``: the set-up form's game, or a kind
    with a form of its own (``console/new_<kind>.html``)."""
    if game != setup_kind() and game not in text_kinds():
        abort(404)
    return _new_game_page(game)


def _new_game_page(game: str, new_form: dict | None = None, new_error: dict | None = None):
    """A game's form page; ``new_form`` and ``new_error``: the form sent back with what
    was wrong with it."""
    if game == setup_kind():
        return render_template("console/new.html", game_kind=game, banks=list_banks(database),
                               defaults=setup_defaults(), bounds=setup_bounds())
    return render_template("console/new.html", game_kind=game, form_kind=game,
                           new_form=new_form, new_error=new_error,
                           bounds=kind(game).settings_bounds())


def text_kinds() -> list[str]:
    """The games a single game of which the console makes with a form of its own
    (``console/new_<kind>.html``, posted to ``/console/games/form``): every game but the
    set-up form's that has such a template."""
    templates = current_app.jinja_env.list_templates()
    return [name for name in names() if name != setup_kind()
            and f"console/new_{name}.html" in templates]


@bp.post("/games/form")
@gm_required
def create_game_form():
    """Create a single game of a kind with a form of its own (a Hive pair's: the players
    by colour, the computer's colour and level, a turn limit, the game type (its expansion
    pieces), a pasted GameString to go on from (whose own game type decides); a
    table's players by seat, one a line, in ``seated``); its console next, or the form again saying what is wrong (400)."""
    form = {key: request.form.get(key, "")[:MAX_FORM_FIELD]
            for key in ("kind", "name", "white", "black", "bot", "bot_level", "turn_limit",
                        "game_type", "pasted", "seated")}
    if form["kind"] not in text_kinds():
        abort(400)                      # no such form on the page: a hand-made request
    players = {colour: form[colour].strip() for colour in ("white", "black")
               if form[colour].strip()}
    settings = {key: int(form[key]) if form[key].strip().isdecimal() else form[key]
                for key in ("bot", "bot_level", "turn_limit", "game_type") if form[key].strip()}
    if form["seated"].strip():          # players by seat, one a line (a colmena table's)
        settings["players"] = [line.strip() for line in form["seated"].splitlines() if line.strip()]
    data = {"kind": form["kind"], "name": form["name"], "settings": settings,
            "pasted": form["pasted"] if form["pasted"].strip() else None,
            "players": players or None}
    try:
        game_id = _create_other(data)
    except Refusal as refusal:
        return _new_game_page(form["kind"], form, _refused_form(form["kind"], refusal)), 400
    return redirect(url_for("console.game", game_id=game_id))


def _refused_form(game: str, refusal: Refusal) -> dict:
    """What a game's form says of a refusal: the rule's summary from the catalog (else the
    game's sentence) and where in the pasted text (the move's number), in the page's
    language; the game's own sentence (Mzinga's, for Hive, which is English) beside it on
    an English page only, and with the rule's id in the tooltip on every page."""
    lang = _lang()
    key = f"{game}.rule.{refusal.rule}"
    summary = translate(lang, key)
    summary = refusal.message if summary == key else summary
    where = _where(refusal)
    text = (translate(lang, f"{game}.new.refused_move", n=where["move"], summary=summary)
            if where else translate(lang, f"{game}.new.refused", summary=summary))
    own = refusal.message if refusal.message and refusal.message != summary else None
    return {"text": text, "rule": refusal.rule,
            "title": refusal.rule + (" — " + own if own else ""),
            "engine": own if lang.startswith("en") else None}


def _lang() -> str:
    return getattr(g, "lang", "es")


def games_listing() -> list[dict]:
    """Every game, newest first, as the console lists them: id, name, created_at,
    over, winner, team names, the console's address of the game, and ``broken``: None,
    or why its stored row cannot be read (it is listed, to be deleted; the others are
    listed as always)."""
    return [{**{k: v for k, v in game.items() if k != "hall_id"},
             "created_at": game["created_at"].isoformat(timespec="minutes"),
             "url": url_for("console.game", game_id=game["id"])} for game in store.listing()
            if game["hall_id"] is None]       # a hall's games are listed on its page


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
    return current_app.extensions["facilitator_live"].delete_game(game_id)


@bp.post("/games")
@gm_required
def create_game():
    """Create a game from the set-up form (JSON); answers where to go or what is wrong."""
    data = read_json()
    try:
        if isinstance(data, dict) and data.get("kind", setup_kind()) != setup_kind():
            game_id = _create_other(data)
        else:
            game_id = create_from_setup(data)
    except Refusal as refusal:
        return jsonify(ok=False, error=refusal.rule, message=refusal.message,
                       **_where(refusal)), 400
    return jsonify(ok=True, game_id=game_id, url=url_for("console.game", game_id=game_id))


def _create_other(data: dict) -> int:
    """A game of a kind other than the set-up form's: from its settings (and ``players``,
    for a kind that keeps them beside), or from a pasted text of the game so far
    (``pasted``)."""
    if data.get("pasted") is not None:
        return create_from_text(data["kind"], data.get("name") or "", data["pasted"],
                                data.get("players"), data.get("settings"))
    return create_plain(data["kind"], data.get("name") or "", data.get("settings"),
                        data.get("players"))


def _where(refusal: Refusal) -> dict:
    """Where a refused text or record broke: the 0-based ``action`` and the ``move``
    number a player counts (the first is 1)."""
    if refusal.action is None:
        return {}
    return {"action": refusal.action, "move": refusal.action + 1}


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
    if "gm" not in kind(row.kind).pages:
        # A game whose kind brings its own screen scripts: the generic page, the
        # teacher's screen of it.
        return render_template("games/screen.html", kind_prefix=row.kind + ".", role="gm", token=None, game_id=row.id,
                               seat=None, game_name=row.name, seat_name=row.name,
                               hall=_hall_of(game_id),
                               script=url_for("team.screen_script", game=row.kind,
                                              name="gm.js"))
    roster = row.settings.get("roster")
    return render_template("console/game.html", game={"id": row.id, "name": row.name},
                           roster=roster if isinstance(roster, list) else None,
                           teams=team_links(row), door=door_link(row),
                           watch_url=public_base() + url_for("projector.show", watch=row.watch_code),
                           record_url=url_for("console.record", game_id=game_id))


def _hall_of(game_id: int) -> dict | None:
    """The hall a game is a table or a board of (its id and name, for the way back to it
    in the console's header), or None for a game on its own."""
    hall_id = halls().hall_of_game(game_id)
    found = halls().hall(hall_id) if hall_id is not None else None
    return {"id": found["id"], "name": found["name"]} if found else None


@bp.route("/<int:game_id>/record.json")
@gm_required
def record(game_id: int):
    """The game's record in its kind's format (partida/1, colmena/1, hive/1), as a
    download named after its kind."""
    broken = broken_or_none(game_id)
    if broken is not None:
        return broken
    data = store.record(game_id)
    if data is None:
        abort(404)
    name = store.kind_of(game_id) or setup_kind()
    return Response(json.dumps(data, ensure_ascii=False, indent=1), mimetype="application/json",
                    headers={"Content-Disposition": attachment(f"{name}-{game_id}.json")})


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


@bp.post("/<int:game_id>/seats/<int:seat>/answer")
@gm_required
def answer_seat(game_id: int, seat: int):
    """The teacher answers a device's request for a seat another device holds (JSON
    ``{"device": ID, "accept": true | false}``): accepted, the seat is that device's and
    the one that held it is cut off now; refused, the asking device is told so."""
    data = read_json()
    device = data.get("device") if isinstance(data, dict) else None
    accept = data.get("accept") if isinstance(data, dict) else None
    if (not isinstance(device, str) or not 0 < len(device) <= 64 or not is_unicode(device)
            or control_character(device) is not None or not isinstance(accept, bool)):
        return jsonify(ok=False, error="format",
                       message='send {"device": "<device id>", "accept": true or false}'), 400
    try:
        return jsonify(current_app.extensions["facilitator_live"].seats.answer(
            game_id, seat, device, accept))
    except Refusal as refusal:
        return jsonify(ok=False, error=refusal.rule, message=refusal.message), \
            404 if refusal.rule == "not_found" else 409


@bp.post("/<int:game_id>/screen/code")
@gm_required
def renew_screen_code(game_id: int):
    """A fresh screen code for the table (the old one leaked): every table screen it
    admitted is cut off now."""
    from ..store.games import SCREEN_CODE
    return rotate_code(game_id, SCREEN_CODE)


@bp.post("/<int:game_id>/teams/<int:team>/code")
@gm_required
def rotate_code(game_id: int, team: int):
    """Give a team a fresh join code: the old one stops working; devices that already
    joined stay (remove them one by one), but a table's screen code renewed (team -1)
    cuts off every screen it admitted."""
    code = current_app.extensions["facilitator_live"].seats.renew_code(game_id, team)
    if code is None:
        return jsonify(ok=False, error="format", message="no such game or team"), 404
    # A hall's teacher view lists its tables' codes: it reads them again.
    current_app.extensions["facilitator_live"].halls.forget(game_id=game_id)
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
    from ..classes.summaries import speaking_counts
    counts = speaking_counts(database, store, link["class_id"])
    roster = row.settings.get("roster") or []
    teams = {}
    for number, ids in enumerate(link["lineup"], start=1):
        names = roster[number - 1] if len(roster) >= number and isinstance(roster[number - 1], list) else []
        members = [{"name": name, "spoke": counts.get(sid, 0)} for name, sid in zip(names, ids)]
        teams[str(number)] = sorted(members, key=lambda m: m["spoke"])
    return jsonify(ok=True, teams=teams)
