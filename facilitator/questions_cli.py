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

from .questions import (SHORT_ANSWER_MODES, BankReport, ImportIssue, cli_language, load_bank,
                        message, read_bank_for_import)
from .questions.summary import author_type_table, coverage_gaps
from .safe_text import control_character

__all__ = ["questions", "check", "import_command", "export_command"]


def _reading_options(command):
    """``--author``, ``--short-answer`` and ``--lang``, shared by check and import."""
    command = click.option(
        "--lang", type=click.Choice(["es", "en"]), default=None,
        help="Language of the report (default: Spanish when LANG starts with es, "
             "else English).")(command)
    command = click.option(
        "--short-answer", "short_answer", type=click.Choice(list(SHORT_ANSWER_MODES)),
        default="auto", show_default=True,
        help="Type of Moodle short-answer questions: quien when they ask who said or "
             "wrote something or their answers name an author of the bank (auto), or "
             "all quien, or all abierta.")(command)
    return click.option(
        "--author", default=None, metavar="NAME",
        help="Author of the Moodle questions with no category (or in Moodle's "
             "default category).")(command)


@click.group("questions")
def questions() -> None:
    """Question banks: CSV (spreadsheet), Moodle GIFT and Moodle XML."""


@questions.command("check")
@click.argument("files", nargs=-1, required=True,
                type=click.Path(exists=True, dir_okay=False))
@click.option("--skip-errors", is_flag=True,
              help="Keep the good questions of a file that has errors (they are still listed).")
@_reading_options
@click.pass_context
def check(ctx: click.Context, files: tuple[str, ...], skip_errors: bool, author: str | None,
          short_answer: str, lang: str | None) -> None:
    """Check question bank FILES and say what a game would get from them.

    Lists the questions the game can use, per author and type; the ones it
    cannot use and why; and every error with its line. Exits with status 1
    when a file has errors (even with --skip-errors: they are still errors).
    """
    lang = cli_language(lang)
    failed = False
    for number, path in enumerate(files):
        if number:
            click.echo()
        # Read with skip_errors so the teacher sees what is good even while
        # errors remain; the summary says what an import would really keep.
        report = load_bank(path, skip_errors=True, author=author, short_answer=short_answer,
                           lang=lang)
        _print_report(report, skip_errors)
        failed = failed or not report.ok
    if failed:
        ctx.exit(1)


def _print_issues(title: str, issues: list[ImportIssue]) -> None:
    if issues:
        click.echo(title)
        for issue in sorted(issues, key=lambda issue: issue.line or 0):
            click.echo(f"  {issue}")


def _print_summary(report: BankReport) -> None:
    """The file, its format, the counts, the notes, every error and unusable question,
    the questions without expected answer, and how to give an author when some lack one."""
    lang = report.lang
    kind = message(lang, f"cli.format.{report.format}") if report.format in (
        "csv", "gift", "moodle-xml", "not-a-bank") else report.format
    click.echo(f"{report.file} ({kind})")
    click.echo("  " + message(lang, "cli.counts",
                              usable=message(lang, "cli.usable_question", n=len(report.questions)),
                              unusable=message(lang, "cli.question", n=len(report.unusable)),
                              errors=message(lang, "cli.error", n=len(report.errors))))
    for note in report.notes:
        click.echo("  " + message(lang, "cli.note", text=note))
    _print_issues(message(lang, "cli.errors"), report.errors)
    _print_issues(message(lang, "cli.unusable"), report.unusable)
    if report.without_author:
        click.echo("  " + message(lang, "hint.author.cli", n=report.without_author))
    _print_issues(message(lang, "cli.no_answer"), report.no_answer)


def _print_table(report: BankReport) -> None:
    click.echo(message(report.lang, "cli.table"))
    for line in author_type_table(report.questions, report.lang):
        click.echo(f"  {line}")
    for gap in coverage_gaps(report.questions, report.lang):
        click.echo("  " + message(report.lang, "cli.note", text=gap))


def _print_report(report: BankReport, skip_errors: bool) -> None:
    """The check of one file, as the teacher reads it."""
    _print_summary(report)
    lang, usable = report.lang, len(report.questions)
    if report.errors and report.format != "not-a-bank":
        good = message(lang, "cli.good_question", n=usable)
        if not usable:
            click.echo(message(lang, "cli.nothing_until_fixed"))
        elif skip_errors:
            click.echo(message(lang, "cli.would_skip", good=good))
        else:
            click.echo(message(lang, "cli.use_skip", good=good))
    if report.questions:
        _print_table(report)


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
@_reading_options
@click.pass_context
def import_command(ctx: click.Context, file: str, name: str | None, skip_errors: bool,
                   replace: bool, author: str | None, short_answer: str,
                   lang: str | None) -> None:
    """Import the bank FILE (CSV, Moodle GIFT or Moodle XML) into the database.

    Prints how many usable questions were imported, the ones that could not
    be used and why, and every error with its line. Nothing is imported from
    a file with errors unless --skip-errors is given; then the good questions
    are imported and the entries with errors left out. Exits with status 1
    when nothing was imported.
    """
    lang = cli_language(lang)
    report = read_bank_for_import(file, skip_errors=skip_errors, author=author,
                                  short_answer=short_answer, lang=lang)
    bank_name = (name if name is not None else Path(file).stem).strip()
    _print_summary(report)
    if report.format == "not-a-bank":
        ctx.exit(1)             # its error says what it is and how to make a bank of it
    if report.errors and not skip_errors:
        click.echo(message(lang, "cli.not_imported.errors"))
        ctx.exit(1)
    if not report.questions:
        click.echo(message(lang, "cli.not_imported.empty"))
        ctx.exit(1)
    if not bank_name:
        click.echo(message(lang, "cli.not_imported.no_name"))
        ctx.exit(1)
    if len(bank_name) > MAX_BANK_NAME:
        click.echo(message(lang, "cli.not_imported.long_name", max=MAX_BANK_NAME))
        ctx.exit(1)
    if control_character(bank_name) is not None:
        click.echo(message(lang, "cli.not_imported.control_name"))
        ctx.exit(1)

    from .store.banks import find_bank, save_bank
    database = _open_database()
    existing = find_bank(database, bank_name)
    if existing is not None and existing["name"] != bank_name:
        existing = None     # found by id, not by name: a new bank named like a number
    if existing is not None and not replace:
        click.echo(message(lang, "cli.not_imported.taken", name=bank_name,
                           count=message(lang, "cli.question", n=existing["count"])))
        ctx.exit(1)
    bank_id = save_bank(database, bank_name, report.questions, replace=replace)
    click.echo(message(lang, "cli.replaced" if existing is not None else "cli.imported",
                       name=bank_name, id=bank_id,
                       usable=message(lang, "cli.usable_question", n=len(report.questions))))
    if report.unusable:
        click.echo(message(lang, "cli.imported_unusable",
                           count=message(lang, "cli.question", n=len(report.unusable))))
    if report.errors:
        click.echo(message(lang, "cli.imported_errors",
                           count=message(lang, "cli.entry", n=len(report.errors))))
    _print_table(report)


@questions.command("export")
@click.argument("bank")
@click.argument("file", type=click.Path(dir_okay=False, writable=True, allow_dash=True))
@click.option("--lang", type=click.Choice(["es", "en"]), default=None,
              help="Language of the messages (default: Spanish when LANG starts with es, "
                   "else English).")
@click.pass_context
def export_command(ctx: click.Context, bank: str, file: str, lang: str | None) -> None:
    """Write the bank BANK (its name or its id) to FILE as a CSV bank ("-": standard output).

    The file is the format ``import`` and ``check`` read (UTF-8 with a BOM,
    so that spreadsheets show the accents right): edit it and import it back.
    """
    from .store.banks import export_bank, find_bank, list_banks
    lang = cli_language(lang)
    database = _open_database()
    found = find_bank(database, bank)
    if found is None:
        click.echo(message(lang, "export.no_bank", bank=bank), err=True)
        for row in list_banks(database):
            click.echo("  " + message(lang, "export.bank_line", id=row["id"], name=row["name"],
                                      count=message(lang, "cli.question", n=row["count"])),
                       err=True)
        ctx.exit(1)
    try:
        if file == "-":
            with click.open_file("-", "wb") as stdout:
                count = export_bank(database, found["id"], stdout)
        else:
            count = export_bank(database, found["id"], file)
    except OSError as exc:
        click.echo(message(lang, "export.cannot_write", file=file, reason=exc.strerror or exc),
                   err=True)
        ctx.exit(1)
    click.echo(message(lang, "export.done", name=found["name"],
                       count=message(lang, "cli.question", n=count), file=file),
               err=file == "-")
