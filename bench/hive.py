"""Benchmark of the Hive engine: perft from the start, and the bot against chance.

Run from the repository root: ``python bench/hive.py`` prints perft(1..6) from the start
of a base game and perft(1..5) from the start of a ``Base+MLP`` game, side by side, each
count with its seconds and microseconds per node, checked against Mzinga's tables
(tests/data/mzinga/). The targets: the base game's perft(6) (12 219 480 leaves) and
Base+MLP's perft(5) (5 427 108 leaves) within 10 s each on the classroom server's two
cores. ``--game-type T`` (repeatable) and ``--depth N`` choose other runs.

``python bench/hive.py --bot [--games 100] [--bot-depth 1] [--seed 2024] [--max-plies 300]``
plays the bot against a uniformly random player (colours alternating, a game not won
within the ply cap counts as not won) and prints wins, draws and losses and the bot's
seconds per move. The target: at least 95 wins in 100 games.

``python bench/hive.py --ladder [--games 10] [--top strongest] [--game-type Base+MLP]
[--opening 4]`` plays each level against the one below it (the weakest against random
moves) in pairs of games that open with the same random plies (four unless told), each
level with each colour, and prints the ladder: each pair's wins, draws and losses for the stronger,
its score, an Elo estimate per level (random moves at 0, each step the difference its
score gives), and the longest a move took at each level against the level's seconds.
The targets: each level wins at least 70 % of its games against the one below, and no
move takes longer than its level's seconds and a tenth.
"""
from __future__ import annotations

import argparse
import gc
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from facilitator.games.hive import bot  # noqa: E402
from facilitator.games.hive.board import Board  # noqa: E402
from facilitator.games.hive.perft import perft  # noqa: E402
from facilitator.games.hive.pieces import GAME_TYPES, parse_game_type  # noqa: E402

MZINGA_DATA = ROOT / "tests" / "data" / "mzinga"
#: The depth each game type is timed to, and the seconds it must take at most.
TARGETS = {"Base": (6, 10.0), "Base+MLP": (5, 10.0)}


def mzinga_counts(game_type: str) -> dict[int, int]:
    """Mzinga's perft counts from the start of a game of ``game_type``, by depth."""
    path = MZINGA_DATA / f"Board_{game_type.replace('+', '')}_PerftTest.csv"
    counts = {}
    for line in path.read_text(encoding="utf-8-sig").splitlines():
        if line.strip() and not line.startswith("#"):
            _game, depth, nodes = line.split("\t")
            counts[int(depth)] = int(nodes)
    return counts


def bench_perft(game_type: str, depth: int) -> bool:
    """Print perft(1..depth) of ``game_type``; whether every count is Mzinga's and the
    target depth (TARGETS) is in time."""
    ok = True
    expansions = parse_game_type(game_type)
    mzinga = mzinga_counts(game_type)
    target_depth, target_s = TARGETS.get(game_type, (None, None))
    print(f"{game_type}\n{'depth':>5} {'nodes':>12} {'seconds':>9} {'us/node':>9}  mzinga")
    for d in range(1, depth + 1):
        gc.collect()
        gc.disable()
        start = time.perf_counter()
        nodes = perft(d, Board(expansions))
        seconds = time.perf_counter() - start
        gc.enable()
        expected = mzinga.get(d)
        same = "same" if nodes == expected else ("?" if expected is None else f"DIFFERS ({expected})")
        ok &= expected is None or nodes == expected
        if d == target_depth and seconds > target_s:
            ok = False
            same += f", over the {target_s:.0f} s target"
        print(f"{d:>5} {nodes:>12} {seconds:>9.3f} {seconds / nodes * 1e6:>9.2f}  {same}")
    return ok


def bench_bot(games: int, depth: int, seed: int, max_plies: int) -> bool:
    """Print the bot's record against a random player; whether it won 95 in 100."""
    start = time.perf_counter()
    result = bot.against_random(games=games, depth=depth, seed=seed, max_plies=max_plies)
    seconds = time.perf_counter() - start
    print(f"bot depth {depth} against a random player (seed {seed}, cap {max_plies} plies): "
          f"{result['wins']} wins, {result['draws']} draws, {result['losses']} losses "
          f"in {games} games; {result['seconds_per_move']:.4f} s per bot move; {seconds:.1f} s in all")
    return result["wins"] >= 0.95 * games


#: The ladder's targets: the share of games each level wins against the one below, and
#: how far past its level's seconds a move may go (starting and ending a search).
LADDER_WINS, LADDER_SLACK_S = 0.70, 0.1


def elo_step(score: float, games: int) -> float:
    """The Elo difference a score (wins and half the draws, as a share) between two
    players gives, kept finite for a clean sweep (half a game off it)."""
    lo, hi = 0.5 / games, 1 - 0.5 / games
    score = min(hi, max(lo, score))
    return -400 * math.log10(1 / score - 1)


def bench_ladder(games: int, top: str, seed: int, max_plies: int, game_type: str,
                 bottom: str | None = None, opening: int = 0) -> bool:
    """Print the ladder of the levels up to ``top`` (from ``bottom`` against the level
    below it; from random moves when None); whether every target is met. The Elo column
    starts at the first rung's lower player. Games go in pairs: the same ``opening``
    random plies, then each level with each colour."""
    levels = [n for n, level in bot.LEVELS.items() if not level.external]
    rungs = [None] + levels[:levels.index(top) + 1]
    if bottom is not None:
        rungs = rungs[levels.index(bottom):]
    expansions = parse_game_type(game_type)
    ok, elo = True, 0.0
    print(f"{game_type}, {games} games a pair, seed {seed}, {opening} random opening plies, "
          f"cap {max_plies} plies")
    print(f"{'level':>10} {'against':>10} {'W':>3} {'D':>3} {'L':>3} {'wins':>6} {'score':>6} "
          f"{'Elo':>6} {'longest move':>13} {'budget':>7}")
    for lower, upper in zip(rungs, rungs[1:]):
        wins = draws = losses = 0
        longest = 0.0
        for game in range(games):
            mine = game % 2
            pair = (upper, lower) if mine == 0 else (lower, upper)
            played = bot.play_levels(pair, seed + game // 2, expansions, max_plies, opening)
            longest = max(longest, played["longest"][mine])
            if played["result"] == "draw":
                draws += 1
            elif played["result"] == ("white", "black")[mine]:
                wins += 1
            else:
                losses += 1
        score = (wins + draws / 2) / games
        elo += elo_step(score, games)
        budget = bot.LEVELS[upper].seconds
        verdict = ""
        if wins < LADDER_WINS * games:
            ok, verdict = False, "  under 70 % wins"
        if longest > budget + LADDER_SLACK_S:
            ok, verdict = False, verdict + "  over its time"
        print(f"{upper:>10} {lower or 'random':>10} {wins:>3} {draws:>3} {losses:>3} "
              f"{wins / games:>6.0%} {score:>6.0%} {elo:>6.0f} {longest:>12.2f}s {budget:>6.1f}s"
              f"{verdict}", flush=True)
    return ok


def main(argv=None) -> int:
    """Run the benchmark; exit 1 when a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=None,
                        help="deepest perft (default: 6 for Base, 5 for Base+MLP)")
    parser.add_argument("--game-type", action="append", choices=GAME_TYPES,
                        help="a game type to count (repeatable; default: Base and Base+MLP)")
    parser.add_argument("--bot", action="store_true", help="play the bot against chance instead")
    parser.add_argument("--ladder", action="store_true",
                        help="play each level against the one below and print the ladder")
    parser.add_argument("--top", default="strongest", choices=list(bot.LEVELS)[:-1],
                        help="the strongest level the ladder plays (default strongest)")
    parser.add_argument("--bottom", default=None, choices=list(bot.LEVELS)[:-1],
                        help="the weakest level the ladder plays, against the one below it "
                             "(default: the beginner against random moves)")
    parser.add_argument("--opening", type=int, default=4,
                        help="the ladder's random plies at the start of each pair of games")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--bot-depth", type=int, default=1)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--max-plies", type=int, default=300)
    args = parser.parse_args(argv)
    if args.ladder:
        games = 10 if args.games == 100 else args.games
        ok = bench_ladder(games, args.top, args.seed, min(args.max_plies, 200),
                          (args.game_type or ["Base"])[0], args.bottom, args.opening)
    elif args.bot:
        ok = bench_bot(args.games, args.bot_depth, args.seed, args.max_plies)
    else:
        ok = True
        for game_type in args.game_type or list(TARGETS):
            depth = args.depth or TARGETS.get(game_type, (5, None))[0]
            ok &= bench_perft(game_type, depth)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
