"""After the game: results page, exports, printable summary, loading a record, history."""
from __future__ import annotations

import json

from flask import (Blueprint, Response, abort, g, make_response, redirect, render_template,
                   request, url_for)

from ..games import Refusal
from ..games.partida import replay
from ..games import is_unicode, kind, kind_of_record, record_of_text
from ..extensions import store
from ..services.games import import_record, setup_kind
from ..store.budget import check_record_length
from ..results import results_xlsx, standings_csv, summary_json, turns_csv
from .auth import gm_required

bp = Blueprint("results", __name__, url_prefix="/console")
MAX_RECORD_BYTES = 2 * 1024 * 1024
MAX_RECORD_DEPTH = 64           # a record needs 5 levels; JSON's own limit is ~1000
MAX_NAME = 200                  # a game's name, as the store keeps it


def _stored_or_404(game_id: int) -> dict:
    """The game's record; a page saying it is broken (409) when its stored row cannot be
    read, 404 when there is no such game."""
    from .console import broken_or_none
    broken = broken_or_none(game_id)
    if broken is not None:
        abort(make_response(broken))
    record = store.record(game_id)
    if record is None:
        abort(404)
    return record


def _replayed(game_id: int, record: dict, replayer):
    """``replayer(record)``: a stored game always replays; a page saying so if not (409)."""
    try:
        return replayer(record)
    except Refusal as refusal:
        from .errors import broken_game_page
        abort(make_response(broken_game_page(game_id, f"{refusal.rule}: {refusal.message}",
                                             True)))


def _game_or_404(game_id: int):
    """A partida's record and its replay (the exports below are a partida's: 404 for a
    game of another kind)."""
    record = _stored_or_404(game_id)
    if kind_of_record(record) is not kind(setup_kind()):
        abort(404)
    return record, _replayed(game_id, record, replay)


@bp.route("/<int:game_id>/results")
@gm_required
def page(game_id: int):
    """Standings, podium, charts, turn by turn, adjustments, participation, downloads; a
    game of another kind: its own page (``results/<kind>.html``, else the plain one)."""
    record = _stored_or_404(game_id)
    row = store.row(game_id)
    game = {"id": game_id, "name": row.name, "created_at": row.created_at, "kind": row.kind}
    found = kind_of_record(record)
    if found is None:
        abort(404)
    if found is not kind(setup_kind()):
        match = _replayed(game_id, record, found.replay)
        return render_template([f"results/{row.kind}.html", "results/match.html"], game=game,
                               summary=match.summary())
    game_match = _replayed(game_id, record, replay)
    summary = summary_json(game_match, record.get("name"), getattr(g, "lang", "es"))
    return render_template("results/game.html", game=game, summary=summary,
                           print_mode=request.args.get("print") == "1")


@bp.route("/<int:game_id>/results.json")
@gm_required
def as_json(game_id: int):
    """Everything about the result, as JSON (a game of another kind: its summary, what its
    results page shows)."""
    record = _stored_or_404(game_id)
    found = kind_of_record(record)
    if found is not None and found is not kind(setup_kind()):
        match = _replayed(game_id, record, found.replay)
        return _download(json.dumps(match.summary(), ensure_ascii=False, indent=1),
                         "application/json", f"resultados-{game_id}.json")
    record, game = _game_or_404(game_id)
    return _download(json.dumps(summary_json(game, record.get("name"), getattr(g, "lang", "es")),
                                ensure_ascii=False,
                                indent=1), "application/json", f"resultados-{game_id}.json")


@bp.route("/<int:game_id>/standings.csv")
@gm_required
def standings(game_id: int):
    """One row per team, for the gradebook."""
    _, game = _game_or_404(game_id)
    return _download("\ufeff" + standings_csv(game), "text/csv", f"clasificacion-{game_id}.csv")


@bp.route("/<int:game_id>/turns.csv")
@gm_required
def turns(game_id: int):
    """One row per turn: host, mode, challenged team, question, verdicts and points."""
    _, game = _game_or_404(game_id)
    return _download("\ufeff" + turns_csv(game), "text/csv", f"turnos-{game_id}.csv")


@bp.route("/<int:game_id>/results.xlsx")
@gm_required
def as_xlsx(game_id: int):
    """Standings and turns for a spreadsheet (.xlsx): the page's language, numbers as numbers.
    The CSV files stay the stable machine format."""
    from flask import g
    _, game = _game_or_404(game_id)
    name = f"resultados-{game_id}.xlsx" if getattr(g, "lang", "es") != "en" else f"results-{game_id}.xlsx"
    return Response(results_xlsx(game, getattr(g, "lang", "es")),
                    mimetype="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
                    headers={"Content-Disposition": f"attachment; filename={name}"})


def _download(text: str, mimetype: str, filename: str) -> Response:
    return Response(text, mimetype=f"{mimetype}; charset=utf-8",
                    headers={"Content-Disposition": f"attachment; filename={filename}"})


def read_record(text: str) -> dict:
    """A record's JSON text, checked for shape before it is replayed: an object, nested at
    most MAX_RECORD_DEPTH deep, every text valid Unicode, a ``name`` (if any) of at most
    MAX_NAME characters. Anything else is a ``format`` Refusal naming the problem (the
    replay then checks the settings, questions and actions)."""
    try:
        record = json.loads(text)
    except ValueError as error:
        raise Refusal("format", f"the record is not valid JSON: {error}") from None
    except RecursionError:
        raise Refusal("format", f"the record nests lists or objects more than "
                                f"{MAX_RECORD_DEPTH} levels deep") from None
    if not isinstance(record, dict):
        raise Refusal("format", "a partida/1 record is a JSON object "
                                '({"format": "partida/1", "settings": ..., "actions": [...]})')
    stack = [(record, 1, "the record")]
    while stack:
        value, depth, where = stack.pop()
        if isinstance(value, str):
            if not is_unicode(value):
                raise Refusal("format", f"{where} is not valid Unicode text (a lone surrogate)")
        elif isinstance(value, (dict, list)):
            if depth > MAX_RECORD_DEPTH:
                raise Refusal("format", f"the record nests lists or objects more than "
                                        f"{MAX_RECORD_DEPTH} levels deep")
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, child in items:
                if isinstance(key, str) and not is_unicode(key):
                    raise Refusal("format", f"a key in {where} is not valid Unicode text")
                label = str(key)[:40] if is_unicode(str(key)) else "?"
                stack.append((child, depth + 1, f"{where}[{label}]" if depth > 1 else label))
    name = record.get("name")
    if name is not None and (not isinstance(name, str) or len(name) > MAX_NAME):
        raise Refusal("format", f"the record's name must be text of at most {MAX_NAME} characters")
    return record


@bp.post("/records")
@gm_required
def upload_record():
    """Load a record (partida/1, colmena/1, hive/1, or a bare Hive GameString as a text
    file): it becomes a stored game to review, or to continue live."""
    upload = request.files.get("record")
    data = upload.read(MAX_RECORD_BYTES + 1) if upload else b""
    if not data or len(data) > MAX_RECORD_BYTES:
        return render_template("results/upload_error.html", error="results.upload_missing",
                               detail=""), 400
    try:
        record = _uploaded_record(data.decode("utf-8-sig"))
        check_record_length(record)
        found = kind_of_record(record)
        if found is None or found is kind(setup_kind()):
            game = replay(record)          # la partida's, whose refusals say what is missing
            over = game.state.over
        else:
            over = found.replay(record).over
        fallback = (upload.filename or "partida").rsplit(".", 1)[0][:MAX_NAME]
        game_id = import_record(record, name=record.get("name") or
                                (fallback if is_unicode(fallback) else "partida"))
    except UnicodeDecodeError:
        return render_template("results/upload_error.html", error="results.upload_encoding",
                               detail=""), 400
    except Refusal as refusal:
        where = "" if refusal.action is None else f" (action {refusal.action})"
        return render_template("results/upload_error.html", error="results.upload_refused",
                               detail=f"{refusal.rule}{where}: {refusal.message}"), 400
    target = "console.game" if request.form.get("then") == "continue" and not over \
        else "results.page"
    return redirect(url_for(target, game_id=game_id))


def _uploaded_record(text: str) -> dict:
    """The record an uploaded file holds: its JSON, or the record a game reads from its own
    text (Hive's GameString); the JSON's refusal when it is neither."""
    try:
        return read_record(text)
    except Refusal:
        found = record_of_text(text)
        if found is None:
            raise
        return found
