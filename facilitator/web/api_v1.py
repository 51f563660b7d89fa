"""The JSON API for scripts and other platforms (``/api/v1``), and the console page of API tokens.

Described in ``docs/api.md`` and, for machines, by the OpenAPI 3.1 document
served at ``/api/v1/openapi.json`` (built in :mod:`facilitator.web.openapi`).

Authentication: the GM's console session (cookie) or a personal API token,
``Authorization: Bearer <token>``, issued and revoked at ``/console/tokens``.

Every error is ``{"error": ..., "message": ..., "where"?: ...}`` with a 4xx
status: ``error`` is ``"format"`` (the request is malformed), a rule id of
the game's rule book (a rule id: the request is well formed but the game's rules refuse
it), ``"not_found"`` or ``"unauthorized"``. The messages are the pages' own.

URLs (prefix ``/api/v1``)::

    GET    /openapi.json                 this API, described
    GET    /banks                        the banks, with questions per author and type
    POST   /banks                        import a bank (file upload, or JSON questions)
    GET    /banks/<bank>                 one bank and its questions
    GET    /banks/<bank>/export          the bank as a CSV bank file (as the console's export)
    DELETE /banks/<bank>                 delete a bank (games keep their copies)
    GET    /games                        the games, newest first
    POST   /games                        create a game from settings and a bank
    GET    /games/<game>                 a game's summary and the GM's live state
    DELETE /games/<game>                 delete a game (one stored broken too)
    GET    /games/<game>/record          the game's partida/1 record
    GET    /games/<game>/results         the results, as the results page exports them
"""
from __future__ import annotations

import random

from flask import (Blueprint, Response, current_app, g, jsonify, redirect, render_template,
                   request, url_for)
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from ..games import Refusal, is_unicode, kind, kind_of_record
from ..extensions import database, store
from ..i18n import translate
from ..questions import SHORT_ANSWER_MODES, BankReport, ImportIssue, Question, parse_bank
from ..questions import message as bank_message
from ..questions.text import same_text_key
from ..store.banks import (FEW_QUESTIONS, QUESTION_FIELDS, bank_info, bank_questions,
                           clean_question_fields, coverage, delete_bank, few_questions,
                           list_banks, new_question_id, question_problems)
from ..safe_text import control_character
from ..store.tokens import (DEFAULT_LIFETIME, LIFETIMES, MAX_LABEL, issue_token, list_tokens,
                            revoke_all_tokens, revoke_token)
from .api import names_ok
from .auth import API_V1_PREFIX, gm_required, read_json
from ..services.banks import MAX_NAME, default_bank_name
from ..services.games import create_from_setup, setup_kind, setup_teams
from .banks import banks_listing, export_response, import_bank, upload_filename
from .console import broken_or_none, delete_any_game, games_listing
from .links import public_base, team_links

bp = Blueprint("api_v1", __name__, url_prefix="/api/v1")
tokens_bp = Blueprint("tokens", __name__, url_prefix="/console/tokens")

#: Largest id a route takes (ids are database integers).
MAX_ID = 2 ** 31 - 1
#: The HTTP status of an import refused for each reason (the page answers 400 to all).
IMPORT_STATUS = {"banks.import.no_bank": 404, "banks.import.name_taken": 409,
                 "banks.import.id_taken_now": 409, "banks.import.refused_errors": 422,
                 "banks.import.refused_empty": 422, "banks.import.not_a_bank": 422}
TRUE_WORDS = ("1", "true", "yes", "on")


def _t(key: str, **params) -> str:
    return translate(getattr(g, "lang", "es"), key, **params)


def error(status: int, code: str, message: str, where: str | None = None, **extra):
    """An error answer: ``{"error", "message", "where"?}`` and anything in ``extra``."""
    body = {"error": code, "message": message}
    if where is not None:
        body["where"] = where
    body.update(extra)
    return jsonify(body), status


def refused(refusal: Refusal, where: str | None = None):
    """A Refusal of the engine or the set-up form: 400 for ``format``, 422 for a rule."""
    return error(400 if refusal.rule == "format" else 422, refusal.rule, refusal.message, where)


@bp.app_errorhandler(HTTPException)
def http_error(exc: HTTPException):
    """Under ``/api/v1`` every HTTP error (404, 405, 413...) is JSON too; elsewhere a page
    in the page's language, or JSON for JSON routes (:mod:`facilitator.web.errors`)."""
    if not request.path.startswith(API_V1_PREFIX):
        from .errors import http_error_page
        return http_error_page(exc)
    status = exc.code or 500
    code = {401: "unauthorized", 404: "not_found"}.get(status, "format" if status < 500
                                                           else "server")
    return error(status, code, exc.description or exc.name)


def _absolute(path: str) -> str:
    return public_base() + path


# -- the description -----------------------------------------------------------------

@bp.get("/openapi.json")
@gm_required
def openapi():
    """This API as an OpenAPI 3.1 document."""
    from .openapi import openapi_document
    return jsonify(openapi_document(public_base() + "/api/v1"))


# -- banks ---------------------------------------------------------------------------

def _few(table: dict) -> list[dict]:
    return [{"author": author, "type": kind, "count": n}
            for author, kind, n in few_questions(table)]


@bp.get("/banks")
@gm_required
def banks():
    """Every bank with its number of questions per author and type."""
    return jsonify(banks=[{"id": b["id"], "name": b["name"], "count": b["count"],
                           "questions_by_author_type": b["table"], "few": _few(b["table"]),
                           "sample": b["sample"], "url": url_for("api_v1.bank", bank_id=b["id"])}
                          for b in banks_listing()],
                   minimum=FEW_QUESTIONS)


def _bank_id(bank_id: int):
    """The bank's ``{"id", "name", "count"}``, or None."""
    return bank_info(database, bank_id) if 0 < bank_id <= MAX_ID else None


def _no_bank(bank_id: object):
    return error(404, "not_found", f"there is no bank {bank_id}", "bank_id")


@bp.get("/banks/<int:bank_id>")
@gm_required
def bank(bank_id: int):
    """One bank: its questions per author and type, and its questions."""
    info = _bank_id(bank_id)
    if info is None:
        return _no_bank(bank_id)
    _, questions = bank_questions(database, bank_id)
    table = coverage(questions)
    return jsonify(**info, questions_by_author_type=table, few=_few(table),
                   questions=[{name: getattr(q, name) for name in QUESTION_FIELDS}
                              for q in questions])


@bp.get("/banks/<int:bank_id>/export")
@gm_required
def export(bank_id: int):
    """The bank as a CSV bank file: the same bytes as the console's export."""
    info = _bank_id(bank_id)
    if info is None:
        return _no_bank(bank_id)
    return export_response(info)


@bp.delete("/banks/<int:bank_id>")
@gm_required
def remove_bank(bank_id: int):
    """Delete a bank (games created from it keep their own copy of its questions)."""
    info = _bank_id(bank_id)
    if info is None or not delete_bank(database, bank_id):
        return _no_bank(bank_id)
    return jsonify(deleted=True, id=info["id"], name=info["name"])


@bp.post("/banks")
@gm_required
def import_bank_route():
    """Import a bank: a file upload (CSV, GIFT, Moodle XML) or questions as JSON."""
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    if limit and (request.content_length or 0) > limit:
        return error(413, "format", _t("banks.import.too_large"), "file")
    if request.mimetype == "multipart/form-data":
        return _import_upload()
    if request.is_json:
        return _import_json()
    return error(415, "format", "send a file (multipart/form-data, field file) or a JSON body "
                                '{"name", "questions"}')


def _flag(value: object) -> bool | None:
    """A form's or JSON's yes/no: True, False, or None when it is neither."""
    if isinstance(value, bool):
        return value
    if value is None:
        return False
    if isinstance(value, str):
        word = value.strip().lower()
        if word in TRUE_WORDS:
            return True
        if word in ("", "0", "false", "no", "off"):
            return False
    return None


def _import_form(name: str, replace: bool, skip_errors: bool) -> dict:
    """The console import form for a bank named ``name``: a new bank, or with
    ``replace`` the bank of that name emptied first."""
    form = {"target": "new", "name": name, "mode": "add", "skip_errors": skip_errors}
    if replace:
        same = next((b for b in list_banks(database) if b["name"] == name), None)
        if same is not None:
            form.update(target=str(same["id"]), mode="replace")
    return form


def _import_upload():
    try:
        upload = request.files.get("file")
        fields = request.form
    except RequestEntityTooLarge:
        return error(413, "format", _t("banks.import.too_large"), "file")
    if upload is None or not upload.filename:
        return error(400, "format", _t("banks.import.no_file"), "file")
    flags = {key: _flag(fields.get(key)) for key in ("skip_errors", "replace")}
    for key, value in flags.items():
        if value is None:
            return error(400, "format", f"{key} is true or false", key)
    # Moodle files: the author of questions with no category, the type of short answers.
    author = fields.get("author", "").strip()
    if len(author) > MAX_NAME or not is_unicode(author):
        return error(400, "format", f"author: a name of at most {MAX_NAME} characters", "author")
    short_answer = fields.get("short_answer", "").strip() or "auto"
    if short_answer not in SHORT_ANSWER_MODES:
        return error(400, "format", "short_answer is one of " + ", ".join(SHORT_ANSWER_MODES),
                     "short_answer")
    filename = upload_filename(upload.filename)
    name = fields.get("name", "").strip() or default_bank_name(filename)
    data = upload.read()
    form = _import_form(name, flags["replace"], flags["skip_errors"])
    lang = getattr(g, "lang", "es")
    return _imported(import_bank(lambda: parse_bank(
        data, filename, skip_errors=True, author=author or None, short_answer=short_answer,
        lang=lang), filename, form), "file")


def _import_json():
    data = read_json()
    if not isinstance(data, dict):
        return error(400, "format", 'send a JSON object {"name": ..., "questions": [...]}')
    name, questions = data.get("name"), data.get("questions")
    if not isinstance(name, str) or not name.strip() or not is_unicode(name):
        return error(400, "format", "name: the bank's name, as text", "name")
    if len(name.strip()) > MAX_NAME:
        return error(400, "format", _t("banks.import.name_too_long", max=MAX_NAME), "name")
    if not isinstance(questions, list):
        return error(400, "format", "questions: a list of questions "
                                    '{"id"?, "author", "type", "text", "answer", "notes"?}',
                     "questions")
    flags = {key: data.get(key, False) for key in ("skip_errors", "replace")}
    for key, value in flags.items():
        if not isinstance(value, bool):
            return error(400, "format", f"{key} is true or false", key)
    form = _import_form(name.strip(), flags["replace"], flags["skip_errors"])
    return _imported(import_bank(lambda: questions_report(questions), "questions", form),
                     "questions")


def questions_report(items: list) -> BankReport:
    """Questions sent as JSON, checked as the console's question form checks them
    (required fields, type, lengths, ids unique; an empty id is made up), read
    keeping the good ones. Errors are located as ``questions[3]``."""
    report = BankReport(file="questions", format="json")
    given = {item.get("id").strip() for item in items
             if isinstance(item, dict) and isinstance(item.get("id"), str)}
    taken: set[str] = set()
    seen: dict[tuple, int] = {}

    def problem(index: int, message: str) -> None:
        report.errors.append(ImportIssue(f"questions[{index}]", None, message))

    for index, item in enumerate(items):
        if not isinstance(item, dict):
            problem(index, "a question is an object {id?, author, type, text, answer, notes?}")
            continue
        wrong = [name for name in QUESTION_FIELDS
                 if item.get(name) is not None and not isinstance(item.get(name), str)]
        if wrong:
            problem(index, f"{wrong[0]} must be text")
            continue
        fields = clean_question_fields(item)
        problems = question_problems(fields, taken)
        if problems:
            for name, what in problems.items():
                problem(index, _t(f"banks.problem.{what}", field=_t(f"banks.field.{name}")))
            continue
        key = (same_text_key(fields["author"]), fields["type"], same_text_key(fields["text"]))
        if key in seen:
            # Kept, as in a file (Moodle keeps them too): a note says which.
            report.notes.append(f"questions[{index}] has the same author, type and text as "
                                f"questions[{seen[key]}]: both are kept, so a game may ask "
                                "that question twice")
        seen.setdefault(key, index)
        if not fields["id"]:
            fields["id"] = new_question_id(fields["author"], fields["type"], taken | given)
        taken.add(fields["id"])
        report.add(Question(**fields), None)
    return report


def _import_report(outcome) -> dict:
    result, report = outcome.result or {}, outcome.report
    return {"file": result.get("file"), "format": result.get("format"),
            "usable": result.get("usable", 0), "imported": result.get("imported", 0),
            "errors": result.get("errors", []),
            "unusable": [{"line": issue.line, "reason": issue.message, "text": str(issue)}
                         for issue in (report.unusable if report else [])],
            "notes": result.get("notes", []),
            "no_expected_answer": [{"line": issue.line, "text": str(issue)}
                                   for issue in (report.no_answer if report else [])],
            "without_author": report.without_author if report else 0,
            "author_hint": (bank_message(getattr(g, "lang", "es"), "hint.author.api",
                                    n=report.without_author)
                            if report and report.without_author else ""),
            "questions_by_author_type": result.get("table", {})}


def _imported(outcome, source: str):
    """The answer to an import: 201 with the bank, or why nothing was imported
    (``source``, "file" or "questions", is where the errors are)."""
    if outcome.problem is not None:
        status = IMPORT_STATUS.get(outcome.problem, 400)
        code = "not_found" if status == 404 else "format"
        extra = {"report": _import_report(outcome)} if outcome.result else {}
        where = "name" if status == 409 or "name" in outcome.problem else (
            source if outcome.result else None)
        return error(status, code, _t(outcome.problem, **outcome.params), where, **extra)
    bank = outcome.result["bank"]
    response = jsonify(id=bank["id"], name=bank["name"], count=bank["count"],
                       usable=outcome.result["usable"], imported=outcome.result["imported"],
                       report=_import_report(outcome),
                       url=url_for("api_v1.bank", bank_id=bank["id"]))
    response.headers["Location"] = url_for("api_v1.bank", bank_id=bank["id"])
    return response, 201


# -- games ---------------------------------------------------------------------------

def game_summary(row) -> dict:
    """A game as a script needs it: where teams join, the projector, the console."""
    teams = [{"team": t["number"], "name": t["name"], "join_code": t["join_code"],
              "join_url": t["join_url"], "qr_url": _absolute(t["qr_url"])}
             for t in team_links(row)]
    return {"id": row.id, "name": row.name,
            "created_at": row.created_at.isoformat(timespec="seconds"),
            "over": row.over, "winner": row.winner, "bank_name": row.bank_name,
            "teams": teams, "watch_code": row.watch_code,
            "watch_url": _absolute(url_for("projector.show", watch=row.watch_code)),
            "console_url": _absolute(url_for("console.game", game_id=row.id)),
            "results_url": _absolute(url_for("results.page", game_id=row.id)),
            "url": url_for("api_v1.game", game_id=row.id)}


def _row(game_id: int):
    return store.row(game_id) if 0 < game_id <= MAX_ID else None


def _no_game(game_id: int):
    return error(404, "not_found", f"there is no game {game_id}", "game_id")


@bp.get("/games")
@gm_required
def games():
    """Every game, newest first."""
    listed = games_listing()
    for game in listed:
        game["console_url"] = _absolute(game.pop("url"))
        game["url"] = url_for("api_v1.game", game_id=game["id"])
    return jsonify(games=listed)


@bp.post("/games")
@gm_required
def create_game():
    """Create a game from partida/1 settings and a bank, with an optional class list."""
    data = read_json()
    if not isinstance(data, dict):
        return error(400, "format", 'send a JSON object {"settings": {...}, "bank_id": N}')
    bank_id = data.get("bank_id")
    if not isinstance(bank_id, int) or isinstance(bank_id, bool):
        return error(400, "format", "bank_id: the id of a bank (a whole number)", "bank_id")
    if _bank_id(bank_id) is None:
        return _no_bank(bank_id)
    name = data.get("name")
    if name is not None and (not isinstance(name, str) or not is_unicode(name)):
        return error(400, "format", "name: the game's name, as text", "name")
    settings = data.get("settings")
    if not isinstance(settings, dict) or "teams" in settings:
        try:        # the game's check first, before the class list is dealt
            setup_teams().check(settings)
        except Refusal as refusal:
            return refused(refusal, "settings")
    roster = None
    if data.get("class_list") is not None:
        try:
            settings, roster = class_list(settings, data["class_list"])
        except Refusal as refusal:
            return refused(refusal, "class_list")
    try:
        game_id = create_from_setup({"name": name or "", "settings": settings,
                                          "bank_id": bank_id, "roster": roster})
    except Refusal as refusal:
        return refused(refusal, "settings")
    row = store.row(game_id)
    summary = game_summary(row)
    if roster is not None:         # as stored: namesakes told apart ("Ana García (2)")
        summary["class_list"] = row.settings.get("roster", roster)
    response = jsonify(summary)
    response.headers["Location"] = summary["url"]
    return response, 201


def class_list(settings: dict, given: object) -> tuple[dict, list[list[str]]]:
    """The settings and the class list (``roster``: names per team) of a game.

    ``given`` is a list of names, dealt at random into the teams of
    ``settings["teams"]`` (without teams, into the sizes the game proposes),
    or the names per team: a list of lists of names, one per team of
    ``settings["teams"]`` (or teams of that size), or a list of
    ``{"name", "members": [names]}`` (the teams, then not in the settings).
    Raises a Refusal (``format``, or the rule broken).
    """
    shape = ("class_list is a list of names, a list of lists of names (one per team) "
             'or a list of {"name", "members": [names]}')
    if not isinstance(given, list) or not given:
        raise Refusal("format", shape)
    default = [_t("setup.team_default", n=n) for n in range(1, len(given) + 1)]
    if all(isinstance(item, str) for item in given):
        if not names_ok(given):
            raise Refusal("format", "class_list: at most 500 names, each 1 to 100 characters")
        names = [n.strip() for n in given]
        teams = setup_teams()
        if "teams" in settings:
            sizes = teams.sizes(settings)
        else:
            most = settings.get("max_members", teams.default_max_members)
            most = most if isinstance(most, int) and not isinstance(most, bool) \
                and teams.min_members <= most <= teams.max_max_members \
                else teams.default_max_members
            sizes = teams.propose(len(names), most)
            settings = {**settings, "teams": [{"name": default[i], "members": n}
                                              for i, n in enumerate(sizes)]}
        return settings, teams.deal(names, sizes, random.SystemRandom())
    if all(isinstance(item, list) for item in given):
        roster = [_team_names(item, f"class_list[{i}]") for i, item in enumerate(given)]
        if "teams" not in settings:
            return {**settings, "teams": [{"name": default[i], "members": len(team)}
                                          for i, team in enumerate(roster)]}, roster
        setup_teams().check_roster(settings, roster)
        return settings, roster
    if all(isinstance(item, dict) for item in given):
        if "teams" in settings:
            raise Refusal("format", "give the teams in settings.teams or in class_list, not both")
        teams, roster = [], []
        for i, item in enumerate(given):
            team_name = item.get("name")
            if team_name is None:
                team_name = default[i]
            if not isinstance(team_name, str):
                raise Refusal("format", f"class_list[{i}].name: the team's name, as text")
            roster.append(_team_names(item.get("members"), f"class_list[{i}].members"))
            teams.append({"name": team_name, "members": len(roster[-1])})
        return {**settings, "teams": teams}, roster
    raise Refusal("format", shape)


def _team_names(names: object, where: str) -> list[str]:
    if not names_ok(names) or not names:
        raise Refusal("format", f"{where}: a list of names, each 1 to 100 characters")
    return [n.strip() for n in names]


@bp.get("/games/<int:game_id>")
@gm_required
def game(game_id: int):
    """A game's summary and its ``state`` message for the GM, as the console receives it."""
    from ..live.audience import GM, Audience
    if 0 < game_id <= MAX_ID and (broken := broken_or_none(game_id)) is not None:
        return broken
    row = _row(game_id)
    if row is None:
        return _no_game(game_id)
    state = current_app.extensions["facilitator_live"].snapshot_for(Audience(GM, game_id))
    if state is None:
        return _no_game(game_id)
    return jsonify(game=game_summary(row), state=state)


@bp.delete("/games/<int:game_id>")
@gm_required
def remove_game(game_id: int):
    """Delete a game, even one stored broken (its devices are disconnected and their
    tokens refused from then on): ``{"deleted": true, "id"}``, or 404."""
    if not 0 < game_id <= MAX_ID or not delete_any_game(game_id):
        return _no_game(game_id)
    return jsonify(deleted=True, id=game_id)


@bp.get("/games/<int:game_id>/record")
@gm_required
def record(game_id: int):
    """The game's partida/1 record (as the console's download)."""
    if 0 < game_id <= MAX_ID and (broken := broken_or_none(game_id)) is not None:
        return broken
    data = store.record(game_id) if 0 < game_id <= MAX_ID else None
    if data is None:
        return _no_game(game_id)
    return jsonify(data)


@bp.get("/games/<int:game_id>/results")
@gm_required
def results(game_id: int):
    """The results: the same JSON the results page exports (``results.json``); for a game
    of another kind than la partida, its summary (Hive's: the players by colour, the
    moves, the result and its reason), as ``facilitator replay`` prints it."""
    if 0 < game_id <= MAX_ID and (broken := broken_or_none(game_id)) is not None:
        return broken
    data = store.record(game_id) if 0 < game_id <= MAX_ID else None
    if data is None:
        return _no_game(game_id)
    found = kind_of_record(data) or kind(setup_kind())
    try:
        match = found.replay(data)
    except Refusal as refusal:       # a stored game always replays; say so if not
        return error(500, "server", f"stored game {game_id} does not replay: {refusal}")
    return jsonify(found.results(match, data.get("name"), getattr(g, "lang", "es")))


# -- the console page of API tokens ----------------------------------------------------

# Its POSTs must come from this host, as the banks' pages' (the same check).


def _when(moment) -> str:
    return moment.strftime("%Y-%m-%d %H:%M") + " UTC" if moment is not None else ""


def _tokens_page(new_token: str | None = None, new_label: str = "", problem: str | None = None,
                 status: int = 200):
    tokens = [{**t, "created": _when(t["created_at"]), "last_used": _when(t["last_used_at"])}
              for t in list_tokens(database)]
    done = request.args.get("done")
    response = Response(render_template(
        "console/tokens.html", tokens=tokens, new_token=new_token, new_label=new_label,
        problem=problem, max_label=MAX_LABEL, lifetimes=LIFETIMES, default_days=DEFAULT_LIFETIME,
        done=done if done in ("revoked", "revoked_all") else None,
        revoked_count=request.args.get("n", "")[:6]),
        status=status)
    # The page may show a token: no cache keeps it.
    response.headers["Cache-Control"] = "no-store"
    return response


@tokens_bp.route("/", methods=["GET", "POST"])
@tokens_bp.route("", methods=["GET", "POST"])
@gm_required
def tokens():
    """The API tokens: create one (shown once, in full), list them, revoke one."""
    if request.method == "GET":
        return _tokens_page()
    label = request.form.get("label", "").strip()
    if (not label or len(label) > MAX_LABEL or not is_unicode(label)
            or control_character(label) is not None):
        return _tokens_page(problem="tokens.label_invalid", new_label=label[:MAX_LABEL],
                            status=400)
    days = request.form.get("days", str(DEFAULT_LIFETIME))
    if not (days.isascii() and days.isdecimal()) or int(days) not in LIFETIMES:
        return _tokens_page(problem="tokens.days_invalid", new_label=label, status=400)
    info, token = issue_token(database, label, int(days))
    return _tokens_page(new_token=token, new_label=info["label"])


@tokens_bp.post("/revoke-all")
@gm_required
def revoke_all():
    """Revoke every token at once: every script using one gets 401 from now on. Answers
    ``{"ok": true, "revoked": n}`` to a JSON request, else goes back to the page."""
    count = revoke_all_tokens(database)
    if request.is_json or request.accept_mimetypes.best == "application/json":
        return jsonify(ok=True, revoked=count)
    return redirect(url_for("tokens.tokens", done="revoked_all", n=count))


@tokens_bp.post("/<int:token_id>/revoke")
@gm_required
def revoke(token_id: int):
    """Revoke a token: scripts using it get 401 from now on."""
    if not 0 < token_id <= MAX_ID or not revoke_token(database, token_id):
        return _tokens_page(problem="tokens.not_found", status=404)
    return redirect(url_for("tokens.tokens", done="revoked"))

