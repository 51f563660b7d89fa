"""After the game: results page, exports, printable summary, loading a record, history."""
from __future__ import annotations

import json

from flask import (Blueprint, Response, abort, g, make_response, redirect, render_template,
                   request, url_for)

from ..games import Refusal
from ..games import is_unicode, kind, kind_of_record, record_of_text
from ..extensions import store
from ..services.games import import_record, setup_kind
from ..store.budget import check_record_length
from .downloads import attachment
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


def _played_or_404(game_id: int):
    """A stored game's record, its kind and its replay (404: no such game)."""
    record = _stored_or_404(game_id)
    found = kind_of_record(record)
    if found is None:
        abort(404)
    return record, found, _replayed(game_id, record, found.replay)


@bp.route("/<int:game_id>/results")
@gm_required
def page(game_id: int):
    """The game's results as its kind shows them (la partida's: standings, podium, charts,
    turn by turn, adjustments, participation, downloads; another's own page,
    ``results/<kind>.html``, else the plain one)."""
    record, found, match = _played_or_404(game_id)
    row = store.row(game_id)
    game = {"id": game_id, "name": row.name, "created_at": row.created_at, "kind": row.kind}
    summary = found.results(match, record.get("name"), getattr(g, "lang", "es"))
    return render_template([f"results/{row.kind}.html", found.results_page], game=game,
                           summary=summary, downloads=list(found.downloads),
                           print_mode=request.args.get("print") == "1")


@bp.route("/<int:game_id>/results.json")
@gm_required
def as_json(game_id: int):
    """Everything about the result, as JSON (what the results page shows)."""
    record, found, match = _played_or_404(game_id)
    summary = found.results(match, record.get("name"), getattr(g, "lang", "es"))
    return _download(json.dumps(summary, ensure_ascii=False, indent=1), "application/json",
                     f"resultados-{game_id}.json")


@bp.route("/<int:game_id>/<file>")
@gm_required
def download(game_id: int, file: str):
    """One of the files the game's kind offers (la partida's ``standings.csv`` and
    ``turns.csv``, the stable machine format; ``results.xlsx`` in the page's language);
    404 for a file its kind does not offer."""
    record, found, match = _played_or_404(game_id)
    if file not in found.downloads:
        abort(404)
    word, body = found.download(match, file, getattr(g, "lang", "es"))
    extension = file.rpartition(".")[2]
    mimetype = found.downloads[file]
    if isinstance(body, str):
        mimetype += "; charset=utf-8"
    return Response(body, mimetype=mimetype, headers={
        "Content-Disposition": attachment(f"{word}-{game_id}.{extension}")})


def _download(text: str, mimetype: str, filename: str) -> Response:
    return Response(text, mimetype=f"{mimetype}; charset=utf-8",
                    headers={"Content-Disposition": attachment(filename)})


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
    """Load a record (of any game's format, or a game written as text, such as a Hive
    GameString): it becomes a stored game to review, or to continue live."""
    upload = request.files.get("record")
    data = upload.read(MAX_RECORD_BYTES + 1) if upload else b""
    if not data or len(data) > MAX_RECORD_BYTES:
        return render_template("results/upload_error.html", error="results.upload_missing",
                               detail=""), 400
    try:
        record = _uploaded_record(data.decode("utf-8-sig"))
        check_record_length(record)
        # A record of no game's format: the set-up game's refusal says what is missing
        # (import_record replays it before anything is stored).
        found = kind_of_record(record) or kind(setup_kind())
        fallback = (upload.filename or found.name).rsplit(".", 1)[0][:MAX_NAME]
        game_id = import_record(record, name=record.get("name") or
                                (fallback if is_unicode(fallback) else found.name))
        over = store.current(game_id)[0].over        # held since it was stored
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
