"""The question banks in the GM console: list, search, edit, import, export, coverage.

Every page here is for the GM only. Every POST must come from a page of this
server: its ``Origin`` (or, without one, ``Referer``) must name this host,
else it is refused with 400 (a form on another site cannot act for the GM).

URLs (prefix ``/console/banks``)::

    GET  /                               the banks, with questions per author and type
    POST /import                         upload a CSV, GIFT or Moodle XML file
    GET  /<bank>                         one bank: coverage, search, questions
    GET  /<bank>/questions/new           POST: add a question
    GET  /<bank>/questions/edit?id=QID   POST: save it (field ``original_id``)
    POST /<bank>/questions/delete        field ``id``
    GET  /<bank>/export.csv              the bank as a CSV bank file
    POST /<bank>/delete                  delete the bank (games keep their copies)
    GET  /game/<game>/coverage           JSON ``{author: {type: unused}}`` of a game
"""
from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable
from urllib.parse import urlsplit

from flask import (Blueprint, Response, abort, current_app, g, jsonify, redirect,
                   render_template, request, url_for)
from werkzeug.exceptions import RequestEntityTooLarge

from ..engine import QUESTION_TYPES, Question
from ..extensions import database, store
from ..i18n import translate
from ..questions import BankReport, parse_bank
from ..questions.text import same_text_key, slugify
from ..store.banks import (FEW_QUESTIONS, QUESTION_FIELDS, SAMPLE_BANK_NAME, QuestionIdTaken,
                           add_question, add_questions, bank_info, bank_questions, bank_tables,
                           clean_question_fields, coverage, delete_bank, delete_question,
                           export_bank, few_questions, games_using, get_question, list_banks,
                           new_question_id, question_ids, question_problems, save_bank,
                           search_questions, update_question)
from .auth import gm_required

bp = Blueprint("banks", __name__, url_prefix="/console/banks")

#: Longest bank name (the column holds 200 characters).
MAX_NAME = 200
#: What ``?done=`` may say after a change, and its message key.
DONE_MESSAGES = {"added": "banks.done.added", "saved": "banks.done.saved",
                 "deleted": "banks.done.deleted", "bank_deleted": "banks.done.bank_deleted"}


def _t(key: str, **params) -> str:
    return translate(getattr(g, "lang", "es"), key, **params)


# -- protection against requests made by other sites ---------------------------------

def same_origin() -> bool:
    """Whether this request says it comes from a page of this very host.

    Browsers send ``Origin`` with every cross-site POST (and most same-site
    ones); when it is missing, ``Referer`` is used. A request with neither,
    or with ``Origin: null`` (a sandboxed or privacy-stripped page), is not
    trusted.
    """
    source = request.headers.get("Origin") or request.headers.get("Referer")
    if not source or source.strip() == "null":
        return False
    try:
        host = urlsplit(source.strip()).netloc
    except ValueError:
        return False
    return bool(host) and host.lower() == request.host.lower()


@bp.before_request
def refuse_cross_site_posts():
    """Refuse, with 400, every POST of this blueprint not made from this host."""
    if request.method == "POST" and not same_origin():
        return Response(_t("banks.error.cross_site"), status=400,
                        mimetype="text/plain; charset=utf-8")
    return None


# -- the list of banks, and imports --------------------------------------------------

def banks_listing() -> list[dict]:
    """Every bank with its questions per author and type (``table``) and the pairs with few."""
    tables = bank_tables(database)
    banks = []
    for bank in list_banks(database):
        table = tables.get(bank["id"], {})
        banks.append({**bank, "table": table, "few": few_questions(table),
                      "sample": bank["name"] == SAMPLE_BANK_NAME})
    return banks


@bp.route("")
@bp.route("/")
@gm_required
def index():
    """Every bank: its questions per author and type; the import form."""
    done = DONE_MESSAGES.get(request.args.get("done", ""))
    return render_template("banks/index.html", banks=banks_listing(), types=QUESTION_TYPES,
                           minimum=FEW_QUESTIONS, done=done,
                           done_name=request.args.get("name", ""),
                           form={"target": request.args.get("target", "new")})


def _import_form() -> dict:
    return {"target": request.form.get("target", "new"),
            "name": request.form.get("name", "").strip(),
            "mode": request.form.get("mode", "add"),
            "skip_errors": bool(request.form.get("skip_errors"))}


@bp.post("/import")
@gm_required
def import_file():
    """Import an uploaded bank file into a new bank, or into an existing one.

    Every error is shown with its line. From a file with errors nothing is
    imported unless "skip errors" was ticked; unusable questions (a Moodle
    multiple-choice question, say) are listed with the reason.
    """
    blank = {"target": "new", "name": "", "mode": "add", "skip_errors": False}
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    if limit and (request.content_length or 0) > limit:
        # Refused before the body is read: no upload is left half-parsed.
        return _import_refused(blank, "banks.import.too_large", status=413)
    try:
        upload = request.files.get("file")
        form = _import_form()
    except RequestEntityTooLarge:
        return _import_refused(blank, "banks.import.too_large", status=413)
    if upload is None or not upload.filename:
        return _import_refused(form, "banks.import.no_file")
    filename = upload_filename(upload.filename)
    data = upload.read()
    outcome = import_bank(lambda: parse_bank(data, filename, skip_errors=True), filename, form)
    return _import_page(form, outcome.result, outcome.problem, outcome.status, **outcome.params)


def upload_filename(name: str) -> str:
    """The name of an uploaded file without any folder (``C:\\x\\banco.csv`` → ``banco.csv``)."""
    return Path(name.replace("\\", "/")).name or "bank"


def default_bank_name(filename: str) -> str:
    """The name a bank imported from ``filename`` gets when none is given: the file's stem."""
    return Path(filename).stem.strip() or filename


@dataclass
class ImportOutcome:
    """What an import did: ``result`` as the import page shows it (None when
    nothing was read), ``problem`` the message key of why nothing was imported
    (None when it was), with its ``params``, and the page's HTTP ``status``."""

    result: dict | None
    problem: str | None
    status: int
    params: dict = field(default_factory=dict)
    report: BankReport | None = None


def import_bank(read: Callable[[], BankReport], filename: str, form: dict) -> ImportOutcome:
    """Import the questions ``read()`` returns (read keeping the good ones) as the
    import form ``form`` says: ``{"target": "new" or a bank id, "name", "mode": "add"
    or "replace", "skip_errors"}``. ``form["name"]`` is filled in when left empty.

    Shared by the import page and the JSON API (``/api/v1/banks``).
    """
    target_bank = None
    if form["target"] != "new":
        target_bank = bank_info(database, int(form["target"])) if form["target"].isdigit() else None
        if target_bank is None:
            return ImportOutcome(None, "banks.import.no_bank", 400)
    else:
        form["name"] = form["name"] or default_bank_name(filename)
        if len(form["name"]) > MAX_NAME:
            return ImportOutcome(None, "banks.import.name_too_long", 400, {"max": MAX_NAME})
        if any(bank["name"] == form["name"] for bank in list_banks(database)):
            return ImportOutcome(None, "banks.import.name_taken", 400, {"name": form["name"]})

    # Read keeping the good questions, then decide: what the teacher sees is
    # every problem at once, not only the first file's worth.
    report = read()
    conflicts = []
    if target_bank is not None and form["mode"] == "add":
        conflicts = _conflicts_with_bank(report, target_bank["id"])
    errors = [{"line": issue.line, "text": str(issue)} for issue in report.errors] + conflicts
    errors.sort(key=lambda error: error["line"] or 0)
    result = {"file": filename, "format": report.format, "errors": errors,
              "unusable": [str(issue) for issue in report.unusable], "notes": report.notes,
              "usable": len(report.questions), "imported": 0, "bank": None,
              "table": coverage(report.questions) if report.questions else {}}

    if errors and not form["skip_errors"]:
        return ImportOutcome(result, "banks.import.refused_errors", 400, report=report)
    if not report.questions:
        return ImportOutcome(result, "banks.import.refused_empty", 400, report=report)

    if target_bank is None:
        try:
            bank_id = save_bank(database, form["name"], report.questions)
        except ValueError:
            return ImportOutcome(None, "banks.import.name_taken", 400, {"name": form["name"]})
    elif form["mode"] == "replace":
        bank_id = save_bank(database, target_bank["name"], report.questions, replace=True)
    else:
        try:
            add_questions(database, target_bank["id"], report.questions)
        except QuestionIdTaken as taken:   # the bank changed since the check: say so
            return ImportOutcome(None, "banks.import.id_taken_now", 400, {"id": taken.qid})
        bank_id = target_bank["id"]
    result["imported"] = len(report.questions)
    result["bank"] = bank_info(database, bank_id)
    return ImportOutcome(result, None, 200, report=report)


def _conflicts_with_bank(report, bank_id: int) -> list[dict]:
    """Questions of ``report`` that clash with the bank's: same id, or same
    author, type and text. They are dropped from ``report`` and returned as
    errors ``{"line", "text"}``."""
    found = bank_questions(database, bank_id)
    existing = found[1] if found else []
    ids = {q.id for q in existing}
    same = {(same_text_key(q.author), q.type, same_text_key(q.text)): q.id for q in existing}
    kept, conflicts = [], []
    for question, line in report.located():
        key = (same_text_key(question.author), question.type, same_text_key(question.text))
        where = f"{report.file}:{line}" if line is not None else report.file
        if question.id in ids:
            conflicts.append({"line": line, "text": where + ": " + _t(
                "banks.import.conflict_id", id=question.id)})
        elif key in same:
            conflicts.append({"line": line, "text": where + ": " + _t(
                "banks.import.conflict_same", id=same[key])})
        else:
            kept.append((question, line))
    report.keep(kept)
    return conflicts


def _import_refused(form: dict, key: str, status: int = 400, **params) -> tuple[str, int]:
    """The import form again, saying why nothing was read."""
    return _import_page(form, None, key, status, **params)


def _import_page(form: dict, result: dict | None, problem: str | None, status: int,
                 **params) -> tuple[str, int]:
    return render_template("banks/import.html", form=form, result=result,
                           problem=_t(problem, **params) if problem else None,
                           banks=list_banks(database), types=QUESTION_TYPES,
                           minimum=FEW_QUESTIONS), status


# -- one bank ------------------------------------------------------------------------

def _bank_or_404(bank_id: int) -> dict:
    bank = bank_info(database, bank_id)
    if bank is None:
        abort(404)
    return bank


def game_coverage(game_id: int) -> dict | None:
    """``{author: {type: unused}}`` of a game, from its own copy of the questions
    minus those already read; None when there is no such game."""
    loaded = store.load(game_id)
    if loaded is None:
        return None
    game, _row = loaded
    return coverage(list(game.questions.values()), set(game.state.used))


@bp.route("/<int:bank_id>")
@gm_required
def bank(bank_id: int):
    """One bank: the coverage table, the pairs with few questions, search, the questions."""
    info = _bank_or_404(bank_id)
    _, questions = bank_questions(database, bank_id)
    table = coverage(questions)
    search = {"q": request.args.get("q", "").strip()[:200],
              "author": request.args.get("author", "").strip()[:200],
              "type": request.args.get("type", "") if request.args.get("type") in QUESTION_TYPES
              else ""}
    searching = any(search.values())
    shown = (search_questions(database, bank_id, search["q"], search["author"], search["type"])
             if searching else questions)
    games = games_using(database, info["name"])
    game_id = request.args.get("game", "")
    chosen = next((game for game in games if str(game["id"]) == game_id), None)
    game_table = game_coverage(chosen["id"]) if chosen else None
    done = DONE_MESSAGES.get(request.args.get("done", ""))
    return render_template(
        "banks/bank.html", bank=info, table=table, few=few_questions(table),
        minimum=FEW_QUESTIONS, types=QUESTION_TYPES, questions=shown, search=search,
        searching=searching, authors=list(table), games=games, game=chosen,
        game_table=game_table, done=done, done_id=request.args.get("id", ""),
        sample=info["name"] == SAMPLE_BANK_NAME,
        coverage_url=url_for("banks.game_coverage_json", game_id=chosen["id"]) if chosen else "")


def _question_form(bank: dict, fields: dict, problems: dict, original_id: str | None,
                   status: int = 200):
    """The add / edit form of a question, with the problems of each field."""
    table = coverage(bank_questions(database, bank["id"])[1])
    messages = [{"field": name, "text": _t(f"banks.problem.{problems[name]}",
                                           field=_t(f"banks.field.{name}"))}
                for name in QUESTION_FIELDS if name in problems]
    return render_template("banks/question.html", bank=bank, fields=fields, problems=problems,
                           messages=messages, original_id=original_id, types=QUESTION_TYPES,
                           authors=list(table)), status


def _submitted_fields() -> dict[str, str]:
    return clean_question_fields({name: request.form.get(name, "") for name in QUESTION_FIELDS})


@bp.route("/<int:bank_id>/questions/new", methods=["GET", "POST"])
@gm_required
def new_question(bank_id: int):
    """Add a question to a bank (the id is made up when left empty)."""
    info = _bank_or_404(bank_id)
    if request.method == "GET":
        fields = {name: "" for name in QUESTION_FIELDS}
        fields["author"] = request.args.get("author", "")[:200]
        if request.args.get("type") in QUESTION_TYPES:
            fields["type"] = request.args["type"]
        return _question_form(info, fields, {}, None)
    fields = _submitted_fields()
    taken = question_ids(database, bank_id)
    problems = question_problems(fields, taken)
    if problems:
        return _question_form(info, fields, problems, None, 400)
    if not fields["id"]:
        fields["id"] = new_question_id(fields["author"], fields["type"], taken)
    try:
        add_question(database, bank_id, Question(**fields))
    except QuestionIdTaken:
        return _question_form(info, fields, {"id": "taken"}, None, 400)
    return redirect(url_for("banks.bank", bank_id=bank_id, done="added", id=fields["id"]))


@bp.route("/<int:bank_id>/questions/edit", methods=["GET", "POST"])
@gm_required
def edit_question(bank_id: int):
    """Change a question of a bank, its id included (games keep their own copy)."""
    info = _bank_or_404(bank_id)
    if request.method == "GET":
        original = request.args.get("id", "")
        question = get_question(database, bank_id, original)
        if question is None:
            abort(404)
        fields = {name: getattr(question, name) for name in QUESTION_FIELDS}
        return _question_form(info, fields, {}, original)
    original = request.form.get("original_id", "")
    if get_question(database, bank_id, original) is None:
        abort(404)
    fields = _submitted_fields()
    fields["id"] = fields["id"] or original
    problems = question_problems(fields, question_ids(database, bank_id) - {original})
    if problems:
        return _question_form(info, fields, problems, original, 400)
    try:
        update_question(database, bank_id, original, Question(**fields))
    except QuestionIdTaken:
        return _question_form(info, fields, {"id": "taken"}, original, 400)
    return redirect(url_for("banks.bank", bank_id=bank_id, done="saved", id=fields["id"]))


@bp.post("/<int:bank_id>/questions/delete")
@gm_required
def remove_question(bank_id: int):
    """Delete one question of a bank."""
    _bank_or_404(bank_id)
    qid = request.form.get("id", "")
    if not delete_question(database, bank_id, qid):
        abort(404)
    return redirect(url_for("banks.bank", bank_id=bank_id, done="deleted", id=qid))


@bp.route("/<int:bank_id>/export.csv")
@gm_required
def export(bank_id: int):
    """The bank as a CSV bank file (UTF-8 with BOM), which imports back unchanged."""
    return export_response(_bank_or_404(bank_id))


def export_response(info: dict) -> Response:
    """The download of bank ``info`` (see :func:`bank_info`) as a CSV bank file;
    shared by the page and the JSON API, so both give the same bytes."""
    buffer = io.BytesIO()
    export_bank(database, info["id"], buffer)
    filename = (slugify(info["name"]) or f"banco-{info['id']}") + ".csv"
    return Response(buffer.getvalue(), mimetype="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


@bp.post("/<int:bank_id>/delete")
@gm_required
def remove_bank(bank_id: int):
    """Delete a bank (games created from it keep their own copy of its questions)."""
    info = _bank_or_404(bank_id)
    delete_bank(database, bank_id)
    return redirect(url_for("banks.index", done="bank_deleted", name=info["name"]))


# -- a game in progress --------------------------------------------------------------

@bp.route("/game/<int:game_id>/coverage")
@gm_required
def game_coverage_json(game_id: int):
    """How many unused questions a game has left: ``{author: {type: unused}}``."""
    table = game_coverage(game_id)
    if table is None:
        return jsonify(ok=False, error="not_found", message=f"there is no game {game_id}"), 404
    return jsonify(table)

