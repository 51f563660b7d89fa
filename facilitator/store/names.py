"""The names a game is known by outside the GM's pages: its public id (what device
tokens name) and its watch code (what a projector opens). Neither ever changes in a
game's life nor names another game, so each is read once per process."""
from __future__ import annotations

import threading

from sqlalchemy import select

from .codes import normalise_code
from .kept import Kept
from .models import GameRow

#: How many of the newest games' names a process learns at once (``GameNames.game_of``);
#: an older game's are looked up one by one.
NAMED_AT_ONCE = 2000
#: How many names of each sort a process keeps (those asked for longest ago go first).
KNOWN_AT_MOST = 100_000


class GameNames:
    """Public ids and watch codes of games, learnt from the database as needed."""

    def __init__(self, database) -> None:
        self.database = database
        self._public_ids = Kept("game names", limit=KNOWN_AT_MOST)
        self._watch_codes = Kept("game names", limit=KNOWN_AT_MOST)
        self._lock = threading.Lock()
        self._named_after = 0                     # the newest game whose names are known

    def learnt(self, game_id: int, public_id: str, watch_code: str) -> None:
        """A game this process made: its names are known without asking."""
        self._public_ids.put(public_id, game_id)
        self._watch_codes.put(watch_code, game_id)

    def of_public_id(self, public_id: object) -> int | None:
        """The id of the game ``public_id`` names, or None."""
        if not isinstance(public_id, str) or not 0 < len(public_id) <= 64:
            return None
        return self._game_of(self._public_ids, GameRow.public_id, public_id)

    def of_watch_code(self, code: object) -> int | None:
        """The id of the game a projector's watch code shows, or None."""
        if not isinstance(code, str) or not 0 < len(code) < 40:
            return None
        return self._game_of(self._watch_codes, GameRow.watch_code, normalise_code(code))

    def _game_of(self, known: Kept, column, value: str) -> int | None:
        found = known.get(value, default=None)
        if found is None:
            # One lookup at a time, and each learns the names of every game made since
            # the last one: the devices of a hundred games reconnecting after a restart
            # ask the database once, not once a game.
            with self._lock:
                found = known.get(value, default=None)
                if found is None:
                    self._learn_new_games()
                    found = known.get(value, default=None)
                if found is None:         # an older game than those learnt, or none
                    with self.database.read() as connection:
                        found = connection.scalar(select(GameRow.id).where(column == value))
                    if found is not None:
                        known.put(value, found)
        return found

    def _learn_new_games(self) -> None:
        """Learn the names of the games made since the newest one this process knows of
        (ids are never reused), NAMED_AT_ONCE at the most."""
        with self.database.read() as connection:
            found = connection.execute(
                select(GameRow.id, GameRow.public_id, GameRow.watch_code)
                .where(GameRow.id > self._named_after)
                .order_by(GameRow.id.desc()).limit(NAMED_AT_ONCE)).all()
        for game_id, public_id, watch_code in found:
            self._public_ids.put(public_id, game_id)
            self._watch_codes.put(watch_code, game_id)
        if found:
            self._named_after = max(self._named_after, found[0][0])

    def forget(self, game_id: int | None = None) -> None:
        """Forget game ``game_id``'s names (deleted), or every name (None)."""
        with self._lock:
            if game_id is None:
                self._public_ids.forget()
                self._watch_codes.forget()
                self._named_after = 0
                return
            for names in (self._public_ids, self._watch_codes):
                names.forget_where(lambda _name, named: named == game_id)
