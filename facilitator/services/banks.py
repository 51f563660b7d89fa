"""Importing a question bank: from a file read by the bank formats, or from questions
given as JSON; shared by the console's import page and the JSON API."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..extensions import database
from ..i18n import translate
from ..questions import BankReport, mark_no_answer, message
from ..questions.loader import duplicate_key
from ..questions.messages import language_forced
from ..safe_text import control_character
from ..store.banks import (QuestionIdTaken, add_questions, bank_info, bank_questions, coverage,
                           list_banks, save_bank)
from ..web.offload import off_the_loop

#: Longest bank name (the column holds 200 characters).
MAX_NAME = 200


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


def import_bank(read: Callable[[], BankReport], filename: str, form: dict,
                report_lang: str | None = None, lang: str = "es") -> ImportOutcome:
    """Import the questions ``read()`` returns (read keeping the good ones) as the
    import form ``form`` says: ``{"target": "new" or a bank id, "name", "mode": "add"
    or "replace", "skip_errors"}``. ``form["name"]`` is filled in when left empty.

    Shared by the import page and the JSON API (``/api/v1/banks``). ``report_lang``:
    the language of the report's texts (None: the bank formats' own choice); ``lang``:
    the language of the page's hints.
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
        if control_character(form["name"]) is not None:
            return ImportOutcome(None, "banks.import.name_control", 400)
        if any(bank["name"] == form["name"] for bank in list_banks(database)):
            return ImportOutcome(None, "banks.import.name_taken", 400, {"name": form["name"]})

    # Read keeping the good questions, then decide: what the teacher sees is
    # every problem at once, not only the first file's worth. Parsing a large file
    # takes seconds: off the event loop, so no game waits for it.
    report = off_the_loop(_read_in_language, read, report_lang)
    conflicts = []
    if target_bank is not None and form["mode"] == "add":
        conflicts = _conflicts_with_bank(report, target_bank["id"], lang)
    mark_no_answer(report)   # after the conflicts: the questions dropped are not marked
    errors = [{"line": issue.line, "text": str(issue)} for issue in report.errors] + conflicts
    errors.sort(key=lambda error: error["line"] or 0)
    result = {"file": filename, "format": report.format, "errors": errors,
              "unusable": [str(issue) for issue in report.unusable], "notes": report.notes,
              "no_answer": [str(issue) for issue in report.no_answer],
              "without_author": report.without_author,
              "author_hint": message(lang, "hint.author.web", n=report.without_author)
              if report.without_author else "",
              "usable": len(report.questions), "imported": 0, "bank": None,
              "table": coverage(report.questions) if report.questions else {}}

    if report.format == "not-a-bank":      # its error says what it is, and the way out
        return ImportOutcome(result, "banks.import.not_a_bank", 400, report=report)
    if errors and not form["skip_errors"]:
        return ImportOutcome(result, "banks.import.refused_errors", 400, report=report)
    if not report.questions:
        return ImportOutcome(result, "banks.import.refused_empty", 400, report=report)

    if target_bank is None:
        try:
            bank_id = save_bank(database, form["name"], report.questions, images=report.images)
        except ValueError:
            return ImportOutcome(None, "banks.import.name_taken", 400, {"name": form["name"]})
    elif form["mode"] == "replace":
        bank_id = save_bank(database, target_bank["name"], report.questions, replace=True,
                            images=report.images)
    else:
        try:
            add_questions(database, target_bank["id"], report.questions, images=report.images)
        except QuestionIdTaken as taken:   # the bank changed since the check: say so
            return ImportOutcome(None, "banks.import.id_taken_now", 400, {"id": taken.qid})
        bank_id = target_bank["id"]
    result["imported"] = len(report.questions)
    result["bank"] = bank_info(database, bank_id)
    return ImportOutcome(result, None, 200, report=report)


def _read_in_language(read: Callable[[], BankReport], lang: str | None) -> BankReport:
    with language_forced(lang):
        report = read()
    report.lang = lang or report.lang
    return report


def _conflicts_with_bank(report, bank_id: int, lang: str = "es") -> list[dict]:
    """Questions of ``report`` that clash with the bank's: same id, or same
    author, type and text. They are dropped from ``report`` and returned as
    errors ``{"line", "text"}``."""
    found = bank_questions(database, bank_id)
    existing = found[1] if found else []
    ids = {q.id for q in existing}
    same = {duplicate_key(q): q.id for q in existing}
    kept, conflicts = [], []
    for question, line in report.located():
        key = duplicate_key(question)
        where = f"{report.file}:{line}" if line is not None else report.file
        if question.id in ids:
            conflicts.append({"line": line, "text": where + ": " + translate(
                lang, "banks.import.conflict_id", id=question.id)})
        elif key in same:
            conflicts.append({"line": line, "text": where + ": " + translate(
                lang, "banks.import.conflict_same", id=same[key])})
        else:
            kept.append((question, line))
    report.keep(kept)
    return conflicts
