"""Question banks: reading CSV, Moodle GIFT and Moodle XML files into questions.

The readers are pure Python (standard library only): no web framework or
database here, so the CLI, the web upload and the tests share them. Only
the ``questions`` click group needs click, and it is imported on first use.

    >>> report = load_bank("questions/filosofia.csv")   # doctest: +SKIP
    >>> report.ok, len(report.questions)                 # doctest: +SKIP
    (True, 96)

Every problem is an :class:`ImportIssue` that prints as ``file:line: what``.
A file with errors yields no questions unless read with ``skip_errors=True``.
"""
from facilitator.engine.questions import QUESTION_TYPES, Question

from .csv_bank import COLUMN_ALIASES, HEADER, TYPE_ALIASES, question_type, read_csv, write_csv
from .gift import read_gift
from .loader import detect_format, load_bank, parse_bank, read_bank_for_import
from .moodle_xml import read_moodle_xml
from .report import ERROR, UNUSABLE, BankReport, ImportIssue
from .summary import author_type_table, coverage_gaps

__all__ = [
    "BankReport", "ImportIssue", "ERROR", "UNUSABLE",
    "Question", "QUESTION_TYPES",
    "load_bank", "parse_bank", "detect_format", "read_bank_for_import",
    "read_csv", "read_gift", "read_moodle_xml", "write_csv",
    "HEADER", "COLUMN_ALIASES", "TYPE_ALIASES", "question_type",
    "author_type_table", "coverage_gaps", "questions",
]


def __getattr__(name: str):
    """Import the click group lazily, so reading a bank never needs click."""
    if name == "questions":
        from .commands import questions
        return questions
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
