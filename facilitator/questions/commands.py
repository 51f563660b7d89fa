"""``facilitator questions ...``: command-line tools for question banks.

Only ``check`` lives here: it needs no database. ``import`` is added by the
database layer, through :func:`read_bank_for_import`, and export is
:func:`write_csv`.
"""
from __future__ import annotations

import click

from .csv_bank import write_csv
from .loader import load_bank, read_bank_for_import
from .report import BankReport, ImportIssue
from .summary import author_type_table, coverage_gaps

# What the database layer's ``import`` and ``export`` commands call.
__all__ = ["questions", "check", "read_bank_for_import", "write_csv"]

_FORMAT_NAMES = {"csv": "CSV", "gift": "Moodle GIFT", "moodle-xml": "Moodle XML"}


@click.group("questions")
def questions() -> None:
    """Question banks: CSV (spreadsheet), Moodle GIFT and Moodle XML."""


@questions.command("check")
@click.argument("files", nargs=-1, required=True,
                type=click.Path(exists=True, dir_okay=False))
@click.option("--skip-errors", is_flag=True,
              help="Keep the good questions of a file that has errors (they are still listed).")
@click.pass_context
def check(ctx: click.Context, files: tuple[str, ...], skip_errors: bool) -> None:
    """Check question bank FILES and say what a game would get from them.

    Lists the questions the game can use, per author and type; the ones it
    cannot use and why; and every error with its line. Exits with status 1
    when a file has errors (even with --skip-errors: they are still errors).
    """
    failed = False
    for number, path in enumerate(files):
        if number:
            click.echo()
        # Read with skip_errors so the teacher sees what is good even while
        # errors remain; the summary says what an import would really keep.
        report = load_bank(path, skip_errors=True)
        _print_report(report, skip_errors)
        failed = failed or not report.ok
    if failed:
        ctx.exit(1)


def _plural(count: int, word: str, plural: str | None = None) -> str:
    return f"{count} {word if count == 1 else plural or word + 's'}"


def _print_issues(title: str, issues: list[ImportIssue]) -> None:
    if issues:
        click.echo(title)
        for issue in sorted(issues, key=lambda issue: issue.line or 0):
            click.echo(f"  {issue}")


def _print_report(report: BankReport, skip_errors: bool) -> None:
    """The check of one file, as the teacher reads it."""
    kind = _FORMAT_NAMES.get(report.format, report.format)
    click.echo(f"{report.file} ({kind})")
    usable = len(report.questions)
    click.echo(f"  {_plural(usable, 'usable question')}, "
               f"{_plural(len(report.unusable), 'question')} that could not be used, "
               f"{_plural(len(report.errors), 'error')}")
    for note in report.notes:
        click.echo(f"  note: {note}")
    _print_issues("Errors:", report.errors)
    _print_issues("Could not be used:", report.unusable)
    if report.errors:
        if not usable:
            click.echo("Nothing can be imported from this file until its errors are fixed.")
        elif skip_errors:
            click.echo(f"With --skip-errors, the {_plural(usable, 'good question')} "
                       "would be imported and the entries with errors left out.")
        else:
            click.echo("Nothing is imported from a file with errors: fix them, or use "
                       f"--skip-errors to keep the {_plural(usable, 'good question')}.")
    if report.questions:
        click.echo("Questions per author and type:")
        for line in author_type_table(report.questions):
            click.echo(f"  {line}")
        for gap in coverage_gaps(report.questions):
            click.echo(f"  note: {gap}")
