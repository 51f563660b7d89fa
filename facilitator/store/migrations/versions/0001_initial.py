"""The schema of release 0.1.0: games and their actions, join codes, banks, secrets.

Databases made by 0.1.0 (before migrations existed) have exactly these tables
and no ``alembic_version``: :mod:`facilitator.store.schema` stamps them 0001
and upgrades them from there. Constraint names are left to the database, as
0.1.0's ``create_all`` left them, so an old database and a new one match.

Revision ID: 0001
Revises:
Create Date: 2026-12-01
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the tables of release 0.1.0."""
    op.create_table(
        "banks",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("name"),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("questions", sa.JSON(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("over", sa.Boolean(), nullable=False),
        sa.Column("winner", sa.String(length=200), nullable=True),
        sa.Column("watch_code", sa.String(length=40), nullable=False),
        sa.Column("timer", sa.JSON(), nullable=False),
        sa.Column("timer_deadline", sa.Double(), nullable=True),
        sa.Column("exchange_requests", sa.JSON(), nullable=False),
        sa.Column("bank_name", sa.String(length=200), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("watch_code"),
    )
    op.create_index("ix_games_timer_deadline", "games", ["timer_deadline"], unique=False)
    op.create_table(
        "secrets",
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("hash", sa.String(length=300), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )
    op.create_table(
        "actions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.Column("client_id", sa.String(length=64), nullable=True),
        sa.Column("sent_by", sa.String(length=20), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "seq"),
        sa.UniqueConstraint("game_id", "client_id"),
    )
    op.create_table(
        "bank_questions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("bank_id", sa.Integer(), nullable=False),
        sa.Column("qid", sa.String(length=200), nullable=False),
        sa.Column("author", sa.String(length=200), nullable=False),
        sa.Column("type", sa.String(length=10), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("answer", sa.Text(), nullable=False),
        sa.Column("notes", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["bank_id"], ["banks.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("bank_id", "qid"),
    )
    op.create_index("ix_bank_author_type", "bank_questions", ["bank_id", "author", "type"],
                    unique=False)
    op.create_table(
        "join_codes",
        sa.Column("code", sa.String(length=16), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("team", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("code"),
    )


def downgrade() -> None:
    """Drop every table (an empty database)."""
    for table in ("join_codes", "bank_questions", "actions", "secrets", "games", "banks"):
        op.drop_table(table)
