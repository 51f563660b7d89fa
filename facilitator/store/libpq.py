"""One statement straight through libpq (psycopg's ``pq`` module), for the statement every
action takes on PostgreSQL (``Database.append_if_unchanged``).

psycopg's cursor wraps a statement in some thirty Python calls (query conversion,
adaptation, preparation bookkeeping, result processing). Back to back they cost
little; but a campus server acts every few tens of milliseconds, with its caches
cold, and then those calls are a large share of an action's CPU and waiting
(``bench/action_cpu.py --path event --gap 50``; docs/performance.md). Here a statement is sent as text
parameters with one libpq call, prepared once per connection, and its one value
read back; waiting for the socket is gevent's own when gevent has patched the
standard library (psycopg waits through gevent's slower emulation of ``poll``).

Only values of the kinds an action's row holds are written: None, bool, int, float,
text, naive datetimes, and JSON (dicts and lists, for the columns that hold JSON).
An error the database answers is raised as psycopg's exception for its SQLSTATE (a
unique violation is psycopg's ``UniqueViolation``, an ``IntegrityError``); a lost
connection raises psycopg's ``OperationalError``.
"""
from __future__ import annotations

import functools
import itertools
import json
import re
import select
import sys
import weakref
from datetime import datetime

import orjson
import psycopg
from psycopg import pq

#: Prepared statements of a connection are named with this prefix (psycopg's own are
#: "_pg3_..."), and remembered per libpq connection: a connection opened again
#: (after a lost one) prepares its own.
PREPARED_PREFIX = "facilitator_"
_PREPARED: "weakref.WeakKeyDictionary[object, dict[bytes, bytes]]" = weakref.WeakKeyDictionary()
#: Numbers of prepared statements: never the same name twice in a process.
_NAMES = itertools.count(1)


@functools.lru_cache(maxsize=64)
def numbered(sql: str) -> bytes:
    """``sql`` with psycopg's ``%s`` placeholders as libpq's ``$1, $2, ...``."""
    count = iter(range(1, 10_000))
    return re.sub(r"%s", lambda _m: f"${next(count)}", sql).encode()


def as_text(value: object, is_json: bool = False) -> bytes | None:
    """A parameter in PostgreSQL's text format (None for NULL); ``is_json``: the value
    goes to a JSON column."""
    if value is None:
        return None
    if is_json:
        try:
            return orjson.dumps(value)
        except TypeError:        # orjson.JSONEncodeError: what json may still write
            return json.dumps(value, ensure_ascii=False).encode()
    if value is True or value is False:
        return b"t" if value else b"f"
    if isinstance(value, int):
        return b"%d" % value
    if isinstance(value, float):
        return repr(value).encode()
    if isinstance(value, str):
        if "\x00" in value:      # as psycopg: a text column cannot hold it
            raise psycopg.DataError("PostgreSQL text fields cannot contain NUL (0x00) bytes")
        return value.encode()
    if isinstance(value, datetime) and value.tzinfo is None:
        return value.isoformat(sep=" ").encode()
    raise TypeError(f"cannot send {type(value).__name__} as a statement's parameter")


_WAITS: list = []


def _gevent_waits():
    """gevent's waits for a socket, when gevent has patched the standard library (the
    server); None otherwise (decided once: a process is patched before it starts)."""
    if not _WAITS:
        monkey = sys.modules.get("gevent.monkey")
        if monkey is not None and monkey.is_module_patched("select"):
            from gevent.socket import wait_read, wait_write
            _WAITS.append((wait_read, wait_write))
        else:
            _WAITS.append(None)
    return _WAITS[0]


def _wait(fileno: int, write: bool = False) -> None:
    """Wait until ``fileno`` can be read (or written): cooperatively under gevent."""
    waits = _gevent_waits()
    if waits is not None:
        waits[1 if write else 0](fileno)
    elif write:
        select.select([], [fileno], [])
    else:
        select.select([fileno], [], [])


def _results(pgconn) -> list:
    """Every result of what was sent on ``pgconn``, waiting for them as needed."""
    while pgconn.flush():                       # 1: more to send
        _wait(pgconn.socket, write=True)
    results = []
    while True:
        pgconn.consume_input()
        if pgconn.is_busy():
            _wait(pgconn.socket)
            continue
        result = pgconn.get_result()
        if result is None:
            return results
        results.append(result)


def _raise_if_failed(results: list, pgconn) -> None:
    for result in results:
        if result.status == pq.ExecStatus.FATAL_ERROR:
            state = (result.error_field(pq.DiagnosticField.SQLSTATE) or b"").decode()
            message = (result.error_message or pgconn.error_message).decode(errors="replace")
            try:
                error = psycopg.errors.lookup(state)
            except KeyError:
                error = psycopg.DatabaseError
            raise error(message.strip())


def _prepared_results(pgconn, prepared: dict, text: bytes, params: list) -> list:
    """``text`` executed as a statement prepared on ``pgconn`` (prepared first if
    ``prepared``, its names by statement, does not have it); its results."""
    name = prepared.get(text)
    if name is None:
        name = f"{PREPARED_PREFIX}{next(_NAMES)}".encode()
        pgconn.send_prepare(name, text)
        _raise_if_failed(_results(pgconn), pgconn)
        prepared[text] = name
    pgconn.send_query_prepared(name, params)
    results = _results(pgconn)
    _raise_if_failed(results, pgconn)
    return results


def one_value(pgconn, sql: str, params: list[bytes | None]) -> bytes | None:
    """Run ``sql`` (``%s`` placeholders) with ``params`` (``as_text``) on ``pgconn``, the
    libpq connection of an idle psycopg connection, outside any transaction (it commits
    by itself); its first row's first value as text, or None when it has no row.

    On any error but the database's answer, the connection may be left mid-statement:
    the caller drops it (``Database.append_if_unchanged`` invalidates it)."""
    if pgconn.transaction_status != pq.TransactionStatus.IDLE:
        raise psycopg.InterfaceError("the connection is not idle: one statement runs alone")
    prepared = _PREPARED.setdefault(pgconn, {})
    text = numbered(sql)
    try:
        results = _prepared_results(pgconn, prepared, text, params)
    except psycopg.errors.InvalidSqlStatementName:
        # psycopg deallocates every prepared statement of a session when it rolls a
        # transaction back (DEALLOCATE ALL, ours too): prepare again (nothing ran).
        prepared.clear()
        results = _prepared_results(pgconn, prepared, text, params)
    found = next((r for r in results if r.status == pq.ExecStatus.TUPLES_OK), None)
    if found is None or found.ntuples == 0:
        return None
    return found.get_value(0, 0)
