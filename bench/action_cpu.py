"""The server CPU of an action's path and of a connection's snapshot, without sockets.

    python bench/action_cpu.py [--games 100] [--actions 3000] [--runs 3] [--db postgres|sqlite]
                               [--path live|event] [--gap MS]

``bench/fanout.py`` measures the whole server with real clients, but on a small
shared machine its CPU per action varies by a third from one run to the next.
This measures only what the facilitator adds, in one process, as the server
runs it (gevent-patched, PostgreSQL through psycopg, the real app): for each
GM action, ``LiveGames.act`` (authorise, engine, database commit, every
audience's view) with each ``state`` message encoded as Socket.IO would and
sent nowhere; for each connection, ``LiveGames.snapshot_for`` (the database
read and the audience's message), for a process that knows the game and for
one that has just started. The actions are the stream of ``bench/fanout.py``.

``--path event`` measures the GM's whole ``act`` event instead, as Socket.IO
delivers it (Flask-SocketIO's test client: the packet, the request context and
session, the flood guard, the handler and its acknowledgement). ``--gap 50``
leaves 50 ms of idleness before each action, as a campus does (20 actions a
second, each game's every 5 s): caches are then cold and the database asleep,
and an action costs some four times its back-to-back CPU on this machine, which
is what a campus server pays.

Prints the median and range over ``--runs`` of CPU microseconds per action,
per connection (warm and cold), then one JSON line.
"""
from __future__ import annotations

if __name__ == "__main__":
    from gevent import monkey
    monkey.patch_all()

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import secrets  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from fanout import GAME_SETTINGS, POSTGRES, action_stream  # noqa: E402


def fresh_postgres() -> tuple[str, callable]:
    import psycopg
    admin = psycopg.connect(POSTGRES, autocommit=True, connect_timeout=3)
    name = "bench_cpu_" + secrets.token_hex(4)
    admin.execute(f'CREATE DATABASE "{name}"')

    def drop():
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()
    return POSTGRES.rsplit("/", 1)[0] + "/" + name, drop


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--actions", type=int, default=3000, help="measured actions per run")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--db", choices=("postgres", "sqlite"), default="postgres")
    parser.add_argument("--gap", type=float, default=0.0, metavar="MS",
                        help="idle milliseconds before each action (a campus leaves some 50 "
                             "between its actions: the caches are cold, the database asleep)")
    parser.add_argument("--path", choices=("live", "event"), default="live",
                        help="live: LiveGames.act; event: the GM's 'act' event as Socket.IO "
                             "delivers it (Flask-SocketIO's test client: packet, request "
                             "context, session, flood guard, handler, acknowledgement)")
    args = parser.parse_args()

    tmp = Path(tempfile.mkdtemp(prefix="action-cpu-"))
    url, drop = (fresh_postgres() if args.db == "postgres"
                 else (f"sqlite:///{tmp}/bench.db", lambda: None))
    os.environ["FACILITATOR_INSTANCE"] = str(tmp)
    try:
        run(args, url)
    finally:
        from facilitator.extensions import database
        if database.engine is not None:
            database.engine.dispose()
        drop()


def run(args, url: str) -> None:
    from socketio.packet import EVENT

    from facilitator import create_app
    from facilitator.live.audience import GM, PROJECTOR, TEAM, Audience

    app = create_app({"DATABASE_URL": url, "ASYNC_MODE": "gevent", "GM_PASSWORD": "bench",
                      "SECRET_KEY": "bench", "TESTING": True})
    live = app.extensions["facilitator_live"]
    packet = live.socketio.server.packet_class        # with the server's JSON
    encoded = [0]

    def emit(event, data, to=None, **_kwargs):
        # What python-socketio does once per emit before writing to each socket.
        encoded[0] += len(packet(EVENT, data=[event, data], namespace="/").encode())
    live.socketio.emit = emit

    http = app.test_client()
    assert http.post("/console/login", data={"secret": "bench"}).status_code == 302
    games = []
    for g in range(args.games):
        made = http.post("/console/games", json={"name": f"Bench {g + 1}",
                                                 "settings": GAME_SETTINGS}).get_json()
        games.append(made["game_id"])
    record = http.get(f"/console/{games[0]}/record.json").get_json()
    per_game = args.actions * args.runs // args.games + 2
    stream = action_stream(record, per_game)
    audiences = [Audience(GM, gid) for gid in games]
    screens = [a for gid in games for a in (Audience(GM, gid), Audience(PROJECTOR, gid),
                                            *(Audience(TEAM, gid, t) for t in range(1, 5)))]
    for audience in screens:
        live.snapshot_for(audience)           # the screens connected: the games are known
    for gm in audiences:                      # each game's first action (it opens the game)
        assert live.act(gm, stream[0], None)["ok"]
    from facilitator.serve import tune_garbage_collector
    tune_garbage_collector()                  # as the server does once started

    if args.path == "event":
        from facilitator.extensions import socketio
        consoles = {gm.game_id: socketio.test_client(app, flask_test_client=http,
                                                     auth={"role": "gm", "game": gm.game_id})
                    for gm in audiences}

        def act(gm, action):
            answer = consoles[gm.game_id].emit("act", {"id": secrets.token_hex(8),
                                                       "action": action}, callback=True)
            consoles[gm.game_id].get_received()        # what the console was sent
            return answer
    else:
        def act(gm, action):
            return live.act(gm, action, secrets.token_hex(8))
    import gevent

    action_us, connect_us, cold_us = [], [], []
    k = 1
    for _run in range(args.runs):
        spent = 0.0
        done = 0
        while done < args.actions:
            for gm in audiences:
                if args.gap:
                    gevent.sleep(args.gap / 1000)
                began = time.process_time()
                answer = act(gm, stream[k])
                spent += time.process_time() - began
                assert answer["ok"], answer
                done += 1
            k += 1
        action_us.append(1e6 * spent / done)
        began = time.process_time()
        for audience in screens:
            live.snapshot_for(audience)
        connect_us.append(1e6 * (time.process_time() - began) / len(screens))
        # A process that has just started knows no game: every first screen loads it.
        live.store.forget()
        live._snapshots.forget()
        began = time.process_time()
        for audience in screens:
            live.snapshot_for(audience)
        cold_us.append(1e6 * (time.process_time() - began) / len(screens))

    def show(name, values):
        print(f"{name:34s} median {statistics.median(values):8.1f} us "
              f"(range {min(values):.1f}-{max(values):.1f}, {len(values)} runs: "
              f"{', '.join(f'{v:.0f}' for v in values)})")
    print(f"{args.games} games, {args.actions} actions a run, {args.db}, path {args.path}, "
          f"{args.gap:g} ms idle before each action")
    show("CPU per action", action_us)
    show("CPU per connection, game known", connect_us)
    show("CPU per connection, after a start", cold_us)
    print(json.dumps({"action_us": statistics.median(action_us),
                      "connect_us": statistics.median(connect_us),
                      "cold_connect_us": statistics.median(cold_us),
                      "runs": args.runs, "games": args.games, "db": args.db,
                      "path": args.path, "gap_ms": args.gap}))


if __name__ == "__main__":
    main()
