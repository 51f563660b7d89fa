"""The console's classes (issue 15): the list of students, new games made from today's
attendance, the term league, participation and the marks exports.

Every route is the GM's. JSON answers are ``{"ok": true, ...}`` or ``{"ok": false,
"error": code, "message": detail}`` with a 4xx status; ``code`` is a rule id of the game
or ``format`` / ``not_found``.
"""
from __future__ import annotations

import random

from flask import (Blueprint, Response, abort, current_app, g, jsonify, redirect,
                   render_template, request, url_for)

from ..classes import SCHEMES, league, parse_class_list, participation
from ..classes.roster import check_student, duplicate_names
from ..games import Refusal
from ..extensions import database, store
from ..store import classes as stored
from ..store.banks import bank_questions, coverage, list_banks
from .downloads import attachment
from .auth import gm_required, read_json
from ..classes.summaries import read_questions, summaries
from ..services.games import create_class_game, setup_defaults, setup_teams

bp = Blueprint("classes", __name__, url_prefix="/console/classes")


def _refused(error: str, message: str, status: int = 400):
    return jsonify(ok=False, error=error, message=message), status


def _class_or_404(class_id: int) -> dict:
    klass = stored.get_class(database, class_id)
    if klass is None:
        abort(404)
    return klass


def _students_by_id(klass: dict) -> dict[int, dict]:
    return {s["id"]: s for s in klass["students"]}


# -- pages ----------------------------------------------------------------------------

@bp.route("")
@bp.route("/")
@gm_required
def index():
    """The classes: each with its students and games, and a form for a new one."""
    return render_template("console/classes.html", classes=[
        {**c, "url": url_for("classes.page", class_id=c["id"])}
        for c in stored.list_classes(database, getattr(g, "lang", "es"))])


@bp.route("/<int:class_id>")
@gm_required
def page(class_id: int):
    """One class: its students, a new game from today's attendance, league, participation."""
    klass = _class_or_404(class_id)
    games = _games_of(class_id)
    data = {"class": klass, "banks": list_banks(database), "defaults": setup_defaults(),
            "schemes": list(SCHEMES), "games": games,
            "has_last_lineup": stored.last_lineup(database, class_id) is not None,
            "urls": _urls(class_id)}
    from .lti import class_panel
    return render_template("console/class.html", klass=klass, data=data, games=games,
                           lti=class_panel(klass, getattr(g, "lang", "es")))


def _urls(class_id: int) -> dict:
    base = url_for("classes.page", class_id=class_id)
    return {"self": base, "json": base + ".json", "students": base + "/students",
            "deal": base + "/deal", "questions": base + "/questions", "games": base + "/games",
            "league": base + "/league.json", "participation": base + "/participation.json",
            "delete": base + "/delete", "export": base + "/export/"}


def _games_of(class_id: int) -> list[dict]:
    """The class's games, oldest first, as the class page lists them (``broken``: why a
    game's stored row cannot be read, else None)."""
    ids = stored.class_game_ids(database, class_id)
    wanted = set(ids)
    listed = {game["id"]: game for game in store.listing() if game["id"] in wanted}
    return [{"id": game["id"], "name": game["name"],
             "created_at": game["created_at"].isoformat(timespec="minutes"),
             "over": game["over"], "winner": game["winner"], "broken": game["broken"],
             "url": url_for("console.game", game_id=game["id"])}
            for game in (listed.get(game_id) for game_id in ids) if game is not None]


# -- the class itself -----------------------------------------------------------------

@bp.post("")
@bp.post("/")
@gm_required
def create():
    """A new class from ``{"name"}`` (JSON or a form); JSON answers ``{"ok", "id", "url"}``,
    a form goes to the new class's page."""
    data = read_json() if request.is_json else request.form
    try:
        class_id = stored.create_class(database, (data or {}).get("name"))
    except stored.ClassError as error:
        if not request.is_json:
            return redirect(url_for("classes.index", error=str(error)))
        return _refused("format", str(error))
    url = url_for("classes.page", class_id=class_id)
    return (jsonify(ok=True, id=class_id, url=url), 201) if request.is_json else redirect(url)


@bp.route("/<int:class_id>.json")
@gm_required
def as_json(class_id: int):
    """The class and its students."""
    return jsonify(ok=True, **{"class": _class_or_404(class_id)})


@bp.post("/<int:class_id>")
@gm_required
def change(class_id: int):
    """Change ``name``, ``bank_id``, ``league_scheme``, ``projector_names`` or ``settings``."""
    data = read_json()
    if not isinstance(data, dict):
        return _refused("format", "send the changes as a JSON object")
    try:
        klass = stored.update_class(database, class_id, data)
    except stored.ClassError as error:
        return _refused("format", str(error))
    if klass is None:
        return _refused("not_found", f"there is no class {class_id}", 404)
    if {"projector_names", "league_scheme", "name"} & data.keys():
        _refresh_screens(class_id)
    return jsonify(ok=True, **{"class": klass})


def _refresh_screens(class_id: int) -> None:
    """Show a change of the class (names on the projector or not, the league's scheme)
    on its games' screens now, not when their cached class link expires."""
    live = current_app.extensions["facilitator_live"]
    for game_id in stored.class_game_ids(database, class_id):
        live.class_changed(game_id)
    for hall_id in live.halls.halls.of_class(class_id):    # its halls' projectors too
        live.halls.forget(hall_id)
        live.halls.changed(hall_id)


@bp.post("/<int:class_id>/delete")
@gm_required
def remove(class_id: int):
    """Delete the class: its students, its games (their devices disconnected) and
    everything computed from them. Names are personal data: nothing of them stays."""
    _class_or_404(class_id)
    live = current_app.extensions["facilitator_live"]
    for game_id in stored.class_game_ids(database, class_id):
        live.delete_game(game_id)
    stored.delete_class(database, class_id)
    if request.is_json:
        return jsonify(ok=True)
    return redirect(url_for("classes.index"))


# -- students -------------------------------------------------------------------------

@bp.post("/<int:class_id>/students")
@gm_required
def add(class_id: int):
    """Add students: ``{"text": pasted list}`` (one per line; lines that cannot be read
    are listed in ``errors`` with their number, the others are added) or one student
    ``{"name", "email", "id_number"}``. ``duplicates`` names the added students whose
    name another student has too (``[{"name", "lines", "existing"}]``): both are kept,
    and the page asks to tell them apart."""
    klass = _class_or_404(class_id)
    data = read_json()
    if not isinstance(data, dict):
        return _refused("format", "send {\"text\": ...} or {\"name\": ...}")
    errors: list[str] = []
    if isinstance(data.get("text"), str):
        if len(data["text"]) > 200_000:
            return _refused("format", "the pasted list is too long (200,000 characters at most)")
        entries, errors = parse_class_list(data["text"])
    else:
        try:
            entries = [check_student(data.get("name"), data.get("email", ""),
                                     data.get("id_number", ""))]
        except ValueError as error:
            return _refused("format", str(error))
    duplicates = duplicate_names(entries, [s["name"] for s in klass["students"]])
    try:
        students = stored.add_students(database, class_id, entries)
    except stored.ClassError as error:
        return _refused("format", str(error))
    return jsonify(ok=True, added=len(entries), errors=errors, students=students,
                   duplicates=duplicates)


@bp.post("/<int:class_id>/students/<int:student_id>")
@gm_required
def edit_student(class_id: int, student_id: int):
    """Change a student's ``name``, ``email``, ``id_number`` or ``left`` (true: has
    left the class; kept in the league, not dealt into new games)."""
    klass = _class_or_404(class_id)
    data = read_json()
    current = _students_by_id(klass).get(student_id)
    if current is None:
        return _refused("not_found", f"the class has no student {student_id}", 404)
    if not isinstance(data, dict):
        return _refused("format", "send the changes as a JSON object")
    left = data.get("left")
    if left is not None and not isinstance(left, bool):
        return _refused("format", "left is true or false")
    entry = None
    if {"name", "email", "id_number"} & data.keys():
        try:
            entry = check_student(data.get("name", current["name"]),
                                  data.get("email", current["email"]),
                                  data.get("id_number", current["id_number"]))
        except ValueError as error:
            return _refused("format", str(error))
    student = stored.update_student(database, class_id, student_id, entry, left)
    return jsonify(ok=True, student=student)


@bp.post("/<int:class_id>/students/<int:student_id>/delete")
@gm_required
def delete_student(class_id: int, student_id: int):
    """Remove a student from the list, the league and participation."""
    if not stored.delete_student(database, class_id, student_id):
        return _refused("not_found", f"the class has no student {student_id}", 404)
    return jsonify(ok=True)


# -- a new game from the class --------------------------------------------------------

def _present(klass: dict, present: object) -> list[int] | None:
    by_id = _students_by_id(klass)
    if (not isinstance(present, list) or len(present) != len(set(map(repr, present)))
            or not all(isinstance(s, int) and not isinstance(s, bool) and s in by_id
                       for s in present)):
        return None
    return present


@bp.post("/<int:class_id>/deal")
@gm_required
def deal(class_id: int):
    """Deal today's present students into balanced teams, as the game proposes:
    ``{"present": [student ids], "mode": "fresh" | "keep", "teams": N?, "max_members": M?}``.
    ``keep`` keeps the last game's teams as far as attendance allows. Answers
    ``{"lineup": [[ids]], "team_names": [...], "kept": bool}``."""
    klass = _class_or_404(class_id)
    data = read_json()
    data = data if isinstance(data, dict) else {}
    present = _present(klass, data.get("present"))
    if present is None:
        return _refused("format", "present must list student ids of this class, once each")
    rules = setup_teams()
    teams, max_members = data.get("teams"), data.get("max_members", rules.default_max_members)
    if teams is not None and (not isinstance(teams, int) or isinstance(teams, bool)):
        return _refused("format", "teams is a number")
    if (not isinstance(max_members, int) or isinstance(max_members, bool)
            or not rules.min_members <= max_members <= rules.max_max_members):
        return _refused("format", f"max_members is a number from {rules.min_members} to "
                                  f"{rules.max_max_members}")
    rng = random.SystemRandom()
    last = stored.last_lineup(database, class_id)
    kept = data.get("mode") == "keep" and last is not None
    try:
        if kept:
            lineup = rules.keep(last, present, rng, max_members)
            kept = len(lineup) == len(last)
        else:
            lineup = rules.deal_fresh(present, rng, max_members, teams)
    except Refusal as refusal:
        return _refused(refusal.rule, refusal.message)
    return jsonify(ok=True, lineup=lineup, kept=kept,
                   team_names=_last_team_names(class_id, len(lineup)) if kept else None)


def _last_team_names(class_id: int, teams: int) -> list[str] | None:
    from ..store.games import BROKEN_ERRORS
    ids = stored.class_game_ids(database, class_id)
    try:
        row = store.row(ids[-1]) if ids and store.broken(ids[-1]) is None else None
    except BROKEN_ERRORS:
        row = None
    if row is None or len(row.settings["teams"]) != teams:
        return None
    return [t["name"] for t in row.settings["teams"]]


def _bank(klass: dict, given: object) -> dict | None:
    """The bank a class's game uses (``{"id", "name", "count"}``): the one given, else the
    class's, else the first; None when there is no bank at all."""
    banks = {b["id"]: b for b in list_banks(database)}
    for candidate in (given, klass["bank_id"], next(iter(banks), None)):
        if isinstance(candidate, str) and candidate.isdecimal() and len(candidate) < 10:
            candidate = int(candidate)
        if isinstance(candidate, int) and candidate in banks:
            return banks[candidate]
    return None


@bp.get("/<int:class_id>/questions")
@gm_required
def questions(class_id: int):
    """Questions left across the term: per author and type, the bank's questions this class
    has not read yet (``?bank_id=``; ``allow_repeats=1`` counts every question), and
    whether a game of ``?turns=`` turns could run out."""
    klass = _class_or_404(class_id)
    chosen = _bank(klass, request.args.get("bank_id"))
    if chosen is None:
        return _refused("not_found", "there is no question bank", 404)
    bank_id = chosen["id"]
    name, bank = bank_questions(database, bank_id)
    repeats = request.args.get("allow_repeats") in ("1", "true")
    read = set() if repeats else read_questions(database, store, class_id, name)
    unread = coverage(bank, read)
    total = coverage(bank)
    turns = request.args.get("turns", "")
    turns = int(turns) if turns.isascii() and turns.isdecimal() and len(turns) < 6 else 0
    left = sum(n for by_type in unread.values() for n in by_type.values())
    empty = [{"author": a, "type": t} for a, by_type in unread.items()
             for t, n in by_type.items() if n == 0 and total[a][t] > 0]
    return jsonify(ok=True, bank_id=bank_id, bank_name=name, unread=unread, total=total,
                   unread_count=left, total_count=len(bank), read_count=len(read & {q.id for q in bank}),
                   turns=turns, runs_short=left < turns, empty=empty)


def _lineup(klass: dict, lineup: object) -> list[list[int]] | None:
    by_id = _students_by_id(klass)
    if not isinstance(lineup, list) or not all(isinstance(team, list) for team in lineup):
        return None
    flat = [s for team in lineup for s in team]
    if len(flat) != len(set(map(repr, flat))) or not all(
            isinstance(s, int) and not isinstance(s, bool) and s in by_id for s in flat):
        return None
    return lineup


@bp.post("/<int:class_id>/games")
@gm_required
def new_game(class_id: int):
    """Create a game from the class: ``{"name", "bank_id", "settings", "lineup": [[student
    ids]], "allow_repeats": bool, "kept": bool}``. The teams' sizes are the lineup's and
    the roster its students' names (checked by the game); questions read in
    the class's earlier games are left out unless ``allow_repeats``. The class remembers
    the bank and settings as the defaults of its next game."""
    klass = _class_or_404(class_id)
    data = read_json()
    if not isinstance(data, dict):
        return _refused("format", "send the game as JSON")
    lineup = _lineup(klass, data.get("lineup"))
    if lineup is None:
        return _refused("format", "lineup must list, per team, student ids of this class, "
                                  "each student once")
    settings = data.get("settings")
    if not isinstance(settings, dict):
        return _refused("format", "settings must be an object")
    chosen = _bank(klass, data.get("bank_id"))
    name = data.get("name") if isinstance(data.get("name"), str) else ""
    try:
        game_id = create_class_game(klass, lineup, settings, chosen,
                                    distinct_game_name(class_id, name.strip()[:200] or klass["name"]),
                                    allow_repeats=data.get("allow_repeats") is True,
                                    kept=data.get("kept") is True)
    except Refusal as refusal:
        return _refused(refusal.rule, refusal.message)
    return jsonify(ok=True, game_id=game_id, url=url_for("console.game", game_id=game_id))


def distinct_game_name(class_id: int, name: str) -> str:
    """``name``, or when another game of the class already has it (two games made on one
    day take the same default name, «Clase 3 de diciembre»), ``name (2)``, ``(3)``...:
    each game of a class has its own name, in the league's columns as on the console."""
    taken = {game["name"] for game in _games_of(class_id)}
    if name not in taken:
        return name
    number = 2
    while f"{name} ({number})"[:200] in taken:
        number += 1
    return f"{name[:200 - len(f' ({number})')]} ({number})"


# -- the term: league, participation, exports -----------------------------------------

def _scheme(klass: dict) -> str:
    scheme = request.args.get("scheme") or klass["league_scheme"]
    return scheme if scheme in SCHEMES else klass["league_scheme"]


def _games(klass: dict) -> list:
    """The class's games as the league and participation read them (each replayed once)."""
    return summaries(database, store, klass["id"])


@bp.route("/<int:class_id>/league.json")
@gm_required
def league_json(class_id: int):
    """The league over the class's finished games (``?scheme=`` to try another scheme)."""
    klass = _class_or_404(class_id)
    return jsonify(ok=True, league=league(_games(klass), klass["students"], _scheme(klass),
                                          getattr(g, "lang", "es")))


@bp.route("/<int:class_id>/participation.json")
@gm_required
def participation_json(class_id: int):
    """Participation per student over the class's games (the console of a class's game
    suggests spokespersons from the same figures: ``/console/<id>/speakers``)."""
    klass = _class_or_404(class_id)
    return jsonify(ok=True, participation=participation(_games(klass), klass["students"]))


def _download(body: str | bytes, filename: str, mimetype: str) -> Response:
    return Response(body, mimetype=mimetype,
                    headers={"Content-Disposition": attachment(filename)})


@bp.route("/<int:class_id>/export/<string:kind>")
@gm_required
def export(class_id: int, kind: str):
    """``league.csv``, ``participation.csv``, ``class.xlsx`` or ``moodle.csv``
    (``?identifier=email|id_number&measures=league_points,spoke``); and
    ``moodle-missing.json?identifier=``, the students ``moodle.csv`` leaves out and why
    (``{"ok", "left_out": [{"id", "name", "reason": "none" | "formula", "value"}]}``)."""
    from ..classes import exports
    klass = _class_or_404(class_id)
    games = _games(klass)
    table = league(games, klass["students"], _scheme(klass), getattr(g, "lang", "es"))
    people = participation(games, klass["students"])
    lang = getattr(g, "lang", "es")
    stem = f"clase-{class_id}" if lang != "en" else f"class-{class_id}"
    if kind == "league.csv":
        return _download(exports.league_csv(table, klass["students"], lang),
                         f"{stem}-liga.csv" if lang != "en" else f"{stem}-league.csv",
                         "text/csv; charset=utf-8")
    if kind == "participation.csv":
        return _download(exports.participation_csv(people, klass["students"], lang),
                         f"{stem}-participacion.csv" if lang != "en" else f"{stem}-participation.csv",
                         "text/csv; charset=utf-8")
    if kind == "class.xlsx":
        return _download(exports.class_xlsx(table, people, klass["students"], lang), f"{stem}.xlsx",
                         "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
    if kind == "moodle-missing.json":
        try:
            left_out = exports.moodle_left_out(table, people, klass["students"],
                                               request.args.get("identifier", "email"))
        except ValueError as error:
            return _refused("format", str(error))
        return jsonify(ok=True, left_out=left_out)
    if kind == "moodle.csv":
        measures = [m for m in request.args.get("measures", "league_points").split(",") if m]
        try:
            body, _missing = exports.moodle_csv(table, people, klass["students"],
                                                request.args.get("identifier", "email"),
                                                measures, lang)
        except ValueError as error:
            return _refused("format", str(error))
        return _download(body, f"{stem}-moodle.csv", "text/csv; charset=utf-8")
    abort(404)

