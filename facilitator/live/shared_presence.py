"""Devices connected to any process of a multi-process deployment, counted in Redis.

Each process knows only its own connections (``Presence``, which this extends). With several
processes, the GM console must still show every device of each team, whichever
process it is connected to, and the same count whichever process sends it.
So each process publishes its own counts of a game in a Redis hash
(``<channel>:devices:<game>``, one field per process) and says it is alive
(``<channel>:alive:<process>``, expiring after ALIVE_SECONDS unless renewed).
The count sent to a GM is this process's own, from memory, plus the published
counts of the other live processes, read in one round trip. A process that
dies stops renewing its key: its devices drop out of the count within
ALIVE_SECONDS (they reconnect to another process, which counts them).

What each process publishes is team → device id → connections, so the GM
console also lists every team's device ids. Closing connections (a game
deleted, a device removed, a console session ended) goes through the channel
``<channel>:kick``: the process that commits it closes its own connections and
publishes a kick; every other process closes its own (``listen_for_kicks``). A
console's kick is ``{"from", "consoles": <session key or "*">}``, a game's
``{"from", "game", "device", "teams"}``.

Redis holds nothing here that a restart could not rebuild: if it does not
answer, the GM sees this process's devices only, as before.
"""
from __future__ import annotations

import json
import logging
import time
import uuid

from .message_queue import blocking_redis
from .presence import Presence, _info

log = logging.getLogger(__name__)

#: A process not heard from for this long is taken for dead (seconds).
ALIVE_SECONDS = 6
#: How often each process renews its "alive" key (seconds).
RENEW_SECONDS = 2
#: After Redis fails to answer, how long to count without it (seconds): a broadcast
#: must never wait for an unreachable Redis.
RETRY_SECONDS = 5
#: How long the kick listener waits for a message before it looks again (seconds).
KICK_POLL = 30

# Merges the counts of the live processes other than ARGV[1]; forgets dead ones.
_MERGE = """
local merged = {}
local fields = redis.call('HGETALL', KEYS[1])
for i = 1, #fields, 2 do
  local process = fields[i]
  if process ~= ARGV[1] then
    if redis.call('EXISTS', ARGV[2] .. process) == 1 then
      table.insert(merged, fields[i + 1])
    else
      redis.call('HDEL', KEYS[1], process)
    end
  end
end
return merged
"""


class SharedPresence(Presence):
    """``Presence`` whose ``devices`` counts every process's devices of a game."""

    def __init__(self, redis_url: str, channel: str):
        super().__init__()
        self.process = uuid.uuid4().hex[:12]
        self._url = redis_url
        # Commands wait for a free connection: a storm of devices updates must not fail
        # on redis-py's limit of 100 (see message_queue.py).
        self._redis = blocking_redis(redis_url, wait=2, socket_timeout=2,
                                     socket_connect_timeout=2)
        self._prefix = f"{channel}:"
        self._merge = self._redis.register_script(_MERGE)
        self._down_until = 0.0

    def device_info(self, game_id: int) -> tuple[dict[str, int], dict[str, list[str]]]:
        """Devices of each team of ``game_id`` connected to any live process: the counts
        and the device ids (see ``Presence.device_info``)."""
        published = list(self._local(game_id).items())
        if self._reachable():
            try:
                for other in self._merge(keys=[self._key(game_id)],
                                         args=[self.process, self._prefix + "alive:"]):
                    published.extend(json.loads(other).items())
            except Exception:      # Redis away: this process's devices are still right
                self._failed("devices of other processes unknown")
        return _info(published)

    def publish(self, game_id: int) -> None:
        """Write this process's devices of ``game_id`` (team → device id → connections)
        for the other processes."""
        mine = self._local(game_id)
        if not self._reachable():
            return
        try:
            with self._redis.pipeline(transaction=False) as pipe:
                if mine:
                    pipe.hset(self._key(game_id), self.process, json.dumps(mine))
                else:
                    pipe.hdel(self._key(game_id), self.process)
                self._alive(pipe)
                pipe.execute()
        except Exception:
            self._failed(f"could not publish the devices of game {game_id}")

    # -- closing connections in every process ------------------------------------------

    def kick(self, game_id: int, device: str | None = None, teams: int = 0) -> None:
        """Ask every other process to close its connections of ``game_id`` (or of one
        device), through a Redis channel each process listens to (``listen_for_kicks``);
        a deleted game's published devices go too."""
        message = json.dumps({"from": self.process, "game": game_id, "device": device,
                              "teams": teams})
        try:
            self._redis.publish(self._prefix + "kick", message)
            if device is None:
                self._redis.delete(self._key(game_id))
        except Exception:
            # Not retried: the refused token still keeps the device out at its next
            # connection; this says which connections may have stayed open.
            log.error("could not ask the other processes to close the connections of "
                      "game %s%s", game_id, f" device {device}" if device else "", exc_info=True)

    def kick_consoles(self, key: str) -> None:
        """Ask every other process to close the teacher connections of the console session
        ``key`` (``"*"``: of every session), through the kick channel."""
        try:
            self._redis.publish(self._prefix + "kick",
                                json.dumps({"from": self.process, "consoles": key}))
        except Exception:
            # Not retried: their next event is refused anyway (the session has ended).
            log.error("could not ask the other processes to close the consoles of the "
                      "ended session(s)", exc_info=True)

    def listen_for_kicks(self, handler, spawn, consoles=None) -> None:
        """Start (once per process) the task that calls ``handler(game_id, device, teams)``
        for each game's ``kick`` of another process and ``consoles(key)`` for each
        console's; ``spawn`` starts a background task."""
        with self._lock:
            if getattr(self, "_listening", False):
                return
            self._listening = True
        spawn(self._listen, handler, consoles)

    def _listen(self, handler, consoles=None) -> None:
        import redis
        channel = self._prefix + "kick"
        while True:
            try:
                client = redis.Redis.from_url(self._url, socket_timeout=KICK_POLL + 5,
                                              socket_connect_timeout=2)
                pubsub = client.pubsub(ignore_subscribe_messages=True)
                pubsub.subscribe(channel)
                while True:
                    message = pubsub.get_message(timeout=KICK_POLL)
                    if message is None or message.get("type") != "message":
                        continue
                    try:
                        data = json.loads(message["data"])
                        if data.get("from") == self.process:
                            continue
                        if "consoles" in data:
                            if consoles is not None:
                                consoles(str(data["consoles"]))
                        else:
                            handler(int(data["game"]), data.get("device"),
                                    int(data.get("teams") or 0))
                    except Exception:
                        log.exception("could not close the connections a kick named")
            except Exception:
                log.warning("kick channel: Redis does not answer; listening again in %s s",
                            RETRY_SECONDS, exc_info=True)
                time.sleep(RETRY_SECONDS)

    def keep_alive(self, sleep) -> None:
        """Run forever: renew this process's "alive" key every RENEW_SECONDS."""
        while True:
            try:
                self._alive(self._redis)
            except Exception:
                self._failed("could not renew this process's presence")
            sleep(RENEW_SECONDS)

    def _reachable(self) -> bool:
        return time.monotonic() >= self._down_until

    def _failed(self, what: str) -> None:
        if self._reachable():          # once per outage, not once per message
            log.warning("%s: Redis does not answer; counting this process's devices "
                        "only for %s s", what, RETRY_SECONDS, exc_info=True)
        self._down_until = time.monotonic() + RETRY_SECONDS

    def _alive(self, client) -> None:
        client.set(self._prefix + "alive:" + self.process, 1, ex=ALIVE_SECONDS)

    def _key(self, game_id: int) -> str:
        return f"{self._prefix}devices:{game_id}"
