"""The question banks in the GM console: list, search, edit, import, export, coverage.

Every page here is for the GM only (and, as every page of the server, refuses a
POST from a page of another site: facilitator.web.auth.from_another_site).

URLs (prefix ``/console/banks``)::

    GET  /                               the banks, with questions per author and type
    POST /import                         upload a CSV, GIFT or Moodle XML file; with
                                         ``step=preview`` nothing is saved: every question
                                         is shown with the author and type it will get,
                                         which the teacher may correct before importing
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
import re
import secrets
import time
from pathlib import Path

from flask import (Blueprint, Response, abort, current_app, g, jsonify, redirect,
                   render_template, request, url_for)
from markupsafe import Markup
from werkzeug.exceptions import RequestEntityTooLarge

from ..games import kind
from ..questions import QUESTION_TYPES, SHORT_ANSWER_MODES, BankReport, Question, parse_bank
from ..extensions import database, store
from ..i18n import translate
from ..store.banks import (FEW_QUESTIONS, QUESTION_FIELDS, SAMPLE_BANK_NAME, QuestionIdTaken,
                           add_question, bank_info, bank_questions, bank_tables,
                           clean_question_fields, coverage, delete_bank, delete_question,
                           export_bank, few_questions, games_using, get_question, has_images,
                           list_banks,
                           new_question_id, question_ids, question_problems, search_questions, update_question)
from .downloads import attachment, file_stem
from .auth import gm_required
from .offload import off_the_loop
from ..services.banks import (MAX_NAME, import_bank as services_import_bank)

bp = Blueprint("banks", __name__, url_prefix="/console/banks")

#: What ``?done=`` may say after a change, and its message key.
DONE_MESSAGES = {"added": "banks.done.added", "saved": "banks.done.saved",
                 "deleted": "banks.done.deleted", "bank_deleted": "banks.done.bank_deleted"}


def _t(key: str, **params) -> str:
    return translate(getattr(g, "lang", "es"), key, **params)


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
    short_answer = request.form.get("short_answer", "auto")
    return {"target": request.form.get("target", "new"),
            "name": request.form.get("name", "").strip(),
            "mode": request.form.get("mode", "add"),
            "skip_errors": bool(request.form.get("skip_errors")),
            # Moodle files: the author of questions with no category, and the
            # type of short answers (issue 14).
            "author": request.form.get("author", "").strip()[:MAX_NAME],
            "short_answer": short_answer if short_answer in SHORT_ANSWER_MODES else "auto"}


@bp.post("/import")
@gm_required
def import_file():
    """Import an uploaded bank file into a new bank, or into an existing one.

    Every error is shown with its line. From a file with errors nothing is
    imported unless "skip errors" was ticked; unusable questions (a Moodle
    multiple-choice question, say) are listed with the reason.
    """
    blank = {"target": "new", "name": "", "mode": "add", "skip_errors": False, "author": "",
             "short_answer": "auto"}
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    if limit and (request.content_length or 0) > limit:
        # Refused before the body is read: no upload is left half-parsed.
        return _import_refused(blank, "banks.import.too_large", status=413)
    try:
        upload = request.files.get("file")
        form = _import_form()
    except RequestEntityTooLarge:
        return _import_refused(blank, "banks.import.too_large", status=413)
    token = request.form.get("preview", "")
    if token:
        # The second step of a preview: the file kept by the first one.
        stashed = _unstash(token)
        if stashed is None:
            return _import_refused(form, "bank_preview.expired")
        filename, data = stashed
    else:
        if upload is None or not upload.filename:
            return _import_refused(form, "banks.import.no_file")
        filename = upload_filename(upload.filename)
        data = upload.read()
    lang = getattr(g, "lang", "es")
    authors, types = _corrections()

    def read() -> BankReport:
        return parse_bank(data, filename, skip_errors=True, author=form["author"] or None,
                          short_answer=form["short_answer"], lang=lang, authors=authors,
                          types=types)
    if request.form.get("step") == "preview":
        token = token or _stash(filename, data)
        return _preview_page(form, filename, off_the_loop(read), token)
    outcome = import_bank(read, filename, form)
    if token and outcome.result and outcome.result.get("bank"):
        _drop_stash(token)
    if outcome.result and outcome.result.get("without_author") and not form["author"]:
        # The file's name is the likely author ("Kant.gift" → "Kant"): offered
        # in the form, to import the file again into the bank just made.
        form["author"] = Path(filename).stem.strip()[:MAX_NAME]
        if outcome.result.get("bank"):
            form.update(target=str(outcome.result["bank"]["id"]), mode="replace")
    return _import_page(form, outcome.result, outcome.problem, outcome.status, **outcome.params)


# -- the import preview --------------------------------------------------------------

#: How long a previewed file waits for its import, in seconds.
PREVIEW_SECONDS = 2 * 3600
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{16,64}$")


def _stash_dir() -> Path:
    return Path(current_app.instance_path) / "import-previews"


def _stash(filename: str, data: bytes) -> str:
    """Keep an uploaded file until the teacher imports it from the preview; a token."""
    folder = _stash_dir()
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*"):
        try:
            if old.stat().st_mtime < time.time() - PREVIEW_SECONDS:
                old.unlink()
        except OSError:
            pass
    token = secrets.token_urlsafe(18)
    (folder / f"{token}.bin").write_bytes(data)
    (folder / f"{token}.name").write_text(filename, encoding="utf-8")
    return token


def _unstash(token: str) -> tuple[str, bytes] | None:
    if not _TOKEN.match(token):
        return None
    folder = _stash_dir()
    try:
        return ((folder / f"{token}.name").read_text(encoding="utf-8"),
                (folder / f"{token}.bin").read_bytes())
    except OSError:
        return None


def _drop_stash(token: str) -> None:
    if _TOKEN.match(token):
        for suffix in (".bin", ".name"):
            (_stash_dir() / f"{token}{suffix}").unlink(missing_ok=True)


def _corrections() -> tuple[dict[int, str], dict[int, str]]:
    """The preview's corrections, by line: ``author-<line>`` and ``type-<line>`` that
    differ from what the file gave (``was-author-<line>``, ``was-type-<line>``)."""
    authors, types = {}, {}
    for key, value in request.form.items():
        kind, _, line = key.partition("-")
        if kind not in ("author", "type") or not line.isdigit():
            continue
        value = value.strip()[:MAX_NAME]
        if not value or value == request.form.get(f"was-{kind}-{line}", "").strip():
            continue
        if kind == "author":
            authors[int(line)] = value
        elif value in QUESTION_TYPES:
            types[int(line)] = value
    return authors, types


_IMG = re.compile(r'<img\b(?:(?=[^>]*\salt="([^"]*)"))?[^>]*>')


def preview_html(html: str) -> Markup:
    """A question's HTML for the preview page, its images (not stored yet) shown as
    their alt text. Markup (not escaped again): it is nh3's allow-listed output."""
    return Markup(_IMG.sub(lambda m: f'<span class="img-alt">[{m.group(1) or "img"}]</span>',
                           html))


def _preview_page(form: dict, filename: str, report: BankReport, token: str):
    """Every question of the file with the author and type it will get (editable), the
    unusable ones with the reason, the errors; nothing saved yet."""
    questions = [{"line": line, "id": q.id, "author": q.author, "type": q.type,
                  "text": q.text, "html": preview_html(q.text_html), "answer": q.answer}
                 for q, line in report.located()]
    unusable = [{"line": issue.line, "message": issue.message, "reason": issue.reason,
                 "text": issue.text} for issue in report.unusable]
    return render_template("banks/preview.html", form=form, file=filename, token=token,
                           report=report, questions=questions, unusable=unusable,
                           errors=[str(issue) for issue in report.errors],
                           types=QUESTION_TYPES, images=len(report.images))


def upload_filename(name: str) -> str:
    """The name of an uploaded file without any folder (``C:\\x\\banco.csv`` → ``banco.csv``)."""
    return Path(name.replace("\\", "/")).name or "bank"


def _report_language() -> str | None:
    """The language of the import report: the page's; for the JSON API English (as
    its texts always were) unless the client asks ``?lang=``."""
    if request.blueprint == "api_v1":
        asked = request.args.get("lang")
        return asked if asked in ("es", "en") else "en"
    return None



def import_bank(read, filename: str, form: dict):
    """The bank import use case (:func:`facilitator.services.banks.import_bank`), with the
    report in the request's language."""
    return services_import_bank(read, filename, form, _report_language(),
                                getattr(g, "lang", "es"))


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
    minus those already read; None when there is no such game (or it is stored broken,
    or reads no questions: la colmena, Hive)."""
    from ..store.games import BROKEN_ERRORS
    try:
        loaded = store.current(game_id)
    except BROKEN_ERRORS:
        return None
    if loaded is None or kind(loaded[1].kind).content_key != "questions":
        return None           # no such game, or a game that reads no questions
    game = loaded[0].game
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
    filename = file_stem(info["name"], f"banco-{info['id']}") + ".csv"
    return Response(buffer.getvalue(), mimetype="text/csv; charset=utf-8",
                    headers={"Content-Disposition": attachment(filename)})


@bp.post("/<int:bank_id>/delete")
@gm_required
def remove_bank(bank_id: int):
    """Delete a bank (games created from it keep their own copy of its questions)."""
    info = _bank_or_404(bank_id)
    if has_images(database, bank_id) and games_using(database, info["name"]):
        # Its games in progress show its images: deleting it would blank them.
        return Response(_t("bank_images.in_use", name=info["name"]), status=409,
                        mimetype="text/plain; charset=utf-8")
    delete_bank(database, bank_id)
    return redirect(url_for("banks.index", done="bank_deleted", name=info["name"]))


# -- a game in progress --------------------------------------------------------------

@bp.route("/game/<int:game_id>/coverage")
@gm_required
def game_coverage_json(game_id: int):
    """How many unused questions a game has left: ``{author: {type: unused}}``."""
    table = game_coverage(game_id)
    if table is None:
        return jsonify(ok=False, error="not_found",
                       message=f"there is no game {game_id} that reads questions"), 404
    return jsonify(table)

