"""The UHP engine (HIVE.md's table) in process, and as ``facilitator hive uhp`` over real pipes;
``facilitator replay`` on a hive/1 record."""
from __future__ import annotations

import io
import json
import subprocess
import sys
import time

import pytest
from hive_cases import ROOT

DATA_NOKAMUTE = ROOT / "tests" / "data" / "nokamute"

from facilitator.games.hive.pieces import GAME_TYPES
from facilitator.games.hive.uhp import Engine, main

SUICIDE = ("Base;InProgress;White[1];wS1;bS1 \\wS1;wQ wS1\\;bQ \\bS1;wS2 -wQ;bS2 \\bQ;"
           "wA1 wQ/;bA1 \\bS2;wA2 /wQ;bA2 \\bA1;wA3 wQ-;bA3 \\bA2;wB1 wQ\\")


def session(*commands: str) -> list[list[str]]:
    """Each command's answer lines (``ok`` included)."""
    engine = Engine()
    return [engine.answer(c) for c in commands]


def test_info_and_newgame():
    info, new, typed, loaded = session(
        "info", "newgame", "newgame Base", "newgame Base;NotStarted;Black[4];wS1;bS1 wS1-")
    assert info[0].startswith("id ") and " v" in info[0] and info[-1] == "ok"
    assert new == ["Base;NotStarted;White[1]", "ok"] and typed == new
    assert loaded == ["Base;InProgress;White[2];wS1;bS1 wS1-", "ok"]


def test_newgame_refusals_are_errors():
    bad_move, disabled, nonsense, unordered = session(
        "newgame Base;NotStarted;White[1];wQ", "newgame Base+ML;NotStarted;White[1];wP",
        "newgame Chess", "newgame Base+LM")
    assert bad_move[0].startswith("err Unable to play 'wQ' in GameString.") and bad_move[1] == "ok"
    assert disabled == ["err Unable to play 'wP' in GameString. "
                        "That piece is not enabled in this game.", "ok"]
    assert nonsense[0].startswith("err ") and unordered[0].startswith("err ")


def test_info_names_the_expansions_and_every_game_type_starts():
    """H-S1.4: the capabilities line, and ``newgame`` of each of the eight game types."""
    answers = session("info", *(f"newgame {t}" for t in GAME_TYPES))
    assert answers[0] == ["id facilitator-hive v0.2.0", "Mosquito;Ladybug;Pillbug", "ok"]
    assert [a[0] for a in answers[1:]] == [f"{t};NotStarted;White[1]" for t in GAME_TYPES]
    engine = Engine()
    engine.answer("newgame Base+MLP")
    assert engine.answer("validmoves")[0] == "wS1;wB1;wG1;wA1;wM;wL;wP"
    assert engine.answer("perft 2")[2].startswith("perft(2) = 294 in ")


def test_play_pass_and_invalid_moves():
    answers = session("newgame", "play ws1", "play BS1  wS1-", "play wQ", "play bS1 wS1-",
                      "pass", "play x y z", "play")
    assert answers[1] == ["Base;InProgress;Black[1];wS1", "ok"]
    assert answers[2] == ["Base;InProgress;White[2];wS1;bS1 wS1-", "ok"]
    assert answers[3] == ["invalidmove You can't move there because a piece already exists "
                          "at that position.", "ok"]
    assert answers[4] == ["invalidmove It's not that player's turn.", "ok"]
    assert answers[5] == ["invalidmove You can't pass when you have valid moves.", "ok"]
    assert answers[6] == ['invalidmove Unable to parse move "x y z".', "ok"]
    assert answers[7][0].startswith("err Invalid command.")


def test_validmoves_are_canonical_and_pass_when_nothing_else():
    first, second = session("newgame", "validmoves")[1], session(
        "newgame Base;InProgress;Black[1];wS1", "validmoves")[1]
    assert first == ["wS1;wB1;wG1;wA1", "ok"]
    assert len(second[0].split(";")) == 24 and "bS1 wS1-" in second[0].split(";")


def test_a_finished_game_and_no_game_are_errors():
    answers = session("play wS1", "validmoves", "bestmove depth 1", f"newgame {SUICIDE}",
                      "play bA1 -wS1", "pass", "validmoves", "bestmove depth 1", "undo")
    for answer in answers[:3]:
        assert answer == ["err No game in progress. Try 'newgame' to start a new game.", "ok"]
    assert answers[3][0].startswith("Base;BlackWins;Black[7];")
    for answer in answers[4:8]:
        assert answer == ["err The game is over. Try 'newgame' to start a new game.", "ok"]
    assert answers[8][0].startswith("Base;InProgress;White[7];")


def test_undo():
    answers = session("newgame Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-",
                      "undo", "undo 2", "undo 2", "undo 0", "undo x")
    assert answers[1][0] == "Base;InProgress;Black[2];wS1;bS1 wS1-;wQ -wS1"
    assert answers[2][0] == "Base;InProgress;Black[1];wS1"
    assert answers[3] == ["err Unable to undo 2 moves.", "ok"]
    assert answers[4] == ["err Unable to undo 0 moves.", "ok"]
    assert answers[5][0].startswith("err ")


def test_bestmove_by_depth_and_by_time():
    engine = Engine()
    engine.answer("newgame Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-")
    valid = engine.answer("validmoves")[0].split(";")
    by_depth = engine.answer("bestmove depth 2")
    assert by_depth[-1] == "ok" and by_depth[-2] in valid
    start = time.perf_counter()
    by_time = engine.answer("bestmove time 00:00:01")
    assert time.perf_counter() - start < 1.5
    assert by_time[-2] in valid
    assert engine.answer("bestmove")[-2] in valid
    assert engine.answer("bestmove sideways")[0].startswith("err ")


def test_options():
    answers = session("options", "options get BotDepth", "options set BotDepth 3",
                      "options get BotDepth", "options set BotDepth lots", "options get Colour")
    assert answers[0] == ["BotDepth;int;2;2;1;6", "Repetition;bool;True;True", "ok"]
    assert answers[2] == ["BotDepth;int;3;2;1;6", "ok"] == answers[3]
    assert answers[4][0].startswith("err ") and answers[5] == [
        'err The option "Colour" is not valid.', "ok"]


def test_perft():
    answer = session("newgame", "perft 3")[1]
    assert [line.split(" in ")[0] for line in answer[:-1]] == [
        "perft(0) = 1", "perft(1) = 4", "perft(2) = 96", "perft(3) = 1440"]


REPEATED = ("Base;InProgress;White[1];wS1;bB1 wS1-;wQ \\wS1;bQ bB1\\;wQ -wS1;bQ bB1-;"
            "wQ \\wS1;bQ bB1\\;wQ -wS1;bQ bB1-;wQ \\wS1;bQ bB1\\")


def test_a_third_repetition_is_a_draw_unless_the_option_is_off():
    """H-E1.6: the UHP engine's draw by repetition, undone by ``undo``; with
    ``Repetition`` False the engine plays on, as Mzinga's."""
    engine = Engine()
    assert engine.answer(f"newgame {REPEATED}")[0].startswith("Base;Draw;White[7];")
    assert engine.answer("validmoves")[0] == ("err The game is over. Try 'newgame' to start a "
                                              "new game.")
    assert engine.answer("undo")[0].startswith("Base;InProgress;Black[6];")
    assert engine.answer("play bQ bB1\\")[0].startswith("Base;Draw;White[7];")
    assert engine.answer("options set Repetition False") == ["Repetition;bool;False;True", "ok"]
    assert engine.answer(f"newgame {REPEATED}")[0].startswith("Base;InProgress;White[7];")
    assert engine.answer("options set Repetition maybe")[0].startswith("err ")
    # A drawn game's later moves are refused when a GameString is loaded.
    later = engine.answer("options set Repetition True") and engine.answer(
        f"newgame {REPEATED};wQ -wS1")
    assert later[0].startswith("err Unable to play 'wQ -wS1' in GameString.")


def nokamute_cases():
    """nokamute's UHP test cases (tests/data/nokamute/uhp_tests.txt): (name, GameString,
    the expected valid moves or ""), read as nokamute's own runner reads them."""
    lines = (DATA_NOKAMUTE / "uhp_tests.txt").read_text(encoding="utf-8").split("\n")
    cases, name, i = [], "", 0
    while i < len(lines):
        if not lines[i]:
            i += 1
        elif lines[i].startswith("# "):
            name, i = lines[i][2:], i + 1
        else:
            cases.append(pytest.param(lines[i], lines[i + 1] if i + 1 < len(lines) else "",
                                      id=name))
            i += 2
    return cases


@pytest.mark.parametrize("game,expected", nokamute_cases())
def test_nokamute_uhp_case(game, expected):
    """Each of nokamute's cases, none skipped (the engine announces all three expansions):
    ``newgame`` of the game type, each move played, the final state as the GameString's,
    and while the game is on the valid moves: nokamute compares their number, this test
    the moves themselves."""
    engine = Engine()
    fields = game.split(";")
    assert engine.answer(f"newgame {fields[0]}")[-1] == "ok"
    state = f"{fields[0]};NotStarted"
    for move in fields[3:]:
        answer = engine.answer(f"play {move}")
        assert not answer[0].startswith(("err", "invalidmove")), (move, answer)
        state = answer[0]
    assert state.split(";")[1] == fields[1]
    if fields[1] == "InProgress":
        found = engine.answer("validmoves")[0].split(";")
        assert sorted(found) == sorted(expected.split(";"))


def test_the_nokamute_file_has_every_case():
    assert len(nokamute_cases()) == 21


def test_main_prints_info_first_and_stops_at_exit():
    out = io.StringIO()
    assert main(io.StringIO("newgame\nexit\nnewgame\n"), out) == 0
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("id ") and lines.count("ok") == 2


def test_the_uhp_engine_as_a_subprocess():
    """``python -m facilitator.cli hive uhp``: one command at a time over real pipes."""
    with subprocess.Popen([sys.executable, "-m", "facilitator.cli", "hive", "uhp"],
                          cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          text=True, bufsize=1) as engine:
        talk(engine)


def talk(engine):
    """The session of ``test_the_uhp_engine_as_a_subprocess``."""

    def answer(command=None):
        if command is not None:
            engine.stdin.write(command + "\n")
            engine.stdin.flush()
        lines = []
        while True:
            line = engine.stdout.readline()
            assert line, "the engine stopped"
            line = line.rstrip("\n")
            lines.append(line)
            if line == "ok":
                return lines

    try:
        assert answer()[0].startswith("id facilitator-hive v")
        assert answer("newgame") == ["Base;NotStarted;White[1]", "ok"]
        assert answer("play wG1") == ["Base;InProgress;Black[1];wG1", "ok"]
        assert answer("play bg1 -WG1") == ["Base;InProgress;White[2];wG1;bG1 -wG1", "ok"]
        assert answer("play wQ bG1") == ["invalidmove You can't move that piece there.", "ok"]
        moves = answer("validmoves")[0].split(";")
        assert "wQ wG1-" in moves and len(moves) == 15
        best = answer("bestmove depth 1")
        assert best[0] in moves
        assert answer("undo") == ["Base;InProgress;Black[1];wG1", "ok"]
        engine.stdin.write("exit\n")
        engine.stdin.flush()
        assert engine.wait(timeout=10) == 0
    finally:
        if engine.poll() is None:
            engine.kill()
            engine.wait()


def run_replay(path):
    return subprocess.run([sys.executable, "-m", "facilitator.cli", "replay", str(path)],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_facilitator_replay_prints_a_hive_summary(tmp_path):
    record = {"format": "hive/1",
              "game": "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-",
              "players": {"white": "Ana", "black": "Ben"},
              "result": {"result": "draw", "reason": "agreement", "rule": "H-G3"},
              "settings": {"turn_limit": 0, "bot_level": "club", "game_type": "Base"}}
    path = tmp_path / "hive.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    done = run_replay(path)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    # H-E1.4: the agreed draw is written in the GameString's state.
    assert summary["game"] == record["game"].replace("InProgress", "Draw")
    assert summary["state"] == "Draw"
    assert (summary["result"], summary["reason"], summary["turn"]) == ("draw", "agreement", "White[3]")
    assert summary["moves"] == ["wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-"]


def test_facilitator_replay_refuses_a_bad_hive_record(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"format": "hive/1", "game": "Base;NotStarted;White[1];wS1;bQ wS1-"}),
                    encoding="utf-8")
    done = run_replay(path)
    assert done.returncode == 1
    assert json.loads(done.stdout) == {"error": "H-P1.5", "action": 1,
                                       "message": "You can't play your Queen Bee on your first turn."}


MALFORMED = ["undo ²", "perft ²", "bestmove depth ²", "bestmove time 00:00:0²", "undo " + "9" * 5000,
             "perft " + "9" * 5000, "bestmove depth " + "9" * 5000, "options set BotDepth " + "9" * 5000,
             "options set BotDepth ²", "play " + "w" * 20_000, "perft -" + "1" * 5000, "undo -1",
             "bestmove time 99999999:00:00", "newgame " + "Base+" * 3000, "\x00", "play wS1\x07"]


def test_every_malformed_line_is_answered_err_and_the_session_goes_on():
    """Issue 46, item 3: no line a UHP client sends crashes the engine; each answer ends
    with ok and the game is as it was."""
    engine = Engine()
    engine.answer("newgame")
    engine.answer("play wS1")
    for line in MALFORMED:
        answer = engine.answer(line)
        assert answer[-1] == "ok" and len(answer) == 2, (line[:40], answer)
        assert answer[0].startswith(("err ", "invalidmove ")), (line[:40], answer)
    assert engine.answer("validmoves")[0].count(";") > 0
    assert engine.answer("play bS1 wS1-") == ["Base;InProgress;White[2];wS1;bS1 wS1-", "ok"]


def test_perft_and_bestmove_answer_within_the_engines_time():
    """A deep perft answers the depths that finished in time, then says the rest takes
    too long; a deep bestmove answers within the time too (the deepest search finished)."""
    engine = Engine(max_seconds=0.5)
    engine.answer("newgame")
    started = time.monotonic()
    answer = engine.answer("perft 9")
    assert time.monotonic() - started < 3, answer
    assert answer[0] == "perft(0) = 1 in 0 ms." and answer[-1] == "ok"
    assert answer[-2].startswith("err perft(") and "takes longer than 0.5 s" in answer[-2], answer
    assert engine.answer("validmoves")[0] == "wS1;wB1;wG1;wA1"       # the board as it was
    engine.answer("play wS1")
    engine.answer("play bS1 wS1-")
    started = time.monotonic()
    best = engine.answer("bestmove depth 6")
    assert time.monotonic() - started < 3 and best[-1] == "ok" and best[0].startswith("w"), best


def test_malformed_lines_each_get_an_answer_and_the_engine_goes_on():
    """Issue 46, items 3 and 6: 400 seeded random lines, the engine's own commands with
    arguments broken every way (digits of other scripts, control characters, huge
    numbers, half GameStrings, unknown options), each answered (but a blank line and
    ``exit``): lines that end in ``ok``
    (an ``err``, or what the command gives), never an exception; and the engine still
    plays afterwards. Searches are bounded (``bestmove time`` short, ``perft`` shallow)."""
    import random
    rng = random.Random(46)
    commands = ["info", "newgame", "play", "pass", "validmoves", "bestmove", "undo",
                "options", "perft", "exit", "", "PLAY", "bestmove depth", "bestmove time",
                "options get", "options set"]
    junk = ["²", "٣", "-1", "0", "1", "9" * 5000, "1e9", "wQ", "bS1 wQ-", "wA1 /wQ", "\x00",
            "\x1b[31m", "Base;InProgress", "Base;InProgress;White[2];wS1;bS1 wS1-",
            "Base+X", "BotDepth", "BotDepth 99", "BotDepth ²", "00:00:00.1", "00:00:99",
            "99:99:99", "💥", "wS1 wS1", "\ufeffwS1", "wq", "bQ -wS1", ";;;", "%s%n"]
    engine = Engine()
    for _ in range(400):
        command = rng.choice(commands)
        if command in ("bestmove time",):
            line = f"bestmove time 00:00:00.{rng.randint(0, 2)}"
        elif command == "perft":
            line = f"perft {rng.choice(['0', '1', '2', '²', '-3', '9' * 40, 'x'])}"
        else:
            line = " ".join([command, *rng.sample(junk, rng.randint(0, 2))])
        answer = engine.answer(line)
        if not line.strip() or line.split()[0] == "exit":
            continue                     # a blank line and exit answer nothing
        assert answer and answer[-1] == "ok", (line[:80], answer[-3:])
        assert all("Traceback" not in text for text in answer), line[:80]
    assert engine.answer("newgame Base")[-1] == "ok"
    assert engine.answer("play wS1") == ["Base;InProgress;Black[1];wS1", "ok"]
