"""Fault campaigns against a real server process: SIGKILL at many points, then fuzzing.

    python bench/faults.py [--points N] [--payloads P] [--seed S]

Starts ``facilitator serve`` in a temporary folder, kills it with SIGKILL at
N points of a scripted game (restarting it on the same SQLite file each
time) and checks that no acknowledged action is lost, then sends P random
and hostile payloads over real Socket.IO connections. It ends with one line:

    kill points N, actions lost L, payloads P, server errors E

L and E must be 0. The campaigns are in ``tests/live/campaigns.py``.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "live")]

from campaigns import fuzz_campaign, kill_campaign  # noqa: E402
from server import Server  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--points", type=int, default=24, help="kill points (at least 20)")
    parser.add_argument("--payloads", type=int, default=5000, help="fuzz payloads")
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args()
    started = time.monotonic()

    def log(line: str) -> None:
        print(f"[{time.monotonic() - started:5.1f}s] {line}", flush=True)

    with tempfile.TemporaryDirectory(prefix="facilitator-faults-") as folder:
        kill = kill_campaign(Path(folder) / "kill", points=options.points, log=log)
        log(f"kill campaign: {kill['kill_points']} kill points, {kill['actions_lost']} actions "
            f"lost, {kill['mismatches']} mismatches; in flight at the kill: "
            f"{kill['in_flight_committed']} committed, {kill['in_flight_dropped']} dropped, "
            f"{kill['in_flight_acked']} acknowledged ({kill['seconds']} s)")
        instance = Path(folder) / "fuzz"
        instance.mkdir()
        server = Server(instance).start()
        try:
            fuzz = fuzz_campaign(server, payloads=options.payloads, seed=options.seed, log=log)
        finally:
            server.stop()
        log(f"fuzz campaign: {fuzz['payloads']} payloads, errors by kind {fuzz['by_error']}, "
            f"{fuzz['silent']} unknown events, {fuzz['dropped']} oversized connections dropped, "
            f"{fuzz['accepted']} accepted, {fuzz['unclear']} unclear, game changed "
            f"{fuzz['changed']}, other clients still served {fuzz['observers_ok']} "
            f"({fuzz['seconds']} s)")
        for example in fuzz["examples"]:
            log(f"  {example}")
    lost = kill["actions_lost"] + kill["mismatches"]
    errors = fuzz["server_errors"] + fuzz["accepted"] + fuzz["unclear"] + int(fuzz["changed"]) \
        + int(not fuzz["observers_ok"])
    print(f"kill points {kill['kill_points']}, actions lost {lost}, "
          f"payloads {fuzz['payloads']}, server errors {errors}")
    return 0 if lost == 0 and errors == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
