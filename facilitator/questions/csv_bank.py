"""The CSV bank: the format a teacher edits in a spreadsheet.

One row per question under a header row naming the columns
``id,author,type,text,answer,notes`` (``id`` and ``notes`` may be left out).
Two optional columns keep the formatting of questions read from Moodle:
``text_html`` and ``answer_html``, the formatted forms (HTML, sanitised on
reading with :func:`.formatting.sanitise`) of ``text`` and ``answer``, which
stay the plain text. ``write_csv`` writes them only when some question has
one, so a bank without formatting exports exactly as before.
Headers and type values are matched ignoring case and accents, with Spanish
aliases (see ``COLUMN_ALIASES`` and ``TYPE_ALIASES``), because the file is
typed by people in whatever spreadsheet they have.
"""
from __future__ import annotations

import csv
import io
import os
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Iterable

from .model import QUESTION_TYPES, Question

from .formatting import sanitise
from .messages import DEFAULT_LANGUAGE, message
from .report import BankReport
from .text import bad_line_message, clean, decode, fold, slugify

#: The header ``write_csv`` writes, in this order.
HEADER: tuple[str, ...] = ("id", "author", "type", "text", "answer", "notes")

#: Accepted header names for each column, compared with :func:`fold`.
COLUMN_ALIASES: dict[str, tuple[str, ...]] = {
    "id": ("id", "identificador"),
    "author": ("author", "autor", "unidad", "unit"),
    "type": ("type", "tipo"),
    "text": ("text", "pregunta", "texto", "question"),
    "answer": ("answer", "respuesta", "respuesta esperada", "expected", "expected answer"),
    "notes": ("notes", "notas", "nota", "note"),
    "text_html": ("text_html", "texto html", "pregunta html", "question html"),
    "answer_html": ("answer_html", "respuesta html", "answer html"),
}
#: The optional columns of the formatted text (issue 14), written after ``HEADER``.
HTML_COLUMNS: tuple[str, ...] = ("text_html", "answer_html")
REQUIRED_COLUMNS: tuple[str, ...] = ("author", "type", "text", "answer")

#: Accepted type values, compared with :func:`fold` after dropping ¿?¡!.
TYPE_ALIASES: dict[str, tuple[str, ...]] = {
    "vf": ("vf", "v/f", "v-f", "verdadero o falso", "verdadero/falso",
           "true/false", "truefalse", "true or false"),
    "quien": ("quien", "quien lo dijo", "who", "who said it"),
    "abierta": ("abierta", "pregunta abierta", "open", "open question", "essay"),
}

_COLUMN_BY_NAME = {fold(alias): column
                   for column, aliases in COLUMN_ALIASES.items() for alias in aliases}
_TYPE_BY_NAME = {fold(alias): kind for kind, aliases in TYPE_ALIASES.items() for alias in aliases}

#: The most question rows a CSV bank may have (a whole course is a few hundred).
MAX_ROWS = 50_000

# Separators a spreadsheet may write: "," (English locales), ";" (Spanish and
# most European locales, where "," is the decimal mark), tab ("Unicode text").
_SEPARATORS = (",", ";", "\t")


#: A spreadsheet reads a cell starting with one of these as a formula (OWASP's list).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralise(cell: object) -> object:
    """A text cell made safe for a spreadsheet: a leading ``'`` when it starts with
    ``= + - @``, tab or carriage return (optionally after quotes), so that
    ``=HYPERLINK(...)`` stays text. Anything that is not text (a score) is left as it is.

    >>> neutralise("=1+1"), neutralise("'=1"), neutralise("Kant"), neutralise(-0.5)
    ("'=1+1", "''=1", 'Kant', -0.5)
    """
    if isinstance(cell, str) and cell.lstrip("'").startswith(FORMULA_STARTS):
        return "'" + cell
    return cell


def unneutralise(cell: str) -> str:
    """The inverse of :func:`neutralise`: drops exactly one leading ``'`` when what follows
    it (after any further quotes) starts with ``= + - @``, tab or carriage return.

    >>> unneutralise("'=1+1"), unneutralise("''=1"), unneutralise("'quote'")
    ('=1+1', "'=1", "'quote'")
    """
    if cell.startswith("'") and cell.lstrip("'").startswith(FORMULA_STARTS):
        return cell[1:]
    return cell


def question_type(value: str) -> str | None:
    """The question type a cell names (``"V/F"`` → ``"vf"``), or None.

    >>> question_type("¿Quién lo dijo?")
    'quien'
    """
    return _TYPE_BY_NAME.get(fold(value.strip("¿?¡!. ")))


def _sniff_separator(text: str) -> str:
    """The separator of the header line: whichever of , ; tab it uses most."""
    for line in text.splitlines():
        if line.strip():
            counts = {sep: line.count(sep) for sep in _SEPARATORS}
            best = max(_SEPARATORS, key=lambda sep: counts[sep])
            return best if counts[best] else ","
    return ","


def _accepted_names(column: str) -> str:
    return ", ".join(COLUMN_ALIASES[column])


def read_csv(data: bytes, name: str, lang: str = DEFAULT_LANGUAGE) -> BankReport:
    """Read a CSV bank from its bytes; ``name`` is the file name shown in messages.

    This is the raw reading: duplicate checks and the "no questions from a
    file with errors" rule are applied by :func:`facilitator.questions.parse_bank`.
    A file with more than ``MAX_ROWS`` question rows is refused whole (one error).
    A cell starting with ``'`` followed by ``= + - @``, tab or carriage return
    loses that one ``'`` (:func:`unneutralise`: how :func:`write_csv` keeps
    formulas out of spreadsheets).
    """
    report = BankReport(file=name, format="csv", lang=lang)
    decoded = decode(data)
    report.encoding = decoded.encoding
    if decoded.encoding == "cp1252" and not decoded.bad_lines:
        report.notes.append(message(lang, "csv.cp1252"))
    stem = slugify(Path(name).stem) or "q"
    reader = csv.reader(io.StringIO(decoded.text, newline=""),
                        delimiter=_sniff_separator(decoded.text))
    header: _Header | None = None
    previous_end = 0
    rows = 0
    try:
        for row in reader:
            # A row starts on the line after the previous one ended; line_num
            # counts physical lines, so quoted multi-line cells count right.
            start, end = previous_end + 1, reader.line_num
            previous_end = end
            if not any(cell.strip() for cell in row):
                continue  # blank rows are spacing in a spreadsheet, not errors
            if header is None:
                header = _read_header(row, start, report)
                if header is None:
                    return report  # no usable header: nothing else can be read
                continue
            rows += 1
            if rows > MAX_ROWS:
                too_many = BankReport(file=name, format="csv", lang=lang)
                too_many.encoding = report.encoding
                too_many.error(start, message(lang, "csv.too_many", max=f"{MAX_ROWS:,}"))
                return too_many
            bad = [n for n in decoded.bad_lines if start <= n <= end]
            if bad:
                report.error(start, bad_line_message(decoded, bad[0], lang))
                continue
            _read_row(row, start, end, header, stem, report)
    except csv.Error as exc:
        report.error(reader.line_num or None, message(lang, "csv.unreadable", reason=exc))
        return report
    if header is None:
        report.error(None, message(lang, "csv.empty_file", header=",".join(HEADER)))
    return report


@dataclass(frozen=True)
class _Header:
    """Where each known column is, and how many cells the header row has."""

    columns: dict[str, int]
    width: int


def _read_header(row: list[str], line: int, report: BankReport) -> _Header | None:
    """Map each known column to its position, or report why the header is unusable."""
    columns: dict[str, int] = {}
    ignored = []
    for position, cell in enumerate(row):
        if not cell.strip():
            continue
        column = _COLUMN_BY_NAME.get(fold(cell))
        if column is None:
            ignored.append(cell.strip())
        elif column in columns:
            report.error(line, message(report.lang, "csv.same_column",
                                       first=row[columns[column]].strip(), second=cell.strip(),
                                       column=column))
        else:
            columns[column] = position
    if not columns:
        # Most likely the header row is missing and this is a question.
        report.error(line, message(report.lang, "csv.no_header", header=",".join(HEADER)))
        return None
    for column in REQUIRED_COLUMNS:
        if column not in columns:
            report.error(line, message(report.lang, "csv.missing_column", column=column,
                                       names=_accepted_names(column)))
    if report.errors:
        return None
    if ignored:
        names = ", ".join(f'"{name}"' for name in ignored)
        report.notes.append(message(report.lang, "csv.ignored_columns", n=len(ignored),
                                    line=line, names=names, header=", ".join(HEADER)))
    return _Header(columns, len(row))


def _read_row(row: list[str], start: int, end: int, header: _Header,
              stem: str, report: BankReport) -> None:
    """Check one data row and add its question to the report, or its errors."""
    used = max(position for position, cell in enumerate(row) if cell.strip()) + 1
    if used > header.width:
        report.error(start, message(report.lang, "csv.too_wide", used=used, width=header.width))
        return
    columns = header.columns
    # A cell written by write_csv as '=... (a formula neutralised) reads back as =...
    values = {column: clean(unneutralise(clean(row[position]))) if position < len(row) else ""
              for column, position in columns.items()}
    # An open question may have no expected answer (the GM judges it); no other may.
    lang = report.lang
    problems = [message(lang, "csv.empty_cell", column=column) for column in REQUIRED_COLUMNS
                if not values[column]
                and not (column == "answer" and question_type(values["type"]) == "abierta")]
    if values["type"] and question_type(values["type"]) is None:
        problems.append(message(lang, "csv.bad_type", value=values["type"],
                                types=", ".join(QUESTION_TYPES)))
    if problems:
        hint = ""
        if end > start:
            # An unclosed quote swallows the rest of the file into one cell.
            hint = message(lang, "csv.open_quote", start=start, end=end)
        for problem in problems:
            report.error(start, problem + hint)
        return
    # The formatted forms: sanitised again (a CSV comes from anywhere); a CSV holds
    # no image, so an <img> in them makes the question unusable.
    formatted = {column: sanitise(values[column], available=()) if values.get(column) else None
                 for column in HTML_COLUMNS}
    missing = [name for rich in formatted.values() if rich is not None
               for name in rich.missing + rich.remote]
    if missing:
        report.cannot_use(start, message(lang, "image.missing", names=", ".join(missing)),
                          reason="image_missing", text=values["text"])
        return
    question = Question(
        id=values.get("id") or f"{stem}-{start}",
        author=values["author"],
        type=question_type(values["type"]),
        text=values["text"],
        answer=values["answer"],
        notes=values.get("notes", ""),
        text_html=formatted["text_html"].html if formatted["text_html"] else "",
        answer_html=formatted["answer_html"].html if formatted["answer_html"] else "",
    )
    report.add(question, start)


def _csv_text(questions: Iterable[Question]) -> str:
    questions = list(questions)
    buffer = io.StringIO(newline="")
    # "\r\n" between rows is what Excel writes and RFC 4180 asks for; line
    # breaks inside a cell stay "\n" and the cell is quoted.
    writer = csv.writer(buffer, lineterminator="\r\n")
    formatted = any(q.text_html or q.answer_html for q in questions)
    writer.writerow(HEADER + HTML_COLUMNS if formatted else HEADER)
    for q in questions:
        cells = [q.id, q.author, q.type, q.text, q.answer, q.notes]
        if formatted:
            cells += [q.text_html, q.answer_html]
        writer.writerow([neutralise(v) for v in cells])
    return buffer.getvalue()


def write_csv(questions: Iterable[Question], path_or_file: str | os.PathLike | IO) -> None:
    """Write questions as a CSV bank that :func:`load_bank` reads back unchanged.

    The header is ``id,author,type,text,answer,notes``, the separator ``,``
    and the encoding UTF-8 *with* a BOM: without it Excel assumes the
    locale's code page and shows "SÃ³crates". ``path_or_file`` is a path, a
    text stream (the BOM is written as U+FEFF) or a binary stream.

    A cell starting with ``= + - @``, tab or carriage return is written with a
    leading ``'`` (:func:`neutralise`), so a spreadsheet shows it as text instead
    of running it as a formula; :func:`read_csv` drops that one ``'`` again, so the
    bank still round-trips exactly.
    """
    text = "\ufeff" + _csv_text(questions)
    if isinstance(path_or_file, (str, os.PathLike)):
        Path(path_or_file).write_bytes(text.encode("utf-8"))
    elif isinstance(path_or_file, io.TextIOBase):
        path_or_file.write(text)
    else:
        path_or_file.write(text.encode("utf-8"))
