"""The PostgreSQL connection pool survives a database restart between two actions.

Pooled connections that sat idle are checked before use (a connection killed
meanwhile is replaced, and the action goes through); connections in constant
use are not pinged, so a busy server pays no extra round trip per action.
"""
import psycopg
import pytest

from rulebook import bank
from services import fresh_postgres_database

SETTINGS = {"teams": [{"name": f"Equipo {n}", "members": 4} for n in range(1, 5)]}


@pytest.fixture
def store(monkeypatch):
    from facilitator.store import database as database_module
    from facilitator.store.database import Database
    from facilitator.store.games import GameStore
    url, drop = fresh_postgres_database()
    database = Database()
    database.connect(url, pool_size=2)
    yield GameStore(database), url, database_module
    database.engine.dispose()
    drop()


def _kill_other_connections(url: str) -> int:
    with psycopg.connect(url, autocommit=True) as admin:
        return len(admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()").fetchall())


def test_an_idle_connection_killed_by_the_database_is_replaced(store, monkeypatch):
    games, url, database_module = store
    game_id = games.create_game("partida", "Pool", SETTINGS, bank())
    assert games.load(game_id) is not None
    assert _kill_other_connections(url) >= 1          # the pooled connection is gone
    monkeypatch.setattr(database_module, "IDLE_BEFORE_PING", 0.0)
    changed = games.transact(game_id, "gm", lambda c: c.play({"do": "declare", "mode": "normal"}))
    assert changed.played == [1]
    assert games.load(game_id)[0].seq == 1


def test_a_connection_lost_under_an_action_is_not_handed_out_again(store):
    # Killed while in constant use (so not pinged): the action it carried fails, and the
    # pool opens a new connection for the next one instead of giving out the dead one.
    games, url, _module = store
    game_id = games.create_game("partida", "Pool", SETTINGS, bank())
    games.transact(game_id, "gm", lambda c: c.play({"do": "declare", "mode": "normal"}))
    adjust = {"do": "adjust", "team": 1, "points": 1, "reason": "Participación"}
    assert _kill_other_connections(url) >= 1
    outcomes = []
    for _ in range(3):
        try:
            outcomes.append(games.transact(game_id, "gm", lambda c: c.play(adjust)).played)
        except Exception as error:          # noqa: BLE001 - the lost connection's action
            outcomes.append(type(error).__name__)
    assert isinstance(outcomes[-1], list) and isinstance(outcomes[-2], list), outcomes
    game, row = games.load(game_id)
    assert game.seq == row.seq == 1 + sum(isinstance(o, list) for o in outcomes)
