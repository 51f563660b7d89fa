"""Which connections this process holds, and for which game and team."""
from __future__ import annotations

import threading
from collections import Counter

from .audience import TEAM, Audience


class Presence:
    """Connection ids and their audiences, kept by each server process.

    The devices of each team are counted as they come and go, so the GM's
    count costs the same with 10 connections or 2,000.
    """

    def __init__(self) -> None:
        self._by_sid: dict[str, Audience] = {}
        self._team_devices: dict[int, Counter] = {}
        self._lock = threading.Lock()

    def add(self, sid: str, audience: Audience) -> None:
        """Remember that connection ``sid`` is ``audience``."""
        with self._lock:
            self._forget(sid)
            self._by_sid[sid] = audience
            if audience.role == TEAM:
                self._team_devices.setdefault(audience.game_id, Counter())[audience.team] += 1

    def remove(self, sid: str) -> Audience | None:
        """Forget connection ``sid``; returns who it was."""
        with self._lock:
            return self._forget(sid)

    def _forget(self, sid: str) -> Audience | None:
        audience = self._by_sid.pop(sid, None)
        if audience is not None and audience.role == TEAM:
            counts = self._team_devices[audience.game_id]
            counts[audience.team] -= 1
            if counts[audience.team] <= 0:
                del counts[audience.team]
            if not counts:
                del self._team_devices[audience.game_id]
        return audience

    def get(self, sid: str) -> Audience | None:
        """The audience of connection ``sid``, if it authenticated."""
        return self._by_sid.get(sid)

    def publish(self, game_id: int) -> None:
        """Share the counts of ``game_id`` with other processes: none here (one process
        sees every device; ``SharedPresence`` does it through Redis)."""

    def devices(self, game_id: int) -> dict[str, int]:
        """How many devices of each team of ``game_id`` are connected to this process."""
        with self._lock:
            counts = self._team_devices.get(game_id)
            if not counts:
                return {}
            return {str(team): n for team, n in sorted(counts.items())}
