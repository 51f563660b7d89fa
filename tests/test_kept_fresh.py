"""Every cache a process keeps of the database (facilitator/store/kept.py, ``KEPT``) sees a
change that another process made: each change here is made by a real second Python
process on the same database file (or PostgreSQL database), never through this
process's objects, and this process is then asked again.

A cache that trusts a value for some seconds is asked once before they pass (still the
kept value: that is what it is for) and once after (the other process's change); the
kept values' clock (``kept.clock``) is moved rather than waited for.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from rulebook import bank

from facilitator.extensions import database, store
from facilitator.live.audience import GM, PROJECTOR, TEAM, Audience
from facilitator.store import classes as stored_classes, kept, sessions

pytestmark = [pytest.mark.databases("sqlite", "postgres"), pytest.mark.slow]

SETTINGS = {"teams": [{"name": f"Equipo {n}", "members": 4} for n in range(1, 5)]}
#: A game whose first turn is a simple one, with a short deliberation.
SIMPLE = {**SETTINGS, "round_modes": [["simple"]], "deliberation_seconds": 2}
ROOT = Path(__file__).resolve().parents[1]

#: Every test of this module, by the cache it is about: a cache named in KEPT with no test
#: here fails ``test_every_cache_named_has_its_test``.
TESTED: set[str] = set()


def about(name: str):
    """Mark a test as the one about cache ``name``."""
    assert name in kept.KEPT, name
    TESTED.add(name)
    return lambda test: test


def another_process(url: str, code: str) -> object:
    """Run ``code`` in a second Python process on the database at ``url``, with ``app``
    (that process's app), ``live``, ``store`` and ``database`` at hand; what it assigns to
    ``result`` comes back (as JSON)."""
    script = textwrap.dedent("""
        import json, sys
        from facilitator import create_app
        from facilitator.extensions import database, store
        from facilitator.live.audience import GM, Audience
        app = create_app({"DATABASE_URL": sys.argv[1], "TESTING": True,
                          "ASYNC_MODE": "threading"})
        live = app.extensions["facilitator_live"]
        result = None
    """) + textwrap.dedent(code) + "\nprint(json.dumps(result))\n"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests"), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", script, url], capture_output=True, text=True,
                          timeout=120, env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.fixture
def later(monkeypatch):
    """The kept values' clock, stopped (the other process takes its time to start):
    ``later(seconds)`` moves it on."""
    now = [time.monotonic()]
    monkeypatch.setattr(kept, "clock", lambda: now[0])

    def move(seconds: float) -> None:
        now[0] += seconds
    return move


def several_processes(live, monkeypatch) -> None:
    """Serve as one of several processes (with a message queue): nothing is taken as
    changed only through this process."""
    monkeypatch.setattr(type(live), "sole_process", property(lambda self: False))


def partida(name: str = "Guardada", settings: dict = SETTINGS) -> int:
    return store.create_game("partida", name, settings, bank())


DECLARE = {"do": "declare", "mode": "normal"}


def test_every_cache_named_has_its_test():
    assert TESTED == set(kept.KEPT)


@about("console sessions")
def test_a_logout_through_another_process_is_seen_within_the_sessions_seconds(
        app, database_url, later, monkeypatch):
    secret = sessions.open_session(database, 8)
    assert sessions.session_is_valid(database, secret)
    another_process(database_url, f"""
        from facilitator.store import sessions
        assert sessions.end_session(database, {secret!r})
    """)
    assert sessions.session_is_valid(database, secret)         # trusted a while, as kept
    later(kept.KEPT["console sessions"].seconds)
    assert not sessions.session_is_valid(database, secret)


@about("game names")
def test_a_game_made_by_another_process_is_found_by_its_codes(app, database_url):
    first = partida()
    row = store.row(first)
    assert store.names.of_public_id(row.public_id) == first     # names learnt
    made = another_process(database_url, f"""
        from rulebook import bank
        game = store.create_game("partida", "De otro", {SETTINGS!r}, bank())
        row = store.row(game)
        result = [game, row.public_id, row.watch_code]
    """)
    game, public_id, watch_code = made
    assert store.names.of_public_id(public_id) == game
    assert store.names.of_watch_code(watch_code) == game


@about("held games")
def test_an_action_through_another_process_is_in_the_match_this_one_holds(app, database_url):
    game = partida()
    assert store.current(game)[0].seq == 0                     # held here
    another_process(database_url, f"""
        assert live.act(Audience(GM, {game}), {DECLARE!r}, "otro-1")["ok"]
    """)
    match, row = store.current(game)
    assert match.seq == 1 and row.version >= 1
    assert store.held(game)[0].seq == 1


@about("games read")
def test_with_several_processes_a_change_whose_broadcast_was_lost_shows_within_the_seconds(
        app, database_url, later, monkeypatch):
    live = app.extensions["facilitator_live"]
    several_processes(live, monkeypatch)
    game = partida()
    assert live.snapshot_for(Audience(GM, game))["seq"] == 0
    another_process(database_url, f"""
        assert live.act(Audience(GM, {game}), {DECLARE!r}, "otro-1")["ok"]
    """)                                # its broadcast never reached this process
    assert live.snapshot_for(Audience(GM, game))["seq"] == 0   # nothing heard: as read
    later(kept.KEPT["games read"].seconds)
    assert live.snapshot_for(Audience(GM, game))["seq"] == 1


@about("screens")
def test_every_screen_shows_an_action_through_another_process_once_it_is_heard(
        app, database_url, monkeypatch):
    live = app.extensions["facilitator_live"]
    several_processes(live, monkeypatch)
    game = partida()
    before = live.snapshot_for(Audience(PROJECTOR, game))
    assert before["seq"] == 0
    another_process(database_url, f"""
        assert live.act(Audience(GM, {game}), {DECLARE!r}, "otro-1")["ok"]
    """)
    live.heard_change(game)             # what the message queue brings of its broadcast
    for audience in (Audience(PROJECTOR, game), Audience(GM, game)):
        assert live.snapshot_for(audience)["seq"] == 1


def _hive_hall(gm) -> int:
    answer = gm.post("/console/halls", json={
        "kind": "hive", "name": "Torneo", "players": "Ana\nBeto\nCata\nDani", "seed": 3})
    assert answer.status_code == 200 and answer.json["ok"], answer.json
    return answer.json["hall_id"]


END = {"do": "end", "result": "draw", "reason": "agreement"}


@about("hall summaries")
def test_a_hall_game_played_through_another_process_shows_in_the_hall_standings(
        app, gm, database_url):
    live = app.extensions["facilitator_live"]
    hall_id = _hive_hall(gm)
    halls = live.halls.halls
    hall = halls.hall(hall_id)
    first = halls.games_of(hall_id)[0]
    assert halls.summaries(hall)[first["key"]] == halls.summaries(hall)[first["key"]]
    before = halls.summaries(hall)[first["key"]]
    another_process(database_url, f"""
        assert live.act(Audience(GM, {first["game_id"]}), {END!r}, "otro-1")["ok"]
    """)
    after = halls.summaries(hall)[first["key"]]
    assert after != before


@about("hall reads")
def test_with_several_processes_a_hall_changed_by_another_process_is_read_again(
        app, gm, database_url, monkeypatch):
    live = app.extensions["facilitator_live"]
    several_processes(live, monkeypatch)
    hall_id = _hive_hall(gm)
    audience = Audience("hall_gm", hall_id)
    games = [g["game_id"] for g in live.halls.message(audience)["games"]]
    another_process(database_url, f"""
        for game in {games!r}:
            assert live.act(Audience(GM, game), {END!r}, "otro-" + str(game))["ok"]
        live.halls.halls.next_round({hall_id})
    """)
    assert len(live.halls.message(audience)["games"]) == 2 * len(games)


def _class_game() -> int:
    class_id = stored_classes.create_class(database, "Lógica 1.º A")
    from facilitator.classes.roster import StudentEntry
    students = stored_classes.add_students(
        database, class_id, [StudentEntry(f"Alumno {n}") for n in range(1, 9)])
    game = partida("De la clase")
    ids = [s["id"] for s in students]
    stored_classes.link_game(database, game, class_id, [ids[0:2], ids[2:4], ids[4:6], ids[6:8]],
                             kept=False, allow_repeats=False)
    return game


@about("games without a class")
def test_a_game_without_a_class_stays_without_one(app, database_url):
    live = app.extensions["facilitator_live"]
    game = partida()
    assert live.classes.info(game) is None
    # Nothing another process does gives a game a class: the store has no such write.
    assert not hasattr(stored_classes, "set_game_class")
    assert live.classes.info(game) is None and stored_classes.game_class(database, game) is None


@about("class links")
def test_a_class_s_names_rule_changed_by_another_process_reaches_its_game_s_screens(
        app, database_url, later, monkeypatch):
    live = app.extensions["facilitator_live"]
    game = _class_game()
    class_id = stored_classes.game_class(database, game)["class_id"]
    assert live.classes.info(game)["projector_names"] is False
    another_process(database_url, f"""
        from facilitator.store import classes
        classes.update_class(database, {class_id}, {{"projector_names": True}})
    """)
    assert live.classes.info(game)["projector_names"] is False     # as kept
    later(kept.KEPT["class links"].seconds)
    assert live.classes.info(game)["projector_names"] is True


@about("class leagues")
def test_a_student_renamed_by_another_process_shows_in_the_projector_s_league(
        app, database_url, later, monkeypatch):
    live = app.extensions["facilitator_live"]
    game = _class_game()
    link = stored_classes.game_class(database, game)
    stored_classes.update_class(database, link["class_id"], {"projector_names": True})
    live.classes.forget(game)
    info = live.classes.info(game)
    match = store.current(game)[0]
    league = json.dumps(live.classes.league(match, game, info)[1], ensure_ascii=False)
    assert "Alumno 1" in league and "Zenobia" not in league
    first = link["lineup"][0][0]
    another_process(database_url, f"""
        from facilitator.classes.roster import StudentEntry
        from facilitator.store import classes
        assert classes.update_student(database, {link["class_id"]}, {first},
                                      StudentEntry("Zenobia Ugarte"))
    """)
    later(kept.KEPT["class leagues"].seconds)
    league = json.dumps(live.classes.league(match, game, info)[1], ensure_ascii=False)
    assert "Zenobia Ugarte" in league


def to_deliberation(live, game: int) -> None:
    """Bring game ``game`` to its teams' deliberation (where the timer runs, R-U10)."""
    gm = Audience(GM, game)
    assert live.act(gm, {"do": "declare", "mode": "simple", "target": 2}, "aqui-1")["ok"]
    assert live.act(gm, {"do": "choose", "author": "Kant", "type": "vf"}, "aqui-2")["ok"]
    question = live.snapshot_for(gm)["candidates"][0]["id"]
    assert live.act(gm, {"do": "question", "id": question}, "aqui-3")["ok"]


@about("screens before")
def test_an_undo_here_of_an_action_made_through_another_process_puts_its_screens_back(
        app, database_url, monkeypatch):
    live = app.extensions["facilitator_live"]
    several_processes(live, monkeypatch)
    game = partida(settings={**SIMPLE, "deliberation_seconds": 120})
    gm = Audience(GM, game)
    to_deliberation(live, game)
    assert live.act(gm, {"do": "timer", "op": "start"}, "aqui-4")["ok"]
    team = Audience(TEAM, game, 2)
    before = store.current(game)[1].live
    assert not live.snapshot_for(team)["view"]["turn"]["locked"]
    another_process(database_url, f"""
        assert live.act(Audience(GM, {game}), {{"do": "time_up"}}, "otro-1")["ok"]
    """)                                    # its screens' state before it: kept there only
    live.heard_change(game)
    assert live.snapshot_for(team)["view"]["turn"]["locked"]
    assert live.act(gm, {"do": "undo"}, "aqui-5")["ok"]
    after = store.current(game)[1].live
    # The clock runs again with the time it had left (its deadline moves on by the pause).
    assert after["timer"].pop("deadline") >= before["timer"].pop("deadline")
    assert after == before
    assert not live.snapshot_for(team)["view"]["turn"]["locked"]


@about("clock deadlines")
def test_a_clock_started_through_another_process_runs_out_here(app, database_url):
    from facilitator.live.watcher import act_on_due
    live = app.extensions["facilitator_live"]
    game = partida(settings=SIMPLE)
    to_deliberation(live, game)
    deadline = another_process(database_url, f"""
        assert live.act(Audience(GM, {game}), {{"do": "timer", "op": "start"}}, "otro-1")["ok"]
        result = store.current({game})[1].deadline
    """)
    assert deadline is not None and store.earliest_deadline() is None   # not seen here
    # The watcher asks the database every SAFETY_SECONDS whatever it saw: it finds it.
    time.sleep(max(0.0, deadline - time.time()) + 0.05)
    act_on_due(live, time.time())
    assert store.current(game)[1].deadline != deadline
