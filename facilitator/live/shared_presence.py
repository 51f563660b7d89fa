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

Redis holds nothing here that a restart could not rebuild: if it does not
answer, the GM sees this process's devices only, as before.
"""
from __future__ import annotations

import json
import logging
import time
import uuid
from collections import Counter

from .presence import Presence

log = logging.getLogger(__name__)

#: A process not heard from for this long is taken for dead (seconds).
ALIVE_SECONDS = 6
#: How often each process renews its "alive" key (seconds).
RENEW_SECONDS = 2
#: After Redis fails to answer, how long to count without it (seconds): a broadcast
#: must never wait for an unreachable Redis.
RETRY_SECONDS = 5

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
        import redis
        super().__init__()
        self.process = uuid.uuid4().hex[:12]
        self._redis = redis.Redis.from_url(redis_url, socket_timeout=2, socket_connect_timeout=2)
        self._prefix = f"{channel}:"
        self._merge = self._redis.register_script(_MERGE)
        self._down_until = 0.0

    def devices(self, game_id: int) -> dict[str, int]:
        """Devices of each team of ``game_id`` connected to any live process."""
        total = Counter(super().devices(game_id))
        if self._reachable():
            try:
                for published in self._merge(keys=[self._key(game_id)],
                                             args=[self.process, self._prefix + "alive:"]):
                    total.update(json.loads(published))
            except Exception:      # Redis away: this process's devices are still right
                self._failed("devices of other processes unknown")
        return {team: n for team, n in sorted(total.items(), key=lambda x: int(x[0])) if n > 0}

    def publish(self, game_id: int) -> None:
        """Write this process's counts of ``game_id`` for the other processes."""
        mine = super().devices(game_id)
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
