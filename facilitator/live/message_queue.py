"""The Redis message queue of a multi-process deployment: connections that wait their turn.

redis-py (since 6) lets one client open 100 connections at most and then *fails* the
next command (``MaxConnectionsError``) instead of waiting for a free one. A restarted
process answers hundreds of screens within a second, and each answer that goes
through the queue is a publish: past 100 at once, python-socketio's ``RedisManager``
logged "Cannot publish to redis... retrying", made a new client, and with it a new
subscription, which broke the one its listening task was reading: that process heard
nothing from the others for a second ("Cannot receive from redis... retrying in 1
secs"), and the changes broadcast meanwhile never reached its screens (bench/fanout.py
--scenario restart lost 200-580 state messages that way, the floor too).

Here a command waits (QUEUE_WAIT_SECONDS at the most) for one of QUEUE_CONNECTIONS
connections: a publish takes a fraction of a millisecond, so the wait is short.
"""
from __future__ import annotations

from urllib.parse import urlparse

from socketio import RedisManager

#: Connections to Redis one process keeps for its broadcasts (the subscription is one).
QUEUE_CONNECTIONS = 50
#: How long a command waits for a free connection before it fails (seconds).
QUEUE_WAIT_SECONDS = 10


def blocking_redis(url: str, connections: int = QUEUE_CONNECTIONS,
                   wait: float = QUEUE_WAIT_SECONDS, **options):
    """A redis-py client of ``url`` whose commands wait (``wait`` seconds at the most)
    for a free connection of ``connections`` instead of failing when all are in use;
    ``options``: the connections' own (timeouts)."""
    import redis
    pool = redis.BlockingConnectionPool.from_url(
        url, max_connections=connections, timeout=wait, **options)
    return redis.Redis(connection_pool=pool)


class WaitingRedisManager(RedisManager):
    """python-socketio's ``RedisManager`` on a ``blocking_redis`` client (made for
    redis:// and rediss:// URLs only: ``client_manager``).

    It notes the highest ``version`` of each game's ``state`` messages it has seen go
    out, from any process (``seen_version``): a process that died between its commit and
    its broadcast leaves a game behind that note, and the live layer's catch-up sends it."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.seen_version: dict[int, int] = {}

    def _handle_emit(self, message):
        super()._handle_emit(message)
        data = message.get("data")
        state = data[0] if message.get("event") == "state" and isinstance(data, list) \
            and data else None
        if isinstance(state, dict) and isinstance(state.get("game"), int) \
                and isinstance(state.get("version"), int):
            game = state["game"]
            if state["version"] > self.seen_version.get(game, -1):
                self.seen_version[game] = state["version"]

    def _redis_connect(self):
        self.redis = blocking_redis(self.redis_url, **self.redis_options)
        self.pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        self.connected = True


def client_manager(url: str | None, channel: str):
    """The Socket.IO client manager for message queue ``url``: a ``WaitingRedisManager``
    for a Redis URL; None otherwise (Flask-SocketIO then makes its own, or none)."""
    if not url or urlparse(url).scheme not in ("redis", "rediss"):
        return None
    return WaitingRedisManager(url, channel=channel)
