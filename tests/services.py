"""PostgreSQL and Redis for the tests that need them, and a migrated SQLite file.

They run wherever the services answer. Elsewhere they skip and say why;
under CI (CI=true) a missing service is a failure, never a skip.
"""
from __future__ import annotations

import atexit
import functools
import os
import secrets
import shutil
import tempfile
from pathlib import Path

import pytest

POSTGRES = os.environ.get("FACILITATOR_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
REDIS = os.environ.get("FACILITATOR_TEST_REDIS", "redis://127.0.0.1:6379/0")


def _missing(what: str, error: Exception):
    message = f"{what} is not reachable ({error.__class__.__name__}: {error})"
    if os.environ.get("CI") == "true":
        pytest.fail(f"{message}; under CI the service must be running", pytrace=False)
    pytest.skip(f"{message}; start it to run this test")


def fresh_postgres_database() -> tuple[str, callable]:
    """A new empty PostgreSQL database; returns its URL and a function that drops it."""
    import psycopg
    try:
        admin = psycopg.connect(POSTGRES, autocommit=True, connect_timeout=3)
    except Exception as error:          # noqa: BLE001 - any failure means "not reachable"
        _missing("PostgreSQL at " + POSTGRES, error)
    name = "facilitator_" + secrets.token_hex(4)
    admin.execute(f'CREATE DATABASE "{name}"')
    url = POSTGRES.rsplit("/", 1)[0] + "/" + name

    def drop():
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()
    return url, drop


def redis_url() -> str:
    """The Redis URL, after checking that Redis answers."""
    import redis
    try:
        redis.Redis.from_url(REDIS, socket_connect_timeout=3).ping()
    except Exception as error:          # noqa: BLE001
        _missing("Redis at " + REDIS, error)
    return REDIS


@functools.cache
def migrated_sqlite() -> Path:
    """A SQLite file migrated to the head revision as the app migrates a new database,
    made once per test run (in a temporary folder removed at exit): the tests copy it
    instead of migrating a file of their own."""
    from facilitator.store.database import Database
    folder = Path(tempfile.mkdtemp(prefix="facilitator-migrated-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    path = folder / "migrated.db"
    migrated = Database()
    migrated.connect(f"sqlite:///{path}")
    migrated.engine.dispose()           # the last connection closed: the WAL is in the file
    assert not path.with_name(path.name + "-wal").exists()
    return path
