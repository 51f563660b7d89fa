"""Games of any kind (issue 35): the store keeps what every game has, and what the
screens show between actions as one value the game itself reads.

- ``games.kind``: which game (``partida`` for every game stored so far);
- ``games.content``: the game's content (a partida's questions), was ``questions``;
- ``games.live``: the screens' state kept between actions, which the game reads (a
  partida's timer, exchange requests and shown answer: the three columns it replaces);
- ``games.deadline``: when the game's clock acts by itself, was ``timer_deadline``;
- ``games.version``: bumped by every write of the row, on every database (PostgreSQL
  used its ``xmin``; SQLite had none): what a cached game is checked against;
- ``actions.live_before``: the screens' state just before the action, was
  ``timer_before`` (an undo puts it back).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-03
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the columns, move each game's timer, requests and shown answer into ``live``,
    drop the columns they replace."""
    sqlite = op.get_bind().dialect.name == "sqlite"
    with op.batch_alter_table("games", recreate="always" if sqlite else "auto",
                              table_kwargs={"sqlite_autoincrement": True}) as games:
        games.add_column(sa.Column("kind", sa.String(length=20), nullable=False,
                                   server_default="partida"))
        games.add_column(sa.Column("live", sa.JSON(), nullable=True))
        games.add_column(sa.Column("version", sa.Integer(), nullable=False, server_default="0"))
        games.alter_column("questions", new_column_name="content", existing_type=sa.JSON())
        games.alter_column("timer_deadline", new_column_name="deadline",
                           existing_type=sa.Double())
    connection = op.get_bind()
    table = sa.table("games", sa.column("id", sa.Integer()), sa.column("live", sa.JSON()),
                     sa.column("timer", sa.JSON()), sa.column("exchange_requests", sa.JSON()),
                     sa.column("shown_answer_turn", sa.Integer()))
    for game_id, timer, requests, shown in connection.execute(sa.select(
            table.c.id, table.c.timer, table.c.exchange_requests, table.c.shown_answer_turn)).all():
        connection.execute(table.update().where(table.c.id == game_id).values(
            live={"timer": timer or {}, "exchange_requests": requests or [],
                  "shown_answer_turn": shown}))
    with op.batch_alter_table("games", table_kwargs={"sqlite_autoincrement": True}) as games:
        games.drop_column("timer")
        games.drop_column("exchange_requests")
        games.drop_column("shown_answer_turn")
        games.drop_index("ix_games_timer_deadline")
        games.create_index("ix_games_deadline", ["deadline"])
    with op.batch_alter_table("actions") as actions:
        actions.alter_column("timer_before", new_column_name="live_before",
                             existing_type=sa.JSON())


def downgrade() -> None:
    """Put the partida's columns back from ``live`` and drop what 0007 added (only
    partida games existed before it)."""
    with op.batch_alter_table("actions") as actions:
        actions.alter_column("live_before", new_column_name="timer_before",
                             existing_type=sa.JSON())
    with op.batch_alter_table("games", table_kwargs={"sqlite_autoincrement": True}) as games:
        games.add_column(sa.Column("timer", sa.JSON(), nullable=True))
        games.add_column(sa.Column("exchange_requests", sa.JSON(), nullable=True))
        games.add_column(sa.Column("shown_answer_turn", sa.Integer(), nullable=True))
    connection = op.get_bind()
    table = sa.table("games", sa.column("id", sa.Integer()), sa.column("live", sa.JSON()),
                     sa.column("timer", sa.JSON()), sa.column("exchange_requests", sa.JSON()),
                     sa.column("shown_answer_turn", sa.Integer()))
    for game_id, live in connection.execute(sa.select(table.c.id, table.c.live)).all():
        live = live or {}
        connection.execute(table.update().where(table.c.id == game_id).values(
            timer=live.get("timer") or {}, exchange_requests=live.get("exchange_requests") or [],
            shown_answer_turn=live.get("shown_answer_turn")))
    with op.batch_alter_table("games", table_kwargs={"sqlite_autoincrement": True}) as games:
        games.drop_index("ix_games_deadline")
        games.create_index("ix_games_timer_deadline", ["deadline"])
        games.alter_column("deadline", new_column_name="timer_deadline", existing_type=sa.Double())
        games.alter_column("content", new_column_name="questions", existing_type=sa.JSON())
        games.drop_column("version")
        games.drop_column("live")
        games.drop_column("kind")
