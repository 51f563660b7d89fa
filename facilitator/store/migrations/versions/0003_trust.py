"""Trust in a live lecture: game identities never reused, devices the GM can remove,
console sessions the server can end, and the timer kept with each action for undo.

- ``games``: AUTOINCREMENT on SQLite (a deleted newest game's id is never given
  again), ``public_id`` (random; device tokens name it instead of the id),
  ``ended_at`` and ``removed_devices``;
- ``actions.timer_before``: the live timer just before the action (an undo puts it back);
- ``console_sessions``: one row per GM login.

On SQLite the games table is rebuilt (AUTOINCREMENT cannot be added in place);
:func:`facilitator.store.schema.upgrade` turns foreign keys off around the
revisions, as SQLite's own procedure for rebuilding a table requires, so the
rebuild does not cascade into the games' actions.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""
from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the columns and the sessions table; give every existing game a public id."""
    sqlite = op.get_bind().dialect.name == "sqlite"
    with op.batch_alter_table("games", recreate="always" if sqlite else "auto",
                              table_kwargs={"sqlite_autoincrement": True}) as games:
        games.add_column(sa.Column("public_id", sa.String(length=32), nullable=True))
        games.add_column(sa.Column("ended_at", sa.DateTime(), nullable=True))
        games.add_column(sa.Column("removed_devices", sa.JSON(), nullable=True))
    connection = op.get_bind()
    table = sa.table("games", sa.column("id", sa.Integer()), sa.column("public_id", sa.String()),
                     sa.column("removed_devices", sa.JSON()), sa.column("over", sa.Boolean()),
                     sa.column("ended_at", sa.DateTime()), sa.column("created_at", sa.DateTime()))
    for (game_id,) in connection.execute(sa.select(table.c.id)).all():
        connection.execute(table.update().where(table.c.id == game_id).values(
            public_id=secrets.token_hex(16), removed_devices=[]))
    # A game that was already over: take its creation as its end (its devices' tokens
    # then expire after the grace period, as a game ended today would).
    connection.execute(table.update().where(table.c.over.is_(True))
                       .values(ended_at=table.c.created_at))
    # Every rebuild of games on SQLite must say AUTOINCREMENT again (batch mode reflects
    # the table and would drop it).
    with op.batch_alter_table("games", table_kwargs={"sqlite_autoincrement": True}) as games:
        games.alter_column("public_id", existing_type=sa.String(length=32), nullable=False)
        games.alter_column("removed_devices", existing_type=sa.JSON(), nullable=False)
        games.create_unique_constraint("uq_games_public_id", ["public_id"])
    with op.batch_alter_table("actions") as actions:
        actions.add_column(sa.Column("timer_before", sa.JSON(), nullable=True))
    op.create_table(
        "console_sessions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("secret_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.Column("ended_at", sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("secret_hash"),
    )


def downgrade() -> None:
    """Drop what 0003 added (game ids may be reused again on SQLite)."""
    op.drop_table("console_sessions")
    with op.batch_alter_table("actions") as actions:
        actions.drop_column("timer_before")
    with op.batch_alter_table("games") as games:
        games.drop_constraint("uq_games_public_id", type_="unique")
        games.drop_column("removed_devices")
        games.drop_column("ended_at")
        games.drop_column("public_id")
