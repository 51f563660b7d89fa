"""The projector: the public view, for the whole room."""
from __future__ import annotations

from flask import Blueprint, abort, render_template, url_for

from ..extensions import store
from ..games import kind
from . import use_game_language
from .links import team_links

bp = Blueprint("projector", __name__)


@bp.route("/projector/<watch>")
def show(watch: str):
    """The projector page of the game whose watch code is ``watch`` (a page saying so for
    a game stored broken)."""
    game_id = store.game_of_watch_code(watch)
    if game_id is None or not store.exists(game_id):
        abort(404)
    why = store.broken(game_id)
    if why is not None:
        from .errors import broken_game_page
        return broken_game_page(game_id, why, False)
    row = store.row(game_id)
    use_game_language(row.settings)          # the game's language unless this device chose one
    if "watcher" not in getattr(kind(row.kind), "pages", {}):
        # A game whose kind brings its own screen scripts: its projector's.
        return render_template("games/screen.html", kind_prefix=row.kind + ".", role="projector", token=None,
                               watch=row.watch_code, game_id=row.id, seat=None,
                               game_name=row.name, seat_name=row.name,
                               script=url_for("team.screen_script", game=row.kind,
                                              name="watcher.js"))
    return render_template("projector.html", game={"id": row.id, "name": row.name},
                           watch=row.watch_code, teams=team_links(row))
