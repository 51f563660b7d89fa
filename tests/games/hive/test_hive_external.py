"""Another engine as the computer player (H-G9): the project's own ``facilitator hive uhp``
plays as that external engine, driven over UHP with a time limit per move; an engine that
is missing, broken or late is killed in time and the game's own computer moves instead;
under gevent the engine's move is asked in a worker thread and the event loop goes on."""
from __future__ import annotations

import subprocess
import sys
import time

import pytest
from hive_cases import ROOT

from facilitator.games import Role
from facilitator.games.hive import KIND, HiveHall
from facilitator.games.hive import external
from facilitator.games.hive.bot import LEVELS, offered_levels
from facilitator.games.hive.notation import canonical
from facilitator.games.hive.rules import check, load

#: The project's own UHP engine, started as any installed engine would be.
OURS = (sys.executable, "-m", "facilitator.cli", "hive", "uhp")
POSITION = "Base+MLP;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-"


@pytest.fixture
def configured():
    """The server names the project's own engine (FACILITATOR_HIVE_ENGINE) for a test."""
    external.configure(" ".join(f"'{w}'" for w in OURS))
    yield external.engine_command()
    external.configure(None)


def test_the_command_is_split_as_a_shell_would():
    external.configure("nokamute  uhp --threads 1")
    try:
        assert external.engine_command() == ("nokamute", "uhp", "--threads", "1")
    finally:
        external.configure("  ")
    assert external.engine_command() is None
    assert external.hms(0.2) == "00:00:01" and external.hms(3725) == "01:02:05"


def test_the_server_names_the_engine_through_the_kinds_configuration(monkeypatch):
    """The app's configuration reaches Hive's kind as the server starts (``configure``, a
    capability of every kind): its ``HIVE_ENGINE``, else the environment's variable."""
    monkeypatch.delenv("FACILITATOR_HIVE_ENGINE", raising=False)
    try:
        KIND.configure({"HIVE_ENGINE": "nokamute uhp"})
        assert external.engine_command() == ("nokamute", "uhp")
        monkeypatch.setenv("FACILITATOR_HIVE_ENGINE", "mzinga-engine")
        KIND.configure({})
        assert external.engine_command() == ("mzinga-engine",)
    finally:
        external.configure(None)


def test_our_own_engine_answers_a_valid_move_within_its_time():
    """H-G9: ``newgame <GameString>``, ``bestmove time 00:00:01``, ``exit``: a valid move of
    the expansions' game, within the second and the grace to start."""
    board = load(POSITION)
    started = time.monotonic()
    move = external.engine_move(board, 1.0, OURS)
    assert move is not None and time.monotonic() - started < 1.0 + external.GRACE
    assert check(board, canonical(board, move)) == move


def test_a_missing_broken_or_late_engine_answers_nothing_in_time():
    board = load(POSITION)
    assert external.engine_move(board, 1.0, ("/no/such/engine",)) is None
    assert external.engine_move(board, 1.0, ("false",)) is None
    chatty = (sys.executable, "-c", "print('id x\\nok\\nBase\\nok\\nwQ wS1\\nok')")
    assert external.engine_move(board, 1.0, chatty) is None       # not a valid move here
    late = (sys.executable, "-c", "import time; time.sleep(30)")
    started = time.monotonic()
    assert external.engine_move(board, 0.2, late, grace=0.5) is None
    assert time.monotonic() - started < 3


def test_the_level_engine_is_offered_only_when_an_engine_is_named(configured):
    assert offered_levels()[-1] == "engine"
    assert KIND.settings_bounds()["bot_level"]["values"][-1] == "engine"
    assert HiveHall().bounds()["bot_level"]["options"][-1] == "engine"
    external.configure(None)
    assert "engine" not in offered_levels()
    assert "engine" not in KIND.settings_bounds()["bot_level"]["values"]


def test_a_game_whose_computer_is_the_other_engine(configured):
    """The computer plays White at the level ``engine``: its clock's move is the engine's,
    played as any move; the game's record says the level."""
    match = KIND.new({"bot": 1, "bot_level": "engine", "game_type": "Base+MLP"},
                     players={"white": "Bot", "black": "Ana"})
    action = match.due(0.0)
    assert action["do"] == "move"
    match.play(action, Role.clock())
    assert match.board.ply == 1 and match.record()["settings"]["bot_level"] == "engine"


def test_without_an_engine_the_level_plays_as_the_strongest():
    match = KIND.new({"bot": 1, "bot_level": "engine"}, players={"white": "Bot", "black": "Ana"})
    assert LEVELS["engine"].external and match.due(0.0)["do"] == "move"


def test_the_tournament_bot_is_the_other_engine(configured):
    """H-T3 with the bot: the odd player's game is against the engine."""
    hall = HiveHall()
    plan = hall.plan(["Ana", "Bruno", "Carla"], {"odd": "bot", "bot_level": "engine"}, seed=1)
    games = hall.round_games(plan)
    bot_game = next(g for g in games if g["settings"]["bot"])
    assert bot_game["settings"]["bot_level"] == "engine"


def test_under_gevent_the_engine_holds_no_other_game():
    """The live layer asks for the computer's move in gevent's thread pool: there the
    engine is spawned and read with the unpatched calls, and the event loop ticks on."""
    script = f"""
from gevent import monkey; monkey.patch_all()
import sys, time
from gevent import get_hub, sleep, spawn
from facilitator.games.hive.external import engine_move
from facilitator.games.hive.rules import load
ticks = []
def tick():
    while True:
        ticks.append(1); sleep(0.05)
spawn(tick)
move = get_hub().threadpool.apply(engine_move, (load({POSITION!r}), 1.0, {OURS!r}))
assert move is not None, move
assert len(ticks) >= 10, len(ticks)
print("ok", len(ticks))
"""
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("ok"), done.stderr[-2000:]
