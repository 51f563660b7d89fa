"""Halls (issues 37 and 38): a game played by a whole class at once, in one room.

- ``halls``: the hall's kind, name, players (and with a class, their student ids), the
  plan its kind's hall rules keep (rounds, who plays where), the games shown on its
  projector, its projector's code and a version bumped by every write;
- ``games.hall_id`` / ``games.hall_key``: the hall a game is a table or board of, and
  where (``"<round>.<place>"``);
- ``games.claims``: the device holding each personal seat (a hand of cards);
- ``games.acted_at``: when the game's last action was accepted (a hall shows how long
  each table has waited).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create ``halls`` and add the game columns that place a game in one."""
    op.create_table(
        "halls",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("public_id", sa.String(length=32), nullable=False, unique=True),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("plan", sa.JSON(), nullable=False),
        sa.Column("shown", sa.JSON(), nullable=False),
        sa.Column("watch_code", sa.String(length=40), nullable=False, unique=True),
        sa.Column("version", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("class_id", sa.Integer(),
                  sa.ForeignKey("classes.id", ondelete="CASCADE"), nullable=True),
        sa.Column("lineup", sa.JSON(), nullable=True),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_halls_class_id", "halls", ["class_id"])
    sqlite = op.get_bind().dialect.name == "sqlite"
    with op.batch_alter_table("games", recreate="always" if sqlite else "auto",
                              table_kwargs={"sqlite_autoincrement": True}) as games:
        games.add_column(sa.Column("hall_id", sa.Integer(), nullable=True))
        games.add_column(sa.Column("hall_key", sa.String(length=20), nullable=True))
        games.add_column(sa.Column("claims", sa.JSON(), nullable=True))
        games.add_column(sa.Column("acted_at", sa.Double(), nullable=True))
        games.create_foreign_key("fk_games_hall_id", "halls", ["hall_id"], ["id"],
                                 ondelete="CASCADE")
        games.create_index("ix_games_hall_id", ["hall_id"])


def downgrade() -> None:
    """Drop the hall columns of ``games`` (a hall's games become games of their own)
    and the ``halls`` table."""
    with op.batch_alter_table("games", table_kwargs={"sqlite_autoincrement": True}) as games:
        games.drop_index("ix_games_hall_id")
        games.drop_constraint("fk_games_hall_id", type_="foreignkey")
        games.drop_column("acted_at")
        games.drop_column("claims")
        games.drop_column("hall_key")
        games.drop_column("hall_id")
    op.drop_index("ix_halls_class_id", table_name="halls")
    op.drop_table("halls")
