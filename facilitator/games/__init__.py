"""The games of the facilitator, each a pure package behind ``protocol``.

``kind(name)`` and ``kind_of_record(record)`` find a game's ``GameKind``;
nothing outside this package names a game but through them. Packages are
imported when first asked for, so a server that plays one game loads one.
"""
from __future__ import annotations

import importlib
import os

from .protocol import GM, SEAT, TABLE, WATCHER, GameKind, Legal, Match, Refusal, Role, is_unicode

#: Game name -> the module holding its ``KIND`` (a GameKind).
MODULES = {
    "partida": "facilitator.games.partida",
    "colmena": "facilitator.games.colmena",
    "hive": "facilitator.games.hive",
}


def _plugged_in() -> dict[str, str]:
    """Games added from outside the package: ``FACILITATOR_GAMES="name=module,..."``
    (a module anywhere on the path with a ``KIND``; the tests plug a toy game in so)."""
    found = {}
    for item in os.environ.get("FACILITATOR_GAMES", "").split(","):
        name, _, module = item.strip().partition("=")
        if name and module and name not in MODULES:
            found[name] = module
    return found


MODULES.update(_plugged_in())

__all__ = ["GM", "SEAT", "TABLE", "WATCHER", "GameKind", "Legal", "Match", "Refusal", "Role",
           "is_unicode",
           "MODULES", "kind", "kind_of_record", "names", "record_of_text"]


def names() -> list[str]:
    """The games this facilitator plays."""
    return list(MODULES)


def kind(name: str) -> GameKind:
    """The game called ``name``; KeyError if there is none."""
    return importlib.import_module(MODULES[name]).KIND


def kind_of_record(record: object) -> GameKind | None:
    """The game whose record format ``record`` declares (``"colmena/1"``), or None."""
    fmt = record.get("format") if isinstance(record, dict) else None
    if not isinstance(fmt, str):
        return None
    name = fmt.split("/", 1)[0]
    if name not in MODULES:
        return None
    found = kind(name)
    return found if found.record_format == fmt else None


def record_of_text(text: str) -> dict | None:
    """The record a game reads from a text that is not a JSON record (Hive's bare
    GameString), or None when no game reads it so. Each game that writes its games as text
    reads it with ``record_of_text`` (the others refuse every text); the first that takes
    the text gives its record."""
    for name in MODULES:
        try:
            return kind(name).record_of_text(text)
        except Refusal:
            continue
    return None
