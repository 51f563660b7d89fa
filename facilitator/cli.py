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

from .games import MODULES, Refusal, kind, kind_of_record, record_of_text  # noqa: E402


class _Commands(click.Group):
    """The facilitator's commands, and ``facilitator <game> <tool>`` for each tool a game
    declares (``tools``: name -> ``main(stdin, stdout)`` giving its exit code; Hive's
    ``uhp``, the Universal Hive Protocol). A game's package is imported only when one of
    its commands is asked for."""

    def list_commands(self, ctx):
        return sorted({*super().list_commands(ctx),
                       *(name for name in MODULES if kind(name).tools)})

    def get_command(self, ctx, name):
        found = super().get_command(ctx, name)
        if found is not None or name not in MODULES:
            return found
        tools = kind(name).tools
        if not tools:
            return None
        group = click.Group(name, help=f"The tools of {name}: {', '.join(tools)}.")
        for tool, run in tools.items():
            group.add_command(click.Command(
                tool, help=(run.__doc__ or "").strip().split("\n")[0],
                callback=lambda run=run: sys.exit(run(sys.stdin, sys.stdout))))
        return group


@click.group(cls=_Commands)
def main() -> None:
    """The facilitator: classroom games (la partida, la colmena, Hive) in a lecture hall."""


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
    record = _record_of(text)
    if record is None:
        _print_refusal(Refusal("format", "the file is neither a game's record (JSON with a "
                                         "known \"format\") nor a game's own text"))
        sys.exit(1)
    try:
        match = kind_of_record(record).replay(record, read_beside=_bank_loader(record_file))
    except Refusal as refusal:
        _print_refusal(refusal)
        sys.exit(1)
    click.echo(json.dumps(match.summary(), ensure_ascii=False, indent=1))


def _record_of(text: str) -> dict | None:
    """The record a file holds: its JSON, when a game writes records in that format, or
    a game's own text (Hive's GameString, as MzingaViewer copies it); else None."""
    try:
        record = json.loads(text)
    except ValueError:
        return record_of_text(text)
    return record if kind_of_record(record) is not None else None


def _bank_loader(record_file: str):
    """A record may name its content's file instead of holding it (a question bank): read
    it beside the record."""
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
    """Export a stored game (its id) or a record file: CSV, JSON or the record."""
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
                record = json.loads(f.read())
        except OSError as error:
            raise click.ClickException(f"cannot read {game_or_record}: {error.strerror}")
        except ValueError as error:
            raise click.ClickException(f"the record is not valid JSON: {error}")
    try:
        found = kind_of_record(record)
        if found is None:
            formats = ", ".join(kind(n).record_format for n in MODULES)
            fmt_given = record.get("format") if isinstance(record, dict) else None
            raise Refusal("format", f"export writes the results of a record of {formats}; "
                                    f"this one is {fmt_given!r}")
        text = found.export(record, fmt, table, name, _bank_loader(game_or_record))
    except Refusal as refusal:
        where = f" at action {refusal.action}" if refusal.action is not None else ""
        raise click.ClickException(f"{refusal.rule}{where}: {refusal.message}")
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


@main.group("lti")
def lti_group() -> None:
    """LTI 1.3: the learning platforms (Moodle, Canvas) whose courses launch the
    facilitator, and its signing keys (docs/lti.md)."""


@lti_group.command("add-platform")
@click.option("--issuer", required=True, help="The platform's issuer (Moodle: "
              "«Platform ID», its address).")
@click.option("--client-id", required=True, help="The client id the platform gave the tool.")
@click.option("--deployment-id", "deployment_ids", required=True, multiple=True,
              help="A deployment id the platform gave the tool (repeat for more).")
@click.option("--auth-url", required=True, help="The platform's authentication request URL.")
@click.option("--token-url", required=True, help="The platform's access token URL.")
@click.option("--keyset-url", required=True, help="The platform's public keyset URL.")
@click.option("--audience", default="", help="The access token's audience, when the platform "
              "names one other than its token URL.")
@click.option("--name", default="", help="A name for the platform in listings.")
def lti_add_platform_command(issuer, client_id, deployment_ids, auth_url, token_url, keyset_url,
                             audience, name) -> None:
    """Register a platform with the values its admin page shows (a second call with the
    same issuer and client id adds deployment ids and updates the addresses)."""
    from .store.lti import LtiStoreError, add_platform
    database = _database(upgrade=True)
    try:
        platform_id, new = add_platform(
            database, issuer=issuer, client_id=client_id, deployment_ids=list(deployment_ids),
            auth_login_url=auth_url, auth_token_url=token_url, key_set_url=keyset_url,
            auth_audience=audience, name=name)
    except LtiStoreError as error:
        raise click.ClickException(str(error))
    click.echo(f"Platform {platform_id} {'registered' if new else 'updated'}: {issuer} "
               f"(client id {client_id}).")


@lti_group.command("list")
def lti_list_command() -> None:
    """List the registered platforms and the signing keys."""
    from .store.lti import list_keys, list_platforms
    database = _database(upgrade=True)
    platforms = list_platforms(database)
    if not platforms:
        click.echo("No platform registered (facilitator lti add-platform).")
    for p in platforms:
        click.echo(f"{p['id']}: {p['name']} — issuer {p['issuer']}, client id {p['client_id']}, "
                   f"deployments {', '.join(p['deployment_ids'])}")
    for key in list_keys(database):
        state = f"retired {key['retired_at']:%Y-%m-%d %H:%M}" if key["retired_at"] else "signing"
        click.echo(f"key {key['kid']}: made {key['created_at']:%Y-%m-%d %H:%M}, {state}")


@lti_group.command("registration-url")
@click.argument("address")
def lti_registration_url_command(address: str) -> None:
    """Print the URL a platform's admin pastes for dynamic registration (Moodle 4.x: «Tool
    URL» under Manage tools), on the facilitator's public ADDRESS (https://...). The URL
    registers one platform, within a week."""
    from urllib.parse import urlencode

    from .lti.registration import new_registration_key
    if not address.startswith(("https://", "http://")):
        raise click.ClickException("the address is the facilitator's own, https://...")
    database = _database(upgrade=True)
    key = new_registration_key(database)
    click.echo(f"{address.rstrip('/')}/lti/register?{urlencode({'key': key})}")


@lti_group.command("rotate-keys")
def lti_rotate_keys_command() -> None:
    """Make a new signing key; the old one stays published for a while, so what it
    signed is still checked."""
    from .lti.keys import rotate
    database = _database(upgrade=True)
    click.echo(f"New signing key {rotate(database)}.")


def _register_questions() -> None:
    from .questions_cli import questions
    main.add_command(questions)


_register_questions()


if __name__ == "__main__":  # pragma: no cover
    main()

