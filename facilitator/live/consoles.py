"""Which console session each of this process's teacher connections belongs to.

A console's connections (role ``gm`` for a game, ``hall_gm`` for a hall) are
authenticated once, at connect, by the console session of their cookie. Kept here by
that session's key (``store.sessions.secret_hash``), so that ending a session («Salir»)
or every session ("log out every console") closes at once the connections it opened,
which would otherwise keep receiving every hand until they next sent something.
"""
from __future__ import annotations

import threading

#: Names every session in ``sids`` and in the other processes' kick ("log out every console").
EVERY_SESSION = "*"


class ConsoleConnections:
    """Connection id → console session key, for this process's teacher connections."""

    def __init__(self) -> None:
        self._by_sid: dict[str, str] = {}
        self._lock = threading.Lock()

    def add(self, sid: str, key: str) -> None:
        """Remember that connection ``sid`` was opened by the console session ``key``."""
        with self._lock:
            self._by_sid[sid] = key

    def remove(self, sid: str) -> None:
        """Forget connection ``sid`` (closed)."""
        with self._lock:
            self._by_sid.pop(sid, None)

    def sids(self, key: str) -> list[str]:
        """This process's connections of the session ``key``, or of every session
        (``EVERY_SESSION``)."""
        with self._lock:
            return [sid for sid, of in self._by_sid.items()
                    if key == EVERY_SESSION or of == key]
