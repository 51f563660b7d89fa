"""Socket.IO handlers: parse, authorise, call the live service, answer. Nothing else.

Each handler answers through the acknowledgement: ``{"ok": true, ...}`` or
``{"ok": false, "error": RULE, "message": TEXT}``. A malformed payload gets
the ``format`` error and changes nothing.
"""
from __future__ import annotations

import logging
from typing import Callable

import orjson

from flask import current_app, request
from flask_socketio import ConnectionRefusedError, disconnect, emit, join_room, leave_room

from ..games import Refusal, kind, names
from . import rooms
from .audience import (GM, PROJECTOR, TABLE, TEAM, Audience, decode_device_token,
                       device_admitted)
from .flood import FloodGuard
from .halls import HALL_GM, HALL_ROLES
from ..web.auth import console_session_key, gm_logged_in, reaches   # the console's session

log = logging.getLogger(__name__)

#: The longest draft relayed (the longest written answer a game takes).
DRAFT_MAX = 2000


def _refusal(error: str, message: str) -> dict:
    return {"ok": False, "error": error, "message": message}


def _lone_surrogate(value: object, depth: int = 0) -> bool:
    """Whether a text in ``value`` holds a lone surrogate ("\\ud800" in JSON).

    Such text is valid JSON but not Unicode: it cannot be written as UTF-8, so
    a record or a page holding it could never be sent again.
    """
    if depth == 0:
        try:
            # orjson writes only valid UTF-8: what it writes holds no lone surrogate
            # (one pass in C, far cheaper than the walk below on a cold path).
            orjson.dumps(value)
            return False
        except orjson.JSONEncodeError:
            pass        # a lone surrogate, or what orjson does not write (huge numbers)
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return True
        return False
    if depth > 8:            # nothing deeper than this is ever accepted anyway
        return False
    if isinstance(value, dict):
        return any(_lone_surrogate(k, depth + 1) or _lone_surrogate(v, depth + 1)
                   for k, v in value.items())
    if isinstance(value, list):
        return any(_lone_surrogate(v, depth + 1) for v in value)
    return False


#: The fields each client event's payload may hold (docs/protocol.md): any other is refused.
FIELDS = {"act": ("id", "action"), "sync": ("seq",), "draft": ("for", "key", "text", "writer"),
          "hall": ("do", "keys")}


def _unknown_field(event: str, payload: dict, fields=None) -> dict | None:
    """The ``format`` refusal of a payload with a field ``event`` does not have, else None."""
    for key in payload:
        if key not in (FIELDS[event] if fields is None else fields):
            return _refusal("format", f"unknown field {key!r}"[:120] + f" in '{event}'")
    return None


#: Why a connection is refused when its game does not exist (or its token is forged).
NO_SUCH_GAME = {GM: "auth: no such game",
                TEAM: "auth: this device has no valid team token; join again with the team's code",
                TABLE: "auth: this device has no valid table token; join again with the table's code",
                PROJECTOR: "auth: unknown projector code"}


def _authenticate(auth: object) -> tuple[Audience, Callable | None]:
    """Who a new connection is, from its ``auth`` payload and cookies, and for a team's
    device the check its game's row must pass (``on_connect`` loads the game once, for
    that check and the snapshot: one query for a connection, not two)."""
    store = current_app.extensions["facilitator_live"].store
    if not isinstance(auth, dict):
        auth = {}
    role = auth.get("role")
    if role == GM:
        game_id = auth.get("game")
        if not gm_logged_in():
            raise ConnectionRefusedError("auth: log in to the GM console first")
        if not isinstance(game_id, int) or isinstance(game_id, bool):
            raise ConnectionRefusedError(NO_SUCH_GAME[GM])
        if not reaches(game_id=game_id):      # a course's console: its class's games only
            raise ConnectionRefusedError(NO_SUCH_GAME[GM])
        return Audience(GM, game_id), None    # on_connect checks that the game exists
    if role in (TEAM, TABLE):
        token = auth.get("token") or request.cookies.get("team_token")
        # The token names the game by its public id: a deleted game's is refused when
        # its game is not found, a removed device's or one of a game over for longer
        # than the grace period when its row is read.
        found = decode_device_token(current_app.config["SECRET_KEY"], token)
        game_id = store.game_of_public_id(found.public_id) if found is not None else None
        if game_id is None or found.team < 0:      # joined a table, chose no seat yet
            raise ConnectionRefusedError(NO_SUCH_GAME[TEAM])
        grace = current_app.config["DEVICE_GRACE_HOURS"]
        # Seat 0 is the table's code: a device that joined with it and chose no seat
        # is the table's shared screen.
        audience = (Audience(TABLE, game_id, None, found.device) if found.team == 0
                    else Audience(TEAM, game_id, found.team, found.device))
        return audience, lambda row: device_admitted(found, row, grace, store.utcnow())
    if role == PROJECTOR:
        game_id = store.game_of_watch_code(auth.get("watch"))
        if game_id is None:
            raise ConnectionRefusedError(NO_SUCH_GAME[PROJECTOR])
        return Audience(PROJECTOR, game_id), None
    raise ConnectionRefusedError("auth: say who you are: role gm, team, table or projector")


def register(socketio) -> None:
    """Attach the handlers to ``socketio``."""

    def live():
        return current_app.extensions["facilitator_live"]

    def audience_or_none() -> Audience | None:
        return live().presence.get(request.sid)

    def flood() -> FloodGuard:
        return current_app.extensions["facilitator_flood"]

    def guarded(handler):
        """Answer refusals and unexpected errors with an error acknowledgement; an event
        over its flood limit (facilitator/live/flood.py) is refused at once with ``rate``."""
        event = handler.__name__.removeprefix("on_")

        def wrapper(*args):
            audience = audience_or_none()
            if audience is None:
                return _refusal("auth", "this connection has not authenticated")
            if audience.role == GM and not gm_logged_in():
                # The console's session ended (logout, "log out every console", 12 h)
                # while this connection was open: it acts no more.
                disconnect()
                return _refusal("auth", "the console's session has ended: log in again")
            # Per device when the connection has one (its token's id), else per connection;
            # and per team (or a game's projectors) for all its devices together.
            guard = flood()
            if not guard.allow(event, audience, request.sid):
                if guard.strike(request.sid):   # it goes on flooding: close the connection
                    guard.bar(request.sid)
                    disconnect()
                return _refusal("rate", f"too many '{event}' events from this device: "
                                        "wait a moment and send again")
            payload = args[0] if args else None
            if _lone_surrogate(list(args)):
                return _refusal("format", "text must be valid Unicode (no lone surrogates)")
            try:
                with guard.turn(request.sid, console=audience.role == GM):
                    return handler(audience, payload)
            except Refusal as refusal:
                return _refusal(refusal.rule, refusal.message)
            except Exception:   # never let one bad event take the connection down
                log.exception("handler %s failed", handler.__name__)
                return _refusal("server", "the server could not do this; nothing changed")
        wrapper.__name__ = handler.__name__
        return wrapper

    @socketio.on("connect")
    def on_connect(auth=None):
        if live().presence.get(request.sid) is not None:
            # An event named "connect" sent on an open connection: it must not
            # authenticate the connection again (a projector would become a team).
            return _refusal("format", "this connection is already authenticated")
        if not flood().allow_connect(auth, request.remote_addr):   # before any query
            raise ConnectionRefusedError("rate: too many connections from this device; "
                                         "wait a moment")
        console = isinstance(auth, dict) and auth.get("role") in (GM, HALL_GM)
        if console:
            # Kept under its session before the session is checked: a logout that ends
            # it while this connection is being set up closes this one too.
            live().consoles.add(request.sid, console_session_key() or "")
        try:
            return _connect(auth)
        except BaseException:
            if console:
                live().consoles.remove(request.sid)
            raise

    def _connect(auth):
        """Authenticate a new connection, join its rooms and send its first message."""
        if isinstance(auth, dict) and auth.get("role") in HALL_ROLES:
            return _connect_hall(auth)
        audience, admit = _authenticate(auth)
        # From this process's first connection on, it closes its own connections when
        # another process deletes their game or removes their device.
        live().listen_for_kicks()
        # Join first, then load: a change committed meanwhile is either in the
        # snapshot or broadcast to the room, never lost in between.
        room = rooms.room_of(audience)
        join_room(room)
        message = live().snapshot_for(audience, admit)
        if message is None:
            leave_room(room)
            raise ConnectionRefusedError(NO_SUCH_GAME[audience.role])
        live().presence.add(request.sid, audience)
        eio_sid = socketio.server.manager.eio_sid_from_sid(request.sid, "/")
        if flood().connected(request.sid, auth, request.remote_addr, eio_sid,
                             gm=audience.role == GM, audience=audience):
            flood().probation(eio_sid)      # back from a bar for flooding
        # This connection is this process's: sent to it directly, not through the message
        # queue, which would copy it to every other process for nothing (a restart's
        # whole classroom at once).
        emit("state", message, to=request.sid, ignore_queue=True)
        live().sent_at_connect(request.sid, message["seq"])
        if audience.role == TEAM:
            draft = live().last_draft(audience)
            if draft is not None:        # what another device of the seat is typing
                emit("draft", draft, to=request.sid, ignore_queue=True)
            live().devices_changed(audience.game_id)

    def _connect_hall(auth: dict):
        """A hall's screen connects: the teacher's hall view (logged in) or the hall's
        projector (its code). It gets the hall's view at once, then at every change."""
        halls = live().halls
        if auth["role"] == HALL_GM:
            if not gm_logged_in():
                raise ConnectionRefusedError("auth: log in to the GM console first")
            hall_id = auth.get("hall")
            if not isinstance(hall_id, int) or isinstance(hall_id, bool) \
                    or not reaches(hall_id=hall_id):
                raise ConnectionRefusedError("auth: no such hall")
        else:
            hall_id = halls.halls.of_watch_code(auth.get("watch"))
            if hall_id is None:
                raise ConnectionRefusedError("auth: unknown projector code")
        audience = Audience(auth["role"], hall_id)
        live().listen_for_kicks()           # a logout in another process closes it too
        room = rooms.room_of(audience)
        join_room(room)
        message = halls.message(audience)
        if message is None:
            leave_room(room)
            raise ConnectionRefusedError("auth: no such hall")
        halls.add(request.sid, audience)
        emit("hall", message, to=request.sid, ignore_queue=True)

    @socketio.on("hall")
    def on_hall(payload=None):
        """A hall screen's request: ``{"do": "sync"}`` (its view again), or the teacher's
        hall action (``next_round``, ``show``, ``bell``)."""
        audience = live().halls.get(request.sid)
        if audience is None:
            return _refusal("auth", "this connection is not a hall's screen")
        if audience.role == HALL_GM and not gm_logged_in():
            disconnect()
            return _refusal("auth", "the console's session has ended: log in again")
        if not isinstance(payload, dict) or not isinstance(payload.get("do"), str):
            return _refusal("format", 'send {"do": ...}')
        if (unknown := _unknown_field("hall", payload)) is not None:
            return unknown
        if not flood().allow("hall", audience, request.sid):
            return _refusal("rate", "too many 'hall' events from this device: wait a moment")
        try:
            if payload["do"] == "sync":
                message = live().halls.message(audience)
                if message is None:
                    return _refusal("not_found", "this hall no longer exists")
                emit("hall", message, to=request.sid, ignore_queue=True)
                return {"ok": True}
            if audience.role != HALL_GM:
                return _refusal("auth", "only the teacher acts on a hall")
            return live().halls.act(audience.game_id, payload)
        except Refusal as refusal:
            return _refusal(refusal.rule, refusal.message)
        except Exception:   # never let one bad event take the connection down
            log.exception("hall event failed")
            return _refusal("server", "the server could not do this; nothing changed")

    @socketio.on("disconnect")
    def on_disconnect(*_args):
        if socketio.server.manager.is_connected(request.sid, "/"):
            # An event named "disconnect" sent by a client that stays connected.
            return _refusal("format", "'disconnect' is not an event a client sends")
        live().consoles.remove(request.sid)
        if live().halls.remove(request.sid) is not None:
            flood().forget(request.sid)
            return None
        audience = live().presence.remove(request.sid)
        flood().forget(request.sid)
        live().forget_connection(request.sid)
        if audience is not None and audience.role == TEAM:
            live().devices_changed(audience.game_id)

    @socketio.on("act")
    @guarded
    def on_act(audience: Audience, payload):
        if not isinstance(payload, dict) or not isinstance(payload.get("action"), dict):
            return _refusal("format", 'send {"id": "...", "action": {"do": ...}}')
        if (unknown := _unknown_field("act", payload)) is not None:
            return unknown
        client_id = payload.get("id")
        if client_id is not None and (not isinstance(client_id, str) or not 0 < len(client_id) <= 64):
            return _refusal("format", "the action id must be text of 1 to 64 characters")
        return live().act(audience, payload["action"], client_id)


    @socketio.on("draft")
    @guarded
    def on_draft(audience: Audience, payload):
        # What a seat is typing for an action it may send (a written answer), shown on its
        # other devices as it is typed; not an action: nothing is stored or recorded.
        if not isinstance(payload, dict):
            return _refusal("format", 'send {"for": ACTION, "key": ..., "text": "...", "writer": ID}')
        if (unknown := _unknown_field("draft", payload)) is not None:
            return unknown
        text, writer, key = payload.get("text"), payload.get("writer"), payload.get("key")
        if (not isinstance(payload.get("for"), str) or not isinstance(text, str)
                or len(text) > DRAFT_MAX or not isinstance(writer, str) or not 0 < len(writer) <= 64
                or not (key is None or (isinstance(key, int) and not isinstance(key, bool)))):
            return _refusal("format", f"a draft is text of at most {DRAFT_MAX} characters for "
                                      "an action, with the writer's id (1 to 64 characters)")
        return live().relay_draft(audience, payload["for"], key, text, writer, request.sid)

    @socketio.on("sync")
    @guarded
    def on_sync(audience: Audience, payload):
        # No payload, {} or {"seq": N}: a snapshot comes whenever N is not the game's seq
        # (behind, ahead or missing); the ack always names the game's seq.
        if payload is not None and not isinstance(payload, dict):
            return _refusal("format", 'send {"seq": N}')
        if payload and (unknown := _unknown_field("sync", payload)) is not None:
            return unknown
        known = payload.get("seq") if payload else None
        if known is not None and (not isinstance(known, int) or isinstance(known, bool)):
            return _refusal("format", "seq must be a whole number")
        if live().just_sent(request.sid, known):
            # A device syncs as it reconnects, with the seq of the state it was just
            # sent (loaded after it joined its rooms): up to date, nothing to ask.
            return {"ok": True, "seq": known}
        if isinstance(known, int) and live().holds_current(audience.game_id, known):
            return {"ok": True, "seq": known}       # up to date: answered without loading
        message = live().snapshot_for(audience)
        if message is None:
            return _refusal("format", "this game no longer exists")
        # A burst of syncs gets this snapshot once per interval (flood.SYNC_INTERVAL).
        if ((not isinstance(known, int) or message["seq"] != known)
                and flood().sync_emit_due(request.sid, message["seq"])):
            emit("state", message, to=request.sid, ignore_queue=True)
        return {"ok": True, "seq": message["seq"]}

    @socketio.on_error_default
    def on_error(error):   # pragma: no cover - the guard catches handler errors
        log.exception("socket error: %s", error)
        return _refusal("server", "the server could not do this; nothing changed")

    # The events a game's screens add (a partida's timer): each handed to the game as
    # {"do": EVENT, **payload}. A game whose kind has no such event refuses it.
    def game_event(event: str):
        def handler(audience: Audience, payload):
            if not isinstance(payload, dict):
                return _refusal("format", f"send an object with '{event}'")
            spec = kind(live().store.kind_of(audience.game_id) or "").events.get(event)
            if spec is None:
                return _refusal("format", f"this game takes no '{event}'")
            if (unknown := _unknown_field(event, payload, spec["fields"])) is not None:
                return unknown
            action = {key: value for key, value in payload.items() if key != "id"}
            ack = live().act(audience, {"do": event, **action})
            return {"ok": True} if ack.get("ok") else ack       # (docs/protocol.md)
        handler.__name__ = f"on_{event}"
        return handler

    events = sorted({event for name in names() for event in kind(name).events})
    for event in events:
        socketio.on(event)(guarded(game_event(event)))
