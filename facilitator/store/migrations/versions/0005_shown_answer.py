"""The expected answer on the projector (issue 13).

- ``games.shown_answer_turn``: the number of the turn whose expected answer the GM
  shows on the projector after its verdicts (a display choice, not an action of the
  record); null when none is shown. A nullable column: no table rebuild.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-12
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the column (null: no answer shown in any game)."""
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("shown_answer_turn", sa.Integer(), nullable=True))


def downgrade() -> None:
    """Drop the column."""
    with op.batch_alter_table("games", table_kwargs={"sqlite_autoincrement": True}) as games:
        games.drop_column("shown_answer_turn")
