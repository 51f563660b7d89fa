"""Schema upgrades keep the data (Alembic): a release-0.1.0 database becomes today's.

``tests/data/release-0.1.0/`` is a database as release 0.1.0 left it: its
schema (``create_all`` of 0.1.0's models, before migrations existed), a
finished game and a bank, with the standings and the bank export 0.1.0 gave.
After the upgrade the game must replay to the same standings and the bank
must export the same bytes; on SQLite a copy of the old file stays beside it.
"""
from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import MetaData, create_engine, text

from facilitator.games.partida import replay
from facilitator.store import schema
from facilitator.store.banks import export_bank
from facilitator.store.database import Database
from facilitator.store.games import GameStore
from facilitator.store.models import Base
from services import fresh_postgres_database

RELEASE = Path(__file__).parent / "data" / "release-0.1.0"


@pytest.fixture
def connect():
    """``connect(url)``: a Database opened (and upgraded) as the server opens it; every
    engine is closed at the end of the test, failed or not."""
    opened = []

    def open_database(url: str) -> Database:
        database = Database()
        opened.append(database)
        database.connect(url)
        return database
    yield open_database
    for database in opened:
        if database.engine is not None:
            database.engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_database(request, tmp_path):
    """The URL of an empty database: a SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'facilitator.db'}"
        return
    url, drop = fresh_postgres_database()
    yield url.replace("postgresql://", "postgresql+psycopg://", 1)
    drop()


def make_release_database(url: str) -> None:
    """Create 0.1.0's tables with 0.1.0's own DDL and fill them with its rows."""
    engine = create_engine(url)
    ddl = (RELEASE / f"schema.{engine.dialect.name}.sql").read_text(encoding="utf-8")
    rows = json.loads((RELEASE / "rows.json").read_text(encoding="utf-8"))
    with engine.begin() as connection:
        for statement in ddl.split(";"):
            if statement.strip().strip("-\n ") and "CREATE" in statement:
                connection.exec_driver_sql(statement[statement.index("CREATE"):])
        tables = MetaData()
        tables.reflect(connection)
        for table in tables.sorted_tables:
            for row in rows[table.name]:
                if "created_at" in row:
                    row["created_at"] = datetime.fromisoformat(row["created_at"])
                connection.execute(table.insert().values(**row))
        if engine.dialect.name == "postgresql":    # ids inserted by hand: move the sequences on
            for name in ("games", "actions", "banks", "bank_questions"):
                connection.execute(text(f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                                        f"(SELECT max(id) FROM {name}))"))
    engine.dispose()


def test_a_new_database_gets_every_revision_and_matches_the_models(empty_database, connect):
    database = connect(empty_database)
    assert database.schema_change.before is None
    assert database.schema_change.after == schema.head_revision()
    with database.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    assert differences == [], ("the models and the migrations disagree: add a revision in "
                               f"facilitator/store/migrations/versions ({differences})")


def test_a_release_database_upgrades_and_keeps_its_game_and_bank(empty_database, tmp_path,
                                                                 connect):
    make_release_database(empty_database)
    database = connect(empty_database)       # what the server does at start
    change = database.schema_change
    assert change is not None and change.before == "0001" and change.after == schema.head_revision()
    assert schema.schema_status(database.engine)["up_to_date"]

    expected = json.loads((RELEASE / "expected-standings.json").read_text(encoding="utf-8"))
    record = GameStore(database).record(1)
    assert replay(record).standings() == expected["standings"]
    assert record["name"] == "Filosofía — 1.º B (martes)"

    exported = tmp_path / "export.csv"
    assert export_bank(database, 1, str(exported)) == 60
    assert exported.read_bytes() == (RELEASE / "expected-bank.csv").read_bytes()

    if database.is_sqlite:
        assert change.backup is not None and change.backup.parent == tmp_path
        assert stat.S_IMODE(os.stat(change.backup).st_mode) == 0o600
        old = create_engine(f"sqlite:///{change.backup}")
        with old.connect() as connection:      # the copy is the database as it was
            assert schema.current_revision(connection) == "0001"
            assert connection.execute(text("SELECT count(*) FROM actions")).scalar() == 76
        old.dispose()
    else:
        assert change.backup is None
    assert connect(empty_database).schema_change is None     # a second start: nothing to do


def test_a_database_of_a_newer_release_is_refused(tmp_path, connect):
    url = f"sqlite:///{tmp_path / 'newer.db'}"
    with connect(url).engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = '9999'"))
    with pytest.raises(schema.SchemaError, match="schema 9999.*newer version"):
        connect(url)


def facilitator(*args: str, instance: Path, timeout: float = 60) -> subprocess.CompletedProcess:
    """Run the ``facilitator`` command on the SQLite database of ``instance``."""
    env = {**os.environ, "FACILITATOR_INSTANCE": str(instance)}
    env.pop("FACILITATOR_DATABASE_URL", None)
    return subprocess.run([sys.executable, "-m", "facilitator.cli", *args], capture_output=True,
                          text=True, timeout=timeout, env=env)


def test_db_current_and_db_upgrade_commands(tmp_path):
    make_release_database(f"sqlite:///{tmp_path / 'facilitator.db'}")
    before = facilitator("db", "current", instance=tmp_path)
    assert before.returncode == 1, before.stderr
    assert "0001" in before.stdout and schema.head_revision() in before.stdout
    assert "facilitator db upgrade" in before.stdout
    done = facilitator("db", "upgrade", instance=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "upgraded from schema 0001" in done.stdout
    assert list(tmp_path.glob("facilitator.db.before-*"))
    after = facilitator("db", "current", instance=tmp_path)
    assert after.returncode == 0 and "up to date" in after.stdout
    again = facilitator("db", "upgrade", instance=tmp_path)
    assert again.returncode == 0 and "already" in again.stdout


def test_serve_upgrades_an_old_database_at_start_and_says_so(tmp_path):
    make_release_database(f"sqlite:///{tmp_path / 'facilitator.db'}")
    env = {**os.environ, "FACILITATOR_INSTANCE": str(tmp_path)}
    env.pop("FACILITATOR_DATABASE_URL", None)
    server = subprocess.Popen([sys.executable, "-m", "facilitator.cli", "serve", "--port", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        lines = []
        for line in server.stdout:
            lines.append(line)
            if "GM console" in line or len(lines) > 30:
                break
        said = "".join(lines)
        assert "Database upgraded from schema 0001" in said, said
        assert "before-" in said
    finally:
        server.terminate()
        server.wait(timeout=10)
        server.stdout.close()


def test_a_deleted_newest_games_id_is_never_given_again(empty_database, tmp_path, connect):
    """R-G4 and issue 12: a deleted game's devices must never find a new game under its id."""
    make_release_database(empty_database)          # upgraded: the games table is rebuilt
    database = connect(empty_database)
    store = GameStore(database)
    settings = {"teams": [{"name": f"Equipo {n}", "members": 4} for n in range(1, 5)]}
    first = store.create_game("partida", "Martes", settings, [])
    assert store.delete_game(first)
    second = store.create_game("partida", "Miércoles", settings, [])
    assert second > first
    assert store.row(second).public_id != store.row(1).public_id
    assert len({r.public_id for r in store.list_games()}) == len(store.list_games())


def test_the_head_a_start_looks_for_is_alembic_s_head():
    # A database stamped schema.HEAD is taken as up to date without reading a revision:
    # a revision added without moving HEAD would never be applied.
    assert schema.HEAD == schema.head_revision() == schema.known_revisions()[-1]


def test_a_start_on_a_database_at_head_does_not_load_alembic(tmp_path):
    # Every start but a release's first: the restart after a crash comes back sooner.
    url = f"sqlite:///{tmp_path}/head.db"
    first = Database()
    first.connect(url)
    first.engine.dispose()
    code = ("import sys; from facilitator.store.database import Database; d = Database(); "
            f"d.connect({url!r}); assert d.schema_change is None; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'alembic'))")
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True)
    assert shown.stdout.strip() == "[]", shown.stdout


# -- issue 34: a stamped database whose tables are missing, token expiry ------------------

def test_a_database_stamped_at_head_without_its_tables_is_refused_at_start(empty_database,
                                                                           connect):
    database = connect(empty_database)
    # PostgreSQL keeps the tables referring to students (LTI's people) only with CASCADE,
    # which drops their foreign key, not them.
    cascade = " CASCADE" if database.engine.dialect.name == "postgresql" else ""
    with database.engine.begin() as connection:
        connection.execute(text("DROP TABLE students" + cascade))
        connection.execute(text("DROP TABLE class_games"))
    database.engine.dispose()
    with pytest.raises(schema.SchemaError) as caught:
        connect(empty_database)
    message = str(caught.value)
    assert f"at schema {schema.HEAD}, but it has no table class_games; no table students" \
        in message
    assert "FACILITATOR_DATABASE_URL" in message and "before-" in message


def test_a_database_stamped_at_head_lacking_a_column_is_refused(empty_database, connect):
    database = connect(empty_database)
    with database.engine.begin() as connection:      # SQLite 3.35+ drops a column too
        connection.execute(text("ALTER TABLE api_tokens DROP COLUMN expires_at"))
    database.engine.dispose()
    with pytest.raises(schema.SchemaError, match="no columns expires_at of table api_tokens"):
        connect(empty_database)


def test_an_old_stamp_with_no_tables_at_all_is_refused_before_any_upgrade(empty_database,
                                                                          connect):
    engine = create_engine(empty_database)
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE alembic_version (version_num VARCHAR(32) "
                                "NOT NULL PRIMARY KEY)"))
        connection.execute(text("INSERT INTO alembic_version VALUES ('0004')"))
    engine.dispose()
    with pytest.raises(schema.SchemaError, match="at schema 0004, but it has no table "
                                                 "actions; no table bank_questions"):
        connect(empty_database)


def test_serve_and_db_current_refuse_a_stamped_database_without_its_tables(tmp_path):
    url = f"sqlite:///{tmp_path / 'facilitator.db'}"
    database = Database()
    database.connect(url)
    with database.engine.begin() as connection:
        connection.execute(text("DROP TABLE games"))
    database.engine.dispose()
    current = facilitator("db", "current", instance=tmp_path)
    assert current.returncode == 1
    assert f"at schema {schema.HEAD}, but it has no table games" in current.stderr
    env = {**os.environ, "FACILITATOR_INSTANCE": str(tmp_path)}
    env.pop("FACILITATOR_DATABASE_URL", None)
    served = subprocess.run([sys.executable, "-m", "facilitator.cli", "serve", "--port", "0"],
                            capture_output=True, text=True, env=env, timeout=60)
    assert served.returncode == 1, served.stdout
    assert "the server cannot start: the database says it is at schema" in served.stderr
    assert "Traceback" not in served.stderr


def test_tokens_of_before_expiry_get_thirty_days_from_the_upgrade(empty_database, connect):
    from alembic import command
    engine = create_engine(empty_database)
    with engine.begin() as connection:
        command.upgrade(schema.alembic_config(connection), "0006")
        connection.execute(text(
            "INSERT INTO api_tokens (label, token_hash, created_at) VALUES "
            "('viejo', 'aa', '2026-01-01 00:00:00'), ('revocado', 'bb', '2026-01-01 00:00:00')"))
        connection.execute(text("UPDATE api_tokens SET revoked_at = created_at "
                                "WHERE label = 'revocado'"))
    engine.dispose()
    database = connect(empty_database)
    assert database.schema_change.before == "0006"
    from facilitator.store.models import ApiToken, utcnow
    with database.session() as session:
        rows = {row.label: row for row in session.query(ApiToken)}
        left = rows["viejo"].expires_at - utcnow()
        assert 29.9 < left.total_seconds() / 86400 <= 30
        assert rows["revocado"].expires_at is None
