"""The floor: a bare Flask-SocketIO server, for ``bench/fanout.py`` to compare against.

It runs exactly as ``facilitator serve`` does — gevent monkey-patching first,
``async_mode="gevent"``, gevent's ``WSGIServer`` with the same TCP_NODELAY
handler and the same garbage collector settings (both from ``facilitator.serve``;
``--gc default`` leaves Python's own), the same Socket.IO options and, when given,
the same Redis message queue — but it has no game logic and no database. It
keeps the facilitator's rooms (``game:<id>:gm``, ``game:<id>:team:<n>``,
``game:<id>:public``) and, for every ``act`` event,
counts a sequence number per game in memory and emits to each room of the
game a dummy ``state`` message as large as the facilitator's real one for that
audience (``--sizes``: a padded flat object), or, with ``--canned``, a real
message of that audience recorded from the facilitator (same bytes and shape,
so the clients' parsing costs the same too). What is left between the two servers' latencies is
the cost of the game: validation, engine, database, views and serialisation.

    python bench/floor_server.py --port 5999 --sizes gm=9000,team=4000,projector=3500

Connection ``auth``: ``{"role": "gm"|"team"|"projector", "game": ID, "team": N}``.

``--kind colmena``: a hall of la colmena's tables. The devices of a table's seats
(``team``) and its tablet (``table``, room ``game:<id>:table``) send the actions; each
is sent, besides the game's rooms, to the hall's two screens (``{"role": "hall_gm" |
"hall_watcher", "hall": ID}``, rooms ``hall:<id>:gm`` and ``hall:<id>:public``) as a
``hall`` message naming every table's seq (``seqs``), at once.
"""
from __future__ import annotations

import sys

if __name__ == "__main__":
    # As in facilitator/cli.py: the collector off while it starts (main turns it on)
    # and gevent's patches before Flask (or anything else) is imported.
    import gc
    gc.disable()
    from gevent import monkey
    monkey.patch_all()

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

ROLES = ("gm", "team", "projector")
#: La colmena's: a table's tablet, and a hall's two screens.
COLMENA_ROLES = ("table", "hall_gm", "hall_watcher")


def padded(message: dict, size: int) -> dict:
    """``message`` with a ``pad`` string so that its compact JSON is ``size`` bytes long."""
    message = dict(message, pad="")
    base = len(json.dumps(message, separators=(",", ":")))
    message["pad"] = "x" * max(0, size - base)
    return message


def create_app(sizes: dict[str, int], teams: int, message_queue: str | None, channel: str,
               ping_interval: int, ping_timeout: int, canned: dict[str, dict] | None = None,
               colmena: bool = False):
    from flask import Flask, request
    from flask_socketio import ConnectionRefusedError, SocketIO, emit, join_room

    app = Flask(__name__)
    app.config["SECRET_KEY"] = "floor"
    socketio = SocketIO(app, async_mode="gevent", message_queue=message_queue, channel=channel,
                        max_http_buffer_size=64 * 1024, ping_interval=ping_interval,
                        ping_timeout=ping_timeout, cors_allowed_origins=None)
    seqs: dict[int, int] = {}
    who: dict[str, tuple[str, int, int | None]] = {}

    def message(role: str, game: int, team: int | None, seq: int, now: float) -> dict:
        if canned and role in canned:
            # A real message of the facilitator, recorded once: same bytes, same shape.
            return {**canned[role], "game": game, "seq": seq, "team": team,
                    "now": int(now * 1000)}
        return padded({"game": game, "seq": seq, "role": role, "team": team,
                       "now": int(now * 1000)}, sizes.get(role, 1000))

    @app.get("/ping")
    def ping():
        return "ok"

    def hall_message(role: str, hall: int, now: float) -> dict:
        shown = {"seqs": {str(game): seq for game, seq in seqs.items()}, "now": int(now * 1000)}
        if canned and role in canned:
            return {**canned[role], **shown}
        return padded({"role": role, "hall": hall, **shown}, sizes.get(role, 1000))

    @socketio.on("hall")
    def on_hall(payload=None):
        role, hall, _team = who.get(request.sid, (None, None, None))
        if role not in ("hall_gm", "hall_watcher"):
            return {"ok": False, "error": "auth"}
        emit("hall", hall_message(role, hall, time.time()), to=request.sid)
        return {"ok": True}

    @socketio.on("connect")
    def on_connect(auth=None):
        roles = ROLES + COLMENA_ROLES if colmena else ROLES
        if not isinstance(auth, dict) or auth.get("role") not in roles \
                or not isinstance(auth.get("game", auth.get("hall")), int):
            raise ConnectionRefusedError("auth: role and game")
        role, game, team = auth["role"], auth.get("game", auth.get("hall")), auth.get("team")
        if role in ("hall_gm", "hall_watcher"):
            join_room(f"hall:{game}:{'gm' if role == 'hall_gm' else 'public'}")
            who[request.sid] = (role, game, None)
            emit("hall", hall_message(role, game, time.time()), to=request.sid)
            return
        if role == "table":
            join_room(f"game:{game}:table")
        elif role == "gm":
            join_room(f"game:{game}:gm")
        elif role == "team":
            join_room(f"game:{game}:team:{team}")
        else:
            join_room(f"game:{game}:public")
        who[request.sid] = (role, game, team)
        emit("state", message(role, game, team, seqs.get(game, 0), time.time()), to=request.sid)

    @socketio.on("disconnect")
    def on_disconnect(*_args):
        who.pop(request.sid, None)

    @socketio.on("act")
    def on_act(payload):
        role, game, _team = who.get(request.sid, (None, None, None))
        if role not in (("team", "table") if colmena else ("gm",)):
            return {"ok": False, "error": "auth", "message": "not this role"}
        seq = seqs[game] = seqs.get(game, 0) + 1
        now = time.time()
        socketio.emit("state", message("gm", game, None, seq, now), to=f"game:{game}:gm")
        for n in range(1, teams + 1):
            socketio.emit("state", message("team", game, n, seq, now), to=f"game:{game}:team:{n}")
        if colmena:
            socketio.emit("state", message("table", game, None, seq, now),
                          to=f"game:{game}:table")
        socketio.emit("state", message("projector", game, None, seq, now), to=f"game:{game}:public")
        if colmena:
            for role, room in (("hall_gm", "gm"), ("hall_watcher", "public")):
                socketio.emit("hall", hall_message(role, 0, now), to=f"hall:0:{room}")
        return {"ok": True, "seq": seq}

    @socketio.on("sync")
    def on_sync(payload):
        role, game, team = who.get(request.sid, (None, None, None))
        if role is None:
            return {"ok": False, "error": "auth"}
        emit("state", message(role, game, team, seqs.get(game, 0), time.time()), to=request.sid)
        return {"ok": True, "seq": seqs.get(game, 0)}

    return app, socketio


def parse_sizes(text: str) -> dict[str, int]:
    """``gm=9000,team=4000,projector=3500`` → a dict."""
    sizes = {}
    for part in filter(None, text.split(",")):
        role, _, value = part.partition("=")
        sizes[role.strip()] = int(value)
    return sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--sizes", default="gm=8000,team=4000,projector=3000",
                        help="JSON size in bytes of the state message of each audience")
    parser.add_argument("--teams", type=int, default=4)
    parser.add_argument("--kind", choices=("partida", "colmena"), default="partida",
                        help="colmena: a hall of tables whose phones and tablets act")
    parser.add_argument("--canned", metavar="FILE",
                        help="JSON {role: state message}: send these (real shape) instead of "
                             "padded dummies")
    parser.add_argument("--gc", choices=("server", "default"), default="server",
                        help="collect garbage as facilitator serve does (the default), or "
                             "with Python's default thresholds")
    parser.add_argument("--message-queue", default=os.environ.get("FACILITATOR_MESSAGE_QUEUE"))
    parser.add_argument("--channel", default=os.environ.get("FACILITATOR_MESSAGE_QUEUE_CHANNEL",
                                                            "floor"))
    args = parser.parse_args()

    from gevent import pywsgi

    from facilitator.serve import _no_delay_handler, tune_garbage_collector

    app, _socketio = create_app(parse_sizes(args.sizes), args.teams, args.message_queue or None,
                                args.channel,
                                int(os.environ.get("FACILITATOR_PING_INTERVAL", "10")),
                                int(os.environ.get("FACILITATOR_PING_TIMEOUT", "20")),
                                json.loads(Path(args.canned).read_text()) if args.canned else None,
                                colmena=args.kind == "colmena")
    print(f"floor on http://{args.host}:{args.port}", flush=True)
    if args.gc == "server":
        tune_garbage_collector()      # as facilitator serve does before it serves
    else:
        import gc
        gc.enable()
    server = pywsgi.WSGIServer((args.host, args.port), app, handler_class=_no_delay_handler(),
                               log=None)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
