"""Flood limits of Socket.IO events: a token bucket per connection or device, per event.

A bucket holds up to ``capacity`` tokens and gains ``rate`` tokens a second;
an event takes one token, and an event that finds the bucket empty is refused
at once (``{"ok": false, "error": "rate"}``) without touching the database.
The key is the device (its token's id) when the connection has one, otherwise
the connection: one tablet opening ten sockets gets no more than one.

Memory is bounded: buckets are kept in least-recently-used order, a bucket
that has refilled completely is the same as no bucket and is dropped by the
sweep, a connection's buckets go when it disconnects, and past ``max_keys``
the least recently used bucket goes first (which only ever gives its owner a
fresh, full bucket).

The numbers are in ``LIMITS`` (and in docs/deploy.md, "Flood limits").
"""
from __future__ import annotations

import threading
import time
from collections import OrderedDict

#: (event, who) → (bucket size, tokens refilled a second). ``who``: "gm" or "device"
#: (a seat's device, a table's screen or a projector). Sized for the fastest honest use,
#: see docs/deploy.md. The events a game's screens add (a partida's timer) come with
#: their own limits (``GameKind.events``; ``limits_of_games``).
LIMITS: dict[tuple[str, str], tuple[float, float]] = {
    ("act", "gm"): (200, 20),
    ("act", "device"): (10, 1),
    ("sync", "gm"): (20, 2),
    ("sync", "device"): (20, 2),
    # A draft goes out at most every few hundred ms while a team types (team.js).
    ("draft", "gm"): (20, 4),
    ("draft", "device"): (20, 4),
}

#: Connections opened with the same credentials (a device token, a watch code, a GM of a
#: game from one address): a reconnecting device waits 0.8 to 5 s between attempts.
CONNECT_LIMIT = (10, 0.5)

#: A connection cut for flooding (STRIKES or MESSAGE_STRIKES) bars its credentials from
#: connecting again for this many seconds, doubled at each further cut within
#: BAR_MEMORY seconds, up to BAR_MAX. An honest page is never cut (it waits for its
#: answers); a flooding one otherwise came back every 2 s (CONNECT_LIMIT) with a new
#: burst, and each burst delayed another game's screens (bench/faults.py).
BAR_SECONDS = 10.0
BAR_MAX = 120.0
BAR_MEMORY = 600.0

#: Refusals a connection may draw (bucket size, refill a second) before it is disconnected:
#: a client that goes on sending after "rate" answers is flooding, and even a refusal costs
#: the server the reading of the packet. Its device reconnects (within CONNECT_LIMIT).
STRIKES = (100, 10)

#: A team's devices (or a game's projectors) together: GROUP times one device's limits.
GROUP = 3

#: Limits of an event not listed above (a handler added later is never unlimited).
DEFAULT_LIMIT = (20, 2)
DEFAULT_EVENT = "other"

#: Seconds during which a connection is not sent the same snapshot twice in answer to ``sync``.
SYNC_INTERVAL = 1.0

#: Buckets kept at most (about 200 bytes each).
MAX_KEYS = 100_000


def limits_of_games() -> dict[tuple[str, str], tuple[float, float]]:
    """LIMITS and the limits of the events every game of the registry adds."""
    from ..games import kind, names
    limits = dict(LIMITS)
    for name in names():
        for event, spec in kind(name).events.items():
            for who, limit in spec.get("limits", {}).items():
                limits[event, who] = tuple(limit)
    return limits


def guard_scale(config) -> float:
    """``SOCKET_RATE_SCALE`` of ``config``: multiplies every limit (0: no limit)."""
    return float(config.get("SOCKET_RATE_SCALE", 1.0))


class TokenBuckets:
    """Token buckets by key, each of ``capacity`` tokens refilled at ``rate`` a second."""

    def __init__(self, max_keys: int = MAX_KEYS, clock=time.monotonic):
        self.max_keys = max_keys
        self.clock = clock
        # key → (tokens, time of the last update, seconds to refill completely)
        self._buckets: OrderedDict = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._buckets)

    def take(self, key, capacity: float, rate: float, now: float | None = None) -> bool:
        """Take one token from ``key``'s bucket; False if it is empty (nothing is taken)."""
        now = self.clock() if now is None else now
        with self._lock:
            entry = self._buckets.pop(key, None)
            if entry is None:
                tokens = capacity
            else:
                tokens = min(capacity, entry[0] + (now - entry[1]) * rate)
            allowed = tokens >= 1
            if allowed:
                tokens -= 1
            self._buckets[key] = (tokens, now, (capacity - tokens) / rate if rate > 0 else 1e9)
            self._sweep(now)
            return allowed

    def _sweep(self, now: float) -> None:
        # Oldest first: drop buckets full again (the same as none), and any over max_keys.
        buckets = self._buckets
        while buckets:
            key, (_, last, refill) = next(iter(buckets.items()))
            if len(buckets) <= self.max_keys and now - last < refill:
                break
            del buckets[key]

    def __contains__(self, key) -> bool:
        return key in self._buckets

    def put(self, key, tokens: float, capacity: float, rate: float,
            now: float | None = None) -> None:
        """Set ``key``'s bucket (of ``capacity`` tokens refilled at ``rate``) to ``tokens``
        now; below zero, it gives nothing until its refill has made up the debt."""
        now = self.clock() if now is None else now
        with self._lock:
            self._buckets.pop(key, None)
            self._buckets[key] = (tokens, now, (capacity - tokens) / rate if rate > 0 else 1e9)
            self._sweep(now)

    def drop(self, keys) -> None:
        """Forget the buckets of ``keys``."""
        with self._lock:
            for key in keys:
                self._buckets.pop(key, None)


class FloodGuard:
    """The flood limits of this process's Socket.IO events."""

    def __init__(self, limits: dict | None = None, scale: float = 1.0,
                 sync_interval: float = SYNC_INTERVAL, max_keys: int = MAX_KEYS,
                 clock=time.monotonic):
        """``scale`` multiplies every bucket size and rate (0: no limit at all)."""
        self.limits = dict(limits_of_games() if limits is None else limits)
        self.scale = scale
        self.sync_interval = sync_interval
        self.clock = clock
        self.buckets = TokenBuckets(max_keys, clock)
        self._sent: OrderedDict = OrderedDict()     # sid → (seq, time) of the last sync answer
        self._lock = threading.Lock()       # of everything below and of _sent
        self.max_keys = max_keys
        self._credentials: dict[str, tuple] = {}    # sid → its connection's credentials key
        self._owners: dict[str, tuple] = {}         # sid → the owner of its event buckets
        self._last_event: dict[str, float] = {}     # a device connection's sid → its last event's end
        self._returning: set[tuple] = set()         # credentials barred once, not yet back
        self._turns: dict[str, threading.Lock] = {}   # sid → the lock of its events
        self._consoles: dict[str, str] = {}           # a console's sid → its Engine.IO sid
        self._console_eio: set[str] = set()
        # credentials key → (cuts, barred until, last cut), oldest cut first
        self._barred: OrderedDict = OrderedDict()

    @classmethod
    def from_config(cls, config) -> "FloodGuard":
        """The guard ``config`` asks for (``SOCKET_RATE_SCALE``, ``SOCKET_RATE_LIMITS``)."""
        limits = limits_of_games()
        for key, value in (config.get("SOCKET_RATE_LIMITS") or {}).items():
            limits[tuple(key.split(":", 1)) if isinstance(key, str) else tuple(key)] = value
        return cls(limits, scale=guard_scale(config))

    def allow(self, event: str, audience, sid: str) -> bool:
        """Whether the connection ``sid`` of ``audience`` may send ``event`` now.

        Counted per device (``audience.device``, its token's id) when the audience has
        one, else per connection; a team's or a game's projectors' devices together also
        share a bucket GROUP times as large (a device that reconnects over and over, or
        opens many sockets, gets no more than that).
        """
        if self.scale <= 0:
            return True
        who = "gm" if audience.role == "gm" else "device"
        if (event, who) in self.limits:
            capacity, rate = self.limits[event, who]
        else:
            event, (capacity, rate) = DEFAULT_EVENT, DEFAULT_LIMIT
        capacity, rate = capacity * self.scale, rate * self.scale
        owner = self._owner(audience, sid)
        if not self.buckets.take((owner, event, who), capacity, rate):
            return False
        if who == "device":
            group = ("group", audience.game_id, audience.role, audience.team)
            return self.buckets.take((group, event, who), capacity * GROUP, rate * GROUP)
        return True

    @staticmethod
    def _owner(audience, sid: str) -> tuple:
        """Whose buckets an event takes from: the device (its token's id), else the
        connection."""
        device = getattr(audience, "device", None)
        return ("device", device) if device is not None else ("sid", sid)

    def strike(self, sid: str) -> bool:
        """A refusal for ``sid``; True when it has drawn too many: disconnect it."""
        capacity, rate = STRIKES
        return not self.buckets.take((("sid", sid), "strikes", ""), capacity * max(self.scale, 1),
                                     rate * max(self.scale, 1))

    @staticmethod
    def _connect_key(auth: object, address: object) -> tuple:
        auth = auth if isinstance(auth, dict) else {}
        credential = auth.get("token") or auth.get("watch")
        if isinstance(credential, str):
            return ("connect", credential[:300])
        return ("connect", str(auth.get("role"))[:20], str(auth.get("game"))[:20], address)

    def allow_connect(self, auth: object, address: object) -> bool:
        """Whether a connection with ``auth`` (the Socket.IO ``auth`` payload, before it is
        checked) may open now: keyed by its credentials, so checked before any query.
        Credentials barred after a flood (:meth:`bar`) may not."""
        if self.scale <= 0:
            return True
        key = self._connect_key(auth, address)
        with self._lock:
            barred = self._barred.get(key)
            if barred is not None and self.clock() < barred[1]:
                return False
        capacity, rate = CONNECT_LIMIT
        return self.buckets.take(key, capacity * self.scale, rate * self.scale)

    def connected(self, sid: str, auth: object, address: object, eio_sid: str | None = None,
                  gm: bool = False, audience=None) -> bool:
        """The connection ``sid`` (Engine.IO's ``eio_sid``) of ``audience`` opened with
        ``auth``: its credentials are kept (until :meth:`forget`) so that a flood cut can
        bar them; ``gm``: it is a logged-in console's (:meth:`is_console`). True when these
        credentials come back from a bar (the connection is on probation: see
        :func:`gate_messages`)."""
        if self.scale <= 0:
            return False
        with self._lock:
            key = self._credentials[sid] = self._connect_key(auth, address)
            self._owners[sid] = self._owner(audience, sid)
            if gm and eio_sid is not None:
                self._consoles[sid] = eio_sid
                self._console_eio.add(eio_sid)
            returning = key in self._returning
            self._returning.discard(key)
            return returning

    #: The message gate's probation (gate_messages' answer), once it is in place.
    on_probation = None

    def probation(self, eio_sid: str) -> None:
        """Put the Engine.IO connection ``eio_sid`` on probation at the message gate (its
        credentials come back from a bar for flooding)."""
        if self.on_probation is not None:
            self.on_probation(eio_sid)

    def is_console(self, eio_sid: str) -> bool:
        """Whether the Engine.IO connection ``eio_sid`` is a logged-in console's."""
        return eio_sid in self._console_eio

    def bar(self, sid: str | None) -> float:
        """The connection ``sid`` is being cut for flooding: its credentials may not
        connect again for BAR_SECONDS (doubled for each cut within BAR_MEMORY seconds,
        at most BAR_MAX). The seconds barred (0 if its credentials are unknown)."""
        now = self.clock()
        with self._lock:
            key = self._credentials.get(sid) if sid is not None else None
            if key is None or self.scale <= 0:
                return 0.0
            cuts, until, last = self._barred.pop(key, (0, 0.0, now))
            if now - last > BAR_MEMORY:
                cuts = 0
            if until > now:         # cut again while barred (a second connection of it)
                self._barred[key] = (cuts, until, now)
                return until - now
            seconds = min(BAR_MAX, BAR_SECONDS * 2 ** cuts)
            self._barred[key] = (cuts + 1, now + seconds, now)
            self._returning.add(key)
            owner = self._owners.get(sid)
            if owner is not None:
                self._drain(owner, seconds)
            while self._barred:     # oldest cut first: forgotten after BAR_MEMORY
                first, (_, _, first_last) = next(iter(self._barred.items()))
                if (len(self._barred) <= self.max_keys and now - first_last < BAR_MEMORY) \
                        or first == key:
                    break
                del self._barred[first]
                self._returning.discard(first)
            return seconds

    def _drain(self, owner: tuple, seconds: float) -> None:
        """Empty every event bucket of ``owner`` for ``seconds`` and then some: a device
        cut for flooding comes back after its bar with nothing to spend, and earns its
        events back at each bucket's rate (an honest page is never cut)."""
        limits = [(key, value) for key, value in self.limits.items()]
        limits += [((DEFAULT_EVENT, who), DEFAULT_LIMIT) for who in ("gm", "device")]
        for (event, who), (capacity, rate) in limits:
            self.buckets.put((owner, event, who), -rate * self.scale * seconds,
                             capacity * self.scale, rate * self.scale)

    def barred(self) -> int:
        """How many credentials are barred from connecting now."""
        now = self.clock()
        with self._lock:
            return sum(1 for _, until, _ in self._barred.values() if until > now)

    # -- coalescing sync answers -------------------------------------------------------

    def sync_emit_due(self, sid: str, seq: int) -> bool:
        """Whether a ``sync`` of ``sid`` should be answered with the snapshot at ``seq``:
        not if the same snapshot went to it less than ``sync_interval`` ago."""
        now = self.clock()
        with self._lock:
            last = self._sent.pop(sid, None)
            if last is not None and last[0] == seq and now - last[1] < self.sync_interval:
                self._sent[sid] = last
                return False
            self._sent[sid] = (seq, now)
            while self._sent:           # oldest first: past the interval, forget them
                first_sid, (_, when) = next(iter(self._sent.items()))
                if len(self._sent) <= self.max_keys and now - when < self.sync_interval:
                    break
                del self._sent[first_sid]
            return True

    def turn(self, sid: str, console: bool = False):
        """The turn of ``sid``'s next event: a connection's events are handled one after
        the other (in the order they were read), and a device's (not a console's) at
        least EVENT_GAP apart. An honest page waits for each answer and sends a few
        events a second at most; a flooding one takes one event's time at a time from
        the other games, with their screens served in between, however many of its
        events got through the gates."""
        with self._lock:
            lock = self._turns.get(sid)
            if lock is None:
                lock = self._turns[sid] = threading.Lock()
        return _Turn(self, sid, lock, 0.0 if console or self.scale <= 0 else EVENT_GAP / self.scale)

    def _waited(self, sid: str) -> float:
        return self._last_event.get(sid, 0.0)

    def _ended(self, sid: str) -> None:
        with self._lock:
            if sid in self._turns:          # not after forget: nothing left behind
                self._last_event[sid] = self.clock()

    def forget(self, sid: str) -> None:
        """A connection closed: its buckets, its lock and its last sync answer go."""
        with self._lock:
            self._sent.pop(sid, None)
            self._credentials.pop(sid, None)
            self._owners.pop(sid, None)
            self._last_event.pop(sid, None)
            self._turns.pop(sid, None)
            self._console_eio.discard(self._consoles.pop(sid, None))
        events = {event for event, _ in self.limits} | {DEFAULT_EVENT}
        self.buckets.drop([(("sid", sid), event, who) for event in events
                           for who in ("gm", "device")] + [(("sid", sid), "strikes", "")])


class _Turn:
    """One event's turn on its connection (FloodGuard.turn): the connection's lock, and
    for a device a pause until ``gap`` seconds after its previous event ended."""

    __slots__ = ("guard", "sid", "lock", "gap")

    def __init__(self, guard: FloodGuard, sid: str, lock: threading.Lock, gap: float):
        self.guard, self.sid, self.lock, self.gap = guard, sid, lock, gap

    def __enter__(self):
        self.lock.acquire()
        if self.gap > 0:
            wait = self.guard._waited(self.sid) + self.gap - self.guard.clock()
            if wait > 0:
                time.sleep(wait)      # gevent's: the other connections run meanwhile
        return self

    def __exit__(self, *_exc):
        self.guard._ended(self.sid)
        self.lock.release()
        return False


#: Seconds between the ends of one device's events and the start of its next: a tablet
#: sends one per button press; a flood is handled no faster than this, one event at a
#: time, whatever its burst (the other games' screens are served in between).
EVENT_GAP = 0.02

#: Events of one connection being handled at once, at most: past it an event is refused
#: before a task is even started for it. An honest page waits for its acknowledgements
#: (a few in flight); a flooding client writes thousands of packets that the server
#: reads in one go, and would otherwise get a task each before the first limit is checked.
MAX_IN_FLIGHT = 16

#: The refusal of an event over MAX_IN_FLIGHT.
IN_FLIGHT_REFUSAL = {"ok": False, "error": "rate",
                     "message": "too many events at once from this connection: wait for "
                                "the answers and send again"}


#: Socket.IO messages one connection may send (bucket size, refill a second), counted as
#: Engine.IO reads them: before any task is started or any JSON decoded for them. Far
#: above an honest page (a few events a second, a few queued ones after a reconnection)
#: and applied to every event alike. Each message let through costs a task and a
#: decoding: the fewer let through, the less a flooding device's burst delays another
#: game's screens (bench/faults.py; docs/performance.md).
MESSAGE_LIMIT = (60, 100)

#: Messages dropped over MESSAGE_LIMIT before the connection's transport is cut: the
#: packets a flooding client has already written are then never read at all.
MESSAGE_STRIKES = 30

#: Messages a new connection may send at once before its bucket has refilled to
#: MESSAGE_LIMIT: a page that (re)connects sends its `sync` and its few queued actions;
#: a flood's first burst is weighed here, before any of it is handled.
FIRST_MESSAGES = 8

#: A connection whose credentials come back from a bar for flooding starts with this
#: many messages and is cut after this many drops.
PROBATION_MESSAGES, PROBATION_STRIKES = 2, 5


#: Bytes one WebSocket connection's reader takes from its socket (bucket size, refill a
#: second). What it has not taken stays in the kernel's buffers and TCP makes the sender
#: wait, at no cost to the server. A page sends a few messages a second of a few hundred
#: bytes (a written answer, the longest, 2,000 characters at most). A larger budget let
#: each new flooding connection have far more packets parsed before it was cut, and
#: delayed another game's screens more (bench/faults.py).
READ_LIMIT = (16 * 1024, 16 * 1024)


#: Bytes a WebSocket's reader takes in one read before the other connections get their
#: turn: a few dozen small packets, so a flooding connection holds the server for one
#: such read's parse at a time (larger reads made another game's screens wait longer
#: while a flooding connection was read).
READ_CHUNK = 1024


class _PacedSocket:
    """A WebSocket's socket that gives the event loop back after every read, and reads
    no faster than READ_LIMIT.

    simple-websocket's reader loops ``recv`` → parse → ``recv`` while the socket holds
    data, and a gevent socket only switches when a read would wait: a client that
    writes faster than the server parses kept that loop, and every other game, busy for
    as long as it went on (bench/faults.py, flood phase). One switch per read
    (READ_CHUNK, a few dozen small packets) bounds a stall to one read's parse, and the byte
    budget leaves a flood in the kernel's buffers instead of parsing it (then dropping
    it): megabytes written before a close are never read at all.
    """

    __slots__ = ("_sock", "_sleep", "_capacity", "_rate", "_tokens", "_last")

    def __init__(self, sock, sleep, scale: float = 1.0):
        self._sock = sock
        self._sleep = sleep
        self._capacity, self._rate = READ_LIMIT[0] * scale, READ_LIMIT[1] * scale
        self._tokens, self._last = self._capacity, time.monotonic()

    def recv(self, *args):
        """Read as the socket would, then let the other connections run (for as long as
        this connection is over its byte budget).

        A read that did not fill its chunk emptied the socket: the next one waits for
        data, and so gives the loop back anyway. Only a full chunk (more may be there)
        or a connection over its budget switches here: an honest device's every
        message would otherwise pay a turn of the whole loop for nothing."""
        size = min(args[0], READ_CHUNK) if args else READ_CHUNK
        data = self._sock.recv(size, *args[1:])
        now = time.monotonic()
        self._tokens = min(self._capacity, self._tokens + (now - self._last) * self._rate) - len(data)
        self._last = now
        if self._tokens < 0:
            self._sleep(-self._tokens / self._rate)
        elif len(data) >= size:
            self._sleep(0)
        return data

    def __getattr__(self, name):
        return getattr(self._sock, name)
