"""An action's path through the store gives the same stored game on SQLite and on
PostgreSQL.

On PostgreSQL the statements every action and every connection take (reading the
game row, storing the actions with the row's update) go to psycopg as plain SQL,
not through SQLAlchemy (facilitator/store/database.py, ``plain_sql``): these
tests hold both paths to the same record, the same row and the same refusals.
"""
import pytest
from sqlalchemy import select

from rulebook import bank
from services import fresh_postgres_database

from facilitator.games.partida import Refusal
from facilitator.store.database import Database
from facilitator.store.games import GameStore
from facilitator.store.models import LIVE_COLUMNS, ActionRow, GameRow

SETTINGS = {"teams": [{"name": f"Equipo {n}", "members": 4} for n in range(1, 5)]}
DECLARE = {"do": "declare", "mode": "normal"}


@pytest.fixture(params=["sqlite", "postgres"])
def store(request, tmp_path):
    """A game store on a fresh SQLite file or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        url, drop = f"sqlite:///{tmp_path}/paths.db", (lambda: None)
    else:
        url, drop = fresh_postgres_database()
    database = Database()
    database.connect(url, pool_size=2)
    assert database.plain_sql is (request.param == "postgres")
    yield GameStore(database)
    database.engine.dispose()
    drop()


def _stored_actions(store: GameStore, game_id: int) -> list[ActionRow]:
    with store.database.session() as session:
        rows = list(session.scalars(select(ActionRow).where(ActionRow.game_id == game_id)
                                    .order_by(ActionRow.seq)))
        session.expunge_all()
        return rows


def test_an_action_is_stored_with_who_sent_it_and_what_the_screens_showed_before(store):
    game_id = store.create_game("partida", "Paths", SETTINGS, bank())
    change = store.transact(game_id, "gm", lambda c: c.play(DECLARE, "id-1"), "id-1")
    assert change.played == [1] and change.row.seq == 1 and change.row.version == 1
    [stored] = _stored_actions(store, game_id)
    assert (stored.seq, stored.action, stored.client_id, stored.sent_by) == \
        (1, DECLARE, "id-1", "gm")
    assert stored.live_before == {"state": "idle", "seconds": 60, "turn": 1}
    game, row = store.current(game_id)
    assert game.seq == row.seq == 1


def test_two_actions_of_one_change_are_stored_in_order(store):
    game_id = store.create_game("partida", "Paths", SETTINGS, bank())
    adjust = {"do": "adjust", "team": 2, "points": 1, "reason": "Buena pregunta"}

    def both(c):
        c.play(DECLARE)
        c.play(adjust)
    assert store.transact(game_id, "gm", both).played == [1, 2]
    assert [a.action for a in _stored_actions(store, game_id)] == [DECLARE, adjust]
    assert store.record(game_id)["actions"] == [DECLARE, adjust]


def test_a_change_of_the_screens_alone_stores_no_action(store):
    game_id = store.create_game("partida", "Paths", SETTINGS, bank())
    store.transact(game_id, "gm", lambda c: c.play(DECLARE))
    store.transact(game_id, "gm", lambda c: c.play({"do": "choose", "author": "Kant",
                                                     "type": "vf"}))
    [asked] = [e for e in store.current(game_id)[0].legal() if e.do == "question"]
    question = asked.options["ids"][0]
    store.transact(game_id, "gm", lambda c: c.play({"do": "question", "id": question}))
    from facilitator.games import Role
    change = store.transact(game_id, "gm", lambda c: c.act(
        {"do": "timer", "op": "start"}, Role.gm(), 1000.0))
    assert change.played == [] and len(_stored_actions(store, game_id)) == 3
    match, row = store.current(game_id)
    assert (match.seq, row.seq, row.live["timer"]["state"], row.deadline) == (3, 3, "running", 1060.0)


def test_an_action_sent_twice_with_its_id_is_stored_once(store):
    game_id = store.create_game("partida", "Paths", SETTINGS, bank())
    store.transact(game_id, "gm", lambda c: c.play(DECLARE, "same"), "same")
    again = store.transact(game_id, "gm", lambda c: c.play(DECLARE, "same"), "same")
    assert again.duplicate_of == 1
    assert len(_stored_actions(store, game_id)) == 1
    # The store goes on: the next action is number 2.
    assert store.transact(game_id, "gm", lambda c: c.play(
        {"do": "adjust", "team": 1, "points": 1, "reason": "x"})).played == [2]


def test_a_refused_action_stores_nothing_and_the_game_goes_on(store):
    game_id = store.create_game("partida", "Paths", SETTINGS, bank())
    with pytest.raises(Refusal) as refused:
        store.transact(game_id, "gm", lambda c: c.play({"do": "verdict", "result": "full"}))
    assert refused.value.rule.startswith("R-")
    assert _stored_actions(store, game_id) == [] and store.load(game_id)[1].seq == 0
    assert store.transact(game_id, "gm", lambda c: c.play(DECLARE)).played == [1]


def test_text_comes_back_as_it_was_sent(store):
    game_id = store.create_game("partida", "Paths", SETTINGS, bank())
    reason = 'Pifie "doble" — ñandú 🎲 \u2028 \\ fin'
    action = {"do": "adjust", "team": 3, "points": -1, "reason": reason}
    store.transact(game_id, "gm", lambda c: c.play(action))
    assert _stored_actions(store, game_id)[0].action == action
    assert store.record(game_id)["actions"] == [action]


def test_the_live_row_reads_what_the_orm_reads(store):
    game_id = store.create_game("partida", "Paths", SETTINGS, bank())
    store.transact(game_id, "gm", lambda c: c.play(DECLARE))
    _game, live = store.load(game_id)
    with store.database.session() as session:
        orm = session.get(GameRow, game_id)
        expected = {column.name: getattr(orm, column.name) for column in LIVE_COLUMNS}
    assert {column.name: getattr(live, column.name) for column in LIVE_COLUMNS} == expected
    assert store.find_watch_code(expected["watch_code"]).id == game_id
