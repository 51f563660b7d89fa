"""The ``facilitator`` console command: replay, serve, password, questions, export."""
from __future__ import annotations

import sys

if sys.argv[1:2] == ["serve"]:
    # gevent must patch the standard library before Flask, SQLAlchemy or psycopg
    # are imported, or sockets and locks block the whole server.
    from gevent import monkey
    monkey.patch_all()

import json  # noqa: E402

import click  # noqa: E402

from .engine import Refusal, load_record, replay  # noqa: E402


@click.group()
def main() -> None:
    """The facilitator of the classroom team game "la partida"."""


@main.command("replay")
@click.argument("record_file", type=click.Path(dir_okay=False, allow_dash=True))
def replay_command(record_file: str) -> None:
    """Replay a partida/1 RECORD_FILE and print its standings as JSON.

    Exits 0 with {"standings": [...]}, or non-zero with
    {"error": RULE, "action": INDEX, "message": ...} when an action is refused.
    """
    try:
        with click.open_file(record_file, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as error:
        _print_refusal(Refusal("format", f"cannot read {record_file}: {error}"))
        sys.exit(2)
    try:
        game = replay(load_record(text), load_bank=_bank_loader(record_file))
    except Refusal as refusal:
        _print_refusal(refusal)
        sys.exit(1)
    state = game.state
    click.echo(json.dumps({"standings": game.standings(), "over": state.over,
                           "round": state.turn.round, "turn": state.turn.number},
                          ensure_ascii=False, indent=1))


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
    serve(host, port)


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


def _register_questions() -> None:
    from .questions.commands import questions
    main.add_command(questions)


_register_questions()


if __name__ == "__main__":  # pragma: no cover
    main()
