"""Which connections this process holds, and for which game, team and device."""
from __future__ import annotations

import threading
from collections import Counter

from .audience import TEAM, Audience


class Presence:
    """Connection ids and their audiences, kept by each server process.

    The connections of each team's devices are counted as they come and go, so
    the GM's count costs the same with 10 connections or 2,000; each team's
    device ids are kept with them (the GM console lists them to remove one).
    """

    def __init__(self) -> None:
        self._by_sid: dict[str, Audience] = {}
        # game id → team → device id → connections of that device
        self._team_devices: dict[int, dict[int, Counter]] = {}
        self._lock = threading.Lock()

    def add(self, sid: str, audience: Audience) -> None:
        """Remember that connection ``sid`` is ``audience``."""
        with self._lock:
            self._forget(sid)
            self._by_sid[sid] = audience
            if audience.role == TEAM:
                teams = self._team_devices.setdefault(audience.game_id, {})
                teams.setdefault(audience.team, Counter())[audience.device] += 1

    def remove(self, sid: str) -> Audience | None:
        """Forget connection ``sid``; returns who it was."""
        with self._lock:
            return self._forget(sid)

    def _forget(self, sid: str) -> Audience | None:
        audience = self._by_sid.pop(sid, None)
        if audience is not None and audience.role == TEAM:
            teams = self._team_devices[audience.game_id]
            devices = teams[audience.team]
            devices[audience.device] -= 1
            if devices[audience.device] <= 0:
                del devices[audience.device]
            if not devices:
                del teams[audience.team]
            if not teams:
                del self._team_devices[audience.game_id]
        return audience

    def get(self, sid: str) -> Audience | None:
        """The audience of connection ``sid``, if it authenticated."""
        return self._by_sid.get(sid)

    def sids(self, game_id: int, device: str | None = None) -> list[str]:
        """This process's connections of game ``game_id`` (every role), or only those of
        one device. Walks every connection: for the rare delete and removal."""
        with self._lock:
            return [sid for sid, a in self._by_sid.items() if a.game_id == game_id
                    and (device is None or (a.device is not None and a.device == device))]

    def games(self) -> set[int]:
        """The games this process has connections of (any role)."""
        with self._lock:
            return {a.game_id for a in self._by_sid.values() if isinstance(a.game_id, int)}

    def forget_game(self, game_id: int) -> None:
        """Drop what is kept of a deleted game (its connections are being closed)."""
        with self._lock:
            for sid in [s for s, a in self._by_sid.items() if a.game_id == game_id]:
                self._forget(sid)

    def publish(self, game_id: int) -> None:
        """Share the counts of ``game_id`` with other processes: none here (one process
        sees every device; ``SharedPresence`` does it through Redis)."""

    def _local(self, game_id: int) -> dict[str, dict[str, int]]:
        """This process's devices of ``game_id``: team → device id → connections."""
        with self._lock:
            teams = self._team_devices.get(game_id) or {}
            return {str(team): {d or "": n for d, n in devices.items()}
                    for team, devices in sorted(teams.items())}

    def devices(self, game_id: int) -> dict[str, int]:
        """How many device connections of each team of ``game_id`` are connected."""
        return self.device_info(game_id)[0]

    def device_info(self, game_id: int) -> tuple[dict[str, int], dict[str, list[str]]]:
        """The GM's view of the devices of ``game_id``: (connections per team, the device
        ids of each team), e.g. ``({"1": 2}, {"1": ["k3Zx...", "Qw8p..."]})``."""
        return _info(self._local(game_id).items())

    # -- closing connections in every process ------------------------------------------

    def listen_for_kicks(self, handler, spawn, consoles=None) -> None:
        """Have ``handler(game_id, device, teams)`` called when another process asks to
        close connections (``kick``), and ``consoles(key)`` when it ends console sessions
        (``kick_consoles``): nothing to do with one process."""

    def kick(self, game_id: int, device: str | None = None, teams: int = 0) -> None:
        """Ask the other processes to close their connections of ``game_id`` (or of one
        device of it): none here; the caller closes this process's own."""

    def kick_consoles(self, key: str) -> None:
        """Ask the other processes to close the teacher connections of the console session
        ``key`` (or of every session, ``"*"``): none here; the caller closes its own."""


def _info(published) -> tuple[dict[str, int], dict[str, list[str]]]:
    """Merge (team, {device: connections}) pairs into counts and sorted device ids. A count
    alone (``{"2": 3}``, as processes of older releases publish) counts with no ids."""
    counts: Counter = Counter()
    ids: dict[str, set] = {}
    for team, devices in published:
        if isinstance(devices, int):
            counts[team] += devices
            continue
        for device, n in devices.items():
            counts[team] += n
            if device:
                ids.setdefault(team, set()).add(device)
    order = sorted((t for t, n in counts.items() if n > 0), key=int)
    return ({t: counts[t] for t in order}, {t: sorted(ids.get(t, ())) for t in order})
