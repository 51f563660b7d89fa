"""The GM's session: who may open the console."""
from __future__ import annotations

from functools import wraps

from flask import jsonify, redirect, request, session, url_for


def gm_required(view):
    """Send a visitor who is not logged in as GM to the login page (or a 401 for JSON)."""
    @wraps(view)
    def wrapped(*args, **kwargs):
        if not session.get("gm"):
            if request.is_json or request.path.startswith("/api/"):
                return jsonify(ok=False, error="auth", message="log in to the GM console"), 401
            return redirect(url_for("console.login", next=request.path))
        return view(*args, **kwargs)
    return wrapped


def read_json():
    """The request's JSON body, or None when it is missing, malformed or absurdly nested."""
    try:
        return request.get_json(silent=True)
    except RecursionError:
        return None
