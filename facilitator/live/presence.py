"""Which connections this process holds, and for which game and team."""
from __future__ import annotations

import threading
from collections import Counter

from .audience import TEAM, Audience


class Presence:
    """Connection ids and their audiences, kept by each server process."""

    def __init__(self) -> None:
        self._by_sid: dict[str, Audience] = {}
        self._lock = threading.Lock()

    def add(self, sid: str, audience: Audience) -> None:
        """Remember that connection ``sid`` is ``audience``."""
        with self._lock:
            self._by_sid[sid] = audience

    def remove(self, sid: str) -> Audience | None:
        """Forget connection ``sid``; returns who it was."""
        with self._lock:
            return self._by_sid.pop(sid, None)

    def get(self, sid: str) -> Audience | None:
        """The audience of connection ``sid``, if it authenticated."""
        return self._by_sid.get(sid)

    def devices(self, game_id: int) -> dict[str, int]:
        """How many devices of each team of ``game_id`` are connected to this process."""
        with self._lock:
            counts = Counter(a.team for a in self._by_sid.values()
                             if a.game_id == game_id and a.role == TEAM)
        return {str(team): n for team, n in sorted(counts.items())}
