"""Formatted questions and images in banks (issue 14).

- ``bank_images``: the images a Moodle XML file embeds, one row per image of a
  bank (PNG, JPEG, GIF or WebP, at most 1 MB each), deleted with the bank;
- ``bank_questions.text_html`` and ``answer_html``: the formatted forms of a
  question's text and answer (sanitised HTML; empty for a plain question).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-10
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the images table; add the formatted columns (empty for every question)."""
    op.create_table(
        "bank_images",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("bank_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("mime", sa.String(length=40), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["bank_id"], ["banks.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("bank_id", "name"),
    )
    with op.batch_alter_table("bank_questions") as questions:
        questions.add_column(sa.Column("text_html", sa.Text(), nullable=False, server_default=""))
        questions.add_column(sa.Column("answer_html", sa.Text(), nullable=False,
                                       server_default=""))


def downgrade() -> None:
    """Drop the images and the formatted forms (the plain texts stay)."""
    with op.batch_alter_table("bank_questions") as questions:
        questions.drop_column("answer_html")
        questions.drop_column("text_html")
    op.drop_table("bank_images")
