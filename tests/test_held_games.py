"""One process, no message queue: a screen of a game the process holds is answered
without asking the database (facilitator/live/screens.py, ``LiveGames._loaded``).

Every change of such a game goes through the process, so what it holds is what is
committed; what must hold is that no screen is ever sent a state older than the
database's: not while a change is being stored, not after a write of the game's row
outside an action (the answer shown, a device removed), not after a refusal.
"""
import time

import pytest
from sqlalchemy import event

from rulebook import bank

from facilitator.games.partida import Refusal
from facilitator.extensions import database, socketio, store
from facilitator.live.audience import GM, PROJECTOR, TEAM, Audience
from facilitator.store import kept

SETTINGS = {"teams": [{"name": f"Equipo {n}", "members": 4} for n in range(1, 5)]}
DECLARE = {"do": "declare", "mode": "normal"}
pytestmark = pytest.mark.databases("sqlite", "postgres")


def adjust(team: int) -> dict:
    return {"do": "adjust", "team": team, "points": 1, "reason": "Participación"}


class Checkouts:
    """How many times the database was asked anything (a pooled connection taken)."""

    def __init__(self):
        self.count = 0
        event.listen(database.engine, "checkout", self._taken)

    def _taken(self, *_args):
        self.count += 1

    def close(self):
        event.remove(database.engine, "checkout", self._taken)


def _game(app) -> int:
    game_id = store.create_game("partida", "Retenida", SETTINGS, bank())
    return game_id


def test_a_screen_of_a_game_the_process_holds_asks_the_database_nothing(app):
    live = app.extensions["facilitator_live"]
    assert live.sole_process
    game_id = _game(app)
    assert live.snapshot_for(Audience(GM, game_id))["seq"] == 0      # first screen: loads
    assert live.act(Audience(GM, game_id), DECLARE, "a-1")["ok"]
    assert live.act(Audience(GM, game_id), adjust(2), "a-2")["ok"]
    asked = Checkouts()
    try:
        screens = [Audience(GM, game_id), Audience(PROJECTOR, game_id),
                   *(Audience(TEAM, game_id, team) for team in range(1, 5))]
        states = [live.snapshot_for(audience) for audience in screens]
    finally:
        asked.close()
    assert asked.count == 0
    assert [state["seq"] for state in states] == [2] * 6
    assert all(state["view"]["teams"][1]["score"] == 1 for state in states)   # the adjust


def test_a_game_being_stored_is_never_served_before_its_commit(app):
    # While a change is being stored, the engine game has played it and the row does not
    # have it yet: a screen connecting then reads the database (and waits for the change).
    live = app.extensions["facilitator_live"]
    game_id = _game(app)
    live.snapshot_for(Audience(GM, game_id))
    live.act(Audience(GM, game_id), DECLARE, None)
    seen = []

    def change(c):
        c.play(adjust(1))
        seen.append(store.held(game_id))
    store.transact(game_id, "gm", change)
    assert seen == [None]
    game, row = store.held(game_id)
    assert game.seq == row.seq == 2


def test_a_refused_change_leaves_what_the_process_holds_as_committed(app):
    live = app.extensions["facilitator_live"]
    game_id = _game(app)
    live.snapshot_for(Audience(GM, game_id))
    live.act(Audience(GM, game_id), DECLARE, None)
    with pytest.raises(Refusal):
        store.transact(game_id, "gm", lambda c: c.play(DECLARE))   # declared already
    loaded = store.held(game_id) or store.load(game_id)
    assert loaded[0].seq == loaded[1].seq == 1
    assert live.snapshot_for(Audience(PROJECTOR, game_id))["seq"] == 1


def test_a_removed_device_is_checked_against_the_row_it_changed(app):
    # Removing a device is a change of the row like any other: what the process holds
    # afterwards is the row the change committed.
    live = app.extensions["facilitator_live"]
    game_id = _game(app)
    live.snapshot_for(Audience(GM, game_id))
    assert store.held(game_id) is not None
    assert live.remove_device(game_id, "tablet-1")
    assert store.held(game_id)[1].removed_devices == ["tablet-1"]
    match, row = store.current(game_id)
    assert row.removed_devices == ["tablet-1"] and row.version == store.held(game_id)[1].version


def test_with_a_message_queue_a_screen_reads_the_row_unless_nothing_was_heard_since(
        app, monkeypatch):
    # Several processes: another one may have changed the game meanwhile. It says so by
    # broadcasting to the game's rooms, which this process hears (``hear_changes``).
    live = app.extensions["facilitator_live"]
    game_id = _game(app)
    live.snapshot_for(Audience(GM, game_id))
    monkeypatch.setattr(type(live), "sole_process", property(lambda self: False))

    def asked_for(audience) -> int:
        asked = Checkouts()
        try:
            assert live.snapshot_for(audience)["seq"] == 0
        finally:
            asked.close()
        return asked.count

    assert asked_for(Audience(PROJECTOR, game_id)) >= 1    # not read since the queue
    assert asked_for(Audience(TEAM, game_id, 1)) == 0      # read, nothing heard since
    live.heard_change(game_id)                            # another process changed it
    assert asked_for(Audience(TEAM, game_id, 2)) >= 1
    assert asked_for(Audience(TEAM, game_id, 3)) == 0
    live.heard_change(game_id + 1)                        # another game: nothing to read
    assert asked_for(Audience(TEAM, game_id, 4)) == 0
    later = time.monotonic() + kept.KEPT["games read"].seconds
    monkeypatch.setattr(kept, "clock", lambda: later)
    assert asked_for(Audience(PROJECTOR, game_id)) >= 1    # trusted a short while only


def _slow_reads(monkeypatch):
    """Make every read of a game wait for the returned event; returns the list of the
    games read (each as its read begins) and that event."""
    import threading
    reads, release, real = [], threading.Event(), store.current

    def slow_load(game_id):
        reads.append(game_id)
        assert release.wait(10)
        return real(game_id)
    monkeypatch.setattr(store, "current", slow_load)
    return reads, release


def _queued(monkeypatch, live) -> list[int]:
    """The games of the screens that came to wait for a read of their game (the reading
    lock of ``LiveGames._loaded``), each as it comes: what a test waits for instead of a
    while."""
    queued, real = [], live._reading_lock

    class Counted:
        def __init__(self, game_id):
            self.game_id, self.lock = game_id, real(game_id)

        def __enter__(self):
            queued.append(self.game_id)
            return self.lock.__enter__()

        def __exit__(self, *failure):
            return self.lock.__exit__(*failure)
    monkeypatch.setattr(live, "_reading_lock", Counted)
    return queued


def _wait_for(predicate, timeout: float = 10) -> None:
    """Poll ``predicate`` until it holds; fail after ``timeout`` seconds."""
    import time
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "waited in vain"
        time.sleep(0.005)


def test_screens_connecting_together_to_a_game_not_held_take_one_read(app, monkeypatch):
    # One process: a game it does not hold (made by another process, or before a restart)
    # is read; its screens connecting meanwhile wait for that read.
    import threading
    live = app.extensions["facilitator_live"]
    game_id = _game(app)
    store.forget()
    reads, release = _slow_reads(monkeypatch)
    queued = _queued(monkeypatch, live)
    answers = []
    screens = [threading.Thread(target=lambda n=n: answers.append(
        live.snapshot_for(Audience(TEAM, game_id, n)))) for n in (1, 2, 3, 4)]
    for screen in screens:
        screen.start()
    _wait_for(lambda: len(queued) == 4)            # all four asked while the read is on
    assert reads == [game_id]
    release.set()
    for screen in screens:
        screen.join(10)
    assert reads == [game_id]                          # 4 without the wait
    assert len(answers) == 4 and all(a["seq"] == 0 for a in answers)


def test_with_a_message_queue_screens_asking_together_take_one_read_unless_a_change_came(
        app, monkeypatch):
    # A restarted process: the screens of a game come back together. One reads the game;
    # those that asked meanwhile take what it read, unless a change was heard between
    # that read's start and their asking (then they read again: the read may miss it).
    import threading
    live = app.extensions["facilitator_live"]
    game_id = _game(app)
    monkeypatch.setattr(type(live), "sole_process", property(lambda self: False))
    reads, release = _slow_reads(monkeypatch)
    queued = _queued(monkeypatch, live)
    answers = []

    def screen(team):
        answers.append(live.snapshot_for(Audience(TEAM, game_id, team)))
    first = threading.Thread(target=screen, args=(1,))
    first.start()
    _wait_for(lambda: reads)                                # the first screen is reading
    together = [threading.Thread(target=screen, args=(n,)) for n in (2, 3)]
    for thread in together:
        thread.start()
    _wait_for(lambda: len(queued) == 3)                   # they asked before the change
    live.heard_change(game_id)                            # another process changed it
    late = threading.Thread(target=screen, args=(4,))
    late.start()
    _wait_for(lambda: len(queued) == 4)                   # it asked after the change
    assert reads == [game_id]                             # the others wait for that read
    release.set()
    for thread in (first, *together, late):
        thread.join(10)
    assert len(answers) == 4 and all(a["seq"] == 0 for a in answers)
    assert reads == [game_id, game_id]                    # read again for the late screen only


def test_changes_heard_are_counted_per_game_from_any_of_its_rooms(app):
    from facilitator.live import rooms
    from facilitator.patches import hear_changes
    live = app.extensions["facilitator_live"]
    handled = []

    class Manager:
        host_id = "this-process"

        def _handle_emit(self, message):
            handled.append(message["room"])

    manager = Manager()
    hear_changes(manager, live.count_heard)
    for room in (rooms.gm_room(7), rooms.team_room(7, 2), rooms.public_room(8), "sid-123",
                 None, [rooms.public_room(7), rooms.gm_room(9)], "game:x:gm"):
        manager._handle_emit({"event": "state", "room": room, "host_id": "another"})
    # This process's own broadcasts (python-socketio hands them over the same way).
    manager._handle_emit({"event": "state", "room": rooms.gm_room(8), "host_id": "this-process"})
    assert live._heard == {7: 3, 8: 1, 9: 1}
    assert len(handled) == 8                       # every message still reaches its screens
    assert rooms.game_of_room("game:12:team:3") == 12
    assert rooms.game_of_room("league:3") is None


def test_socket_connections_of_a_held_game_get_its_current_state(app, gm):
    made = gm.post("/console/games", json={"name": "Por socket", "settings": SETTINGS})
    game_id = made.get_json()["game_id"]
    console = socketio.test_client(app, auth={"role": "gm", "game": game_id},
                                   flask_test_client=gm)
    assert console.emit("act", {"id": "x-1", "action": DECLARE}, callback=True)["ok"]
    watch = gm.get(f"/api/games/{game_id}/codes").get_json()["watch"]
    asked = Checkouts()
    try:
        projectors = [socketio.test_client(app, auth={"role": "projector", "watch": watch})
                      for _ in range(3)]
    finally:
        asked.close()
    assert asked.count == 0
    for projector in projectors:
        [state] = [m["args"][0] for m in projector.get_received() if m["name"] == "state"]
        assert state["seq"] == 1 and state["role"] == PROJECTOR


def test_a_game_made_here_is_not_read_back_and_built_again_for_its_first_screen(
        app, monkeypatch):
    from facilitator.games.partida import KIND
    live = app.extensions["facilitator_live"]
    game_id = _game(app)
    built = []
    real = KIND.load
    monkeypatch.setattr(type(KIND), "load",
                        lambda self, *args: built.append(args) or real(*args))
    state = live.snapshot_for(Audience(TEAM, game_id, 2))
    assert built == [] and state["seq"] == 0 and state["team"] == 2
    store.forget()                       # a process that did not make it builds it
    assert live.snapshot_for(Audience(TEAM, game_id, 2))["seq"] == 0 and len(built) == 1
