"""Socket.IO events run in a Flask request context that matches a URL rule.

Flask-SocketIO pushes a request context for every connection and event, with
the environ of the connection's HTTP request (``/socket.io/``). No Flask rule
matched it, so every push raised and kept a ``NotFound``: its traceback's
frames hold the context that holds the exception, a reference cycle of dozens
of objects per event that only the garbage collector frees, and a server tuned
to collect rarely (``serve.GC_THRESHOLDS``) frees late. With a rule for the
path, the context matches and nothing is raised (less CPU per connection:
docs/performance.md).

A WebSocket's environ asks for a WebSocket rule (``Upgrade: websocket``:
werkzeug binds it as ``ws://``), and an HTTP rule then raises
``WebsocketMismatch`` instead: every event of every tablet did, each with a
cycle of objects, which made the young collections of a campus server long and
frequent. So the path has a rule of each kind.

Each of those contexts also opened the session: for a GM's connection, its
signed cookie verified and decoded again at every event (a noticeable part of
a GM's action: ``bench/action_cpu.py --path event --gap 50``),
though a connection's cookie cannot change and Flask-SocketIO hands its
handlers a copy made at the connection's first event anyway. A connection's
session is read once (``ConnectionSessions``); whether the GM's console
session is still open is asked of the database's answer at every event, as
before (``web.auth.gm_logged_in``).
"""
from __future__ import annotations

from flask.sessions import SecureCookieSessionInterface


def match_socketio_path(app, path: str = "socket.io") -> None:
    """Give ``app`` URL rules for the Socket.IO path (GET and POST, and a WebSocket's
    GET, with or without the trailing slash). Their view is never reached: the
    Socket.IO middleware answers that path before Flask sees it."""
    rule = f"/{path.strip('/')}/"
    app.add_url_rule(rule, endpoint="socketio_path", view_func=_not_served,
                     methods=["GET", "POST"], strict_slashes=False)
    # The same path for the environ of a WebSocket (its upgrade request is a GET).
    app.add_url_rule(rule, endpoint="socketio_websocket", view_func=_not_served,
                     methods=["GET"], strict_slashes=False, websocket=True)


def _not_served():
    return "", 404


#: Where a Socket.IO connection's environ keeps the session read from its cookie.
SESSION_KEY = "facilitator.connection_session"


class ConnectionSessions(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, read once per Socket.IO connection.

    Every event of a connection runs with the environ of its handshake (the same
    dict): the session read from its cookie is kept there. Pages and every other
    request read their cookie as usual."""

    def __init__(self, path: str = "socket.io"):
        self.socketio_path = f"/{path.strip('/')}"

    def open_session(self, app, request):
        """The request's session; for a Socket.IO connection, the one read at its first
        event."""
        if not request.path.rstrip("/") == self.socketio_path:
            return super().open_session(app, request)
        environ = request.environ
        session = environ.get(SESSION_KEY)
        if session is None:
            session = environ[SESSION_KEY] = super().open_session(app, request)
        return session
