"""``facilitator questions ...``: command-line tools for question banks.

It sits above both the formats (:mod:`facilitator.questions`, which know no
database) and the store (:mod:`facilitator.store.banks`, which uses the
formats): neither of them imports it. ``check`` needs no database. ``import`` (through :func:`read_bank_for_import`)
and ``export`` (a CSV bank written by :func:`write_csv`) open the app's
database with ``create_app()``: the one of ``FACILITATOR_DATABASE_URL``, else
the SQLite file of the instance folder (``FACILITATOR_INSTANCE``).
"""
from __future__ import annotations

from pathlib import Path

import click

from .questions import BankReport, ImportIssue, load_bank, read_bank_for_import
from .questions.summary import author_type_table, coverage_gaps

__all__ = ["questions", "check", "import_command", "export_command"]

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


def _print_summary(report: BankReport) -> None:
    """The file, its format, the counts, the notes, every error and unusable question."""
    kind = _FORMAT_NAMES.get(report.format, report.format)
    click.echo(f"{report.file} ({kind})")
    click.echo(f"  {_plural(len(report.questions), 'usable question')}, "
               f"{_plural(len(report.unusable), 'question')} that could not be used, "
               f"{_plural(len(report.errors), 'error')}")
    for note in report.notes:
        click.echo(f"  note: {note}")
    _print_issues("Errors:", report.errors)
    _print_issues("Could not be used:", report.unusable)


def _print_report(report: BankReport, skip_errors: bool) -> None:
    """The check of one file, as the teacher reads it."""
    _print_summary(report)
    usable = len(report.questions)
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


#: Longest bank name (the database column holds 200 characters).
MAX_BANK_NAME = 200


def _open_database():
    """The app's database, as ``facilitator serve`` would open it."""
    from . import create_app
    from .extensions import database
    create_app()
    return database


@questions.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--name", help="Name of the bank (default: the file's name without its extension).")
@click.option("--skip-errors", is_flag=True,
              help="Import the good questions of a file that has errors (the errors are listed).")
@click.option("--replace", is_flag=True,
              help="Replace the questions of the bank of that name if there is one.")
@click.pass_context
def import_command(ctx: click.Context, file: str, name: str | None, skip_errors: bool,
                   replace: bool) -> None:
    """Import the bank FILE (CSV, Moodle GIFT or Moodle XML) into the database.

    Prints how many usable questions were imported, the ones that could not
    be used and why, and every error with its line. Nothing is imported from
    a file with errors unless --skip-errors is given; then the good questions
    are imported and the entries with errors left out. Exits with status 1
    when nothing was imported.
    """
    report = read_bank_for_import(file, skip_errors=skip_errors)
    bank_name = (name if name is not None else Path(file).stem).strip()
    _print_summary(report)
    if report.errors and not skip_errors:
        click.echo("Nothing imported: the file has errors. Fix them, or use --skip-errors "
                   "to import the good questions and leave those entries out.")
        ctx.exit(1)
    if not report.questions:
        click.echo("Nothing imported: the file has no question the game can use.")
        ctx.exit(1)
    if not bank_name:
        click.echo("Nothing imported: the bank needs a name (--name).")
        ctx.exit(1)
    if len(bank_name) > MAX_BANK_NAME:
        click.echo(f"Nothing imported: a bank's name may have at most {MAX_BANK_NAME} characters.")
        ctx.exit(1)

    from .store.banks import find_bank, save_bank
    database = _open_database()
    existing = find_bank(database, bank_name)
    if existing is not None and existing["name"] != bank_name:
        existing = None     # found by id, not by name: a new bank named like a number
    if existing is not None and not replace:
        click.echo(f'Nothing imported: there is already a bank named "{bank_name}" '
                   f"({_plural(existing['count'], 'question')}). Use --name to choose "
                   "another name, or --replace to replace its questions.")
        ctx.exit(1)
    bank_id = save_bank(database, bank_name, report.questions, replace=replace)
    verb = "Replaced the questions of" if existing is not None else "Imported into"
    click.echo(f'{verb} bank "{bank_name}" (id {bank_id}): '
               f"{_plural(len(report.questions), 'usable question')} imported.")
    if report.unusable:
        click.echo(f"{_plural(len(report.unusable), 'question')} could not be used "
                   "(listed above with the reason).")
    if report.errors:
        click.echo(f"{_plural(len(report.errors), 'entry', 'entries')} with errors "
                   "left out (listed above).")
    click.echo("Questions per author and type:")
    for line in author_type_table(report.questions):
        click.echo(f"  {line}")
    for gap in coverage_gaps(report.questions):
        click.echo(f"  note: {gap}")


@questions.command("export")
@click.argument("bank")
@click.argument("file", type=click.Path(dir_okay=False, writable=True, allow_dash=True))
@click.pass_context
def export_command(ctx: click.Context, bank: str, file: str) -> None:
    """Write the bank BANK (its name or its id) to FILE as a CSV bank ("-": standard output).

    The file is the format ``import`` and ``check`` read (UTF-8 with a BOM,
    so that spreadsheets show the accents right): edit it and import it back.
    """
    from .store.banks import export_bank, find_bank, list_banks
    database = _open_database()
    found = find_bank(database, bank)
    if found is None:
        click.echo(f'There is no bank named "{bank}" (nor with that id). The banks are:', err=True)
        for row in list_banks(database):
            click.echo(f"  {row['id']}: {row['name']} ({_plural(row['count'], 'question')})",
                       err=True)
        ctx.exit(1)
    try:
        if file == "-":
            with click.open_file("-", "wb") as stdout:
                count = export_bank(database, found["id"], stdout)
        else:
            count = export_bank(database, found["id"], file)
    except OSError as exc:
        click.echo(f"Cannot write {file}: {exc.strerror or exc}", err=True)
        ctx.exit(1)
    click.echo(f'Exported bank "{found["name"]}" ({_plural(count, "question")}) to {file}.',
               err=file == "-")
