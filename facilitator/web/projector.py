"""The projector: the public view, for the whole room."""
from __future__ import annotations

from flask import Blueprint, abort, render_template, url_for

from ..extensions import database, store
from ..games import kind
from . import use_game_language
from .links import door_link, team_links

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
    if "watcher" not in kind(row.kind).pages:
        # A game whose kind brings its own screen scripts: its projector's, with the
        # game's own code for the room (a hall's game: the hall's projector shows the
        # hall's door instead).
        link = door_link(row) if row.hall_id is None else None
        door = {"code": link["join_code"], "url": link["join_url"],
                "qr": link["qr_url"]} if link else None
        return render_template("games/screen.html", kind_prefix=row.kind + ".", role="projector", token=None,
                               watch=row.watch_code, game_id=row.id, seat=None,
                               game_name=row.name, seat_name=row.name, door=door,
                               script=url_for("team.screen_script", game=row.kind,
                                              name="watcher.js"))
    teams = team_links(row)
    # A class list: each student picks their name at the door, else their team.
    listed = any(_members(row.settings, team["number"]) for team in teams)
    if _names_shown(row):
        for team in teams:
            team["members"] = _members(row.settings, team["number"])
    return render_template("projector.html", game={"id": row.id, "name": row.name},
                           watch=row.watch_code, teams=teams, door=door_link(row),
                           listed=listed)


def _names_shown(row) -> bool:
    """Whether the projector may name the students: yes for a list pasted for this game,
    as the class chose for a class's game."""
    from ..store.classes import game_class
    klass = game_class(database, row.id)
    return klass is None or klass["projector_names"]


def _members(settings: dict, team: int) -> list[str]:
    """The names the game's class list (``roster``) gives team ``team``."""
    roster = settings.get("roster")
    members = roster[team - 1] if isinstance(roster, list) and len(roster) >= team else None
    return [str(name) for name in members] if isinstance(members, list) else []
