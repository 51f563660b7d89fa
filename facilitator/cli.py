"""The ``facilitator`` console command: replay, serve, password, questions, export."""
from __future__ import annotations

import sys

if sys.argv[1:2] == ["serve"]:
    # Nothing loaded while the server starts is garbage: the collector stays off until
    # serve.tune_garbage_collector freezes it all. A restarted server's classroom waits
    # for it: with the collector on, imports and building the app take longer, and a last
    # full collection (which finds nothing) longer still (bench/startup.py;
    # docs/performance.md).
    import gc
    gc.disable()
    # gevent must patch the standard library before Flask, SQLAlchemy or psycopg
    # are imported, or sockets and locks block the whole server.
    from gevent import monkey
    monkey.patch_all()

import json  # noqa: E402

import click  # noqa: E402

from .games.partida import Refusal, load_record, replay  # noqa: E402


@click.group()
def main() -> None:
    """The facilitator of the classroom team game "la partida"."""


@main.command("replay")
@click.argument("record_file", type=click.Path(dir_okay=False, allow_dash=True))
def replay_command(record_file: str) -> None:
    """Replay a game record (partida/1, colmena/1, hive/1, or a bare Hive GameString) and
    print its result as JSON.

    Exits 0 with {"standings": [...]} (la partida) or the game's summary (Hive: the players,
    the moves in notation, the result and its reason), or non-zero with
    {"error": RULE, "action": INDEX, "message": ...} when an action is refused.
    """
    try:
        with click.open_file(record_file, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as error:
        _print_refusal(Refusal("format", f"cannot read {record_file}: {error}"))
        sys.exit(2)
    try:
        record = load_record(text)
    except Refusal as refusal:
        record = _record_of_text(text)
        if record is None:
            _print_refusal(refusal)
            sys.exit(1)
    other = _other_game(record)
    if other is not None:
        _replay_other(other, record)
        return
    try:
        game = replay(record, load_bank=_bank_loader(record_file))
    except Refusal as refusal:
        _print_refusal(refusal)
        sys.exit(1)
    state = game.state
    click.echo(json.dumps({"standings": game.standings(), "over": state.over,
                           "round": state.turn.round, "turn": state.turn.number},
                          ensure_ascii=False, indent=1))


def _record_of_text(text: str) -> dict | None:
    """The record of a file that is not JSON but a game's own text (Hive's GameString, as
    MzingaViewer copies it), or None."""
    from .games import record_of_text
    try:
        return record_of_text(text)
    except ImportError:
        return None


def _other_game(record: object):
    """The game of a record that is not a partida's (``colmena/1``, ``hive/1``), or None."""
    from .games import kind_of_record
    fmt = record.get("format") if isinstance(record, dict) else None
    if not isinstance(fmt, str) or fmt.startswith("partida/"):
        return None
    try:
        return kind_of_record(record)
    except ImportError:
        return None


def _replay_other(game_kind, record: dict) -> None:
    """Replay a record of another game and print its summary, or its refusal (exit 1)."""
    from .games import Refusal as GameRefusal
    try:
        match = game_kind.replay(record)
    except GameRefusal as refusal:
        click.echo(json.dumps(refusal.to_dict(), ensure_ascii=False))
        sys.exit(1)
    click.echo(json.dumps(match.summary(), ensure_ascii=False, indent=1))


def _bank_loader(record_file: str):
    """Records may name a bank file instead of listing questions: read it beside the record."""
    import os

    def load(name: str):
        from .questions import load_bank
        base = os.path.dirname(os.path.abspath(record_file)) if record_file != "-" else "."
        report = load_bank(os.path.join(base, name))
        if not report.ok:
            raise ValueError("; ".join(str(e) for e in report.errors[:3]))
        return report.questions
    return load


def _print_refusal(refusal: Refusal) -> None:
    click.echo(json.dumps(refusal.to_dict(), ensure_ascii=False))


@main.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; 0.0.0.0 lets tablets on the room's network join.")
@click.option("--port", default=5000, show_default=True, type=int)
def serve_command(host: str, port: int) -> None:
    """Start the server: GM console, team pages and projector (gevent)."""
    from .serve import serve
    from .store.schema import SchemaError
    try:
        serve(host, port)
    except SchemaError as error:     # refused at start, saying what is wrong and what to do
        raise click.ClickException(f"the server cannot start: {error}")


@main.command("password")
@click.password_option("--password", prompt="New GM password")
def password_command(password: str) -> None:
    """Set the GM console password (stored hashed), kept across restarts."""
    from . import create_app
    from .extensions import database
    from .store.credentials import PASSWORD, set_secret
    create_app()
    set_secret(database, PASSWORD, password)
    click.echo("GM password saved.")


@main.command("export")
@click.argument("game_or_record")
@click.option("--format", "fmt", type=click.Choice(["csv", "json", "record"]), default="csv",
              show_default=True)
@click.option("--table", type=click.Choice(["standings", "turns", "both"]), default="both",
              show_default=True, help="With --format csv: which table.")
@click.option("--output", "-o", type=click.Path(dir_okay=False, writable=True), default="-",
              help="File to write (default: standard output).")
def export_command(game_or_record: str, fmt: str, table: str, output: str) -> None:
    """Export a stored game (its id) or a partida/1 record file: CSV, JSON or the record."""
    from .results import standings_csv, summary_json, turns_csv
    from .games.partida import write_record
    name = None
    if game_or_record.isdigit():
        from . import create_app
        from .extensions import store
        create_app()
        record = store.record(int(game_or_record))
        if record is None:
            raise click.ClickException(f"there is no stored game {game_or_record}")
        name = record.get("name")
    else:
        try:
            with open(game_or_record, encoding="utf-8") as f:
                record = load_record(f.read())
        except OSError as error:
            raise click.ClickException(f"cannot read {game_or_record}: {error.strerror}")
        except Refusal as refusal:
            raise click.ClickException(refusal.message)
    try:
        game = replay(record, load_bank=_bank_loader(game_or_record))
    except Refusal as refusal:
        raise click.ClickException(f"{refusal.rule} at action {refusal.action}: {refusal.message}")
    if fmt == "record":
        text = json.dumps(write_record(game, {"name": name} if name else None),
                          ensure_ascii=False, indent=1)
    elif fmt == "json":
        text = json.dumps(summary_json(game, name), ensure_ascii=False, indent=1)
    else:
        parts = []
        if table in ("standings", "both"):
            parts.append(standings_csv(game))
        if table in ("turns", "both"):
            parts.append(turns_csv(game))
        text = "\r\n".join(parts)
    if output == "-":
        click.echo(text, nl=False)
    else:
        with open(output, "w", encoding="utf-8", newline="") as f:
            f.write(text)


@main.group("db")
def db_group() -> None:
    """The database's schema: which revision it is at, and upgrading it.

    `facilitator serve` upgrades an older database by itself at start; these
    commands are for those who deploy by hand (several processes, PostgreSQL).
    """


def _database(upgrade: bool):
    """The database `serve` would use (FACILITATOR_DATABASE_URL or the instance's SQLite file)."""
    from .config import database_url
    from .resources import instance_path
    from .store.database import Database
    from .store.schema import SchemaError
    database = Database()
    try:
        database.connect(database_url(str(instance_path())), pool_size=1, upgrade=upgrade)
    except SchemaError as error:
        raise click.ClickException(str(error))
    return database


@db_group.command("current")
def db_current_command() -> None:
    """Say the database's schema revision and the newest one; exit 1 when it is behind."""
    from .store.schema import SchemaError, schema_status
    database = _database(upgrade=False)
    try:
        status = schema_status(database.engine)
    except SchemaError as error:
        raise click.ClickException(str(error))
    click.echo(f"Database: {database.engine.url.render_as_string(hide_password=True)}")
    current = status["current"] or "empty"
    if status["up_to_date"]:
        click.echo(f"Schema {current}: up to date.")
        return
    click.echo(f"Schema {current}; this version of the facilitator uses {status['head']}. "
               "Run `facilitator db upgrade` (or start the server, which upgrades it).")
    sys.exit(1)


@db_group.command("upgrade")
def db_upgrade_command() -> None:
    """Upgrade the database to the newest schema (a SQLite file is copied beside itself first)."""
    database = _database(upgrade=True)
    change = database.schema_change
    click.echo(change.describe() if change else "The database is already up to date.")


@main.group("hive")
def hive_group() -> None:
    """Hive: the Universal Hive Protocol engine."""


@hive_group.command("uhp")
def hive_uhp_command() -> None:
    """Speak the Universal Hive Protocol on standard input and output."""
    from .games.hive.uhp import main as uhp_main
    sys.exit(uhp_main(sys.stdin, sys.stdout))


def _register_questions() -> None:
    from .questions_cli import questions
    main.add_command(questions)


_register_questions()


if __name__ == "__main__":  # pragma: no cover
    main()

