"""LTI 1.3 pages (issue 48): the key set, the OIDC login, the launch, and the marks of a
course's class.

A launch is a cross-site POST from the platform (its page posts the signed token): the
login and the launch are exempt from the cross-site check (``CROSS_SITE``), the signed
token and the state cookie vouch for them instead. A launch that fails a check gets a
page saying which, is logged, and changes nothing. A teacher's launch opens a console
session and lands on the course's class; a student's never does, and lands on their
seat (or on a page that waits for the teacher's game) already named.
"""
from __future__ import annotations

import logging

from flask import (Blueprint, abort, current_app, g, jsonify, redirect, render_template, request,
                   session, url_for)

from ..extensions import database, store
from ..i18n import translate
from ..lti import keys
from ..lti.courses import course_of_launch, enrol_launch, refresh_roster
from ..lti.marks import sync_marks
from ..lti.tool import LaunchRefused, PlatformSession, check_launch, oidc_login
from ..store import lti as lti_store
from ..store.classes import class_places
from ..store.sessions import end_session, open_session
from .auth import gm_required

bp = Blueprint("lti", __name__, url_prefix="/lti")
log = logging.getLogger("facilitator.lti")

#: The paths a platform's page posts to from its own site.
CROSS_SITE = ("/lti/login", "/lti/launch")


def _refused(reason: str, status: int = 403):
    """The page of a refused login or launch: what was wrong, in the page's language."""
    detail = translate(getattr(g, "lang", "es"), f"app.error.lti.{reason}")
    return render_template("error.html", status=status, kind="lti", detail=detail,
                           links=[{"href": "/", "key": "app.error.to_home",
                                   "testid": "to-home"}]), status


@bp.route("/jwks.json")
def jwks():
    """The facilitator's public keys, for the platforms to check what it signs."""
    response = jsonify(keys.jwks(database))
    response.headers["Cache-Control"] = "public, max-age=300"
    return response


@bp.route("/login", methods=["GET", "POST"])
def login():
    """The platform's OIDC login initiation: sent on to its authentication, with a new
    state and nonce."""
    try:
        return oidc_login(database, url_for("lti.launch", _external=True))
    except LaunchRefused as refusal:
        log.warning("LTI login refused: %s", refusal)
        return _refused("login", 400)


@bp.route("/register")
def register():
    """LTI Advantage dynamic registration: the platform opens this page (the URL ``facilitator
    lti registration-url`` printed, with its one-time ``key``) passing its OpenID
    configuration and a registration token; the facilitator registers itself there and
    the page tells the platform it is done."""
    from pylti1p3.exception import LtiException

    from ..lti.registration import Registration, registration_key_is_good
    key = request.args.get("key")
    if not registration_key_is_good(database, key):
        return _refused("register_key", 403)
    configuration = request.args.get("openid_configuration", "")
    if not configuration.startswith(("https://", "http://")) or len(configuration) > 1000:
        return _refused("register", 400)
    urls = {"login": url_for("lti.login", _external=True),
            "launch": url_for("lti.launch", _external=True),
            "jwks": url_for("lti.jwks", _external=True), "domain": request.host}
    registration = Registration(database, key, configuration,
                                request.args.get("registration_token"), urls)
    try:
        registration.register()
    except (LtiException, AssertionError, ValueError, TypeError, KeyError, OSError,
            lti_store.LtiStoreError) as error:
        log.warning("LTI dynamic registration failed: %s", error)
        return _refused("register", 400)
    return render_template("lti/registered.html")


#: The custom parameter of a placed activity (deep linking): ``today``, ``game:<id>`` or
#: ``hall:<id>``.
TARGET = "facilitator"


@bp.route("/launch", methods=["POST"])
def launch():
    """A launch from a course: checked, then the teacher to the course's class (or to the
    game or hall the activity names, or to the page that places an activity), a student to
    their seat."""
    # One HTTP session to the platform for the launch (its keys, its roster), closed after.
    with PlatformSession() as http:
        return _launch(http)


def _launch(http):
    try:
        checked = check_launch(database, http)
    except LaunchRefused as refusal:
        return _refused(refusal.reason)
    if not checked.context_id and not checked.resource_link_id:
        return _refused("message", 400)
    placing = checked.message_type == "LtiDeepLinkingRequest"
    if placing and not checked.teacher:
        return _refused("teacher_only", 403)
    if not checked.teacher and not checked.student:
        log.warning("LTI launch refused (role): roles %r", checked.roles[:10])
        return _refused("role", 403)
    course = course_of_launch(database, checked)
    class_id = course["class_id"]
    # Whatever this browser held before (a console's login, another course's) ends here.
    end_session(database, session.get("gm"))
    session.clear()
    target = _target(class_id, checked.custom.get(TARGET))
    if checked.teacher:
        refresh_roster(database, course, checked)
        session["gm"] = open_session(database, current_app.config["SESSION_HOURS"])
        session["lti_class"] = class_id
        if placing:
            session["lti_deep_link"] = checked.launch_id
            return redirect(url_for("lti.place"))
        if target is not None and target[0] == "game":
            return redirect(url_for("console.game", game_id=target[1]))
        if target is not None and target[0] == "hall":
            return redirect(url_for("halls.hall", hall_id=target[1]))
        return redirect(url_for("classes.page", class_id=class_id))
    student = enrol_launch(database, course, checked)
    if student is None:
        return _refused("person", 400)
    return _to_seat(class_id, student, target)


def _target(class_id: int, value: object) -> tuple[str, int] | None:
    """The game or hall of the class an activity names (``game:<id>``, ``hall:<id>``), or
    None (``today``: the class's newest; or one that is gone or not the class's)."""
    if not isinstance(value, str) or ":" not in value:
        return None
    what, _, number = value.partition(":")
    if what not in ("game", "hall") or not number.isascii() or not number.isdigit() \
            or len(number) > 9:
        return None
    wanted = (what, int(number))
    return wanted if any((p["kind"], p["id"]) == wanted
                         for p in class_places(database, class_id)) else None


def _to_seat(class_id: int, student: int, target: tuple[str, int] | None = None):
    """A student of a class to where they play: their seat in the hall, or their team in
    the game, the activity names, else in the class's newest game or hall they are in;
    without one, a page that says they are in and waits for the teacher's game."""
    from ..live.audience import issue_device_token, new_device_id
    from .door import _token, _with_token
    from .team import _own_device
    from .team import _with_token as with_device_token
    for place in class_places(database, class_id):
        if target is not None and (place["kind"], place["id"]) != target:
            continue
        if place["kind"] == "hall" and student in place["lineup"]:
            # The same phone launching again keeps its device: its seat is still its own.
            held = _token()
            device = held.device if held is not None and \
                held.public_id == place["public_id"] else new_device_id()
            return _with_token(redirect(url_for("door.seat")), place,
                               place["lineup"].index(student), device)
        if place["kind"] == "game":
            for team, members in enumerate(place["lineup"], start=1):
                if student in members:
                    token = issue_device_token(current_app.config["SECRET_KEY"],
                                               place["public_id"], team,
                                               _own_device(place["public_id"]))
                    return with_device_token(redirect(url_for("team.play")), token)
    name = next((s["name"] for s in _students(class_id) if s["id"] == student), "")
    return render_template("error.html", status=200, kind="lti_in", links=[],
                           detail=translate(getattr(g, "lang", "es"), "app.error.lti_in.text",
                                            name=name)), 200


@bp.route("/place", methods=["GET", "POST"])
@gm_required
def place():
    """Deep linking: the teacher picks what the course's new activity opens (today's game
    of the class, or one of its games or halls); the answer goes back to the platform,
    signed, through the teacher's browser (a form the teacher sends)."""
    from .auth import course_scope
    launch_id, class_id = session.get("lti_deep_link"), course_scope()
    if not isinstance(launch_id, str) or class_id is None:
        return _refused("place", 400)
    choices = [("today", None)] + [(f"{p['kind']}:{p['id']}", p["name"])
                                   for p in class_places(database, class_id)]
    if request.method == "GET":
        return render_template("lti/place.html", choices=choices, class_id=class_id)
    chosen = request.form.get("target", "")
    if chosen not in dict(choices):
        return render_template("lti/place.html", choices=choices, class_id=class_id,
                               error=True), 400
    from ..lti.tool import deep_link_answer
    title = dict(choices)[chosen] or translate(getattr(g, "lang", "es"), "classes.lti.today")
    answer = deep_link_answer(database, launch_id, url_for("lti.launch", _external=True),
                              title, {TARGET: chosen})
    if answer is None:
        return _refused("place", 400)
    session.pop("lti_deep_link", None)
    return render_template("lti/placed.html", return_url=answer[0], jwt=answer[1], title=title)


def _students(class_id: int) -> list[dict]:
    from ..store.classes import get_class
    klass = get_class(database, class_id)
    return klass["students"] if klass else []


#: What a course's console session may not do at all: the whole console's listings and
#: tools, a game or class of no course (each is every class's, or none's).
OUTSIDE_A_COURSE = {"console.create_game", "console.create_game_form", "console.new_game",
                    "results.upload_record", "console.logout_all", "tokens.tokens",
                    "tokens.revoke", "tokens.revoke_all", "classes.create",
                    "api_v1.games", "api_v1.create_game"}
#: The console's listings: a course's session goes to its class's page instead.
LISTINGS = {"console.games", "classes.index"}


def keep_to_the_course():
    """A console session opened by a course's launch reaches its class only: the class,
    its games and halls, the banks; a page of another class, game or hall, or of the whole
    console, is refused (its listings lead to the class's page)."""
    from .auth import course_scope, reaches
    endpoint, args = request.endpoint or "", request.view_args or {}
    if request.url_rule is None or not (
            endpoint in LISTINGS or endpoint in OUTSIDE_A_COURSE or endpoint == "halls.create"
            or {"class_id", "game_id", "hall_id"} & set(args)):
        return None         # nothing a course's scope decides (static files, students' pages)
    scope = course_scope()
    if scope is None:
        return None
    if endpoint in LISTINGS and request.method == "GET":
        return redirect(url_for("classes.page", class_id=scope))
    allowed = True
    if "class_id" in args:
        allowed = reaches(class_id=args["class_id"])
    elif "game_id" in args:
        allowed = reaches(game_id=args["game_id"])
    elif "hall_id" in args:
        allowed = reaches(hall_id=args["hall_id"])
    elif endpoint in OUTSIDE_A_COURSE or endpoint in LISTINGS:
        allowed = False
    elif endpoint == "halls.create":
        from .auth import read_json
        body = read_json()
        allowed = isinstance(body, dict) and reaches(class_id=body.get("class_id")) \
            and body.get("class_id") is not None
    if allowed:
        return None
    abort(403, translate(getattr(g, "lang", "es"), "app.error.lti.scope"))


def init_app(app) -> None:
    """Keep a course's console session to its class (keep_to_the_course), and send a
    course's marks when one of its class's games (or a hall's) ends, in the background:
    the game's last action does not wait for the platform."""
    app.before_request(keep_to_the_course)
    live = app.extensions.get("facilitator_live")
    if live is None:              # an app of the routes only (no live games): no game ends
        return
    socketio = app.extensions["socketio"]

    def after_game(game_id: int) -> None:
        """A game ended: its class's marks go in the background, if it is a course's."""
        class_id = _class_of_game(live, game_id)
        if class_id is not None and lti_store.course_of_class(database, class_id) is not None:
            socketio.start_background_task(_send_in_background, app, class_id)
    live.game_over_listeners.append(after_game)


def _class_of_game(live, game_id: int) -> int | None:
    """The class game ``game_id`` was made for: its own, or its hall's."""
    from ..store.classes import game_class
    found = game_class(database, game_id)
    if found is not None:
        return found["class_id"]
    halls = live.halls.halls
    hall_id = halls.hall_of_game(game_id)
    hall = halls.hall(hall_id) if hall_id is not None else None
    return hall.get("class_id") if hall else None


def _send_in_background(app, class_id: int) -> None:
    """Send the class's marks; while some wait because the platform did not take them,
    try again after each wait of LTI_RETRY_SECONDS (the class page's button, or the next
    game's end, may send them sooner)."""
    socketio = app.extensions["socketio"]
    for wait in (0, *app.config["LTI_RETRY_SECONDS"]):
        socketio.sleep(wait)
        try:
            with app.app_context(), PlatformSession() as http:
                result = sync_marks(database, store, class_id, http)
        except Exception:        # the marks wait in the store; the class page shows them
            log.exception("sending the marks of class %s", class_id)
            continue
        if not result["waiting"] or not result["error"]:
            return


def resume_waiting_marks(app) -> None:
    """Send, as a server starts, the marks of every class that still has some waiting (a
    server that stopped took its waits with it), each class as after a game's end: again
    after each of LTI_RETRY_SECONDS while the platform does not take them. Run it as a
    background task."""
    try:
        with app.app_context():
            waiting = lti_store.classes_with_waiting_marks(database)
    except Exception:            # a database not there yet: the next game's end sends them
        log.exception("looking for the marks that wait")
        return
    for class_id in waiting:
        app.extensions["socketio"].start_background_task(_send_in_background, app, class_id)


def _class_page(class_id: int):
    return redirect(url_for("classes.page", class_id=class_id) + "#lti")


@bp.post("/classes/<int:class_id>/marks")
@gm_required
def send_marks(class_id: int):
    """Send the class's marks to its course's gradebook now: JSON ``{"ok", "sent",
    "waiting", "error"}``, or back to the class page (which shows what waits)."""
    from .errors import wants_json
    if lti_store.course_of_class(database, class_id) is None:
        return _no_course()
    with PlatformSession() as http:
        result = sync_marks(database, store, class_id, http)
    return jsonify(ok=True, **result) if wants_json() else _class_page(class_id)


@bp.post("/classes/<int:class_id>/measures")
@gm_required
def choose_measures(class_id: int):
    """The measures whose marks go to the course's gradebook (form fields ``measures``,
    or JSON ``{"measures": [...]}``; the keys moodle.csv offers)."""
    from ..classes.exports import MEASURES
    from .auth import read_json
    from .errors import wants_json
    course = lti_store.course_of_class(database, class_id)
    if course is None:
        return _no_course()
    body = read_json() if request.is_json else None
    chosen = body.get("measures") if isinstance(body, dict) else request.form.getlist("measures")
    if not isinstance(chosen, list) or not all(isinstance(m, str) and m in MEASURES
                                               for m in chosen) or len(chosen) > len(MEASURES):
        message = f"the measures are some of {', '.join(MEASURES)}"
        if wants_json():
            return jsonify(ok=False, error="format", message=message), 400
        abort(400, message)
    measures = [m for m in MEASURES if m in chosen]
    lti_store.update_course(database, course["id"], measures=measures)
    return jsonify(ok=True, measures=measures) if wants_json() else _class_page(class_id)


def _no_course():
    from .errors import wants_json
    if wants_json():
        return jsonify(ok=False, error="not_found",
                       message="this class was not made from a course"), 404
    abort(404)


def class_panel(klass: dict, lang: str) -> dict | None:
    """What the class page shows of the class's course, or None for a class of its own:
    ``{"title", "measures", "choices": [(key, label)], "waiting": [{"name", "label",
    "score", "error"}], "send_url", "measures_url"}``."""
    from ..classes.exports import MEASURES
    course = lti_store.course_of_class(database, klass["id"])
    if course is None:
        return None
    english = lang == "en"
    names = {s["id"]: s["name"] for s in klass["students"]}
    by_sub = {sub: names.get(sid, sub) for sid, sub in lti_store.people_of(database,
                                                                           course["id"]).items()}
    waiting = [{"name": by_sub.get(m["sub"], m["sub"]),
                "label": MEASURES.get(m["measure"], (m["measure"],) * 2)[english],
                "score": m["score"], "error": m["error"]}
               for m in lti_store.waiting_marks(database, course["id"])]
    return {"title": course["title"], "measures": course["measures"],
            "choices": [(key, labels[english]) for key, labels in MEASURES.items()],
            "waiting": waiting,
            "send_url": url_for("lti.send_marks", class_id=klass["id"]),
            "measures_url": url_for("lti.choose_measures", class_id=klass["id"])}


@bp.get("/classes/<int:class_id>/marks.json")
@gm_required
def marks(class_id: int):
    """The course of a class and its marks waiting for the gradebook: ``{"ok", "course",
    "waiting": [{"measure", "sub", "score", "maximum", "error"}]}``."""
    course = lti_store.course_of_class(database, class_id)
    if course is None:
        return _no_course()
    return jsonify(ok=True, course={"title": course["title"], "measures": course["measures"],
                                    "lineitems": course["lineitems"]},
                   waiting=lti_store.waiting_marks(database, course["id"]))
