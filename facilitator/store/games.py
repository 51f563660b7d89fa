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
from dataclasses import dataclass, field
from typing import Callable

from sqlalchemy import select

from ..games import Refusal, Role, kind
from ..games.protocol import CLOCK, GM, Played
from .budget import RecordBudget
from .database import INTEGRITY_ERRORS, Database
from .deadlines import Deadlines
from .game_making import GameMaking, _refuse_control_characters
from .game_rows import GameRows
from .kept import MISSING, Kept
from .models import ActionRow, GameRow, LiveRow, utcnow
from .names import GameNames

# What other modules import from here, where it has always been.
from .codes import normalise_code  # noqa: E402,F401
from .game_making import SCREEN_CODE, kind_of  # noqa: E402,F401
from .game_rows import BROKEN_ERRORS, GameRef  # noqa: E402,F401

#: How many actions' screens' state before them this process keeps, over every game it
#: serves: an undo puts back what the screens showed before the action it takes back,
#: mostly a recent one (one not kept is read).
KEPT_BEFORES = 64 * 256

#: Seconds a game whose row another writer changed takes the locked path only: its
#: match, played on in vain, is loaded again, which the locked path need not do.
CONTENDED_SECONDS = 30.0

#: How many games' matches one process holds (those read longest ago go first: a game
#: not held is read again from its actions).
HELD_AT_MOST = 10_000

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


class GameStore(GameRows, GameMaking):
    """Games in the database, with their matches held per process (see the module).

    Its jobs, one module each: finding and reading game rows (``GameRows``,
    ``store/game_rows.py``), making, renaming and deleting games and their codes
    (``GameMaking``, ``store/game_making.py``), and here what this process holds of a
    game and the one path every change takes (``transact``)."""

    def __init__(self, database: Database, clock=time.time):
        self.database = database
        #: What the games' clocks and the end of a game read as now (``create_app`` sets
        #: the app's).
        self.clock = clock
        self._held = Kept("held games", limit=HELD_AT_MOST)   # game id → _Held
        self._contended: dict[int, float] = {}    # game id → until when it goes locked
        self._befores = Kept("screens before", limit=KEPT_BEFORES)   # (game, seq) → screens
        self.names = GameNames(database)
        self.deadlines = Deadlines()
        self._locks: dict[int, threading.Lock] = {}
        self._guard = threading.Lock()

    def forget(self) -> None:
        """Drop everything held (the database behind the store changed)."""
        with self._guard:
            self._held.forget()
            self._contended.clear()
            self._befores.forget()
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

    def _hold_new(self, game_id: int, match) -> None:
        """Hold a game made here, its match built from what was just stored (its first
        screens ask nothing to find it, and nothing is read back and parsed again)."""
        self._held.put(game_id, _Held(match, None))

    def forget_game(self, game_id: int) -> None:
        """Drop everything this process keeps of game ``game_id`` (it was deleted)."""
        with self._guard:
            self._held.forget(game_id)
            self._contended.pop(game_id, None)
            self._befores.forget_where(lambda key, _screens: key[0] == game_id)
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
        held = self._held.get(game_id, default=None)
        if (held is None or held.row is None or held.match.seq != held.row.seq
                or self._contended.get(game_id, 0.0) > time.monotonic()):
            return None
        return held.match, held.row

    def held_seq(self, game_id: int) -> int | None:
        """The seq of the match this process holds of game ``game_id``, or None."""
        held = self._held.get(game_id, default=None)
        return held.match.seq if held is not None else None

    def _caught_up(self, connection, row: LiveRow) -> _Held:
        """The match of ``row``, brought to the row's seq and screens' state
        (``connection``: a Connection; outside a transaction each read stands alone, so
        only the actions up to the row's seq are played)."""
        held = self._held.get(row.id, default=None)
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
        self._held.put(row.id, held)
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
                kept = self._held.get(game_id, default=None)
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
        held = self._held.get(game_id, default=None)
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
        self._held.forget(game_id)

    def _committed(self, row: LiveRow, appended: list[dict]) -> None:
        """Keep what a committed change left: the row at its version, the clock's
        deadline, the screens' state stored with its actions."""
        held = self._held.get(row.id, default=None)
        if held is not None:
            held.row = row
        self.deadlines.saw(row.id, row.deadline)
        for action in appended:
            self._befores.put((row.id, action["seq"]), action["live_before"])

    def _before_of(self, change: Change, seq: int) -> dict | None:
        kept = self._befores.get((change.row.id, seq))
        if kept is not MISSING:
            return kept
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


def _mark(match) -> tuple:
    """Where a match stands: its seq and the screens' state (a refused change that left
    it elsewhere made it unlike the database's)."""
    return match.seq, match.live


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
