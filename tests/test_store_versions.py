"""On PostgreSQL a change of a game this process knows is written in one statement that
applies only if the game's row is still the version this process last saw
(facilitator/store/games.py, ``_transact_at_version``). The version is a column that
every write of a game row bumps (they all go through ``GameStore.transact``).

What must hold: nothing another process or a page wrote meanwhile is ever
overwritten or lost, the record stays the one order of actions every process
agrees on, and a game that nobody else touches takes the one statement.
"""
import pytest
from sqlalchemy import select, update

from rulebook import bank
from services import fresh_postgres_database

from facilitator.games.partida import Refusal, replay
from facilitator.store.database import Database
from facilitator.store.games import GameStore
from facilitator.store.models import ActionRow, GameRow

SETTINGS = {"teams": [{"name": f"Equipo {n}", "members": 4} for n in range(1, 5)]}
DECLARE = {"do": "declare", "mode": "normal"}


def adjust(team: int, points: int = 1) -> dict:
    return {"do": "adjust", "team": team, "points": points, "reason": "Participación"}


@pytest.fixture
def database_url():
    url, drop = fresh_postgres_database()
    yield url
    drop()


def _store(url: str) -> GameStore:
    """A store of its own, as another server process has."""
    database = Database()
    database.connect(url, pool_size=2)
    return GameStore(database)


@pytest.fixture
def stores(database_url):
    """Two processes' stores on one database."""
    made = [_store(database_url), _store(database_url)]
    yield made
    for store in made:
        store.database.engine.dispose()


class PathSpy:
    """Which path each change of ``store`` took: the one statement or the locked one."""

    def __init__(self, store: GameStore, monkeypatch):
        self.paths: list[str] = []
        database = store.database
        one, locked = database.append_if_unchanged, database.transaction

        def append_if_unchanged(*args, **kwargs):
            found = one(*args, **kwargs)
            self.paths.append("one statement" if found else "changed meanwhile")
            return found

        def transaction():
            self.paths.append("locked")
            return locked()
        monkeypatch.setattr(database, "append_if_unchanged", append_if_unchanged)
        monkeypatch.setattr(database, "transaction", transaction)


def _actions(store: GameStore, game_id: int) -> list[dict]:
    with store.database.session() as session:
        return list(session.scalars(select(ActionRow.action).where(
            ActionRow.game_id == game_id).order_by(ActionRow.seq)))


def test_a_game_nobody_else_touches_takes_one_statement_a_change(stores, monkeypatch):
    store = stores[0]
    game_id = store.create_game("partida", "Una sentencia", SETTINGS, bank())
    spy = PathSpy(store, monkeypatch)
    store.transact(game_id, "gm", lambda c: c.play(DECLARE))          # not known yet: locked
    store.transact(game_id, "gm", lambda c: c.play(adjust(1)))
    store.transact(game_id, "gm", lambda c: c.set(name="Una sentencia, otra vez"))
    store.transact(game_id, "gm", lambda c: c.play({"do": "undo"}))
    assert spy.paths == ["locked", "one statement", "one statement", "one statement"]
    assert _actions(store, game_id) == [DECLARE, adjust(1), {"do": "undo"}]
    game, row = store.load(game_id)
    assert game.seq == row.seq == 3


def test_a_game_loaded_for_a_screen_takes_one_statement_at_once(stores, monkeypatch):
    store = stores[0]
    game_id = store.create_game("partida", "Cargada", SETTINGS, bank())
    store.load(game_id)                     # a screen connected: the row is known
    spy = PathSpy(store, monkeypatch)
    store.transact(game_id, "gm", lambda c: c.play(DECLARE))
    assert spy.paths == ["one statement"]


def test_another_process_acting_meanwhile_is_never_overwritten(stores, monkeypatch):
    here, there = stores
    game_id = here.create_game("partida", "Dos procesos", SETTINGS, bank())
    here.transact(game_id, "gm", lambda c: c.play(DECLARE))
    there.transact(game_id, "team:1", lambda c: c.play(adjust(2)))    # the other process
    spy = PathSpy(here, monkeypatch)
    change = here.transact(game_id, "gm", lambda c: c.play(adjust(3)))
    assert spy.paths == ["changed meanwhile", "locked"]
    assert change.played == [3] and change.row.seq == 3
    assert _actions(here, game_id) == [DECLARE, adjust(2), adjust(3)]
    # Both processes hold the game the database holds.
    record = here.record(game_id)
    assert [a.to_dict() for a in replay(record).log] == record["actions"]
    assert here.current(game_id)[0].summary() == there.current(game_id)[0].summary()


def test_a_page_writing_the_row_meanwhile_keeps_what_it_wrote(stores, monkeypatch):
    here, there = stores
    game_id = here.create_game("partida", "Antes", SETTINGS, bank())
    here.transact(game_id, "gm", lambda c: c.play(DECLARE))
    assert there.rename(game_id, "Después")              # a page of another process
    spy = PathSpy(here, monkeypatch)
    change = here.transact(game_id, "gm", lambda c: c.play(adjust(1)))
    assert spy.paths == ["changed meanwhile", "locked"]
    assert change.row.name == "Después"
    with here.database.session() as session:
        assert session.get(GameRow, game_id).name == "Después"


def test_a_timer_set_by_another_process_is_not_put_back(stores):
    from facilitator.games import Role
    here, there = stores
    game_id = here.create_game("partida", "Reloj", SETTINGS, bank())
    here.transact(game_id, "gm", lambda c: c.play(DECLARE))
    here.transact(game_id, "gm", lambda c: c.play({"do": "choose", "author": "Kant", "type": "vf"}))
    [asked] = [e for e in here.current(game_id)[0].legal() if e.do == "question"]
    here.transact(game_id, "gm", lambda c: c.play({"do": "question", "id": asked.options["ids"][0]}))
    there.transact(game_id, "gm", lambda c: c.act({"do": "timer", "op": "start"}, Role.gm(), 2e9))
    here.transact(game_id, "gm", lambda c: c.play(adjust(1)))
    _match, row = there.current(game_id)
    assert row.live["timer"]["state"] == "running" and row.deadline == 2e9 + 60 and row.seq == 4


def test_a_refusal_is_decided_on_the_database_state(stores):
    # This process's game is older than the database's: the other process declared.
    here, there = stores
    game_id = here.create_game("partida", "Rechazo", SETTINGS, bank())
    here.load(game_id)
    there.transact(game_id, "gm", lambda c: c.play(DECLARE))
    # What only that declaration allows is accepted, though the old game would refuse it...
    legal = {entry.do: entry for entry in there.current(game_id)[0].legal()}
    pair = legal["choose"].options["choices"][0]
    choose = {"do": "choose", "author": pair["author"], "type": pair["type"]}
    assert here.transact(game_id, "gm", lambda c: c.play(choose)).played == [2]
    # ... and what it forbids is refused (a second declaration: R-U1 and the like).
    with pytest.raises(Refusal) as refused:
        here.transact(game_id, "gm", lambda c: c.play(DECLARE))
    assert refused.value.rule.startswith("R-")
    assert _actions(here, game_id) == [DECLARE, choose]


def test_a_game_deleted_meanwhile_is_refused(stores):
    here, there = stores
    game_id = here.create_game("partida", "Borrada", SETTINGS, bank())
    here.transact(game_id, "gm", lambda c: c.play(DECLARE))
    there.delete_game(game_id)
    with pytest.raises(Refusal) as refused:
        here.transact(game_id, "gm", lambda c: c.play(adjust(1)))
    assert refused.value.rule == "not_found" and "no game" in refused.value.message


def test_the_same_action_sent_twice_is_stored_once_on_either_path(stores):
    store = stores[0]
    game_id = store.create_game("partida", "Dos veces", SETTINGS, bank())
    store.transact(game_id, "gm", lambda c: c.play(DECLARE, "a"), "a")
    store.transact(game_id, "gm", lambda c: c.play(adjust(1), "b"), "b")
    again = store.transact(game_id, "gm", lambda c: c.play(adjust(1), "b"), "b")
    assert again.duplicate_of == 2
    assert store.transact(game_id, "gm", lambda c: c.play(adjust(2), "c"), "c").played == [3]
    assert _actions(store, game_id) == [DECLARE, adjust(1), adjust(2)]


def test_a_change_writing_more_than_its_row_takes_the_locked_path(stores, monkeypatch):
    from facilitator.store.models import ClassGameRow, ClassRow
    store = stores[0]
    game_id = store.create_game("partida", "Otra tabla", SETTINGS, bank())
    with store.database.session() as session:
        klass = ClassRow(name="Clase")
        session.add(klass)
        session.flush()
        session.add(ClassGameRow(game_id=game_id, class_id=klass.id, lineup=[], kept=False,
                                 allow_repeats=False, league_shown=True))
    store.current(game_id)
    spy = PathSpy(store, monkeypatch)

    def hide_too(c):
        c.play(DECLARE)
        c.write(update(ClassGameRow).where(ClassGameRow.game_id == game_id)
                .values(league_shown=False))
    change = store.transact(game_id, "gm", hide_too)
    assert spy.paths == ["locked"] and change.played == [1]
    assert _actions(store, game_id) == [DECLARE]
    with store.database.session() as session:
        assert session.get(ClassGameRow, game_id).league_shown is False


def test_what_the_screens_showed_before_an_action_is_the_same_from_either_process(stores):
    # An undo puts back what the screens showed before the action it takes back; the
    # process that stored it remembers it, another reads it: both find the same.
    here, there = stores
    game_id = here.create_game("partida", "Relojes", SETTINGS, bank())
    here.transact(game_id, "gm", lambda c: c.play(DECLARE))
    found = {}
    for name, store in (("here", here), ("there", there)):
        store.transact(game_id, "gm", lambda c: found.__setitem__(name, c.before_of(1)))
    assert found == {"here": {"state": "idle", "seconds": 60, "turn": 1}} | \
        {"there": {"state": "idle", "seconds": 60, "turn": 1}}


def test_a_device_s_game_is_found_by_its_public_id_and_watch_code_in_any_process(
        stores, monkeypatch):
    from facilitator.store import names as games_module
    here, there = stores
    old = [here.create_game("partida", f"Vieja {n}", SETTINGS, bank()) for n in range(3)]
    monkeypatch.setattr(games_module, "NAMED_AT_ONCE", 2)      # the oldest is looked up alone
    public = {gid: there.public_id(gid) for gid in old}
    assert here.game_of_public_id(public[old[-1]]) == old[-1]
    assert here.game_of_public_id(public[old[0]]) == old[0]
    newer = there.create_game("partida", "Nueva", SETTINGS, bank())         # made by another process
    watch = there.row(newer).watch_code
    assert here.game_of_watch_code(watch.lower()) == newer
    assert here.game_of_public_id(there.public_id(newer)) == newer
    assert here.game_of_public_id("no-such-game") is None and here.game_of_watch_code("") is None
    here.delete_game(newer)
    assert here.game_of_public_id(public[old[1]]) == old[1]
    assert here.load(here.game_of_public_id(public[old[1]]) or 0) is not None


def test_after_the_gm_removes_a_device_the_next_action_needs_no_reload(stores, monkeypatch):
    # Removing a device is a change of the game's row like any other: the next change
    # takes the one statement, with the same match.
    store = stores[0]
    game_id = store.create_game("partida", "Sin ese", SETTINGS, bank())
    store.transact(game_id, "gm", lambda c: c.play(DECLARE))
    match = store.held(game_id)[0]
    assert store.remove_device(game_id, "tablet-1")
    spy = PathSpy(store, monkeypatch)
    store.transact(game_id, "gm", lambda c: c.play(adjust(1)))
    store.transact(game_id, "gm", lambda c: c.play(adjust(2)))
    assert spy.paths == ["one statement", "one statement"]
    assert store.held(game_id)[0] is match and match.seq == 3
    assert store.current(game_id)[1].removed_devices == ["tablet-1"]
