"""Reading a bank file whatever its format, and the checks every format shares.

The format is chosen from the file name's extension (``.csv``; ``.gift`` or
``.txt`` for GIFT, the extension Moodle exports it with; ``.xml`` for Moodle
XML) and, for any other extension, from the content.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

from .csv_bank import read_csv
from .gift import read_gift
from .moodle_xml import read_moodle_xml
from .report import BankReport
from .text import fold, same_text_key

#: The readers, by format name.
READERS: dict[str, Callable[[bytes, str], BankReport]] = {
    "csv": read_csv,
    "gift": read_gift,
    "moodle-xml": read_moodle_xml,
}
#: Format by file extension.
EXTENSIONS: dict[str, str] = {".csv": "csv", ".gift": "gift", ".txt": "gift", ".xml": "moodle-xml"}


def detect_format(name: str, data: bytes) -> str | None:
    """The format of a bank file: by extension, else by a look at its start.

    Returns ``"csv"``, ``"gift"``, ``"moodle-xml"`` or None when it cannot tell.
    """
    by_extension = EXTENSIONS.get(Path(name).suffix.lower())
    if by_extension:
        return by_extension
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith((b"<?xml", b"<quiz")):
        return "moodle-xml"
    if b"{" in head and b"}" in head or head.startswith((b"::", b"//", b"$CATEGORY")):
        return "gift"
    first_line = head.split(b"\n", 1)[0]
    if any(separator in first_line for separator in (b",", b";", b"\t")):
        return "csv"
    return None


def parse_bank(data: bytes, name: str, *, skip_errors: bool = False,
               format: str | None = None) -> BankReport:
    """Read a bank from bytes (an upload, say); ``name`` is the file name.

    ``format`` is ``"csv"``, ``"gift"`` or ``"moodle-xml"``; by default it is
    detected with :func:`detect_format`. Duplicate ids and duplicate
    questions (same author, type and text) are errors. When there is any
    error the report holds no questions, unless ``skip_errors`` is true: then
    the good questions are kept and the errors are still reported.
    """
    display = Path(name).name or name
    chosen = format or detect_format(name, data)
    if chosen not in READERS:
        report = BankReport(file=display, format=chosen or "unknown")
        report.error(None, "cannot tell the format of this file: name it .csv (spreadsheet), "
                           ".gift or .txt (Moodle GIFT) or .xml (Moodle XML)")
        return report
    report = READERS[chosen](data, display)
    _check_duplicates(report)
    _note_author_spellings(report)
    report.errors.sort(key=lambda issue: issue.line or 0)
    if report.errors and not skip_errors:
        # A half-read bank must never be used by accident.
        report.keep([])
    return report


def load_bank(path: str | os.PathLike, *, skip_errors: bool = False) -> BankReport:
    """Read the bank file at ``path`` (CSV, GIFT or Moodle XML); see :func:`parse_bank`.

    A file that cannot be read is reported as an error, not raised, so that
    every caller shows it the same way.
    """
    name = Path(path).name
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        report = BankReport(file=name, format=EXTENSIONS.get(Path(path).suffix.lower(), "unknown"))
        report.error(None, f"cannot read the file: {exc.strerror or exc}")
        return report
    return parse_bank(data, name, skip_errors=skip_errors)


def read_bank_for_import(path: str | os.PathLike, skip_errors: bool = False) -> BankReport:
    """The bank ``facilitator questions import`` stores in the database.

    Same as :func:`load_bank`; it exists so that the import command (which
    owns the database) has one stable entry point here.
    """
    return load_bank(path, skip_errors=skip_errors)


def _check_duplicates(report: BankReport) -> None:
    """Report (and drop) repeated ids and repeated questions; the first one stays.

    Two questions with one id would make the game log ambiguous; the same
    question twice would be asked twice in a game, breaking R-Q1's intent.
    """
    seen_ids: dict[str, int | None] = {}
    seen_questions: dict[tuple[str, str, str], int | None] = {}
    kept = []
    for question, line in report.located():
        key = (same_text_key(question.author), question.type, same_text_key(question.text))
        if question.id in seen_ids:
            report.error(line, f'id "{question.id}" is already used on line {seen_ids[question.id]}')
            continue
        seen_ids[question.id] = line
        if key in seen_questions:
            report.error(line, f"same author, type and text as the question on line "
                               f"{seen_questions[key]}")
            continue
        seen_questions[key] = line
        kept.append((question, line))
    report.keep(kept)


def _note_author_spellings(report: BankReport) -> None:
    """Note authors written two ways ("Kant", "kant"): the game sees two authors."""
    spellings: dict[str, dict[str, int | None]] = {}
    for question in report.questions:
        spellings.setdefault(fold(question.author), {}).setdefault(
            question.author, report.lines.get(question.id))
    for variants in spellings.values():
        if len(variants) > 1:
            listed = " and ".join(f'"{author}" (line {line})' for author, line in variants.items())
            report.notes.append(f"authors {listed} differ only in case, accents or spacing: "
                                "the game counts them as different authors")
