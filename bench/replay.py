"""Benchmark of the rules engine on a realistic full game.

Run from the repository root: ``python bench/replay.py [--runs 50] [--seed 0]``.

Builds the full default game of ``tests/engine_play.py`` (6 teams, 6 rounds,
~700 actions), then measures with ``time.perf_counter`` (median and best of
the runs; the garbage collector is paused while timing, as ``timeit`` does):

- replay: ``replay(write_record(game))``'s replay of the whole record;
- action: one ``Game.play`` (a record action dict, parsed and decided), taken
  action by action while replaying into a fresh game; median over all actions;
- undo / redo of the last action of the finished game;
- ``legal_actions()``: median over every state of the game;
- memory (tracemalloc): what a replayed Game keeps, and the state alone.

Prints a table, then one JSON line:
``{"actions": N, "replay_ms": .., "action_ms": .., "undo_ms": .., "legal_ms": .., "state_kb": ..}``.
Targets (from the issue): whole-game replay under 20 ms, one action under 0.2 ms.
"""
from __future__ import annotations

import argparse
import copy
import gc
import json
import statistics
import sys
import time
import tracemalloc
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from facilitator.games.partida import new_game, replay, write_record  # noqa: E402
from tests.engine_play import play_full_default_game  # noqa: E402

TARGET_REPLAY_MS = 20.0
TARGET_ACTION_MS = 0.2


class Paused:
    """Pause the garbage collector while timing (as ``timeit`` does)."""

    def __enter__(self):
        self.was = gc.isenabled()
        gc.collect()
        gc.disable()

    def __exit__(self, *exc):
        if self.was:
            gc.enable()


def time_replay(record: dict, runs: int) -> list[float]:
    """Seconds for each whole-game replay of ``record``."""
    times = []
    with Paused():
        for _ in range(runs):
            start = time.perf_counter()
            replay(record)
            times.append(time.perf_counter() - start)
    return times


def time_actions(record: dict, runs: int) -> tuple[list[float], dict[str, list[float]]]:
    """Seconds of each ``play`` (all runs pooled), and the same by kind of action."""
    pooled: list[float] = []
    by_kind: dict[str, list[float]] = defaultdict(list)
    actions = record["actions"]
    with Paused():
        for _ in range(runs):
            game = new_game(record)
            play = game.play
            clock = time.perf_counter
            for data in actions:
                start = clock()
                play(data)
                elapsed = clock() - start
                pooled.append(elapsed)
                by_kind[data["do"]].append(elapsed)
    return pooled, by_kind


def time_undo_redo(record: dict, runs: int) -> tuple[list[float], list[float]]:
    """Seconds of undoing the last action of the full game, and of redoing it."""
    game = replay(record)
    undo, redo = [], []
    with Paused():
        for _ in range(runs):
            start = time.perf_counter()
            game.play({"do": "undo"})
            undo.append(time.perf_counter() - start)
            start = time.perf_counter()
            game.play({"do": "redo"})
            redo.append(time.perf_counter() - start)
    return undo, redo


def time_legal(record: dict, runs: int) -> tuple[list[float], list[float]]:
    """Seconds of ``legal_actions()`` at every state of the game (pooled over runs),
    and at the mid-game state alone."""
    game = new_game(record)
    actions = record["actions"]
    pooled: list[float] = []
    mid: list[float] = []
    with Paused():
        for index, data in enumerate(actions):
            for _ in range(max(1, runs // 10)):
                start = time.perf_counter()
                game.legal_actions()
                pooled.append(time.perf_counter() - start)
            if index == len(actions) // 2:
                for _ in range(runs):
                    start = time.perf_counter()
                    game.legal_actions()
                    mid.append(time.perf_counter() - start)
            game.play(data)
    return pooled, mid


def measure_memory(record: dict) -> dict[str, float]:
    """KiB: allocated while replaying a Game (kept and peak), and one state alone."""
    gc.collect()
    tracemalloc.start()
    game = replay(record)
    game_kept, game_peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    # The state alone: a deep copy that shares the settings and the question bank.
    state = game.state
    memo = {id(state.settings): state.settings, id(state.questions): state.questions}
    gc.collect()
    tracemalloc.start()
    copied = copy.deepcopy(state, memo)
    state_kept, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert copied.to_dict() == state.to_dict()
    tracemalloc.start()
    fresh = new_game(record)
    empty_kept, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del fresh
    return {"game_kb": game_kept / 1024, "game_peak_kb": game_peak / 1024,
            "state_kb": state_kept / 1024, "empty_game_kb": empty_kept / 1024,
            "state_json_kb": len(json.dumps(state.to_dict(), ensure_ascii=False)) / 1024,
            "record_json_kb": len(json.dumps(record, ensure_ascii=False)) / 1024}


def ms(seconds: float) -> float:
    return seconds * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50, help="repetitions (default 50)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the full game (default 0)")
    args = parser.parse_args(argv)

    game = play_full_default_game(seed=args.seed)
    record = json.loads(json.dumps(write_record(game), ensure_ascii=False))
    n = len(record["actions"])
    assert replay(record).state.to_dict() == game.state.to_dict()

    replay_t = time_replay(record, args.runs)
    action_t, by_kind = time_actions(record, max(5, args.runs // 5))
    undo_t, redo_t = time_undo_redo(record, args.runs)
    legal_t, legal_mid = time_legal(record, args.runs)
    memory = measure_memory(record)

    rows = [
        ("whole-game replay", replay_t, f"{TARGET_REPLAY_MS:g} ms"),
        ("one action (play)", action_t, f"{TARGET_ACTION_MS:g} ms"),
        ("undo last action", undo_t, ""),
        ("redo last action", redo_t, ""),
        ("legal_actions(), all states", legal_t, ""),
        ("legal_actions(), mid-game", legal_mid, ""),
    ]
    print(f"partida engine benchmark: full default game, seed {args.seed}: {n} actions, "
          f"{game.settings.team_count} teams, {game.settings.rounds} rounds; "
          f"Python {sys.version.split()[0]}")
    print(f"{'measure':<30}{'median ms':>12}{'best ms':>12}{'p90 ms':>12}{'target':>10}")
    for name, times, target in rows:
        ordered = sorted(times)
        p90 = ordered[int(0.9 * (len(ordered) - 1))]
        print(f"{name:<30}{ms(statistics.median(times)):>12.4f}{ms(ordered[0]):>12.4f}"
              f"{ms(p90):>12.4f}{target:>10}")
    print()
    print(f"{'action kind':<16}{'count':>7}{'median ms':>12}{'max ms':>12}")
    per_run = len(action_t) // n
    for kind, times in sorted(by_kind.items(), key=lambda kv: -statistics.median(kv[1])):
        print(f"{kind:<16}{len(times) // per_run:>7}{ms(statistics.median(times)):>12.4f}"
              f"{ms(max(times)):>12.4f}")
    print()
    print(f"{'memory (tracemalloc)':<40}{'KiB':>10}")
    for key, label in (("game_kb", "replayed Game, kept"), ("game_peak_kb", "replayed Game, peak"),
                       ("empty_game_kb", "Game before any action"),
                       ("state_kb", "one GameState (deep copy, bank shared)"),
                       ("state_json_kb", "state.to_dict() as JSON"),
                       ("record_json_kb", "record as JSON")):
        print(f"{label:<40}{memory[key]:>10.1f}")
    replay_ms = ms(statistics.median(replay_t))
    action_ms = ms(statistics.median(action_t))
    print()
    for what, value, target in (("replay", replay_ms, TARGET_REPLAY_MS),
                                ("action", action_ms, TARGET_ACTION_MS)):
        print(f"target {what}: {value:.4f} ms vs {target:g} ms: "
              f"{'met' if value < target else 'MISSED'}")
    print(json.dumps({"actions": n, "replay_ms": round(replay_ms, 3),
                      "action_ms": round(action_ms, 4),
                      "undo_ms": round(ms(statistics.median(undo_t)), 3),
                      "legal_ms": round(ms(statistics.median(legal_t)), 4),
                      "state_kb": round(memory["state_kb"], 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
