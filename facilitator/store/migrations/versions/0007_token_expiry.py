"""API tokens expire (issue 34).

- ``api_tokens.expires_at``: when the token stops working, chosen by the teacher when it
  is issued (a day, 30 days, a year). A nullable column: no table rebuild. The tokens
  issued before this revision had no end: they get one, 30 days after the upgrade, so
  that no token works for ever and no script stops without warning the day of the
  upgrade.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-04
"""
from __future__ import annotations

from datetime import datetime, timedelta, timezone

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

#: How long the tokens issued before this revision keep working after the upgrade.
GRACE = timedelta(days=30)


def upgrade() -> None:
    """Add the column, and give the tokens still valid an end."""
    with op.batch_alter_table("api_tokens") as tokens:
        tokens.add_column(sa.Column("expires_at", sa.DateTime(), nullable=True))
    table = sa.table("api_tokens", sa.column("expires_at", sa.DateTime()),
                     sa.column("revoked_at", sa.DateTime()))
    end = datetime.now(timezone.utc).replace(tzinfo=None) + GRACE
    op.execute(table.update().where(table.c.revoked_at.is_(None)).values(expires_at=end))


def downgrade() -> None:
    """Drop the column (the tokens never expire again)."""
    with op.batch_alter_table("api_tokens") as tokens:
        tokens.drop_column("expires_at")
