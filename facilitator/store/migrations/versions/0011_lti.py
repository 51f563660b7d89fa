"""LTI 1.3 (issue 48): the platforms, the facilitator's own keys, what a launch needs
between its two requests, the courses and the classes they became, their people, and
the marks that go to their gradebooks.

New tables only. Deleting a class deletes its course link, people and marks
(``ON DELETE CASCADE``).

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-06
"""
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the six tables."""
    op.create_table(
        "lti_platforms",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("issuer", sa.String(length=500), nullable=False),
        sa.Column("client_id", sa.String(length=200), nullable=False),
        sa.Column("deployment_ids", sa.JSON(), nullable=False),
        sa.Column("auth_login_url", sa.String(length=1000), nullable=False),
        sa.Column("auth_token_url", sa.String(length=1000), nullable=False),
        sa.Column("key_set_url", sa.String(length=1000), nullable=False),
        sa.Column("auth_audience", sa.String(length=1000), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("issuer", "client_id", name="uq_lti_platforms_issuer"),
    )
    op.create_table(
        "lti_keys",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kid", sa.String(length=100), nullable=False),
        sa.Column("private_pem", sa.Text(), nullable=False),
        sa.Column("public_jwk", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("retired_at", sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("kid"),
    )
    op.create_table(
        "lti_values",
        sa.Column("key", sa.String(length=300), nullable=False),
        sa.Column("value", sa.JSON(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("key"),
    )
    op.create_index("ix_lti_values_expires_at", "lti_values", ["expires_at"])
    op.create_table(
        "lti_courses",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("platform_id", sa.Integer(), nullable=False),
        sa.Column("deployment_id", sa.String(length=300), nullable=False),
        sa.Column("context_id", sa.String(length=300), nullable=False),
        sa.Column("class_id", sa.Integer(), nullable=False),
        sa.Column("title", sa.String(length=300), nullable=False),
        sa.Column("services", sa.JSON(), nullable=False),
        sa.Column("measures", sa.JSON(), nullable=False),
        sa.Column("lineitems", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["class_id"], ["classes.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["platform_id"], ["lti_platforms.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("class_id"),
        sa.UniqueConstraint("platform_id", "deployment_id", "context_id",
                            name="uq_lti_courses_context"),
    )
    op.create_table(
        "lti_people",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("course_id", sa.Integer(), nullable=False),
        sa.Column("sub", sa.String(length=300), nullable=False),
        sa.Column("student_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["course_id"], ["lti_courses.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["student_id"], ["students.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("course_id", "sub", name="uq_lti_people_sub"),
    )
    op.create_index("ix_lti_people_student_id", "lti_people", ["student_id"])
    op.create_table(
        "lti_marks",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("course_id", sa.Integer(), nullable=False),
        sa.Column("measure", sa.String(length=40), nullable=False),
        sa.Column("sub", sa.String(length=300), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("maximum", sa.Float(), nullable=False),
        sa.Column("sent", sa.Float(), nullable=True),
        sa.Column("error", sa.Text(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["course_id"], ["lti_courses.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("course_id", "measure", "sub", name="uq_lti_marks"),
    )


def downgrade() -> None:
    """Drop the six tables (every registration, key, course link and waiting mark)."""
    op.drop_table("lti_marks")
    op.drop_index("ix_lti_people_student_id", table_name="lti_people")
    op.drop_table("lti_people")
    op.drop_table("lti_courses")
    op.drop_index("ix_lti_values_expires_at", table_name="lti_values")
    op.drop_table("lti_values")
    op.drop_table("lti_keys")
    op.drop_table("lti_platforms")
