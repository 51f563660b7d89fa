"""The database's schema: which revision it is at, and upgrading it with Alembic.

Every schema change is an Alembic revision in ``migrations/versions``. A
database is upgraded to the newest revision (the head) when the server starts
(:meth:`Database.connect`) or by ``facilitator db upgrade``:

- an empty database gets every revision, oldest first;
- a database made by release 0.1.0 (its tables, no ``alembic_version``) is
  taken as revision 0001 and upgraded from there;
- before a SQLite file is changed it is copied beside itself
  (``facilitator.db.before-0002-20261201T120000``), readable by its owner only;
- a database of a newer release (a revision this code does not know) is
  refused: the server does not run on a schema it does not understand;
- a database stamped with a revision whose tables are missing or lack columns
  (made or changed outside these migrations: tables dropped by hand, a file
  restored half-way) is refused at start, naming what is missing and what to
  do, instead of failing later at the first page that reads it.

With PostgreSQL, several processes may start at once: an advisory lock lets
one upgrade while the others wait, then find nothing left to do.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from sqlalchemy import exc, inspect, text
from sqlalchemy.engine import Connection, Engine

# Alembic is imported where a revision is looked up or run, not here: a server whose
# database is already at HEAD (every start but the first of a release) never loads it,
# and comes back sooner after a restart (``upgrade``).

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
#: The revision whose tables release 0.1.0 created without Alembic.
FIRST_RELEASE = "0001"
FIRST_RELEASE_TABLES = frozenset({"games", "actions", "join_codes", "banks", "bank_questions",
                                  "secrets"})
#: The newest revision in ``migrations/versions`` (tests/test_migrations.py holds it to
#: Alembic's head): a database stamped with it needs nothing at start.
HEAD = "0011"
#: PostgreSQL advisory lock key held while a process upgrades (any fixed number).
UPGRADE_LOCK = 0x70617274   # "part"


class SchemaError(RuntimeError):
    """The database cannot be used or upgraded: the message says why and what to do."""


@dataclass(frozen=True)
class SchemaChange:
    """What an upgrade did: from which revision (None: an empty database) to which,
    and where the copy of the SQLite file made before it is."""

    before: str | None
    after: str
    backup: Path | None = None

    def describe(self) -> str:
        """One line for the person who started the server."""
        if self.before is None:
            return f"Database created (schema {self.after})."
        line = f"Database upgraded from schema {self.before} to {self.after}"
        if self.backup is not None:
            line += f"; the file as it was is kept in {self.backup}"
        return line + "."


def alembic_config(connection: Connection | None = None):
    """Alembic's configuration, built in code (no alembic.ini): the revisions of this
    package, run on ``connection``."""
    from alembic.config import Config
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    """The newest revision this code knows."""
    from alembic.script import ScriptDirectory
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def known_revisions() -> list[str]:
    """Every revision this code knows, oldest first."""
    from alembic.script import ScriptDirectory
    script = ScriptDirectory.from_config(alembic_config())
    return [r.revision for r in reversed(list(script.walk_revisions()))]


def _stamped(connection: Connection) -> str | None:
    """The revision ``alembic_version`` holds, or None (no such table, or empty)."""
    from alembic.runtime.migration import MigrationContext
    return MigrationContext.configure(connection).get_current_revision()


def current_revision(connection: Connection) -> str | None:
    """The revision the database is at; a 0.1.0 database counts as 0001; None when empty."""
    revision = _stamped(connection)
    if revision is None and FIRST_RELEASE_TABLES <= set(inspect(connection).get_table_names()):
        return FIRST_RELEASE
    return revision


def _at_head(engine: Engine) -> bool:
    """Whether the database is stamped with HEAD, read with one plain query (a database
    without ``alembic_version`` is not)."""
    try:
        with engine.connect() as connection:
            return connection.execute(
                text("SELECT version_num FROM alembic_version")).scalar() == HEAD
    except exc.DBAPIError:
        return False


def _columns(connection: Connection) -> dict[str, set[str]]:
    """Every table of the database and its columns, in one query where the database
    allows (SQLite, PostgreSQL), else through SQLAlchemy's inspector."""
    if connection.dialect.name == "sqlite":
        rows = connection.exec_driver_sql(
            "SELECT m.name, p.name FROM sqlite_master AS m JOIN pragma_table_info(m.name) AS p "
            "WHERE m.type = 'table'").all()
    elif connection.dialect.name == "postgresql":
        rows = connection.execute(text(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema()")).all()
    else:
        found = inspect(connection)
        rows = [(table, column["name"]) for table in found.get_table_names()
                for column in found.get_columns(table)]
    tables: dict[str, set[str]] = {}
    for table, column in rows:
        tables.setdefault(table, set()).add(column)
    return tables


def missing_schema(connection: Connection, revision: str | None) -> list[str]:
    """What a database stamped ``revision`` lacks: at the head, every table and column of
    the models; at an older revision, release 0.1.0's tables (the least any has). Empty
    when nothing is missing."""
    from .models import Base
    found = _columns(connection)
    if revision == HEAD:
        expected = {table.name: {column.name for column in table.columns}
                    for table in Base.metadata.sorted_tables}
    else:
        expected = {name: set() for name in FIRST_RELEASE_TABLES}
    missing = []
    for table, columns in sorted(expected.items()):
        if table not in found:
            missing.append(f"table {table}")
        elif columns - found[table]:
            missing.append(f"columns {', '.join(sorted(columns - found[table]))} of table {table}")
    return missing


def check_tables(connection: Connection, revision: str | None) -> None:
    """Raise :class:`SchemaError` when the database, stamped ``revision``, lacks tables
    or columns that revision has: what is missing, and what to do."""
    if revision is None:
        return
    missing = missing_schema(connection, revision)
    if missing:
        raise SchemaError(
            f"the database says it is at schema {revision}, but it has no {'; no '.join(missing)}. "
            "It was not made by the facilitator's migrations, or was changed by hand. To keep "
            "its data, restore the copy of the SQLite file made before its last upgrade "
            "(FILE.before-...) or a backup of the database; to start afresh, point "
            "FACILITATOR_DATABASE_URL at a new, empty database (or move the SQLite file "
            "away). Nothing was changed.")


def schema_status(engine: Engine) -> dict:
    """``{"current", "head", "up_to_date"}`` for ``facilitator db current``; raises
    :class:`SchemaError` for a database that lacks the tables of its revision."""
    with engine.connect() as connection:
        current = current_revision(connection)
        if current is not None and _stamped(connection) is not None:
            check_tables(connection, current)
    head = head_revision()
    return {"current": current, "head": head, "up_to_date": current == head}


def upgrade(engine: Engine, backup: bool = True) -> SchemaChange | None:
    """Bring the database to the head revision; None when it already is there.

    Raises :class:`SchemaError` for a database of a newer release.
    """
    if _at_head(engine):
        with engine.connect() as connection:     # one query: the tables are there
            check_tables(connection, HEAD)
        return None                     # every start but a release's first
    head = head_revision()
    with engine.connect() as connection:
        seen = current_revision(connection)
        stamped = _stamped(connection)
    if stamped == head:
        with engine.connect() as connection:
            check_tables(connection, head)
        return None
    _refuse_unknown(seen)
    if stamped is not None:
        with engine.connect() as connection:
            check_tables(connection, stamped)
    copy = None
    if backup and seen is not None and engine.dialect.name == "sqlite":
        copy = backup_sqlite(engine, f"before-{head}")
    with engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:
            # Revisions may rebuild a table (SQLite cannot alter most things in place);
            # with foreign keys on, dropping the old table would cascade into the rows
            # that refer to it. SQLite's procedure: keys off, rebuild, check, keys on
            # (outside the transaction, where the pragma has an effect).
            connection.connection.dbapi_connection.execute("PRAGMA foreign_keys=OFF")
        try:
            with connection.begin():
                before = _upgrade_in(connection, head)
        finally:
            if sqlite:
                connection.connection.dbapi_connection.execute("PRAGMA foreign_keys=ON")
    return None if before is _NOTHING else SchemaChange(before, head, copy)


_NOTHING = object()


def _upgrade_in(connection: Connection, head: str):
    """Run the missing revisions in ``connection``'s transaction; the revision it was at,
    or ``_NOTHING`` when another process upgraded it meanwhile."""
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": UPGRADE_LOCK})
    stamped = _stamped(connection)
    if stamped == head:
        return _NOTHING
    before = current_revision(connection)
    _refuse_unknown(before)
    from alembic import command
    config = alembic_config(connection)
    if before == FIRST_RELEASE and stamped is None:     # made by 0.1.0, before Alembic
        command.stamp(config, FIRST_RELEASE)
    try:
        command.upgrade(config, "head")
    except exc.DBAPIError as error:          # a table a revision changes is not as it says
        raise SchemaError(
            f"the upgrade from schema {before} failed, so the database does not match schema "
            f"{before} ({str(error.orig).splitlines()[0]}); nothing was changed. Restore a "
            "backup of the database, or point FACILITATOR_DATABASE_URL at a new, empty "
            "one.") from None
    check_tables(connection, head)
    if connection.dialect.name == "sqlite":
        broken = connection.exec_driver_sql("PRAGMA foreign_key_check").all()
        if broken:
            raise SchemaError(f"the upgrade would break {len(broken)} references between "
                              "tables; nothing was changed")
    return before


def _refuse_unknown(revision: str | None) -> None:
    if revision is not None and revision not in known_revisions():
        raise SchemaError(
            f"the database is at schema {revision}, which this version of the facilitator "
            f"does not know (it knows up to {head_revision()}): it was made by a newer "
            "version. Run that version, or restore the copy made before its upgrade.")


def backup_sqlite(engine: Engine, label: str) -> Path | None:
    """Copy a SQLite database file beside itself (``NAME.LABEL-TIMESTAMP``), consistently
    even while the server writes (SQLite's backup API); None for an in-memory database."""
    name = engine.url.database
    if not name or name == ":memory:" or not os.path.exists(name):
        return None
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S")
    target = Path(f"{name}.{label}-{stamp}")
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)   # owner only
    os.close(fd)
    import sqlite3       # here: a server on PostgreSQL never loads it
    source = sqlite3.connect(name)
    try:
        copy = sqlite3.connect(target)
        try:
            source.backup(copy)
        finally:
            copy.close()
    finally:
        source.close()
    return target
