"""Benchmark of the Hive engine: perft from the start, and the bot against chance.

Run from the repository root: ``python bench/hive.py [--depth 5]`` prints perft(1..depth)
from the start of a game with its node count, seconds and microseconds per node, and
checks the counts against Mzinga's table. The target: perft(5) (516 240 leaves) in at
most 8 s on the classroom server's two cores.

``python bench/hive.py --bot [--games 100] [--bot-depth 1] [--seed 2024] [--max-plies 300]``
plays the bot against a uniformly random player (colours alternating, a game not won
within the ply cap counts as not won) and prints wins, draws and losses and the bot's
seconds per move. The target: at least 95 wins in 100 games.
"""
from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from facilitator.games.hive import bot  # noqa: E402
from facilitator.games.hive.board import Board  # noqa: E402
from facilitator.games.hive.perft import perft  # noqa: E402

#: Mzinga's Board_Base_PerftTest.csv (tests/data/mzinga/).
MZINGA = {0: 1, 1: 4, 2: 96, 3: 1440, 4: 21600, 5: 516240, 6: 12219480}
TARGET_PERFT5_S = 8.0


def bench_perft(depth: int) -> bool:
    """Print perft(1..depth); whether every count is Mzinga's and perft(5) is in time."""
    ok = True
    print(f"{'depth':>5} {'nodes':>12} {'seconds':>9} {'us/node':>9}  mzinga")
    for d in range(1, depth + 1):
        gc.collect()
        gc.disable()
        start = time.perf_counter()
        nodes = perft(d, Board())
        seconds = time.perf_counter() - start
        gc.enable()
        expected = MZINGA.get(d)
        same = "same" if nodes == expected else ("?" if expected is None else f"DIFFERS ({expected})")
        ok &= expected is None or nodes == expected
        if d == 5 and seconds > TARGET_PERFT5_S:
            ok = False
            same += f", over the {TARGET_PERFT5_S:.0f} s target"
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


def main(argv=None) -> int:
    """Run the benchmark; exit 1 when a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=5, help="deepest perft (default 5)")
    parser.add_argument("--bot", action="store_true", help="play the bot against chance instead")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--bot-depth", type=int, default=1)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--max-plies", type=int, default=300)
    args = parser.parse_args(argv)
    if args.bot:
        ok = bench_bot(args.games, args.bot_depth, args.seed, args.max_plies)
    else:
        ok = bench_perft(args.depth)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
