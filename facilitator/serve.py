"""Running the server: gevent's WSGI server, the timer watcher, and the addresses to share."""
from __future__ import annotations

import ipaddress
import socket
import time

import click


def lan_address() -> str | None:
    """This machine's address on the local network, if it has one (no packet is sent)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))      # UDP connect only picks a route
        address = probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("127.") else address


def local_only(host: str) -> bool:
    """Whether listening on ``host`` lets only this computer connect: a loopback address
    (127.0.0.1, ::1) or ``localhost``. Not so for 0.0.0.0, ::, a LAN address or a name."""
    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip().strip("[]")).is_loopback
    except ValueError:
        return False


#: Connections the kernel holds for the server while it starts or is busy: a restarted
#: server's whole classroom (and more) comes back at once.
LISTEN_BACKLOG = 2048


def listen(host: str, port: int, backlog: int = LISTEN_BACKLOG) -> socket.socket:
    """A socket bound to ``host``:``port`` and listening (SO_REUSEADDR, as gevent's own).

    Opened before the app is built: while the server starts (imports, database), the
    devices coming back after a restart are held in the kernel's queue and answered as
    soon as it serves, instead of being refused and retrying seconds later (a
    socket.io-client waits 0.8 s, then twice as long at each refusal)."""
    family, kind, proto, _name, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    listener = socket.socket(family, kind, proto)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(address)
        listener.listen(backlog)
    except OSError:
        listener.close()
        raise
    return listener


def serve(host: str, port: int, clock=time.time, prepare=None) -> None:
    """Serve the app on ``host``:``port`` until interrupted.

    ``clock``: what the app reads as now (``create_app``); ``prepare(app)``: called once
    the app is built and its background tasks run, before it serves (a launcher's own
    additions, such as the live tests' control of their clock)."""
    listener = listen(host, port)
    from gevent import get_hub, pywsgi

    from .store.credentials import console_secret, new_console_secret
    # The new console secret's scrypt runs on another core while the app is built.
    secret, hashing = console_secret(get_hub().threadpool.spawn)

    from . import create_app
    from .extensions import database, socketio
    from .live.watcher import watch
    from .store.sessions import keep_remembered_fresh

    shown = host
    if host in ("0.0.0.0", "::"):
        shown = lan_address() or "127.0.0.1"
    base = f"http://{shown}:{port}"
    # Loopback only: every page showing join codes says no phone can open them.
    app = create_app({"PUBLIC_URL": base, "ASYNC_MODE": "gevent",   # gevent's own server
                      "LISTENS_LOCAL_ONLY": local_only(host)}, clock)
    new_console_secret(database, secret, hashing.get())
    live = app.extensions["facilitator_live"]
    socketio.start_background_task(watch, live, socketio)
    # A console in use is always remembered: its actions never wait for a session lookup.
    socketio.start_background_task(keep_remembered_fresh, database, socketio.sleep)
    # Marks a learning platform did not take before this server stopped go now.
    from .web.lti import resume_waiting_marks
    socketio.start_background_task(resume_waiting_marks, app)
    if hasattr(live.presence, "keep_alive"):          # several processes: say we are alive
        socketio.start_background_task(live.presence.keep_alive, socketio.sleep)

    from .games import names
    from .i18n import game_name
    # The product and the games it plays, each by its catalog's name (never written here).
    click.echo(f"The facilitator ({', '.join(game_name('en', n) for n in names())}) on {base}")
    if database.schema_change is not None:          # said first: the teacher should know
        click.echo(f"  {database.schema_change.describe()}")
    # "console secret" / «clave de la consola»: the login page's words for it.
    click.echo(f"  GM console:      {base}/console   (console secret / clave de la consola: "
               f"{secret})")
    click.echo(f"  Students join:   {base}/join   (or scan a QR code on the projector)")
    click.echo("  Projector:       open it from the game's console page")
    if local_only(host):
        click.echo("  Only this laptop can connect. For tablets: "
                   f"{app.config['START_COMMAND']} --host 0.0.0.0")
    click.echo(f"  Database:        {app.config['DATABASE_URL']}", err=False)
    import importlib.util
    if importlib.util.find_spec("geventwebsocket") is not None:
        # Engine.IO would use it instead of simple-websocket, untested here.
        click.echo("  Warning: gevent-websocket is installed; uninstall it "
                   "(pip uninstall gevent-websocket)", err=True)
    from .patches import subscribe_now
    if not subscribe_now(live.socketio, SUBSCRIBE_WAIT_SECONDS):
        click.echo("  Warning: the message queue does not answer yet; until it does, this "
                   "process's screens miss the changes made through the others", err=True)
    if prepare is not None:
        prepare(app)
    tune_garbage_collector()
    server = pywsgi.WSGIServer(listener, app, handler_class=_no_delay_handler(), log=None)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


#: How long a starting process waits for the message queue before it answers anyway.
SUBSCRIBE_WAIT_SECONDS = 5.0

#: Collect the young generation every 10,000 net allocations, not 700, and the old one
#: far more rarely: with Python's defaults, full collections paused a campus server for
#: long stretches several times a minute; with these, young collections are short
#: (``bench/fanout.py --scenario campus``; docs/performance.md). A larger threshold gave
#: the same latency for more memory per connection.
GC_THRESHOLDS = (10_000, 20, 100)


def tune_garbage_collector() -> None:
    """Keep the garbage collector from pausing a busy server.

    Everything loaded at start-up lives as long as the process: it is frozen out
    of the collector's sight, so a full collection never walks it again. Not
    collected first: ``facilitator serve`` starts with the collector off, and the
    few thousand objects of start-up garbage left cost less kept than the full
    collection that would find them, while the classroom waits.
    Turns the collector on (again).
    """
    import gc
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    gc.enable()


def _no_delay_handler():
    from gevent import pywsgi

    class Handler(pywsgi.WSGIHandler):
        """gevent writes headers and body apart: without TCP_NODELAY each answer can
        wait on Nagle's algorithm and delayed ACKs.

        And a WebSocket ends its connection: Engine.IO's WebSocket (simple-websocket)
        works on a duplicate of the socket and, when the session ends, sends its close
        frame and returns from the WSGI app without any HTTP response. pywsgi then took
        the connection for keep-alive and read what the client still sent (its close
        frame, a last packet) as the next HTTP request: "Expected GET method;
        Got command='\x88...'" logged per disconnect, and, as a close frame holds no
        line break, the connection held open until the client gave up waiting for the
        close to finish (3 s for python clients). After an upgrade, close it at once.
        """

        def __init__(self, sock, address, server, rfile=None):
            try:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            except OSError:
                pass
            super().__init__(sock, address, server, rfile)

        def handle_one_response(self):
            try:
                super().handle_one_response()
            finally:
                if (self.environ.get("HTTP_UPGRADE") or "").lower() == "websocket":
                    self.close_connection = True    # never read past a WebSocket
    return Handler

