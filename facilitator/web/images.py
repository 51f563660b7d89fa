"""Formatted questions and their images, for the pages of a game (issue 14).

URLs::

    GET /g/<public_id>/img/<image_id>   an image a question of the game shows
    GET /g/<game_id>/rich/<ref>          the formatted text of question ``ref``

Images come from the bank the game was made from (:class:`BankImage`) and
are served by the facilitator itself, never from the internet. No login is
needed (teams and the projector have none): the game's random public id
names the game, and only images its questions show are served. The stored
type (PNG, JPEG, GIF or WebP, checked by the bytes at import) is the
``Content-Type``, with ``nosniff`` and a restrictive CSP.

The public view of a game carries each question's plain text only; the pages
ask ``/rich/<ref>`` for the formatted form (sanitised HTML, no script, images
of this game only). A team or the projector gets it only for the question
being asked or already asked: the ref of a later question tells nothing.
The GM (logged in) gets any, with the formatted expected answer too.
"""
from __future__ import annotations

from flask import Blueprint, Response, abort, jsonify

from ..extensions import database, store
from ..store.banks import game_image as shown_image
from .auth import gm_logged_in

bp = Blueprint("images", __name__)

#: Images never change (a new import gives new ids): browsers keep them a day.
CACHE_SECONDS = 86400


@bp.route("/g/<public_id>/img/<int:image_id>")
def game_image(public_id: str, image_id: int):
    """An image a question of the game shows; 404 for any other."""
    if len(public_id) > 64:
        abort(404)
    image = shown_image(database, public_id, image_id)
    if image is None:
        abort(404)
    response = Response(image.data, mimetype=image.mime)
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Content-Security-Policy"] = "default-src 'none'; sandbox"
    response.headers["Cache-Control"] = f"public, max-age={CACHE_SECONDS}, immutable"
    return response


@bp.route("/g/<int:game_id>/rich/<int:ref>")
def rich_question(game_id: int, ref: int):
    """``{"ref", "html"}`` (and ``"answer_html"`` for the GM) of question ``ref``
    of a game; 404 when a team may not see it yet (409 for a game stored broken)."""
    from ..store.games import BROKEN_ERRORS
    try:
        loaded = store.current(game_id)
    except BROKEN_ERRORS:
        from .errors import broken_game_page
        return broken_game_page(game_id, store.broken(game_id) or "unreadable", False)
    question = loaded[0].question_for(ref, gm_logged_in()) if loaded is not None else None
    if question is None:
        abort(404)
    gm = gm_logged_in()
    body = {"ref": ref, "html": question.text_html}
    if gm:
        body["answer_html"] = question.answer_html
    response = jsonify(body)
    response.headers["Cache-Control"] = "private, no-store" if gm else "private, max-age=60"
    return response
