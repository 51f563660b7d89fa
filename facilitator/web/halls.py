"""Halls in the console: a game played by a whole class at once (la colmena's tables, a
Hive tournament's boards), made from a pasted list or a class; the teacher's hall view
and the hall's projector. What each screen shows comes from the hall rules' views."""
from __future__ import annotations

from flask import (Blueprint, Response, abort, current_app, g, jsonify, redirect,
                   render_template, request, url_for)

from ..extensions import database, store
from ..resources import data_path
from ..i18n import translate
from ..results.halls import hall_xlsx, records_zip, standings_csv
from ..games import Refusal, kind, names
from ..services.halls import create_hall, halls
from ..store.classes import list_classes
from . import use_game_language
from .downloads import attachment, file_stem
from .auth import gm_required, reaches, read_json
from .links import join_url, pretty_code, public_base

bp = Blueprint("halls", __name__)


def hall_kinds() -> list[dict]:
    """The games a whole class can play at once, each with its hall settings' bounds."""
    found = []
    for name in names():
        rules = kind(name).hall
        if rules is not None:
            found.append({"kind": name, "bounds": rules.bounds()})
    return found


def hall_styles(kind_name: str) -> str | None:
    """The address of a kind's hall screens' own styles (``static/css/<kind>hall.css``),
    or None when it brings none."""
    name = f"css/{kind_name}hall.css"
    return url_for("static", filename=name) if (data_path("static") / name).is_file() else None


def _links(game: dict) -> dict:
    """A hall game's addresses: its console, and its table's code, join address and QR."""
    code = game.get("table_code")
    return {**game, "console_url": url_for("console.game", game_id=game["game_id"]),
            "join_code": pretty_code(code) if code else None,
            "join_url": join_url(code) if code else None,
            "qr_url": url_for("assets.qr", code=code) if code else None}


@bp.route("/console/halls/new")
@gm_required
def new_hall():
    """The form that makes a hall: the game, its name, who plays (a pasted list or a
    class's students present) and the hall's settings."""
    kinds = hall_kinds()
    asked = request.args.get("kind")               # the home's card of a game: it is chosen
    chosen = asked if asked in [k["kind"] for k in kinds] else None
    return render_template("console/hall_new.html", kinds=kinds, chosen=chosen,
                           classes=[c for c in list_classes(database)
                                    if reaches(class_id=c["id"])],
                           kind_prefixes=tuple(k["kind"] + "hall." for k in kinds))


@bp.post("/console/halls")
@gm_required
def create():
    """Make a hall from the form (JSON); answers where to go, or what is wrong."""
    try:
        hall_id = create_hall(read_json())
    except Refusal as refusal:
        return jsonify(ok=False, error=refusal.rule, message=refusal.message), 400
    return jsonify(ok=True, hall_id=hall_id, url=url_for("halls.hall", hall_id=hall_id))


@bp.route("/console/halls/<int:hall_id>")
@gm_required
def hall(hall_id: int):
    """The teacher's hall view: every table or board, live."""
    found = halls().hall(hall_id)
    if found is None:
        abort(404)
    games = [_links(game) for game in halls().games_of(hall_id)]
    return render_template(
        "console/hall.html", hall=found, games=games, door=door_of(found),
        watch_url=public_base() + url_for("halls.projector", watch=found["watch_code"]),
        hall_css=hall_styles(found["kind"]),
        script=url_for("team.screen_script", game=found["kind"], name="hall.js"))


@bp.route("/console/halls/<int:hall_id>.json")
@gm_required
def hall_data(hall_id: int):
    """The hall as JSON: its row (name, kind, players, settings) and its games with
    their codes and the device holding each seat."""
    found = halls().hall(hall_id)
    if found is None:
        return jsonify(ok=False, error="not_found", message="there is no such hall"), 404
    return jsonify(ok=True, hall={k: v for k, v in found.items() if k != "plan"},
                   games=[_links(game) for game in halls().games_of(hall_id)],
                   standings=halls().standings(hall_id))


def _columns(kind_name: str, lang: str) -> tuple:
    """The hall's own standings columns, each with its header in ``lang``."""
    return tuple((key, translate(lang, f"{kind_name}hall.column.{key}"))
                 for key in halls().rules(kind_name).columns)


def _result_words(kind_name: str, result: str | None, lang: str) -> str:
    """A game's result as its hall's catalog words it (la colmena's tier, Hive's draw);
    a winner's name as it is."""
    if not result:
        return ""
    for key in (f"{kind_name}hall.result.{result}", f"{kind_name}.result.{result}"):
        words = translate(lang, key)
        if words != key:
            return words
    return result


def _game_name(rules, key: str, lang: str, with_round: bool) -> str:
    """A hall's game named in ``lang``'s words by its place («Mesa 2», «Board 3»), its
    round before it («Ronda 2 · Tablero 3») when ``with_round`` and the hall's rounds are
    worth naming: the stored name is the one it was made with, in the hall's language."""
    round_, place = str(key).split(".", 1)
    name = translate(lang, rules.place_words, n=place, place=place)
    if with_round and rules.rounds_named:
        return f"{translate(lang, 'door.round', n=round_)} · {name}"
    return name


def _game_lines(hall: dict, summaries: dict, lang: str, words: bool = False,
                with_round: bool = True) -> list[dict]:
    """Each game of the hall with its players and result, named in ``lang``'s words (its
    round in the name ``with_round``; a sheet with a round column needs none there);
    ``words``: the result in ``lang``'s words, as the hall's kind words it (else its
    code, which the page words). ``played`` False for a game its hall's ``summaries`` say
    was never played (a table of la colmena that ended at the bell before its first
    card): it has no result."""
    rules = halls().rules(hall["kind"])
    lines = []
    for game in halls().games_of(hall["id"]):
        match, row = store.current(game["game_id"])
        seats = match.seats()
        played = summaries.get(game["key"], {}).get("played", True)
        name = (_game_name(rules, game["key"], lang, with_round) if rules.place_words
                else game["name"])
        lines.append({**game, "name": name, "players": [seat["name"] for seat in seats],
                      "over": row.over, "played": played,
                      "result": _result_words(hall["kind"], row.winner, lang)
                      if words else row.winner})
    return lines


@bp.route("/console/halls/<int:hall_id>/results")
@gm_required
def results(hall_id: int):
    """The hall's results: standings, each game's result, the debrief, the downloads."""
    found = halls().hall(hall_id)
    if found is None:
        abort(404)
    use_game_language(found["settings"])
    rules = halls().rules(found["kind"])
    lang = getattr(g, "lang", "es")
    summaries = halls().summaries(found)
    return render_template(
        "console/hall_results.html", hall=found, standings=halls().standings(hall_id),
        groups=_groups(rules, found, summaries, lang),
        columns=_columns(found["kind"], lang) if rules.ranks == "group" else (),
        games=[_links(game) for game in _game_lines(found, summaries, lang)],
        debrief=rules.debrief(found["plan"], summaries, lang))


def _groups(rules, hall: dict, summaries: dict, lang: str) -> list[dict] | None:
    """The results' groups (la colmena's tables, each with its students) when the hall's
    rules rank groups; None when they rank players."""
    return rules.groups(hall["plan"], summaries, lang) if rules.ranks == "group" else None


@bp.route("/console/halls/<int:hall_id>/export/<string:what>")
@gm_required
def export(hall_id: int, what: str):
    """The hall's downloads: ``standings.csv``, ``hall.xlsx``, ``records.zip``."""
    found = halls().hall(hall_id)
    if found is None or what not in ("standings.csv", "hall.xlsx", "records.zip"):
        abort(404)
    lang = getattr(g, "lang", "es")
    name = file_stem(found["name"], "sala")
    columns = _columns(found["kind"], lang)
    summaries = halls().summaries(found)
    groups = _groups(halls().rules(found["kind"]), found, summaries, lang)
    if what == "standings.csv":
        body = standings_csv(found, halls().standings(hall_id), lang, columns, groups)
        mimetype = "text/csv; charset=utf-8"
    elif what == "hall.xlsx":
        body = hall_xlsx(found, halls().standings(hall_id),
                         _game_lines(found, summaries, lang, words=True, with_round=False),
                         lang, columns, groups)
        mimetype = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    else:
        body = records_zip([(game["key"], store.record(game["game_id"]))
                            for game in halls().games_of(hall_id)])
        mimetype = "application/zip"
    return Response(body, mimetype=mimetype, headers={
        "Content-Disposition": attachment(f"{name}-{what}")})


@bp.post("/console/halls/<int:hall_id>/delete")
@gm_required
def delete(hall_id: int):
    """Delete a hall and its games (their screens are closed)."""
    live = current_app.extensions["facilitator_live"]
    if halls().hall(hall_id) is None:
        abort(404)
    halls().delete(hall_id, delete_game=live.delete_game)
    return redirect(url_for("console.games"))


@bp.route("/halls/<watch>")
def projector(watch: str):
    """The hall's projector: every table's score or the round's pairings and standings."""
    hall_id = halls().of_watch_code(watch)
    found = halls().hall(hall_id) if hall_id is not None else None
    if found is None:
        abort(404)
    use_game_language(found["settings"])
    return render_template("games/screen.html", kind_prefix=found["kind"] + ".", role="hall_watcher", token=None, watch=watch,
                           game_id=found["id"], seat=None, game_name=found["name"],
                           seat_name=found["name"], hall_prefix=found["kind"] + "hall.",
                           hall_css=hall_styles(found["kind"]),
                           door=door_of(found),
                           script=url_for("team.screen_script", game=found["kind"],
                                          name="hall_watcher.js"))


def door_of(hall: dict) -> dict | None:
    """The lecture's door as a hall's projector shows it: its code, address and QR code
    (the QR code encodes the code's join address, which opens the door)."""
    code = hall.get("door_code")
    if not code:
        return None
    return {"code": pretty_code(code), "url": join_url(code),
            "qr": url_for("assets.qr", code=code), "watch": hall["watch_code"]}
