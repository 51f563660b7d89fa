"""Classes, their students and the games made from them (issue 15).

- ``classes``: a class's name, default bank and settings, league scheme and whether
  the projector may show students' names.
- ``students``: a class's students (name, optional e-mail and ID number, left or not).
- ``class_games``: which game belongs to which class, and who played in which team.

New tables only: no rebuild of ``games``. Deleting a class deletes its students and
its games (``ON DELETE CASCADE``; the application deletes the games first).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the three tables."""
    op.create_table(
        "classes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("bank_id", sa.Integer(), nullable=True),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("league_scheme", sa.String(length=20), nullable=False),
        sa.Column("projector_names", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["bank_id"], ["banks.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "students",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("class_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("email", sa.String(length=200), nullable=False),
        sa.Column("id_number", sa.String(length=100), nullable=False),
        sa.Column("left", sa.Boolean(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["class_id"], ["classes.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_students_class_id", "students", ["class_id"])
    op.create_table(
        "class_games",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("class_id", sa.Integer(), nullable=False),
        sa.Column("lineup", sa.JSON(), nullable=False),
        sa.Column("kept", sa.Boolean(), nullable=False),
        sa.Column("allow_repeats", sa.Boolean(), nullable=False),
        sa.Column("league_shown", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["class_id"], ["classes.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id"),
    )
    op.create_index("ix_class_games_class_id", "class_games", ["class_id"])


def downgrade() -> None:
    """Drop the three tables (every class, its students and its games' class links)."""
    op.drop_index("ix_class_games_class_id", table_name="class_games")
    op.drop_table("class_games")
    op.drop_index("ix_students_class_id", table_name="students")
    op.drop_table("students")
    op.drop_table("classes")
