"""Seats held by one device each (issue 45): the lecture's door and who holds what.

- ``games.screens``: the table's shared screens the teacher admitted (device ids);
- ``games.asks``: a second device asking for a seat another device holds, until the
  teacher accepts or refuses it;
- ``halls.door_code``: the lecture's one code, shown on the hall's projector;
- ``halls.holders``: the device holding each player of a hall, carried to every round.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-06
"""
from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

#: As facilitator/store/codes.py writes codes (a migration keeps its own copy: the
#: module may change, a revision never does).
_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"


def upgrade() -> None:
    """Add the columns, and a door code to every hall already made."""
    op.add_column("games", sa.Column("screens", sa.JSON(), nullable=True))
    op.add_column("games", sa.Column("asks", sa.JSON(), nullable=True))
    op.add_column("halls", sa.Column("door_code", sa.String(length=16), nullable=True))
    op.add_column("halls", sa.Column("holders", sa.JSON(), nullable=True))
    halls = sa.table("halls", sa.column("id", sa.Integer()),
                     sa.column("door_code", sa.String()))
    bind = op.get_bind()
    used: set[str] = set()
    for (hall_id,) in bind.execute(sa.select(halls.c.id)).all():
        code = "".join(secrets.choice(_ALPHABET) for _ in range(8))
        while code in used:
            code = "".join(secrets.choice(_ALPHABET) for _ in range(8))
        used.add(code)
        bind.execute(halls.update().where(halls.c.id == hall_id).values(door_code=code))
    op.create_index("ix_halls_door_code", "halls", ["door_code"], unique=True)


def downgrade() -> None:
    """Drop them again."""
    op.drop_index("ix_halls_door_code", table_name="halls")
    with op.batch_alter_table("halls") as halls:
        halls.drop_column("holders")
        halls.drop_column("door_code")
    with op.batch_alter_table("games", table_kwargs={"sqlite_autoincrement": True}) as games:
        games.drop_column("asks")
        games.drop_column("screens")
