"""The action's one statement straight through libpq (facilitator/store/libpq.py): what
it stores reads back as sent, the database's refusals are psycopg's exceptions, and
a session whose prepared statements psycopg deallocated goes on working."""
from datetime import datetime

import psycopg
import pytest

from services import fresh_postgres_database

from facilitator.store import libpq

TEXTS = ["Ñandú «Pingüino» 🐧", 'comillas " y \\ barra', "línea\nnueva\ttab", "\x01\x1f", ""]


@pytest.fixture
def connection():
    url, drop = fresh_postgres_database()
    conn = psycopg.connect(url, autocommit=True)
    conn.execute("CREATE TABLE t (id int PRIMARY KEY, doc json, note text, at timestamp, "
                 "x float8, ok boolean)")
    yield conn
    conn.close()
    drop()


def test_values_are_written_as_postgresql_reads_them():
    assert libpq.as_text(None) is None
    assert (libpq.as_text(True), libpq.as_text(False), libpq.as_text(7)) == (b"t", b"f", b"7")
    assert libpq.as_text(0.1) == b"0.1" and libpq.as_text("año") == "año".encode()
    assert libpq.as_text(datetime(2026, 12, 2, 16, 5, 7, 123)) == b"2026-12-02 16:05:07.000123"
    assert libpq.as_text({"a": [1, "ñ"]}, is_json=True) == '{"a":[1,"ñ"]}'.encode()
    assert libpq.as_text({"n": 10 ** 30}, is_json=True) == b'{"n": 1000000000000000000000000000000}'
    with pytest.raises(psycopg.DataError):
        libpq.as_text("a\x00b")                     # as psycopg: never cut short silently
    with pytest.raises(TypeError):
        libpq.as_text(object())
    assert libpq.numbered("a = %s AND b = CAST(%s AS int)") == b"a = $1 AND b = CAST($2 AS int)"


def test_what_is_stored_reads_back_as_it_was_sent(connection):
    insert = "INSERT INTO t VALUES (%s, %s, %s, %s, %s, %s) RETURNING id"
    at = datetime(2026, 12, 2, 16, 5, 7, 250000)
    for n, text in enumerate(TEXTS, start=1):
        doc = {"do": "spokesperson", "name": text, "list": [1, 2.5, None, True]}
        params = [libpq.as_text(n), libpq.as_text(doc, True), libpq.as_text(text),
                  libpq.as_text(at), libpq.as_text(1796230000.125), libpq.as_text(n % 2 == 0)]
        assert libpq.one_value(connection.pgconn, insert, params) == str(n).encode()
        assert connection.execute("SELECT doc, note, at, x, ok FROM t WHERE id = %s",
                                  (n,)).fetchone() == (doc, text, at, 1796230000.125, n % 2 == 0)
    assert libpq.one_value(connection.pgconn, "UPDATE t SET note = %s WHERE id = %s RETURNING id",
                           [b"x", b"999"]) is None                    # no row: None


def test_the_database_s_refusal_is_psycopg_s_and_the_connection_goes_on(connection):
    insert = "INSERT INTO t (id) VALUES (%s) RETURNING id"
    assert libpq.one_value(connection.pgconn, insert, [b"1"]) == b"1"
    with pytest.raises(psycopg.errors.UniqueViolation) as refused:
        libpq.one_value(connection.pgconn, insert, [b"1"])
    assert isinstance(refused.value, psycopg.IntegrityError)
    assert libpq.one_value(connection.pgconn, insert, [b"2"]) == b"2"


def test_statements_deallocated_by_a_psycopg_rollback_are_prepared_again(connection):
    insert = "INSERT INTO t (id) VALUES (%s) RETURNING id"
    assert libpq.one_value(connection.pgconn, insert, [b"1"]) == b"1"
    connection.autocommit = False
    connection.execute("SELECT 1", prepare=True)      # psycopg prepares one of its own
    connection.rollback()                             # ... and so DEALLOCATE ALL
    connection.autocommit = True
    assert connection.execute("SELECT count(*) FROM pg_prepared_statements").fetchone() == (0,)
    assert libpq.one_value(connection.pgconn, insert, [b"2"]) == b"2"


def test_only_an_idle_connection_runs_a_statement_alone(connection):
    connection.autocommit = False
    connection.execute("SELECT 1")                    # a transaction is open
    with pytest.raises(psycopg.InterfaceError):
        libpq.one_value(connection.pgconn, "SELECT %s", [b"1"])
    connection.rollback()
