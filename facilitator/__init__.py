"""The facilitator: runs classroom games in a lecture hall (la partida, la colmena and Hive).

``create_app`` builds the Flask app: configuration, the database, Socket.IO
(with an explicit async mode) and the blueprints of the pages.
"""
from __future__ import annotations

import time


#: Socket.IO's async mode is always set, never detected: gevent for the server
#: (``facilitator serve``), threading only for in-process use without a server.
ASYNC_MODES = ("gevent", "threading")


def create_app(test_config: dict | None = None, clock=time.time):
    """Build the Flask app; ``test_config`` overrides the configuration (tests).

    ``clock`` (seconds since the epoch, like ``time.time``) is what the games' clocks,
    their deadlines and the end of a game read as now."""
    # Flask is imported here, not at the top, so that ``facilitator serve`` can
    # let gevent patch the standard library before Flask is first imported.
    from flask import Flask

    from .resources import data_path, instance_path, make_private_folder
    app = Flask(__name__, instance_relative_config=True,
                template_folder=str(data_path("templates")),
                static_folder=str(data_path("static")),
                instance_path=str(instance_path()))
    make_private_folder(app.instance_path)      # 0700: the database and the signing key

    from .config import default_config
    app.config.update(default_config(app.instance_path))
    if test_config:
        app.config.update(test_config)
    app.config["NODE_MODULES"] = str(data_path("node_modules"))
    from .games import kind, names
    for name in names():                # each game takes its own keys of the configuration
        kind(name).configure(app.config)
    if app.config["TRUSTED_PROXIES"]:
        from werkzeug.middleware.proxy_fix import ProxyFix
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=app.config["TRUSTED_PROXIES"],
                                x_proto=app.config["TRUSTED_PROXIES"],
                                x_host=app.config["TRUSTED_PROXIES"])

    from .extensions import database, presence, socketio, store
    from .live.contexts import ConnectionSessions, match_socketio_path
    from .live.handlers import register
    from .live.message_queue import client_manager
    from .live.flood import FloodGuard, guard_scale
    from .live.packets import PacketJson
    from .patches import apply as apply_patches, binary_free_packets
    from .live.service import LiveGames
    from .store.banks import ensure_sample_bank

    if app.config["ASYNC_MODE"] not in ASYNC_MODES:
        raise ValueError(f"async mode {app.config['ASYNC_MODE']!r}: use 'gevent' (the server) "
                         "or 'threading' (in-process tools and tests); eventlet is deprecated")
    database.init_app(app)
    store.forget()
    store.clock = clock
    ensure_sample_bank(database, app.config["SAMPLE_BANK"])
    if not getattr(socketio, "_facilitator_handlers", False):
        # Before init_app: Flask-SocketIO keeps handlers registered while it has no server
        # and gives them to every server init_app makes (one per app). Registered after,
        # they would reach only the first app's server, and a second app in the same
        # process would accept any connection unchecked.
        register(socketio)
        socketio._facilitator_handlers = True
    queue = client_manager(app.config["MESSAGE_QUEUE"], app.config["MESSAGE_QUEUE_CHANNEL"])
    socketio.init_app(app, async_mode=app.config["ASYNC_MODE"],
                      **({"client_manager": queue} if queue is not None else
                         {"message_queue": app.config["MESSAGE_QUEUE"],
                          "channel": app.config["MESSAGE_QUEUE_CHANNEL"]}),
                      max_http_buffer_size=64 * 1024, ping_interval=app.config["PING_INTERVAL"],
                      ping_timeout=app.config["PING_TIMEOUT"],
                      cors_allowed_origins=None, serializer=binary_free_packets(),
                      json=PacketJson)
    match_socketio_path(app)        # the default path, the one static/js/lib/connection.js uses
    app.session_interface = ConnectionSessions()     # a connection's cookie read once
    live = app.extensions["facilitator_live"] = LiveGames(store, socketio,
                                                          shared_presence(app, presence),
                                                          store.clock)
    guard = app.extensions["facilitator_flood"] = FloodGuard.from_config(app.config)
    apply_patches(app, socketio, live, guard, guard_scale(app.config))

    from .web import register_blueprints
    register_blueprints(app)
    return app


def shared_presence(app, presence):
    """Who is connected: ``presence``, or with a Redis message queue (several processes)
    a presence whose device counts are shared through Redis."""
    queue = app.config["MESSAGE_QUEUE"] or ""
    if not queue.startswith(("redis://", "rediss://", "unix://")):
        return presence
    from .live.shared_presence import SharedPresence
    return SharedPresence(queue, app.config["MESSAGE_QUEUE_CHANNEL"])
