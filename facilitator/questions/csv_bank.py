"""The CSV bank: the format a teacher edits in a spreadsheet.

One row per question under a header row naming the columns
``id,author,type,text,answer,notes`` (``id`` and ``notes`` may be left out).
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

from facilitator.engine.questions import QUESTION_TYPES, Question

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
}
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

# Separators a spreadsheet may write: "," (English locales), ";" (Spanish and
# most European locales, where "," is the decimal mark), tab ("Unicode text").
_SEPARATORS = (",", ";", "\t")


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


def read_csv(data: bytes, name: str) -> BankReport:
    """Read a CSV bank from its bytes; ``name`` is the file name shown in messages.

    This is the raw reading: duplicate checks and the "no questions from a
    file with errors" rule are applied by :func:`facilitator.questions.parse_bank`.
    """
    report = BankReport(file=name, format="csv")
    decoded = decode(data)
    report.encoding = decoded.encoding
    if decoded.encoding == "cp1252" and not decoded.bad_lines:
        report.notes.append("the file is not UTF-8; it was read as Windows-1252 "
                            "(the usual encoding of spreadsheets on Windows)")
    stem = slugify(Path(name).stem) or "q"
    reader = csv.reader(io.StringIO(decoded.text, newline=""),
                        delimiter=_sniff_separator(decoded.text))
    header: _Header | None = None
    previous_end = 0
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
            bad = [n for n in decoded.bad_lines if start <= n <= end]
            if bad:
                report.error(start, bad_line_message(decoded, bad[0]))
                continue
            _read_row(row, start, end, header, stem, report)
    except csv.Error as exc:
        report.error(reader.line_num or None, f"the file cannot be read as CSV: {exc}")
        return report
    if header is None:
        report.error(None, "the file is empty: it needs a header row "
                           f"({','.join(HEADER)}) and one row per question")
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
            report.error(line, f'columns "{row[columns[column]].strip()}" and "{cell.strip()}" '
                               f"both mean {column}; keep only one of them")
        else:
            columns[column] = position
    if not columns:
        # Most likely the header row is missing and this is a question.
        report.error(line, "the first row must be a header naming the columns "
                           f"{','.join(HEADER)} (id and notes are optional)")
        return None
    for column in REQUIRED_COLUMNS:
        if column not in columns:
            report.error(line, f'no "{column}" column in the header row '
                               f"(accepted names: {_accepted_names(column)})")
    if report.errors:
        return None
    if ignored:
        names = ", ".join(f'"{name}"' for name in ignored)
        report.notes.append(f"line {line}: column{'s' if len(ignored) > 1 else ''} "
                            f"{names} ignored (not one of {', '.join(HEADER)})")
    return _Header(columns, len(row))


def _read_row(row: list[str], start: int, end: int, header: _Header,
              stem: str, report: BankReport) -> None:
    """Check one data row and add its question to the report, or its errors."""
    used = max(position for position, cell in enumerate(row) if cell.strip()) + 1
    if used > header.width:
        report.error(start, f"this row has {used} cells but the header has {header.width} "
                            "columns (is there an unquoted separator in the text?)")
        return
    columns = header.columns
    values = {column: clean(row[position]) if position < len(row) else ""
              for column, position in columns.items()}
    problems = [f'"{column}" is empty' for column in REQUIRED_COLUMNS if not values[column]]
    if values["type"] and question_type(values["type"]) is None:
        problems.append(f'type "{values["type"]}" is not one of {", ".join(QUESTION_TYPES)}')
    if problems:
        hint = ""
        if end > start:
            # An unclosed quote swallows the rest of the file into one cell.
            hint = (f" (this row runs from line {start} to line {end}: "
                    'is a quote (") left open?)')
        for problem in problems:
            report.error(start, problem + hint)
        return
    question = Question(
        id=values.get("id") or f"{stem}-{start}",
        author=values["author"],
        type=question_type(values["type"]),
        text=values["text"],
        answer=values["answer"],
        notes=values.get("notes", ""),
    )
    report.add(question, start)


def _csv_text(questions: Iterable[Question]) -> str:
    buffer = io.StringIO(newline="")
    # "\r\n" between rows is what Excel writes and RFC 4180 asks for; line
    # breaks inside a cell stay "\n" and the cell is quoted.
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(HEADER)
    for q in questions:
        writer.writerow([q.id, q.author, q.type, q.text, q.answer, q.notes])
    return buffer.getvalue()


def write_csv(questions: Iterable[Question], path_or_file: str | os.PathLike | IO) -> None:
    """Write questions as a CSV bank that :func:`load_bank` reads back unchanged.

    The header is ``id,author,type,text,answer,notes``, the separator ``,``
    and the encoding UTF-8 *with* a BOM: without it Excel assumes the
    locale's code page and shows "SÃ³crates". ``path_or_file`` is a path, a
    text stream (the BOM is written as U+FEFF) or a binary stream.
    """
    text = "\ufeff" + _csv_text(questions)
    if isinstance(path_or_file, (str, os.PathLike)):
        Path(path_or_file).write_bytes(text.encode("utf-8"))
    elif isinstance(path_or_file, io.TextIOBase):
        path_or_file.write(text)
    else:
        path_or_file.write(text.encode("utf-8"))
