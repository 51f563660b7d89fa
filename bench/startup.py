"""How long a server takes from its start to its first HTTP answer, ours against the floor.

A restarted server's classroom waits this long before anyone is answered: the
restart scenario of ``bench/fanout.py`` follows it run by run. Starts are
alternated (ours, floor, ours, ...) so a slower moment of the machine weighs on
both alike; no client connects.

    python bench/startup.py [--runs 7] [--database postgresql://127.0.0.1:5432/test]

Prints each start and the median and range of each side, in seconds.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.fanout import free_port  # noqa: E402


def first_answer(argv: list[str], env: dict, url: str, timeout: float = 30) -> float:
    """Start ``argv`` and return the seconds until ``url`` answers (any HTTP status)."""
    began = time.monotonic()
    process = subprocess.Popen(argv, env=env, cwd=ROOT, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        while time.monotonic() - began < timeout:
            if process.poll() is not None:
                raise RuntimeError(f"{argv} exited with {process.returncode}")
            try:
                urllib.request.urlopen(url, timeout=2).read()
                return time.monotonic() - began
            except OSError:
                time.sleep(0.01)
        raise RuntimeError(f"{argv} did not answer within {timeout} s")
    finally:
        os.killpg(process.pid, 9)
        process.wait(10)


def main() -> None:
    """Alternate starts of ours and the floor and print their times to a first answer."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--database", default="postgresql://127.0.0.1:5432/test",
                        help="ours: FACILITATOR_DATABASE_URL (tables created by a first start)")
    args = parser.parse_args()
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "facilitator"),
                    str(ROOT / "bench")], check=False, stdout=subprocess.DEVNULL)
    instance = tempfile.mkdtemp(prefix="startup-")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "FACILITATOR_INSTANCE": instance,
           "FACILITATOR_DATABASE_URL": args.database, "FACILITATOR_GM_PASSWORD": "bench"}
    for key in ("FACILITATOR_MESSAGE_QUEUE",):
        env.pop(key, None)
    port = free_port()
    ours = [sys.executable, "-m", "facilitator.cli", "serve", "--port", str(port)]
    floor = [sys.executable, str(ROOT / "bench" / "floor_server.py"), "--port", str(port)]
    first_answer(ours, env, f"http://127.0.0.1:{port}/join")     # creates the tables
    times: dict[str, list[float]] = {"ours": [], "floor": []}
    for run in range(args.runs):
        for name, argv, path in (("ours", ours, "/join"), ("floor", floor, "/ping")):
            took = first_answer(argv, env, f"http://127.0.0.1:{port}{path}")
            times[name].append(took)
            print(f"run {run + 1}: {name:5s} {took:.3f} s", flush=True)
    for name, values in times.items():
        print(f"{name:5s} median {statistics.median(values):.3f} s "
              f"({min(values):.3f}-{max(values):.3f})")
    print(f"ratio of medians {statistics.median(times['ours']) / statistics.median(times['floor']):.2f}")


if __name__ == "__main__":
    main()
