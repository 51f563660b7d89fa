"""Reading a bank file whatever its format, and the checks every format shares.

The content decides the format, whatever the file's extension: Excel saves
"Texto Unicode" (UTF-16, tabs) and "Texto (delimitado por tabulaciones)" as
``.txt``, Moodle exports GIFT as ``.txt``, and people rename files. Only when
the content does not tell is the extension used (``.csv``; ``.gift`` or
``.txt`` for GIFT; ``.xml`` for Moodle XML).
"""
from __future__ import annotations

import dataclasses
import os
import re
from pathlib import Path
from typing import Callable

from ..safe_text import FOREIGN_LINE_BREAKS, control_character
from .csv_bank import COLUMN_ALIASES, question_type, read_csv
from .documents import document_kind, document_message
from .formatting import IMAGE_SCHEME
from .gift import read_gift
from .messages import DEFAULT_LANGUAGE, message
from .moodle_rules import ReadOptions
from .moodle_xml import read_moodle_xml
from .report import NO_ANSWER, BankReport, ImportIssue
from .text import LINE_BREAK, decode, fold, same_text_key

#: The readers, by format name.
READERS: dict[str, Callable[[bytes, str], BankReport]] = {
    "csv": read_csv,
    "gift": read_gift,
    "moodle-xml": read_moodle_xml,
}
#: Format by file extension.
EXTENSIONS: dict[str, str] = {".csv": "csv", ".gift": "gift", ".txt": "gift", ".xml": "moodle-xml"}


_COLUMN_NAMES = {fold(alias) for aliases in COLUMN_ALIASES.values() for alias in aliases}
_GIFT_START = re.compile(r"^(::|//|\$CATEGORY:)", re.IGNORECASE)


def _looks_like_csv_header(line: str) -> bool:
    """Whether a line is a bank's header row: two or more known column names
    between , ; or tabs ("id;autor;tipo;pregunta;respuesta")."""
    separator = max((",", ";", "\t"), key=line.count)
    cells = {fold(cell.strip().strip('"')) for cell in line.split(separator)}
    return len(cells & _COLUMN_NAMES) >= 2


def detect_format(name: str, data: bytes) -> str | None:
    """The format of a bank file, from its content; the extension only when the
    content does not tell.

    The bytes are decoded as the readers do (UTF-8 with or without BOM,
    UTF-16 with BOM, Windows-1252): Moodle XML starts with ``<?xml`` or
    ``<quiz``; a delimited text file starts with a header row naming the
    columns; GIFT starts with ``::``, ``//`` or ``$CATEGORY:``, or has an
    answer block ``{...}``. Returns ``"csv"``, ``"gift"``, ``"moodle-xml"`` or
    None when it cannot tell.
    """
    by_extension = EXTENSIONS.get(Path(name).suffix.lower())
    text = decode(data).text.lstrip("\ufeff \t\r\n")
    if text.startswith(("<?xml", "<quiz")):
        return "moodle-xml"
    first_line = LINE_BREAK.split(text, 1)[0]
    if _looks_like_csv_header(first_line):
        return "csv"
    if _GIFT_START.match(text) or ("{" in text and "}" in text):
        return "gift"
    if by_extension:
        return by_extension
    if any(separator in first_line for separator in (",", ";", "\t")):
        return "csv"
    return None


def parse_bank(data: bytes, name: str, *, skip_errors: bool = False,
               format: str | None = None, author: str | None = None,
               short_answer: str = "auto", lang: str = DEFAULT_LANGUAGE,
               authors: dict | None = None, types: dict | None = None) -> BankReport:
    """Read a bank from bytes (an upload, say); ``name`` is the file name.

    ``format`` is ``"csv"``, ``"gift"`` or ``"moodle-xml"``; by default it is
    detected with :func:`detect_format`. A file that is no bank at all (a Word
    document, a spreadsheet, a PDF, an image: :mod:`.documents`) is reported as
    format ``"not-a-bank"``, with one error saying what it is and how to make a
    bank of it, whatever ``format`` says. Duplicate ids are errors; questions
    with the same author, type and text are all kept, with a note naming their
    lines (Moodle imports them all too). A field holding a control character
    (a NUL byte...) is an error of its question; Word's line break (``\\x0b``)
    and a form feed become line breaks. When there is any error the report holds
    no questions, unless ``skip_errors`` is true: then the good questions are
    kept and the errors are still reported.

    For Moodle files, ``author`` is the author of the questions with no
    category (or one of Moodle's default categories), and ``short_answer``
    (``auto``, ``quien``, ``abierta``) how short answers are typed. ``lang``
    ("es" or "en") is the language of the messages of :mod:`.messages`.
    Kept ``abierta`` questions with an empty answer are listed in
    ``report.no_answer``.

    ``authors`` and ``types`` are the teacher's corrections made in the
    console's import preview: ``{line: author}`` and ``{line: type}``, by the
    line where each question starts (a question without author gets one).
    """
    authors, types = dict(authors or {}), dict(types or {})
    display = Path(name).name or name
    kind = document_kind(data)
    if kind is not None:
        report = BankReport(file=display, format="not-a-bank", lang=lang, document=kind)
        report.error(None, document_message(kind, lang))
        return report
    chosen = format or detect_format(name, data)
    if chosen not in READERS:
        report = BankReport(file=display, format=chosen or "unknown", lang=lang)
        report.error(None, message(lang, "load.unknown_format"))
        return report
    if chosen == "csv":
        report = read_csv(data, display, lang)
        _correct(report, authors, types)
    else:
        options = ReadOptions(author=author, short_answer=short_answer, lang=lang,
                              authors=authors, types=types)
        report = READERS[chosen](data, display, options)
    report.lang = lang
    by_extension = EXTENSIONS.get(Path(name).suffix.lower())
    if format is None and by_extension and by_extension != chosen:
        report.notes.append(message(lang, "note.detected",
                                    format=message(lang, f"cli.format.{chosen}")))
    _check_control_characters(report)
    _check_duplicates(report)
    _note_author_spellings(report)
    report.errors.sort(key=lambda issue: issue.line or 0)
    report.unusable.sort(key=lambda issue: issue.line or 0)
    if report.errors and not skip_errors:
        # A half-read bank must never be used by accident.
        report.keep([])
    mark_no_answer(report)
    return report


def mark_no_answer(report: BankReport) -> None:
    """List in ``report.no_answer`` the kept questions without an expected answer
    (``abierta`` only: an essay whose teacher wrote none), each marked "no
    expected answer: the GM judges it"; call it again after dropping questions."""
    report.no_answer = [
        ImportIssue(report.file, line, message(report.lang, "no_answer.item", id=question.id),
                    NO_ANSWER)
        for question, line in report.located() if not question.answer]


def load_bank(path: str | os.PathLike, *, skip_errors: bool = False,
              **options) -> BankReport:
    """Read the bank file at ``path`` (CSV, GIFT or Moodle XML); see :func:`parse_bank`
    (``options``: ``author``, ``short_answer``, ``lang``).

    A file that cannot be read is reported as an error, not raised, so that
    every caller shows it the same way.
    """
    name = Path(path).name
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        lang = options.get("lang", DEFAULT_LANGUAGE)
        report = BankReport(file=name, format=EXTENSIONS.get(Path(path).suffix.lower(), "unknown"),
                            lang=lang)
        report.error(None, message(lang, "load.unreadable", reason=exc.strerror or exc))
        return report
    return parse_bank(data, name, skip_errors=skip_errors, **options)


def read_bank_for_import(path: str | os.PathLike, skip_errors: bool = False,
                         **options) -> BankReport:
    """The bank ``facilitator questions import`` stores in the database.

    Same as :func:`load_bank`; it exists so that the import command (which
    owns the database) has one stable entry point here.
    """
    return load_bank(path, skip_errors=skip_errors, **options)


def _check_duplicates(report: BankReport) -> None:
    """Report (and drop) repeated ids, the first one staying; note repeated questions.

    Two questions with one id would make the game log ambiguous (a record names its
    questions by id, and the bank's table holds each id once): an error. The same
    question typed twice, or five ways (``\\n``, ``<ul>``, other markup of one text),
    is kept as Moodle keeps it, with a note naming the lines: a game might ask it
    twice, which the teacher decides on.
    """
    seen_ids: dict[str, int | None] = {}
    same: dict[tuple, list] = {}
    kept = []
    for question, line in report.located():
        if question.id in seen_ids:
            report.error(line, message(report.lang, "load.same_id", id=question.id,
                                       line=seen_ids[question.id]))
            continue
        seen_ids[question.id] = line
        same.setdefault(duplicate_key(question), []).append((question, line))
        kept.append((question, line))
    report.keep(kept)
    for group in same.values():
        if len(group) > 1:
            first = group[0][0]
            lines = [str(line) for _question, line in group if line is not None]
            listed = (", ".join(lines[:-1]) + message(report.lang, "load.and") + lines[-1]
                      if len(lines) > 1 else "".join(lines))
            text = " ".join(first.text.split())
            text = text if len(text) <= 60 else text[:59] + "…"
            report.notes.append(message(report.lang, "load.same_questions", lines=listed,
                                        author=first.author, text=text,
                                        type=message(report.lang, f"type.{first.type}")))


#: The fields of a question a bank keeps, and the name each is given in a message.
_FIELDS = {"id": "id", "author": "author", "text": "text", "answer": "answer",
           "notes": "notes", "text_html": "text", "answer_html": "answer"}


def _check_control_characters(report: BankReport) -> None:
    """Drop, as errors of their line, the questions whose fields hold a NUL byte or
    another control character (a database cannot keep them, a spreadsheet cannot show
    them); Word's manual line break and a form feed become plain line breaks first."""
    kept, changed = [], False
    for question, line in report.located():
        breaks = {key: FOREIGN_LINE_BREAKS.sub("\n", getattr(question, key)) for key in _FIELDS
                  if FOREIGN_LINE_BREAKS.search(getattr(question, key))}
        if breaks:
            question, changed = dataclasses.replace(question, **breaks), True
        bad = next(((key, code) for key in _FIELDS
                    if (code := control_character(getattr(question, key))) is not None), None)
        if bad is not None:
            report.error(line, message(report.lang, "load.control", code=bad[1],
                                       field=message(report.lang, f"field.{_FIELDS[bad[0]]}")))
            changed = True
            continue
        kept.append((question, line))
    if changed:
        report.keep(kept)


def _note_author_spellings(report: BankReport) -> None:
    """Note authors written two ways ("Kant", "kant"): the game sees two authors."""
    spellings: dict[str, dict[str, int | None]] = {}
    for question in report.questions:
        spellings.setdefault(fold(question.author), {}).setdefault(
            question.author, report.lines.get(question.id))
    for variants in spellings.values():
        if len(variants) > 1:
            listed = message(report.lang, "load.and").join(
                message(report.lang, "load.spelling", author=author, line=line)
                for author, line in variants.items())
            report.notes.append(message(report.lang, "load.spellings", listed=listed))


_IMAGE_SRC = re.compile(r'src="' + re.escape(IMAGE_SCHEME) + r'([^"]*)"')


def duplicate_key(question) -> tuple:
    """What makes two questions the same: author, type and text (case and spacing
    aside), and the images they show, so that two questions that differ only
    by their image are two questions."""
    return (same_text_key(question.author), question.type, same_text_key(question.text),
            tuple(_IMAGE_SRC.findall(question.text_html)))


def _correct(report: BankReport, authors: dict, types: dict) -> None:
    """Apply the preview's corrections (``{line: author}``, ``{line: type}``) to the
    questions of a CSV report."""
    if not authors and not types:
        return
    corrected = []
    for question, line in report.located():
        changes = {}
        if authors.get(line):
            changes["author"] = authors[line]
        if question_type(str(types.get(line) or "")):
            changes["type"] = question_type(types[line])
        corrected.append((dataclasses.replace(question, **changes), line))
    report.keep(corrected)
