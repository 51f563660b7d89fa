"""The database connection: one SQLAlchemy engine per process, bound with ``init_app``.

SQLite (the default) runs in WAL mode with ``synchronous=FULL``, so an action
whose commit returned survives a crash or a power cut; every write transaction
starts with ``BEGIN IMMEDIATE``, which serialises writers across processes.
PostgreSQL serialises per game with ``SELECT ... FOR UPDATE`` on the game row,
or, for a change written in one statement, with the row's ``version``: the
update applies only to the version the change was decided on.
"""
from __future__ import annotations

import functools
import os
import time
from contextlib import contextmanager
from typing import Iterator

import psycopg
from psycopg.rows import dict_row
from psycopg.types.json import Json
from sqlalchemy import bindparam, create_engine, event, exc, select
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.orm import Session, sessionmaker

from . import libpq, schema
from .models import LIVE_COLUMNS, ActionRow, GameRow, LiveRow

#: A game's live columns by id (``live_row``), plain and locked for writing.
LIVE_ROW = select(*LIVE_COLUMNS).where(GameRow.__table__.c.id == bindparam("game_id"))
LIVE_ROW_LOCKED = LIVE_ROW.with_for_update()
#: The statements of an action's path (``live_row``, ``append``) for any database.
ACTION_INSERT = ActionRow.__table__.insert()
GAME_UPDATE = GameRow.__table__.update().where(GameRow.__table__.c.id == bindparam("game_id"))
#: The columns of a stored action that ``append`` writes, and those that hold JSON.
ACTION_FIELDS = ("game_id", "seq", "action", "client_id", "sent_by", "created_at",
                 "live_before")
JSON_FIELDS = frozenset({"action", "live_before", "live", "removed_devices", "settings",
                         "claims", "screens", "asks", "holders"})


class Database:
    """The engine and session factory, created unbound (like a Flask extension)."""

    def __init__(self) -> None:
        self.engine: Engine | None = None
        self._sessions: sessionmaker | None = None
        self.schema_change: schema.SchemaChange | None = None

    def init_app(self, app) -> None:
        """Bind to ``app.config["DATABASE_URL"]`` and bring its schema up to date."""
        self.connect(app.config["DATABASE_URL"], app.config.get("DATABASE_POOL_SIZE", 10),
                     upgrade=app.config.get("DATABASE_UPGRADE", True))
        app.extensions["facilitator_database"] = self

    def connect(self, url: str, pool_size: int = 10, upgrade: bool = True) -> None:
        """Open the engine for ``url`` (any SQLAlchemy URL) and, with ``upgrade``, bring
        its schema to the newest revision (:mod:`.schema`; what changed is kept in
        ``schema_change`` for the server to say)."""
        if self.engine is not None:
            self.engine.dispose()
        if url.startswith("postgresql://"):
            url = "postgresql+psycopg://" + url[len("postgresql://"):]
        if url.startswith("sqlite"):
            _private_sqlite_file(url)
            self.engine = create_engine(url, connect_args={"timeout": 30,
                                                           "check_same_thread": False})
            _sqlite_durability(self.engine)
        else:
            # 2 × pool_size connections per process, kept open once opened: keep N
            # processes × that under PostgreSQL's max_connections. Not "overflow"
            # connections, which SQLAlchemy closes as soon as they are given back: when
            # a restarted process takes back a thousand screens at once, each would be
            # opened and closed again and again (bench/fanout.py --profile-connect).
            # LIFO: the connection just used is used again, so under load none sits
            # idle long enough to need a ping.
            self.engine = create_engine(url, pool_size=2 * pool_size, max_overflow=0,
                                        pool_use_lifo=True)
            _ping_when_idle(self.engine)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self.schema_change = schema.upgrade(self.engine) if upgrade else None

    @property
    def is_sqlite(self) -> bool:
        """Whether the database is SQLite."""
        return self.engine is not None and self.engine.dialect.name == "sqlite"

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session in a transaction: committed at the end, rolled back on error."""
        with self._sessions() as session, session.begin():
            yield session

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """A plain connection in a transaction (no ORM session): committed at the end,
        rolled back on error. The path every action takes (``GameStore.transact``)."""
        with self.engine.begin() as connection:
            yield connection

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A plain connection for reads. On PostgreSQL each statement runs on its own
        (autocommit): one round trip, no BEGIN and COMMIT around it, so a read of one
        row costs a third of the trips. On SQLite, a transaction as for writes (its
        driver's own transaction handling is set once per connection: see below)."""
        if self.is_sqlite:
            with self.engine.begin() as connection:
                yield connection
            return
        with self.engine.connect().execution_options(isolation_level="AUTOCOMMIT") \
                as connection:
            yield connection

    @property
    def plain_sql(self) -> bool:
        """Whether the action path's statements go to the driver as plain SQL
        (PostgreSQL through psycopg: see ``live_row`` and ``append``)."""
        return self.engine is not None and self.engine.dialect.name == "postgresql" \
            and self.engine.dialect.driver == "psycopg"

    def live_row(self, connection: Connection, game_id: int, lock: bool = False) -> LiveRow | None:
        """Game ``game_id``'s live columns (all but its questions), or None; with
        ``lock``, locked for writing until the transaction ends (PostgreSQL's
        ``FOR UPDATE``; on SQLite the transaction's ``BEGIN IMMEDIATE`` already is)."""
        if self.plain_sql:
            # Every action and every connection reads this row: SQLAlchemy's building,
            # caching and result processing around the driver cost twice the driver's
            # own work (bench/fanout.py --profile), for values that come out the same.
            cursor = _driver(connection).cursor(row_factory=dict_row)
            found = cursor.execute(PLAIN_LIVE_ROW_LOCKED if lock else PLAIN_LIVE_ROW,
                                   (game_id,)).fetchone()
        else:
            query = LIVE_ROW_LOCKED if lock and not self.is_sqlite else LIVE_ROW
            found = connection.execute(query, {"game_id": game_id}).mappings().first()
        return LiveRow(found) if found is not None else None

    def read_live_row(self, game_id: int) -> LiveRow | None:
        """``live_row`` read on its own: on PostgreSQL one statement on a pooled psycopg
        connection in autocommit (what every screen's connection asks first)."""
        if not self.plain_sql:
            with self.read() as connection:
                return self.live_row(connection, game_id)
        with self._autocommit() as driver:
            found = driver.cursor(row_factory=dict_row).execute(PLAIN_LIVE_ROW,
                                                                (game_id,)).fetchone()
        return LiveRow(found) if found is not None else None

    def append(self, connection: Connection, game_id: int, actions: list[dict],
               values: dict) -> None:
        """Store ``actions`` (rows of ACTION_FIELDS) of game ``game_id`` and set
        ``values`` (column → value, the row's new ``version`` among them) on its row, in
        ``connection``'s transaction.

        On PostgreSQL, one statement (the inserts as a common table expression of the
        update): one round trip to the database instead of two. A second action with
        the same ``(game_id, seq)`` or ``(game_id, client_id)`` raises the driver's or
        SQLAlchemy's IntegrityError (see ``INTEGRITY_ERRORS``)."""
        if not self.plain_sql:
            if actions:
                connection.execute(ACTION_INSERT, actions)
            connection.execute(GAME_UPDATE, {"game_id": game_id, **values})
            return
        columns = tuple(values)
        sql = _plain_append(len(actions), columns)
        _driver(connection).execute(sql, _append_params(game_id, actions, values, columns))

    def append_if_unchanged(self, game_id: int, actions: list[dict], values: dict,
                            version: int) -> bool:
        """``append`` in one statement of its own, applied only if game ``game_id``'s row
        is still at ``version``: False (and nothing stored) when anything changed the
        row since, or it is gone. PostgreSQL through psycopg only (``plain_sql``).

        The statement is its own transaction (autocommit): the update takes the row's
        lock, waits for any other writer and looks at the row again, so a change made
        meanwhile, by any process or page, is never overwritten; the actions are
        inserted only with the update (an insert that fails undoes the update too)."""
        columns = tuple(values)
        sql = _plain_append_if(len(actions), columns)
        params = [libpq.as_text(value, name in JSON_FIELDS) for name, value
                  in _named_params(game_id, actions, values, columns)]
        params.append(libpq.as_text(version))
        pooled = self.engine.raw_connection()
        try:
            found = libpq.one_value(pooled.driver_connection.pgconn, sql, params)
        except psycopg.DatabaseError as error:
            if not isinstance(error, psycopg.OperationalError):
                raise         # the database's answer (a unique violation...): still usable
            pooled.invalidate()
            raise
        except BaseException:
            # Lost, or left mid-statement (a task killed while it waited): the pool
            # opens a new one instead of handing this one out again.
            pooled.invalidate()
            raise
        finally:
            pooled.close()
        return found is not None

    @contextmanager
    def _autocommit(self):
        """A pooled connection's psycopg connection, in autocommit for one statement:
        without a SQLAlchemy ``Connection`` around it (its isolation level set and reset
        for each use cost a third of the statement's own client-side work)."""
        pooled = self.engine.raw_connection()
        try:
            driver = pooled.driver_connection
            driver.autocommit = True
            try:
                yield driver
            finally:
                if not driver.closed:
                    driver.autocommit = False
        except psycopg.OperationalError:
            # What SQLAlchemy's own connections do for a lost connection: the pool
            # opens a new one instead of handing this one out again.
            pooled.invalidate()
            raise
        finally:
            pooled.close()          # back to the pool (which rolls back what is left)

    def after_fork(self) -> None:
        """Drop pooled connections inherited from a parent process."""
        if self.engine is not None:
            self.engine.dispose(close=False)


def _driver(connection: Connection):
    """The driver's own connection (psycopg's) under a SQLAlchemy connection."""
    return connection.connection.driver_connection


_COLUMN_LIST = ", ".join(column.name for column in LIVE_COLUMNS)
PLAIN_LIVE_ROW = f"SELECT {_COLUMN_LIST} FROM games WHERE id = %s"
PLAIN_LIVE_ROW_LOCKED = PLAIN_LIVE_ROW + " FOR UPDATE"


def _plain(name: str, value: object) -> object:
    """A value as psycopg takes it: JSON columns wrapped (dumped as SQLAlchemy would)."""
    return Json(value) if name in JSON_FIELDS and value is not None else value


def _named_params(game_id: int, actions: list[dict], values: dict,
                  columns: tuple[str, ...]) -> list[tuple[str, object]]:
    """The parameters of ``append``'s statements, each with its column's name: the
    actions' fields, the row's values and the game's id, in their order."""
    params = [(name, action[name]) for action in actions for name in ACTION_FIELDS]
    params += [(name, values[name]) for name in columns]
    params.append(("id", game_id))
    return params


def _append_params(game_id: int, actions: list[dict], values: dict,
                   columns: tuple[str, ...]) -> list:
    """The parameters of ``append``'s statements as psycopg takes them."""
    return [_plain(name, value) for name, value in
            _named_params(game_id, actions, values, columns)]


@functools.lru_cache(maxsize=32)
def _plain_append(count: int, columns: tuple[str, ...]) -> str:
    """``append``'s statement for ``count`` actions and the game's ``columns``."""
    update = f"UPDATE games SET {', '.join(f'{name} = %s' for name in columns)} WHERE id = %s"
    if not count:
        return update
    row = "(" + ", ".join(["%s"] * len(ACTION_FIELDS)) + ")"
    return (f"WITH appended AS (INSERT INTO actions ({', '.join(ACTION_FIELDS)}) "
            f"VALUES {', '.join([row] * count)}) {update}")


@functools.lru_cache(maxsize=32)
def _plain_append_if(count: int, columns: tuple[str, ...]) -> str:
    """``append_if_unchanged``'s statement: the update of the row at a version, and the
    inserts of ``count`` actions joined to what the update returns (none if it
    updated nothing)."""
    update = (f"UPDATE games SET {', '.join(f'{name} = %s' for name in columns)} "
              f"WHERE id = %s AND version = %s RETURNING version")
    if not count:
        return update
    # Values in a VALUES list are typed by their casts, not by the columns they go to.
    from sqlalchemy.dialects import postgresql
    types = [ActionRow.__table__.c[name].type.compile(dialect=postgresql.dialect())
             for name in ACTION_FIELDS]
    row = "(" + ", ".join(f"CAST(%s AS {type_})" for type_ in types) + ")"
    fields = ", ".join(ACTION_FIELDS)
    # The actions' values come first in the statement, as in ``append``'s parameters.
    return (f"WITH given ({fields}) AS (VALUES {', '.join([row] * count)}), "
            f"updated AS ({update}), "
            f"appended AS (INSERT INTO actions ({fields}) SELECT given.* FROM given, updated) "
            f"SELECT version FROM updated")


#: What ``append`` raises for an action stored twice (the unique indexes of ``actions``).
INTEGRITY_ERRORS = (exc.IntegrityError, psycopg.IntegrityError)


#: A pooled connection idle longer than this is checked before use (seconds).
IDLE_BEFORE_PING = 2.0


def _ping_when_idle(engine: Engine) -> None:
    """Check a pooled connection before use only if it sat idle (the database may have
    restarted meanwhile): SQLAlchemy's ``pool_pre_ping`` would add a round trip to
    every transaction, a tenth of the work of an action under load."""
    @event.listens_for(engine, "checkin")
    def on_checkin(_dbapi_connection, record):
        record.info["idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def on_checkout(dbapi_connection, record, _proxy):
        idle_since = record.info.pop("idle_since", None)
        if idle_since is None or time.monotonic() - idle_since < IDLE_BEFORE_PING:
            return
        try:
            cursor = dbapi_connection.cursor()
            cursor.execute("SELECT 1")
            cursor.close()
            dbapi_connection.rollback()
        except Exception as error:
            # The pool drops this connection and checks out another (a fresh one).
            raise exc.DisconnectionError("stale pooled connection") from error


def _private_sqlite_file(url: str) -> None:
    """Make the SQLite file of ``url`` readable by its owner only (0600) before SQLite
    opens it: a new file is created empty with that mode (SQLite gives its -wal and -shm
    files the database file's mode); an existing file of ours, and its -wal and -shm,
    lose any group or world access. In-memory databases are left alone."""
    name = make_url(url).database
    if not name or name == ":memory:" or name.startswith("file:"):
        return
    try:
        fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    except OSError:
        return                      # no such folder...: let SQLite say what is wrong
    else:
        os.close(fd)
    for path in (name, name + "-wal", name + "-shm"):
        try:
            info = os.stat(path)
            if info.st_uid == getattr(os, "getuid", lambda: info.st_uid)() \
                    and info.st_mode & 0o077:
                os.chmod(path, 0o600)
        except OSError:
            pass


def _sqlite_durability(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection, _record):
        # Let SQLAlchemy, not the driver, open transactions: see "begin" below.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")     # a returned commit is on disk
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(connection):
        # IMMEDIATE takes the write lock at once: two processes never apply an
        # action against the same state.
        connection.exec_driver_sql("BEGIN IMMEDIATE")
