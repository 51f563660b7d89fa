"""Error pages: an HTTP error (404, 405, 400...) and a game stored broken, in the page's
language, with a way back; JSON for the routes that answer JSON.

A mistyped projector address, a join link with a bad code, an unknown ``/console/...``
path reach this page instead of Flask's English "Not Found". JSON routes (``/api/...``,
``....json`` downloads, requests that send or accept only JSON) keep a JSON error:
``{"ok": false, "error", "message"}`` (the versioned API's own form is in
:mod:`facilitator.web.api_v1`).
"""
from __future__ import annotations

from flask import jsonify, render_template, request
from werkzeug.exceptions import HTTPException

#: The statuses with a title and a text of their own (the others use ``other``).
KNOWN = (400, 404, 405, 413, 429)


def wants_json() -> bool:
    """Whether this request is answered in JSON: the API, a ``.json`` address, a JSON
    body, or an ``Accept`` that prefers JSON to HTML."""
    if request.path.startswith("/api/") or request.path.endswith(".json") or request.is_json:
        return True
    accept = request.accept_mimetypes
    return accept.best_match(["text/html", "application/json"]) == "application/json" \
        and accept["application/json"] > accept["text/html"]


def back_links() -> list[dict]:
    """Where the error page offers to go: the console for the teacher's pages, the join
    page for a team's, the start page always."""
    path = request.path
    links = []
    if path.startswith("/console"):
        links.append({"href": "/console", "key": "app.error.to_console", "testid": "to-console"})
    if path.startswith(("/j/", "/join", "/team", "/g/")):
        links.append({"href": "/join", "key": "app.error.to_join", "testid": "to-join"})
    links.append({"href": "/", "key": "app.error.to_home", "testid": "to-home"})
    return links


def http_error_page(exc: HTTPException):
    """An HTTP error as a page in the page's language (or as JSON, see :func:`wants_json`)."""
    status = exc.code or 500
    if wants_json():
        code = {401: "unauthorized", 404: "not_found"}.get(status,
                                                          "format" if status < 500 else "server")
        return jsonify(ok=False, error=code, message=exc.description or exc.name), status
    kind = str(status) if status in KNOWN else "other"
    # A description of our own (not the HTTP status's stock English one) says why.
    detail = exc.description if exc.description != type(exc).description else None
    return render_template("error.html", status=status, kind=kind, links=back_links(),
                           detail=detail), status


def broken_game_page(game_id: int, why: str, gm: bool):
    """The page of a game whose stored row cannot be read (its settings or actions are not
    the JSON they should be): it says so, shows the technical reason, and on the teacher's
    pages offers to delete it. Status 409: the game exists, but cannot be used."""
    if wants_json():
        body = {"error": "broken", "message": f"game {game_id} is stored broken ({why}): it "
                                              "cannot be played or shown; delete it"}
        if not request.path.startswith("/api/v1/"):
            body = {"ok": False, **body}
        return jsonify(body), 409
    return render_template("error.html", status=409, kind="broken", links=back_links(),
                           game_id=game_id, why=why, gm=gm), 409
