"""The GM's session: who may open the console, and who may use the JSON API.

The console is the GM's login session (a cookie). The JSON API (``/api/...``)
also takes a personal API token, ``Authorization: Bearer <token>``, issued and
revoked in the console (``/console/tokens``). When a request to the API carries
a bearer token, the token alone decides: a revoked, unknown or malformed one
gets a 401 even if the same client also holds a GM session.
"""
from __future__ import annotations

from functools import wraps

from flask import g, jsonify, redirect, request, session, url_for

#: Paths where a bearer token is accepted (and exempts POSTs from the cross-site check).
API_PREFIX = "/api/"
#: The versioned API answers errors as ``{"error", "message"}`` with ``error`` "unauthorized".
API_V1_PREFIX = "/api/v1/"

_UNCHECKED = object()


def bearer_token() -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, if the request has one
    ("" when the header names the Bearer scheme without a usable token)."""
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer":
        return None
    return token.strip()


def api_token() -> dict | None:
    """The valid API token this request to the API authenticates with, else None.

    Checked once per request (the check notes when the token was last used).
    """
    found = g.get("_api_token", _UNCHECKED)
    if found is _UNCHECKED:
        found = None
        token = bearer_token()
        if token and request.path.startswith(API_PREFIX):
            from ..extensions import database
            from ..store.tokens import check_token
            found = check_token(database, token)
        g._api_token = found
    return found


def uses_valid_api_token() -> bool:
    """Whether this request is authenticated by a valid bearer token (API paths only).

    Such a request is exempt from the cross-site POST check: a browser never
    sends a bearer token by itself, so a page of another site cannot forge one.
    """
    return api_token() is not None


def gm_logged_in() -> bool:
    """Whether this request (or Socket.IO connection) comes from a logged-in GM: its signed
    session cookie holds the secret of a console session the database says is still open.

    The one check of the console login: ``gm_required`` and the GM's Socket.IO connection
    use it. The cookie form of old releases (``{"gm": true}``) holds no secret: refused.
    """
    secret = session.get("gm")
    if not isinstance(secret, str):
        return False
    from ..extensions import database
    from ..store.sessions import session_is_valid
    return session_is_valid(database, secret)


def course_scope() -> int | None:
    """The class a console session opened by a course's launch (LTI, web/lti.py) is kept
    to, or None for a session of the console's own login (every class). The signed
    cookie holds it beside the session's secret: neither goes without the other."""
    scope = session.get("lti_class")
    return scope if isinstance(scope, int) and not isinstance(scope, bool) else None


def reaches(class_id: int | None = None, game_id: int | None = None,
            hall_id: int | None = None) -> bool:
    """Whether this request's console session may reach the class, game or hall named:
    always without a course's scope; with one, only its own class and the games and
    halls made from it."""
    scope = course_scope()
    if scope is None:
        return True
    if any(not 0 < n < 2 ** 31 for n in (class_id, game_id, hall_id) if n is not None):
        return False                         # names no row (nor a database's integer)
    if class_id is not None:
        return class_id == scope
    from flask import current_app
    halls = current_app.extensions["facilitator_live"].halls.halls
    if game_id is not None:
        from ..extensions import database
        from ..store.classes import game_class
        found = game_class(database, game_id)
        if found is not None:
            return found["class_id"] == scope
        hall_id = halls.hall_of_game(game_id)
        if hall_id is None:
            return False
    if hall_id is not None:
        hall = halls.hall(hall_id)
        return hall is not None and hall.get("class_id") == scope
    return True


def console_session_key() -> str | None:
    """The key of the console session this request's cookie names (the hash the database
    keeps, ``store.sessions.secret_hash``), whether or not it is still open; None without
    one. A console's Socket.IO connections are kept under it, to be closed at its logout."""
    secret = session.get("gm")
    if not isinstance(secret, str) or not secret:
        return None
    from ..store.sessions import secret_hash
    return secret_hash(secret)


def _token_refusal(token: str) -> str:
    """Why a bearer token is refused: it expired (when, and what to do), or it is unknown
    or revoked."""
    from ..extensions import database
    from ..store.tokens import find_token
    found = find_token(database, token)
    if found is not None and found["expired"]:
        return (f"the API token expired on {found['expires_at']:%Y-%m-%d %H:%M} UTC: issue a "
                "new one in the console (API tokens, /console/tokens)")
    return "the API token is not valid: it is unknown or revoked"


def _unauthorized(message: str):
    if request.path.startswith(API_V1_PREFIX):
        response = jsonify(error="unauthorized", message=message)
        response.headers["WWW-Authenticate"] = 'Bearer realm="facilitator"'
        return response, 401
    return jsonify(ok=False, error="auth", message=message), 401


def gm_required(view):
    """Let in the GM: the console session, or on the API a valid bearer token.

    A visitor who is neither is sent to the login page (or gets a 401 for JSON).
    """
    @wraps(view)
    def wrapped(*args, **kwargs):
        if request.path.startswith(API_PREFIX) and bearer_token() is not None:
            if api_token() is None:
                return _unauthorized(_token_refusal(bearer_token()))
            return view(*args, **kwargs)
        if not gm_logged_in():
            if request.is_json or request.path.startswith(API_PREFIX):
                return _unauthorized("log in to the GM console or send an API token")
            # The whole address (its query too): the login comes back to it.
            return redirect(url_for("console.login", next=request.full_path.rstrip("?")))
        return view(*args, **kwargs)
    return wrapped


def read_json():
    """The request's JSON body, or None when it is missing, malformed or absurdly nested."""
    try:
        return request.get_json(silent=True)
    except RecursionError:
        return None


def from_another_site() -> bool:
    """Whether a request says it comes from a page of another site: its ``Origin`` (or,
    without one, its ``Referer``) names another host, or is ``null`` (a sandboxed or
    privacy-stripped page). A request that says nothing is not: every browser sends
    ``Origin`` with a POST, so one without it comes from a script, which carries no
    GM's cookies by itself (and the API's scripts use a bearer token anyway)."""
    from urllib.parse import urlsplit
    source = request.headers.get("Origin") or request.headers.get("Referer")
    if source is None:
        return False
    if source.strip() in ("", "null"):
        return True
    try:
        host = urlsplit(source.strip()).netloc
    except ValueError:
        return True
    return not host or host.lower() != request.host.lower()
