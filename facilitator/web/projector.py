"""The projector: the public view, for the whole room."""
from __future__ import annotations

from flask import Blueprint, abort, render_template

from ..extensions import store
from . import use_game_language
from .links import team_links

bp = Blueprint("projector", __name__)


@bp.route("/projector/<watch>")
def show(watch: str):
    """The projector page of the game whose watch code is ``watch``."""
    row = store.find_watch_code(watch)
    if row is None:
        abort(404)
    row = store.row(row.id)
    use_game_language(row.settings)          # the game's language unless this device chose one
    return render_template("projector.html", game={"id": row.id, "name": row.name},
                           watch=row.watch_code, teams=team_links(row))
