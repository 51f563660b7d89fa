"""The game repository: one way into the store for every game of every kind.

A game's rules are its kind's (``facilitator.games``): the store keeps what every
game has (its kind, settings and content, its accepted actions in order, what its
screens show between actions, where its clock stands) and knows a game only
through its kind's ``load`` and its match's ``act``.

Every write of a game goes through ``GameStore.transact``: the game row is locked,
the match is brought up to the database's sequence number, the change runs on it,
and one write stores the actions it appended with the row, whose ``version`` it
bumps; then the transaction commits. On PostgreSQL, a game whose row this process
holds at its current version is changed in one statement instead, which applies
only if the row is still at that version (else the locked way follows). Only after
the commit does the caller broadcast, so no screen ever shows a state that a
restart would lose.

What this process holds of a game (its match and row, and the size of its record)
is held with the row's version: ``transact`` is the only writer of game rows, so
what it committed is what the database holds until another process writes (and
``current`` reads it then).
"""
from __future__ import annotations

import threading
import time
from collections import namedtuple
from dataclasses import dataclass, field
from typing import Callable

import json

from sqlalchemy import Text, cast, delete, func, select

from ..games import Refusal, Role, kind
from ..games.protocol import CLOCK, GM, Played
from .budget import RecordBudget, check_record_length
from .codes import WATCH_CODE_LENGTH, fresh_code, new_code, normalise_code
from .database import INTEGRITY_ERRORS, Database
from .deadlines import Deadlines
from .models import (LIVE_COLUMNS, ActionRow, ClassGameRow, GameRow, JoinCodeRow, LiveRow,
                     utcnow)
from .names import GameNames
from ..safe_text import UnsafeText, check_all, check_text

#: What a device token's check needs of a game (``GameStore.find_public_id``).
GameRef = namedtuple("GameRef", "id ended_at removed_devices claims screens asks")

#: How many of a game's latest actions this process keeps the screens' state of: an
#: undo puts back what the screens showed before the action it takes back, mostly a
#: recent one.
KEPT_BEFORES = 64

#: Seconds a game whose row another writer changed takes the locked path only: its
#: match, played on in vain, is loaded again, which the locked path need not do.
CONTENDED_SECONDS = 30.0

#: The join code's seat number of a table's screen code (shown only on the teacher's
#: console): a device joining with it becomes one of the table's screens.
SCREEN_CODE = -1

#: Columns of the game row a change may set besides what its actions decide.
ROW_EXTRAS = frozenset({"name", "removed_devices", "claims", "screens", "asks"})


@dataclass
class Change:
    """What one transaction does to a game; handed to the function given to ``transact``."""

    match: object
    row: LiveRow
    sent_by: str
    played: list[int] = field(default_factory=list)     # seq of each action appended
    duplicate_of: int | None = None                      # seq of an action sent twice
    unchanged: bool = False         # the change changed nothing: not stored, not shown
    appended: list[dict] = field(default_factory=list)   # the actions' rows, to store
    extras: dict = field(default_factory=dict)           # other columns of the row to set
    #: Whether the change runs in a transaction holding the game row's lock (see
    #: ``GameStore.transact``): only then may it write more than the game row.
    locked: bool = True
    _connection: object = None
    _database: Database | None = None       # outside the locked path, for ``read``
    _store: "GameStore | None" = None
    _budget: RecordBudget | None = None

    def read(self, statement):
        """The first value of ``statement``, read with the change (a query only; outside
        the locked path, on a connection of its own)."""
        if self._connection is not None:
            return self._connection.scalar(statement)
        with self._database.read() as connection:
            return connection.scalar(statement)

    def write(self, statement) -> None:
        """Run ``statement``, a write of another table tied to this game (its class
        link), in the change's transaction. Outside the locked path the change starts
        again on it. The game row's version is bumped with it, so every process reads
        the game again."""
        if not self.locked:
            raise _LockNeeded
        self._connection.execute(statement)
        self.unchanged = False

    def set(self, **columns) -> None:
        """Set other columns of the game row (``ROW_EXTRAS``) with the change."""
        unknown = set(columns) - ROW_EXTRAS
        if unknown:
            raise ValueError(f"a change does not set {sorted(unknown)}")
        self.extras.update(columns)

    def act(self, action: object, by: Role, now: float, client_id: str | None = None) -> Played:
        """Hand ``action`` from ``by`` at ``now`` to the game (a Refusal is the game's
        answer) and keep what it appended; returns what it did.

        ``client_id``: the sender's id of the action. The database refuses a second
        action with the same id in the game (see ``GameStore.transact``)."""
        _refuse_control_characters(action, "the action")
        played = self.match.act(action, by, now, before_of=self.before_of)
        if not played.changed:
            self.unchanged = not (self.appended or self.played)
            return played
        if played.actions:
            self._budget.take(played.actions, gm=by.kind in (GM, CLOCK))
        first = self.match.seq - len(played.actions)
        for n, (data, before) in enumerate(zip(played.actions, played.befores), start=1):
            # The sender's id goes with the action it sent, the last one it caused.
            last = n == len(played.actions)
            self.appended.append({"game_id": self.row.id, "seq": first + n, "action": data,
                                  "client_id": client_id if last else None,
                                  "sent_by": self.sent_by, "created_at": self._store.utcnow(),
                                  "live_before": before})
            self.played.append(first + n)
        return played

    def play(self, action: dict, client_id: str | None = None) -> int:
        """``act`` for the GM, now: a record action as the console sends it; its seq."""
        self.act(action, Role.gm(), self._store.clock(), client_id)
        return self.match.seq

    def before_of(self, seq: int) -> dict | None:
        """What the screens showed just before action ``seq`` of this game (None for an
        action stored without it). What is stored with an action never changes."""
        return self._store._before_of(self, seq)


class _LockNeeded(Exception):
    """A change outside the locked path wants to write more than the game row."""


@dataclass
class _Held:
    """What this process holds of one game: its match and its row at a version, and the
    size of its record (counted when first needed)."""

    match: object
    row: LiveRow | None
    budget: RecordBudget | None = None


class GameStore:
    """Games in the database, with their matches held per process (see the module)."""

    def __init__(self, database: Database, clock=time.time):
        self.database = database
        #: What the games' clocks and the end of a game read as now (``create_app`` sets
        #: the app's).
        self.clock = clock
        self._held: dict[int, _Held] = {}
        self._contended: dict[int, float] = {}    # game id → until when it goes locked
        self._befores: dict[int, dict[int, dict | None]] = {}   # game → seq → screens before
        self.names = GameNames(database)
        self.deadlines = Deadlines()
        self._locks: dict[int, threading.Lock] = {}
        self._guard = threading.Lock()

    def forget(self) -> None:
        """Drop everything held (the database behind the store changed)."""
        with self._guard:
            self._held.clear()
            self._contended.clear()
            self._befores.clear()
        self.names.forget()
        self.deadlines.forget()

    # -- the clocks --------------------------------------------------------------------

    def utcnow(self):
        """Now by the store's clock, in UTC without a time zone (as stored)."""
        return utcnow(self.clock)

    def earliest_deadline(self) -> float | None:
        """The first clock's deadline among the games this process saw, if any."""
        return self.deadlines.earliest()

    def forget_deadlines_until(self, now: float) -> None:
        """Drop the deadlines already past (the watcher has just dealt with them)."""
        self.deadlines.forget_until(now)

    def due_games(self, now: float) -> list[int]:
        """Games whose clock's deadline has passed (one plain query)."""
        with self.database.read() as connection:
            return list(connection.scalars(select(GameRow.id).where(
                GameRow.deadline.is_not(None), GameRow.deadline <= now)))

    # -- creating and finding games ------------------------------------------------

    def create_game(self, game_kind: str, name: str, settings: dict, content: object = None,
                    bank_name: str | None = None, link=None) -> int:
        """Create a game of ``game_kind`` (its settings checked by the game: a Refusal
        names the rule). ``link(session, row)``: what to store with it in the same
        transaction (its content's images, a class's lineup)."""
        return self.create_games(game_kind, [{"name": name, "settings": settings,
                                              "content": content, "bank_name": bank_name,
                                              "link": link}])[0]

    def create_games(self, game_kind: str, games: list[dict], before=None) -> list[int]:
        """Create several games of ``game_kind`` in one transaction: all of them or none
        (a hall's round). Each of ``games``: ``{"name", "settings", "content",
        "bank_name", "link"}`` as ``create_game`` takes them; ``before(session)`` runs
        first in the same transaction (the hall's own row: its plan, its new round). The
        games' ids, in order."""
        found = kind(game_kind)
        prepared = [self._prepared(found, game) for game in games]
        made = []
        with self.database.session() as session:
            if before is not None:
                before(session)
            for game, (match, stored_settings, stored_content) in zip(games, prepared):
                made.append(self._insert(session, found, game, match, stored_settings,
                                         stored_content))
        ids = []
        for game_id, public_id, watch_code, stored_settings, stored, live in made:
            # A game made here is known here: its first screens ask nothing to find it,
            # and its match is built from what was just stored, not read back and parsed
            # again when the first screen connects.
            self.names.learnt(game_id, public_id, watch_code)
            self._held[game_id] = _Held(found.load(stored_settings, stored, [], live), None)
            ids.append(game_id)
        return ids

    @staticmethod
    def _prepared(found, game: dict) -> tuple:
        """A new game's match and what is stored of it, checked before any write."""
        name, settings, content = game.get("name") or "", game.get("settings"), game.get("content")
        # A NUL byte or another control character: the database could not keep it, and
        # no spreadsheet could show it.
        _refuse_control_characters(name, "the game's name")
        _refuse_control_characters(settings, "settings")
        if isinstance(content, dict):             # a game's players, a deck and a seed
            _refuse_control_characters(content, "the game's content")
        elif content is not None:
            _refuse_control_characters([q.to_dict() if hasattr(q, "to_dict") else q
                                        for q in content], "questions")
        match = found.new(settings, content) if content is not None else found.new(settings)
        stored_settings, stored_content = found.stored(match)
        return match, stored_settings, stored_content

    @staticmethod
    def _insert(session, found, game: dict, match, stored_settings, stored_content) -> tuple:
        """Insert one game's row and its join codes in ``session``'s transaction."""
        name = game.get("name") or ""
        row = GameRow(kind=found.name, name=name.strip()[:200] or found.name.capitalize(),
                      settings=stored_settings, content=stored_content, seq=0,
                      watch_code=new_code(WATCH_CODE_LENGTH), live=match.live,
                      deadline=match.deadline(), version=0, bank_name=game.get("bank_name"))
        session.add(row)
        session.flush()
        if game.get("link") is not None:
            game["link"](session, row)
        used: set[str] = set()
        # Every game has a code of its own (seat 0), the one the room opens: a device
        # picks its name, its seat or its team there. A game with a table's shared
        # screen also has a screen code (SCREEN_CODE) that only the teacher's console
        # shows, which makes a device the table's screen.
        for seat in range(SCREEN_CODE if _has_table(match) else 0, _seats(match) + 1):
            code = fresh_code(lambda c: c in used or session.get(JoinCodeRow, c) is not None)
            used.add(code)
            session.add(JoinCodeRow(code=code, game_id=row.id, team=seat))
        return row.id, row.public_id, row.watch_code, stored_settings, row.content, match.live

    def import_record(self, record: dict, name: str, content=None) -> int:
        """Store a replayable record as a game, every action included; ``content``: its
        content as it is to be stored (sanitised), else the record's."""
        check_record_length(record)
        _refuse_control_characters(record.get("actions") if isinstance(record, dict) else None,
                                   "actions")
        found = kind_of(record)
        match = found.replay(record)
        settings, stored = found.stored(match)
        game_id = self.create_game(found.name, name, settings,
                                   content if content is not None else stored)
        actions = record["actions"] if isinstance(record.get("actions"), list) \
            else match.stored_actions()

        def store_all(c: Change) -> None:
            c.match.follow(actions)
            for seq, action in enumerate(actions, start=1):
                c.appended.append({"game_id": game_id, "seq": seq, "action": action,
                                   "client_id": None, "sent_by": "record",
                                   "created_at": utcnow(), "live_before": None})
            c.played.extend(range(1, len(actions) + 1))
        try:
            self.transact(game_id, "record", store_all)
        except BaseException:
            # No empty game left behind: the record is stored whole or not at all.
            self.delete_game(game_id)
            raise
        held = self._held.get(game_id)
        if held is not None:
            held.budget = None           # counted again, with the record's actions
        return game_id

    def list_games(self) -> list[GameRow]:
        """Every game, newest first (its content not read)."""
        with self.database.read() as connection:
            found = connection.execute(select(*LIVE_COLUMNS).order_by(GameRow.id.desc()))
            return [LiveRow(values) for values in found.mappings()]

    # -- a game stored broken ------------------------------------------------------------

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
        held = self._held.get(game_id)
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

    def rotate_code(self, game_id: int, team: int) -> str | None:
        """Give seat ``team`` of game ``game_id`` a fresh join code; the old one stops
        working (devices that already joined stay). The new code, or None if there is
        no such game or seat."""
        with self.lock(game_id), self.database.session() as session:
            seats = session.scalar(select(JoinCodeRow.team).where(
                JoinCodeRow.game_id == game_id, JoinCodeRow.team == team).limit(1))
            if seats is None:
                return None
            session.execute(delete(JoinCodeRow).where(JoinCodeRow.game_id == game_id,
                                                      JoinCodeRow.team == team))
            code = fresh_code(lambda c: session.get(JoinCodeRow, c) is not None)
            session.add(JoinCodeRow(code=code, game_id=game_id, team=team))
            return code

    def remove_device(self, game_id: int, device: str) -> bool:
        """Refuse device ``device``'s token in game ``game_id`` from now on; False if
        there is no such game."""
        def removed(c: Change) -> None:
            listed = list(c.row.removed_devices or [])
            if device not in listed:
                c.set(removed_devices=[*listed, device])
            claims = dict(c.row.claims or {})
            kept = {seat: held for seat, held in claims.items() if held != device}
            if kept != claims:      # its seat is free for the device the GM moves it to
                c.set(claims=kept)
            screens = list(c.row.screens or [])
            if device in screens:
                c.set(screens=[d for d in screens if d != device])
            asks = dict(c.row.asks or {})
            if any(a.get("device") == device for a in asks.values()):
                c.set(asks={s: a for s, a in asks.items() if a.get("device") != device})
        try:
            self.transact(game_id, "gm", removed)
        except Refusal:
            return False
        return True

    def rename(self, game_id: int, name: str) -> bool:
        """Give game ``game_id`` another name; False if there is no such game."""
        try:
            self.transact(game_id, "gm", lambda c: c.set(name=name.strip()[:200] or c.row.name))
        except Refusal:
            return False
        return True

    def find_watch_code(self, code: str) -> LiveRow | None:
        """The game a projector's watch code shows (its live columns), or None."""
        with self.database.read() as connection:
            found = connection.execute(select(*LIVE_COLUMNS).where(
                GameRow.watch_code == normalise_code(code))).mappings().first()
            return LiveRow(found) if found is not None else None

    def delete_game(self, game_id: int) -> bool:
        """Delete a game and everything it holds."""
        with self.lock(game_id), self.database.session() as session:
            session.execute(delete(ActionRow).where(ActionRow.game_id == game_id))
            session.execute(delete(JoinCodeRow).where(JoinCodeRow.game_id == game_id))
            session.execute(delete(ClassGameRow).where(ClassGameRow.game_id == game_id))
            deleted = session.execute(delete(GameRow).where(GameRow.id == game_id)).rowcount
        self.forget_game(game_id)
        return bool(deleted)

    def forget_game(self, game_id: int) -> None:
        """Drop everything this process keeps of game ``game_id`` (it was deleted)."""
        with self._guard:
            self._held.pop(game_id, None)
            self._contended.pop(game_id, None)
            self._befores.pop(game_id, None)
            self._locks.pop(game_id, None)
        self.names.forget(game_id)
        self.deadlines.forget(game_id)

    # -- the state -------------------------------------------------------------------

    def lock(self, game_id: int) -> threading.Lock:
        """This process's lock of one game (the database lock covers other processes)."""
        with self._guard:
            return self._locks.setdefault(game_id, threading.Lock())

    def current(self, game_id: int):
        """What game ``game_id`` is now, as the database has it: ``(match, row)``, or None
        if there is no such game. Reads the row; the match held is brought up to it."""
        with self.lock(game_id):
            row = self.database.read_live_row(game_id)
            if row is None:
                return None
            self.deadlines.saw(game_id, row.deadline)
            with self.database.read() as connection:
                held = self._caught_up(connection, row)
            return held.match, row

    # The former name, for the screens' first read.
    load = current

    def held(self, game_id: int):
        """The game and its row as this process last read or wrote them, asking nothing
        of the database; None when it holds no such pair.

        Current only where nothing but this process writes the database, which its
        caller knows (one process, no message queue: every write goes through
        ``transact`` here)."""
        held = self._held.get(game_id)
        if (held is None or held.row is None or held.match.seq != held.row.seq
                or self._contended.get(game_id, 0.0) > time.monotonic()):
            return None
        return held.match, held.row

    def held_seq(self, game_id: int) -> int | None:
        """The seq of the match this process holds of game ``game_id``, or None."""
        held = self._held.get(game_id)
        return held.match.seq if held is not None else None

    def _caught_up(self, connection, row: LiveRow) -> _Held:
        """The match of ``row``, brought to the row's seq and screens' state
        (``connection``: a Connection; outside a transaction each read stands alone, so
        only the actions up to the row's seq are played)."""
        held = self._held.get(row.id)
        found = kind(row.kind)
        if held is None or held.match.seq > row.seq:
            content = connection.scalar(select(GameRow.content).where(GameRow.id == row.id))
            actions = list(connection.scalars(select(ActionRow.action).where(
                ActionRow.game_id == row.id, ActionRow.seq <= row.seq).order_by(ActionRow.seq)))
            held = _Held(found.load(row.settings, content, actions, row.live), row)
        elif held.match.seq < row.seq or held.row is None or held.row.version != row.version:
            missing = list(connection.scalars(select(ActionRow.action).where(
                ActionRow.game_id == row.id, ActionRow.seq > held.match.seq,
                ActionRow.seq <= row.seq).order_by(ActionRow.seq)))
            held.match.follow(missing, row.live)
            if held.budget is not None and missing:
                held.budget = None          # counted again when next needed
        held.row = row
        self._held[row.id] = held
        return held

    def _budget(self, held: _Held, row: LiveRow) -> RecordBudget:
        """The size of a held game's record, counted once (then kept with each action)."""
        if held.budget is None:
            found = kind(row.kind)
            settings, content = found.stored(held.match)
            record = found.record(settings, content, [], row.name)
            held.budget = RecordBudget(record, held.match.seq, held.match.stored_actions())
        return held.budget

    def transact(self, game_id: int, sent_by: str, change: Callable[[Change], None],
                 client_id: str | None = None) -> Change:
        """Run ``change`` on the locked, current game and commit what it did.

        A Refusal raised by ``change`` rolls everything back and leaves what this
        process holds as the database has it. ``client_id``: the id of the action
        ``change`` plays; if the game already holds an action with that id (a device
        sent it again), nothing changes and the result's ``duplicate_of`` is its
        sequence number. The id is looked up only when the action fails (refused by
        the game, or by the database's unique index), so the usual path costs no query
        for it."""
        try:
            return self._transact(game_id, sent_by, change)
        except (Refusal, *INTEGRITY_ERRORS):
            seq = self.seq_of_client_id(game_id, client_id) if client_id else None
            if seq is None:
                raise
            return Change(match=None, row=None, sent_by=sent_by, duplicate_of=seq)

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

    def _transact(self, game_id: int, sent_by: str, change: Callable[[Change], None]) -> Change:
        with self.lock(game_id):
            if self.database.plain_sql:
                result = self._transact_at_version(game_id, sent_by, change)
                if result is not None:
                    return result
            moved = False
            try:
                with self.database.transaction() as connection:
                    row = self.database.live_row(connection, game_id, lock=True)
                    if row is None:
                        raise Refusal("not_found", f"there is no game {game_id}")
                    held = self._caught_up(connection, row)
                    result = Change(match=held.match, row=row.copy(), sent_by=sent_by,
                                    _connection=connection, _store=self,
                                    _budget=self._budget(held, row))
                    before = _mark(held.match)
                    moved = True          # until the change is done, the match may move
                    change(result)
                    moved = False
                    if result.unchanged and not result.extras:
                        return result
                    values = _row_values(result)
                    self.database.append(connection, game_id, result.appended, values)
                    _set(result.row, values)
                self._committed(result.row, result.appended)
            except Refusal:
                # A refused change leaves the match as it was, but for what it did before
                # it was refused (a verdict that first locked the writing): then forget it.
                kept = self._held.get(game_id)
                if moved and kept is not None and _mark(kept.match) != before:
                    self._forget_state(game_id)
                raise
            except BaseException:
                # The match may have moved on before the failure: forget it.
                self._forget_state(game_id)
                raise
            return result

    def _transact_at_version(self, game_id: int, sent_by: str,
                             change: Callable[[Change], None]) -> Change | None:
        """The change on this process's match and row as they were last read or written,
        stored in one statement that applies only if the row is still at that version
        (PostgreSQL): one round trip instead of four (begin, lock, write, commit).

        None when it cannot be: nothing known of the game, another writer changed the
        row meanwhile, the change writes more than the row, or it is refused (the game
        may have judged a state older than the database's). The caller then takes the
        locked path, which decides on the database's state."""
        held = self._held.get(game_id)
        if (held is None or held.row is None or held.match.seq != held.row.seq
                or self._contended.get(game_id, 0.0) > time.monotonic()):
            return None
        known = held.row
        result = Change(match=held.match, row=known.copy(), sent_by=sent_by, locked=False,
                        _database=self.database, _store=self, _budget=self._budget(held, known))
        budget = (result._budget.count, result._budget.bytes)
        before = _mark(held.match)
        try:
            change(result)
            if result.unchanged and not result.extras:
                return result
            values = _row_values(result)
            stored = self.database.append_if_unchanged(game_id, result.appended, values,
                                                       known.version)
        except (Refusal, _LockNeeded):
            self._undo_count(held, budget)
            if _mark(held.match) != before:        # it moved before it was refused
                self._forget_state(game_id)
            return None
        except BaseException:
            self._forget_state(game_id)
            raise
        if not stored:
            # Another process or a page changed the row: a match that played on in vain
            # is loaded again; for a while this game takes the locked path.
            self._forget_state(game_id)
            self._contended[game_id] = time.monotonic() + CONTENDED_SECONDS
            return None
        _set(result.row, values)
        self._committed(result.row, result.appended)
        return result

    @staticmethod
    def _undo_count(held: _Held, budget: tuple[int, int]) -> None:
        if held.budget is not None:
            held.budget.count, held.budget.bytes = budget

    def _forget_state(self, game_id: int) -> None:
        # The match and the row go together: the fast path needs both as they were.
        self._held.pop(game_id, None)

    def _committed(self, row: LiveRow, appended: list[dict]) -> None:
        """Keep what a committed change left: the row at its version, the clock's
        deadline, the screens' state stored with its actions."""
        held = self._held.get(row.id)
        if held is not None:
            held.row = row
        self.deadlines.saw(row.id, row.deadline)
        if appended:
            kept = self._befores.setdefault(row.id, {})
            for action in appended:
                kept[action["seq"]] = action["live_before"]
            while len(kept) > KEPT_BEFORES:
                del kept[next(iter(kept))]          # the oldest: seqs come in order

    def _before_of(self, change: Change, seq: int) -> dict | None:
        kept = self._befores.get(change.row.id)
        if kept is not None and seq in kept:
            return kept[seq]
        return change.read(select(ActionRow.live_before).where(
            ActionRow.game_id == change.row.id, ActionRow.seq == seq))

    def record(self, game_id: int) -> dict | None:
        """The game's record (its kind's format), from the database."""
        with self.database.session() as session:
            row = session.get(GameRow, game_id)
            if row is None:
                return None
            actions = session.scalars(select(ActionRow.action).where(
                ActionRow.game_id == game_id).order_by(ActionRow.seq))
            return kind(row.kind).record(row.settings, row.content, list(actions), row.name)


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


def _refuse_control_characters(value: object, where: str) -> None:
    """A ``format`` Refusal naming the place of a NUL byte or another control character
    inside ``value`` (:mod:`facilitator.safe_text`), the message the screens show."""
    try:
        if isinstance(value, str):
            check_text(value, where)
        elif value is not None:
            check_all(value, where)
    except UnsafeText as unsafe:
        raise Refusal("format", str(unsafe)) from None


def _mark(match) -> tuple:
    """Where a match stands: its seq and the screens' state (a refused change that left
    it elsewhere made it unlike the database's)."""
    return match.seq, match.live


def kind_of(record: object):
    """The kind of game a record declares, or a Refusal (``format``)."""
    from ..games import kind_of_record
    found = kind_of_record(record)
    if found is None:
        raise Refusal("format", "this is not the record of a game this facilitator plays")
    return found


def _seats(match) -> int:
    """How many seats a game has (each gets a join code)."""
    from ..games.protocol import SEAT
    return sum(1 for role in match.audiences() if role.kind == SEAT)


def _has_table(match) -> bool:
    """Whether a game has a table's shared screen (a code of its own, seat 0)."""
    from ..games.protocol import TABLE
    return any(role.kind == TABLE for role in match.audiences())


def _row_values(change: Change) -> dict:
    """What a change sets on the game row: the screens' state, the clock's deadline and
    the new version; with an action played, where the game stands."""
    row, match = change.row, change.match
    values = {"live": match.live, "deadline": match.deadline(), "version": row.version + 1,
              **change.extras}
    if change.played:
        values.update(seq=match.seq, over=match.over, winner=match.winner(),
                      ended_at=_ended_at(row, match, change._store.clock),
                      acted_at=change._store.clock())
    return values


def _set(row: LiveRow, values: dict) -> None:
    """Set ``row`` to what was just stored."""
    for name, value in values.items():
        setattr(row, name, value)


def _ended_at(row: LiveRow, match, clock):
    """When the game ended: kept once set, now when it has just ended, None again when
    an undo reopens it (device tokens expire a grace period after this)."""
    if not match.over:
        return None
    return row.ended_at or utcnow(clock)
