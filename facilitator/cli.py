"""The ``facilitator`` console command: replay, serve, questions, export."""
from __future__ import annotations

import json
import sys

import click

from .engine import Refusal, load_record, replay


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
    except OSError as error:
        _print_refusal(Refusal("format", f"cannot read {record_file}: {error.strerror}"))
        sys.exit(2)
    try:
        game = replay(load_record(text))
    except Refusal as refusal:
        _print_refusal(refusal)
        sys.exit(1)
    state = game.state
    click.echo(json.dumps({"standings": game.standings(), "over": state.over,
                           "round": state.turn.round, "turn": state.turn.number},
                          ensure_ascii=False, indent=1))


def _print_refusal(refusal: Refusal) -> None:
    click.echo(json.dumps(refusal.to_dict(), ensure_ascii=False))


if __name__ == "__main__":  # pragma: no cover
    main()
