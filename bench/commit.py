"""How long a GM's action waits for PostgreSQL, when actions come back to back and
when they come with the pauses a campus leaves between them.

    python bench/commit.py [--games 20] [--actions 200] [--gaps 0,10,50]

The floor of ``bench/fanout.py`` stores nothing; the facilitator commits every
action before any screen sees it (one statement, ``Database.append_if_unchanged``).
This measures that statement's wall time inside ``LiveGames.act``, as the server
runs it (gevent-patched, psycopg, the real app), with ``--gaps`` milliseconds of
idleness before each action (campus: 20 actions a second, one every 50 ms), and,
for comparison only, the same with ``synchronous_commit = off`` (the server never
runs so: a database crash would lose actions the screens had shown) and a bare
``SELECT 1``. The difference between the first and the second is the wait for the
write-ahead log to reach the disk. "To the screens" is the whole ``LiveGames.act``
until its first ``state`` message is sent (nowhere here): the engine, the statement,
then the messages. Prints one line per gap, then one JSON line.
"""
from __future__ import annotations

if __name__ == "__main__":
    from gevent import monkey
    monkey.patch_all()

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import secrets  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from action_cpu import fresh_postgres  # noqa: E402
from fanout import GAME_SETTINGS, action_stream  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--actions", type=int, default=200, help="measured actions per gap")
    parser.add_argument("--gaps", default="0,10,50", help="ms of idleness before each action")
    args = parser.parse_args()
    gaps = [float(g) / 1000 for g in args.gaps.split(",")]
    tmp = Path(tempfile.mkdtemp(prefix="commit-"))
    url, drop = fresh_postgres()
    os.environ["FACILITATOR_INSTANCE"] = str(tmp)
    try:
        run(args, url, gaps)
    finally:
        from facilitator.extensions import database
        if database.engine is not None:
            database.engine.dispose()
        drop()


def percentiles(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return ordered[len(ordered) // 2], ordered[int(len(ordered) * 0.9)]


def run(args, url: str, gaps: list[float]) -> None:
    from sqlalchemy import event

    from facilitator import create_app
    from facilitator.extensions import database
    from facilitator.live.audience import GM, Audience

    app = create_app({"DATABASE_URL": url, "ASYNC_MODE": "gevent", "GM_PASSWORD": "bench",
                      "SECRET_KEY": "bench", "TESTING": True})
    live = app.extensions["facilitator_live"]
    began_at = [0.0]
    to_screens: list[float] = []

    def emit(*_args, **_kwargs):
        # Screens are not measured here, only when an action's first message goes.
        if began_at[0]:
            to_screens.append(1000 * (time.perf_counter() - began_at[0]))
            began_at[0] = 0.0
    live.socketio.emit = emit
    http = app.test_client()
    assert http.post("/console/login", data={"secret": "bench"}).status_code == 302
    games = [http.post("/console/games", json={"name": f"Commit {g + 1}",
                                                "settings": GAME_SETTINGS}).get_json()["game_id"]
             for g in range(args.games)]
    record = http.get(f"/console/{games[0]}/record.json").get_json()
    stream = action_stream(record, 2 * len(gaps) * args.actions // args.games + 4)
    gms = [Audience(GM, g) for g in games]
    for gm in gms:
        live.snapshot_for(gm)
        assert live.act(gm, stream[0], None)["ok"]

    waits: list[float] = []
    statement = database.append_if_unchanged

    def timed(*a, **k):
        began = time.perf_counter()
        try:
            return statement(*a, **k)
        finally:
            waits.append(time.perf_counter() - began)
    database.append_if_unchanged = timed

    step = [1]

    def actions(gap: float, screens: dict | None = None) -> list[float]:
        waits.clear()
        to_screens.clear()
        done = 0
        while done < args.actions:
            for gm in gms[: args.actions - done]:
                time.sleep(gap)
                began_at[0] = time.perf_counter()
                assert live.act(gm, stream[step[0]], secrets.token_hex(8))["ok"]
                done += 1
            step[0] += 1
        if screens is not None:
            screens[gap] = list(to_screens)
        return [1000 * w for w in waits]

    def round_trips(gap: float) -> list[float]:
        found = []
        for _ in range(args.actions):
            time.sleep(gap)
            with database._autocommit() as driver:
                began = time.perf_counter()
                driver.execute("SELECT 1").fetchone()
                found.append(1000 * (time.perf_counter() - began))
        return found

    screens: dict[float, list[float]] = {}
    durable = {gap: actions(gap, screens) for gap in gaps}
    pings = {gap: round_trips(gap) for gap in gaps}

    @event.listens_for(database.engine, "connect")
    def no_flush_wait(dbapi_connection, _record):
        dbapi_connection.execute("SET synchronous_commit = off")
        dbapi_connection.commit()
    database.engine.dispose()                 # the pool's next connections have it
    relaxed = {gap: actions(gap) for gap in gaps}

    print(f"PostgreSQL, {args.games} games, {args.actions} actions per gap; "
          "ms, p50 / p90")
    print(f"{'idle before':>12s} {'the action':>14s} {'without flush':>14s} {'SELECT 1':>12s}"
          f" {'to the screens':>15s}")
    figures = {}
    for gap in gaps:
        d, r, p = percentiles(durable[gap]), percentiles(relaxed[gap]), percentiles(pings[gap])
        s = percentiles(screens[gap])
        print(f"{gap * 1000:9.0f} ms {d[0]:7.2f} / {d[1]:4.2f} {r[0]:7.2f} / {r[1]:4.2f} "
              f"{p[0]:5.2f} / {p[1]:4.2f} {s[0]:8.2f} / {s[1]:4.2f}")
        figures[str(int(gap * 1000))] = {"to_screens_p50_ms": round(s[0], 3),
                                         "to_screens_p90_ms": round(s[1], 3),
                                         "statement_p50_ms": round(d[0], 3),
                                         "no_flush_p50_ms": round(r[0], 3),
                                         "select1_p50_ms": round(p[0], 3),
                                         "flush_ms": round(d[0] - r[0], 3)}
    longest, shortest = figures[str(int(max(gaps) * 1000))], figures[str(int(min(gaps) * 1000))]
    print(json.dumps({"gaps_ms": figures, "games": args.games, "actions": args.actions,
                      "idle_cost_ms": round(longest["statement_p50_ms"]
                                            - shortest["statement_p50_ms"], 3)}))


if __name__ == "__main__":
    main()
