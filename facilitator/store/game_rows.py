"""Finding and reading the rows of games (``GameStore``'s first job): every game as the
console lists it, one game's row, a code's or a public id's game, a game stored broken.
A mixin of ``GameStore`` (store/games.py), which holds the matches these read beside."""
from __future__ import annotations

import json
from collections import namedtuple

from sqlalchemy import Text, cast, func, select

from ..games import Refusal, kind
from .codes import normalise_code
from .models import LIVE_COLUMNS, ActionRow, GameRow, JoinCodeRow, LiveRow

#: What a device token's check needs of a game (``GameStore.find_public_id``).
GameRef = namedtuple("GameRef", "id ended_at removed_devices claims screens asks")


#: What reading a game stored broken raises: JSON that does not parse (ValueError), JSON
#: of the wrong shape (TypeError, KeyError...), settings or actions the game refuses.
BROKEN_ERRORS = (ValueError, TypeError, KeyError, IndexError, AttributeError, Refusal)


#: A game's row with its JSON columns as text (not its content): parsed by
#: ``_raw_problem``, so that a damaged column is told, not raised by the query.
_JSON_SHAPES = {"settings": dict, "live": dict, "removed_devices": list}


_RAW_ROW = select(GameRow.id, GameRow.kind, GameRow.name, GameRow.created_at, GameRow.over,
                  GameRow.winner, GameRow.hall_id,
                  *(cast(getattr(GameRow, name), Text).label(name) for name in _JSON_SHAPES))


def _raw_problem(raw) -> tuple[dict | None, str | None]:
    """A raw row's settings (None when unreadable) and why it is broken (None if not)."""
    settings = None
    for name, shape in _JSON_SHAPES.items():
        text = raw[name]
        if text is None or text == "null":
            if name == "settings":
                return None, "settings: empty"
            continue
        try:
            value = json.loads(text)
        except ValueError as error:
            return None, f"{name}: not valid JSON ({error})"
        if not isinstance(value, shape):
            return None, f"{name}: JSON of the wrong shape (a {type(value).__name__})"
        if name == "settings":
            settings = value
    try:
        kind(raw["kind"]).new(settings)
    except BROKEN_ERRORS as error:
        return None, "settings: " + _described(error)
    return settings, None


def _described(error: Exception) -> str:
    """A read failure in a few words (the rule and message of a refusal)."""
    if isinstance(error, Refusal):
        return f"{error.rule}: {error.message}"[:300]
    return f"{type(error).__name__}: {error}"[:300]


class GameRows:
    def due_games(self, now: float) -> list[int]:
        """Games whose clock's deadline has passed (one plain query)."""
        with self.database.read() as connection:
            return list(connection.scalars(select(GameRow.id).where(
                GameRow.deadline.is_not(None), GameRow.deadline <= now)))

    def list_games(self) -> list[GameRow]:
        """Every game, newest first (its content not read)."""
        with self.database.read() as connection:
            found = connection.execute(select(*LIVE_COLUMNS).order_by(GameRow.id.desc()))
            return [LiveRow(values) for values in found.mappings()]

    def listing(self) -> list[dict]:
        """Every game, newest first, as the console lists them: ``{"id", "name",
        "created_at", "over", "winner", "teams", "broken"}``. ``broken`` is None, or why
        the row cannot be read (its settings... are not the JSON they should be): one
        such row is listed as broken, and the others as always. The JSON columns are read
        as text and parsed here, so a damaged one cannot stop the query."""
        with self.database.read() as connection:
            rows = connection.execute(_RAW_ROW.order_by(GameRow.id.desc())).mappings().all()
        out = []
        for raw in rows:
            settings, broken = _raw_problem(raw)
            teams = settings.get("teams") if isinstance(settings, dict) else None
            out.append({"id": raw["id"], "name": raw["name"], "created_at": raw["created_at"],
                        "over": bool(raw["over"]), "winner": raw["winner"],
                        "teams": [t.get("name") for t in teams if isinstance(t, dict)]
                        if isinstance(teams, list) else [],
                        "broken": broken, "hall_id": raw["hall_id"]})
        return out

    def broken(self, game_id: int) -> str | None:
        """Why game ``game_id`` as stored cannot be played or shown (a column or an action
        that is not the JSON it should be, a record that does not replay), or None when it
        can, or when there is no such game. Asks the game to load it (held afterwards)."""
        with self.database.read() as connection:
            raw = connection.execute(_RAW_ROW.where(GameRow.id == game_id)).mappings().first()
        if raw is None:
            return None
        _settings, problem = _raw_problem(raw)
        if problem is not None:
            return problem
        try:
            self.current(game_id)
            self.row(game_id)
        except BROKEN_ERRORS as error:
            self._forget_state(game_id)
            return _described(error)
        return None

    def team_count(self, game_id: int) -> int:
        """How many seats game ``game_id`` has, from its join codes (readable whatever
        its settings hold)."""
        with self.database.read() as connection:
            return connection.scalar(select(func.count()).select_from(JoinCodeRow).where(
                JoinCodeRow.game_id == game_id, JoinCodeRow.team > 0)) or 0

    def row(self, game_id: int) -> GameRow | None:
        """The game row (settings, content, codes loaded), or None."""
        with self.database.session() as session:
            row = session.get(GameRow, game_id)
            if row is not None:
                list(row.join_codes)
            return row

    def exists(self, game_id: int) -> bool:
        """Whether game ``game_id`` exists (one light query)."""
        with self.database.read() as connection:
            return connection.scalar(select(GameRow.id).where(GameRow.id == game_id)) is not None

    def kind_of(self, game_id: int) -> str | None:
        """Which game ``game_id`` is, or None."""
        held = self._held.get(game_id, default=None)
        if held is not None:
            return held.match.kind
        with self.database.read() as connection:
            return connection.scalar(select(GameRow.kind).where(GameRow.id == game_id))

    def find_join_code(self, code: str) -> JoinCodeRow | None:
        """The seat a join code belongs to, or None."""
        with self.database.session() as session:
            return session.get(JoinCodeRow, normalise_code(code))

    def find_public_id(self, public_id: str) -> GameRef | None:
        """The game a device token names by its public id: its id, when it ended and the
        devices the GM removed (one indexed query; the content is not read), or None."""
        if not isinstance(public_id, str) or not 0 < len(public_id) <= 64:
            return None
        with self.database.read() as connection:
            found = connection.execute(select(GameRow.id, GameRow.ended_at,
                                              GameRow.removed_devices, GameRow.claims,
                                              GameRow.screens, GameRow.asks)
                                       .where(GameRow.public_id == public_id)).first()
            return GameRef(found.id, found.ended_at, list(found.removed_devices or []),
                           dict(found.claims or {}), list(found.screens or []),
                           dict(found.asks or {})) if found is not None else None

    def game_of_public_id(self, public_id: object) -> int | None:
        """The id of the game a device token names by its public id, or None (read once
        per process: a game's public id never changes and is never another game's)."""
        return self.names.of_public_id(public_id)

    def game_of_watch_code(self, code: object) -> int | None:
        """The id of the game a projector's watch code shows, or None."""
        return self.names.of_watch_code(code)

    def seq_of(self, game_id: int) -> int | None:
        """Game ``game_id``'s seq as the database has it now (one light query), or None."""
        with self.database.read() as connection:
            return connection.scalar(select(GameRow.seq).where(GameRow.id == game_id))

    def public_id(self, game_id: int) -> str | None:
        """The public id of game ``game_id`` (what its device tokens name), or None."""
        with self.database.read() as connection:
            return connection.scalar(select(GameRow.public_id).where(GameRow.id == game_id))

    def find_watch_code(self, code: str) -> LiveRow | None:
        """The game a projector's watch code shows (its live columns), or None."""
        with self.database.read() as connection:
            found = connection.execute(select(*LIVE_COLUMNS).where(
                GameRow.watch_code == normalise_code(code))).mappings().first()
            return LiveRow(found) if found is not None else None

    def versions(self, game_ids) -> dict[int, int]:
        """The stored version of each of ``game_ids`` (one query; a game gone is left out):
        bumped by every change, an action's or a timer's."""
        ids = sorted(set(game_ids))
        if not ids:
            return {}
        with self.database.read() as connection:
            return {game_id: version for game_id, version in connection.execute(
                select(GameRow.id, GameRow.version).where(GameRow.id.in_(ids)))}

    def seq_of_client_id(self, game_id: int, client_id: str) -> int | None:
        """The seq of game ``game_id``'s action sent with id ``client_id``, or None."""
        with self.database.read() as connection:
            return connection.scalar(select(ActionRow.seq).where(
                ActionRow.game_id == game_id, ActionRow.client_id == client_id))
