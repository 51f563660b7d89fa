"""Question banks: reading CSV, Moodle GIFT and Moodle XML files into questions.

The readers are pure Python (standard library only): no web framework or
database here, so the CLI, the web upload, the store and the tests share
them. The ``facilitator questions`` commands live above this package and
the store, in :mod:`facilitator.questions_cli`.

    >>> report = load_bank("questions/filosofia.csv")   # doctest: +SKIP
    >>> report.ok, len(report.questions)                 # doctest: +SKIP
    (True, 96)

Every problem is an :class:`ImportIssue` that prints as ``file:line: what``.
A file with errors yields no questions unless read with ``skip_errors=True``.
"""
from .model import QUESTION_TYPES, Question

from .csv_bank import COLUMN_ALIASES, HEADER, TYPE_ALIASES, question_type, read_csv, write_csv
from .gift import read_gift
from .loader import detect_format, load_bank, mark_no_answer, parse_bank, read_bank_for_import
from .messages import cli_language, message
from .moodle_rules import SHORT_ANSWER_MODES, ReadOptions
from .moodle_xml import read_moodle_xml
from .report import ERROR, NO_ANSWER, UNUSABLE, BankReport, ImportIssue
from .summary import author_type_table, coverage_gaps

__all__ = [
    "BankReport", "ImportIssue", "ERROR", "UNUSABLE", "NO_ANSWER",
    "ReadOptions", "SHORT_ANSWER_MODES", "mark_no_answer", "message", "cli_language",
    "Question", "QUESTION_TYPES",
    "load_bank", "parse_bank", "detect_format", "read_bank_for_import",
    "read_csv", "read_gift", "read_moodle_xml", "write_csv",
    "HEADER", "COLUMN_ALIASES", "TYPE_ALIASES", "question_type",
    "author_type_table", "coverage_gaps",
]
