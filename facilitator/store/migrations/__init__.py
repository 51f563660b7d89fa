"""Alembic migrations of the facilitator's database (``facilitator db upgrade``).

Every schema change is a revision in ``versions/``; the server upgrades an older
database at start (see :mod:`facilitator.store.schema`).
"""
