"""Fixtures every test module shares, and which tests are slow.

- ``app``: the app of one process (threading mode) on a database of the test's own,
  with what an ``app_config`` marker (or a module's own ``app_config`` fixture) changes
  in the defaults;
  ``gm``: a test client logged in to its console, from an address of its own (logins
  are rate-limited per address).
- The database: a copy of one SQLite file migrated once per session (the migrations
  run as the app runs them, so the copy is at the head and the app migrates nothing);
  with ``@pytest.mark.databases("sqlite", "postgres")`` a module's tests run on both,
  PostgreSQL being one database migrated once per session whose tables are emptied
  (and ids restarted) before each test.
- ``slow``: the tests of a crash or a restart, the fuzz and the long property searches,
  scale-out over the message queue, the browser and the bots are marked here by their
  path (``SLOW``), so
  ``./scripts/test -m "not slow"`` is the everyday run and ``./scripts/test`` all of it.
"""
from __future__ import annotations

import itertools
import shutil
from pathlib import Path

import pytest

from facilitator import create_app
from facilitator.extensions import database as app_database, store
from facilitator.store import sessions
from facilitator.store.database import Database

TESTS = Path(__file__).resolve().parent
#: The console's password in the apps of ``app``.
GM_PASSWORD = "clave"
#: Console logins are rate-limited per address: every ``gm`` client gets its own.
ADDRESSES = (f"10.77.{n // 250}.{n % 250 + 1}" for n in itertools.count())
#: The slow tests, by the start of their id under tests/ (a folder, a file, a test): each
#: drives Chromium, kills or restarts server processes or starts them to see them refuse,
#: runs two processes over the message queue, installs the package, plays the bot, runs
#: a fuzz, a flood from another process, an exhaustive sweep (every attack on a seat,
#: every route for every kind) or a property search of many examples, or waits out a
#: real expiry. A live test's PostgreSQL run is slow too (its SQLite
#: run stays in the everyday set; the full run plays both).
SLOW = (
    "browser/",
    "live/test_crash.py", "live/test_live_timer_restart.py", "live/test_scaleout.py",
    "test_message_queue.py", "test_package.py",
    "live/test_fuzz.py", "live/test_flood.py",
    "live/test_colmena_live.py::test_the_server_killed_mid_game", "test_bench_colmena.py",
    "live/test_undo_screens.py::test_random_live_games_",
    "test_properties.py::test_legal_actions_are_accepted_and_rules_hold",
    "test_properties.py::test_record_replays_to_identical_state",
    "test_properties.py::test_undo_then_redo_restores_exact_states",
    "test_properties.py::test_actions_outside_the_legal_list_are_refused",
    "test_properties.py::test_named_refusals_",
    "test_record_bytes.py::test_the_size_is_that_of_the_indented_file",
    "test_migrations.py::test_db_current_and_db_upgrade_commands",
    "test_migrations.py::test_serve_",
    "test_migrations.py::test_a_start_on_a_database_at_head_does_not_load_alembic",
    "live/test_reconnect.py::test_away_longer_than_the_session_timeout",
    "live/test_access.py::test_every_action_by_every_role_for_every_team",
    "games/hive/test_hive_bot.py",
    "live/test_hive_live.py::test_the_strongest_computer_player",
    "live/test_seat_attacks.py", "test_every_kind_routes.py",
)


def pytest_configure(config):
    """Declare the markers that choose the databases and the configuration of the apps."""
    config.addinivalue_line("markers", "databases(*kinds): run the tests on each database "
                            "named (sqlite, postgres) through the database_kind fixture")
    config.addinivalue_line("markers", "app_config(**values): configuration of the app "
                            "fixture (SAMPLE_BANK=None: no sample bank)")


def pytest_collection_modifyitems(config, items):
    """Mark ``slow`` every test whose id under tests/ starts with an entry of ``SLOW``, and
    every live test's PostgreSQL run."""
    for item in items:
        path = Path(str(item.path)).resolve()
        if TESTS not in path.parents:
            continue
        test_id = path.relative_to(TESTS).as_posix() + item.nodeid[len(item.nodeid.split("::")[0]):]
        if test_id.startswith(SLOW) or (test_id.startswith("live/")
                                        and test_id.endswith("[postgres]")):
            item.add_marker(pytest.mark.slow)


def pytest_generate_tests(metafunc):
    """Run a test on every database its ``databases`` marker names."""
    marker = metafunc.definition.get_closest_marker("databases")
    if marker is not None and "database_kind" in metafunc.fixturenames:
        metafunc.parametrize("database_kind", marker.args, indirect=True)


@pytest.fixture(scope="session")
def migrated_sqlite() -> Path:
    """A SQLite file migrated to the head revision, once for the whole session."""
    from services import migrated_sqlite
    return migrated_sqlite()


@pytest.fixture(scope="session")
def migrated_postgres() -> str:
    """A PostgreSQL database migrated once for the session (its URL), dropped at the end;
    skips (or fails under CI) where PostgreSQL does not answer."""
    from services import fresh_postgres_database
    url, drop = fresh_postgres_database()
    migrated = Database()
    migrated.connect(url)
    migrated.engine.dispose()
    yield url
    drop()


def empty_tables(url: str) -> None:
    """Empty every table of the PostgreSQL database at ``url`` but Alembic's, the ids
    starting again from 1: as a freshly migrated database.

    DELETE, the referring tables first, then every sequence set back: as empty as
    ``TRUNCATE ... RESTART IDENTITY CASCADE`` leaves them, without the new files a
    TRUNCATE makes and syncs (it cost more than the test that followed)."""
    import psycopg

    from facilitator.store.models import Base
    with psycopg.connect(url, autocommit=True) as connection, connection.transaction():
        found = {row[0] for row in connection.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")}
        known = [table.name for table in reversed(Base.metadata.sorted_tables)]
        for table in [*sorted(found - set(known) - {"alembic_version"}), *known]:
            if table in found:
                connection.execute(f'DELETE FROM "{table}"')
        sequences = [row[0] for row in connection.execute(
            "SELECT c.relname FROM pg_class AS c JOIN pg_namespace AS n "
            "ON n.oid = c.relnamespace WHERE c.relkind = 'S' AND n.nspname = current_schema()")]
        if sequences:
            connection.execute("SELECT " + ", ".join(
                f"setval('\"{name}\"', 1, false)" for name in sequences))


@pytest.fixture
def database_kind(request) -> str:
    """Which database the test runs on: ``sqlite`` unless the ``databases`` marker says."""
    return getattr(request, "param", "sqlite")


@pytest.fixture
def database_url(request, database_kind, tmp_path) -> str:
    """The URL of a migrated, empty database of this test's own."""
    if database_kind == "sqlite":
        path = tmp_path / "facilitator.db"
        shutil.copy(request.getfixturevalue("migrated_sqlite"), path)
        return f"sqlite:///{path}"
    if database_kind != "postgres":
        raise ValueError(f"no database {database_kind!r}: sqlite or postgres")
    url = request.getfixturevalue("migrated_postgres")
    empty_tables(url)
    return url


@pytest.fixture
def app_config(request, tmp_path) -> dict:
    """What the test's ``app_config`` marker changes in the configuration of ``app``
    (``SAMPLE_BANK=None``: no sample bank); a module may override this fixture."""
    marker = request.node.get_closest_marker("app_config")
    config = dict(marker.kwargs) if marker is not None else {}
    if "SAMPLE_BANK" in config and config["SAMPLE_BANK"] is None:
        config["SAMPLE_BANK"] = str(tmp_path / "no-sample-bank.csv")
    return config


@pytest.fixture
def app(database_url, app_config, database_kind):
    """The app of one process on the test's own database (``database_url``)."""
    sessions.forget_cache()
    app = create_app({"DATABASE_URL": database_url, "TESTING": True,
                      "GM_PASSWORD": GM_PASSWORD, "ASYNC_MODE": "threading", **app_config})
    app.kind = database_kind
    yield app
    # The store and the console sessions are process-wide: the next test's database
    # holds other games and sessions.
    store.forget()
    sessions.forget_cache()
    app_database.engine.dispose()


@pytest.fixture
def gm(app):
    """A test client logged in to the console (its session cookie)."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = next(ADDRESSES)
    response = client.post("/console/login", data={"secret": app.config["GM_PASSWORD"]})
    assert response.status_code == 302, response.get_data(as_text=True)
    return client
