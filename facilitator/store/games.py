"""The game repository: create games, load them, and change them through one path.

Every change of a game goes through ``GameStore.transact``: the game row is
locked, the in-memory game is brought up to the database's sequence number,
the change is checked by the engine and appended, and the transaction
commits. On PostgreSQL, a game whose row this process knows at its current
version is changed in one statement instead, which applies only if the row
is still that version (else the locked way follows). Only after the commit
does the caller broadcast, so no screen ever shows a state that a restart
would lose.
"""
from __future__ import annotations

import html as html_module
import json
import re
import secrets
import sys
import threading
import time
import weakref
from collections import namedtuple
from dataclasses import dataclass, field
from typing import Callable

from sqlalchemy import Text, cast, delete, func, select

from ..engine import Game, Question, Refusal, parse_action, parse_settings
from ..engine.actions import Representative, Spokesperson
from ..engine.record import FORMAT
from ..safe_text import UnsafeText, check_all, check_text
from .database import INTEGRITY_ERRORS, Database
from .models import (LIVE_COLUMNS, ActionRow, ClassGameRow, GameRow, JoinCodeRow, LiveRow,
                     utcnow)

#: What a device token's check needs of a game (``GameStore.find_public_id``).
GameRef = namedtuple("GameRef", "id ended_at removed_devices")

#: Letters for join codes: no 0/O, 1/I/L, so a code read off a projector is typed right.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
JOIN_CODE_LENGTH = 8       # 31^8 ≈ 8.5e11 codes: not guessed in a lecture


def new_code(length: int = JOIN_CODE_LENGTH) -> str:
    """A random code from CODE_ALPHABET."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def normalise_code(text: str) -> str:
    """A typed code as stored: upper case, without spaces or dashes."""
    return "".join(ch for ch in text.upper() if ch.isalnum())[:32]


@dataclass
class Change:
    """What one transaction did to a game; handed to the function given to ``transact``."""

    game: Game
    row: LiveRow
    sent_by: str
    played: list[int] = field(default_factory=list)     # seq of each action appended
    duplicate_of: int | None = None                      # seq of an action sent twice
    _connection: object = None
    unchanged: bool = False         # an informational action that changed nothing: not stored
    appended: list[dict] = field(default_factory=list)   # the actions' rows, to store
    #: Whether the change runs in a transaction holding the game row's lock (see
    #: ``GameStore.transact``): only then may it write more than the game row.
    locked: bool = True
    _database: Database | None = None       # outside the locked path, for ``read``

    def read(self, statement):
        """The first value of ``statement``, read with the change (a query only; outside
        the locked path, on a connection of its own)."""
        if self._connection is not None:
            return self._connection.scalar(statement)
        with self._database.read() as connection:
            return connection.scalar(statement)

    def write(self, statement) -> None:
        """Run ``statement``, a write beyond the game row (another table), in the
        change's transaction. Outside the locked path the change starts again on it."""
        if not self.locked:
            raise _LockNeeded
        self._connection.execute(statement)

    def play(self, action: dict, client_id: str | None = None,
             timer_before: dict | None = None) -> int:
        """Check ``action`` with the engine and append it; returns its sequence number.

        ``client_id``: the sender's id of the action. The database refuses a second
        action with the same id in the game (see ``GameStore.transact``).
        ``timer_before``: the live timer as the screens showed it just before the
        action (kept so that an undo can put it back, R-G1).
        """
        _refuse_control_characters(action, "the action")
        parsed = parse_action(action)
        if _names_again(self.game, parsed):
            self.game.check(parsed)     # refused as it would be (R-T4, R-U9, R-O5), else:
            self.unchanged = True       # nothing to store, nothing to broadcast
            return self.game.seq
        _within_cap(self.game, parsed, self.sent_by)
        self.game.play(parsed)
        seq = self.game.seq
        # Stored with the game row's update when the change is done (Database.append).
        self.appended.append({"game_id": self.row.id, "seq": seq, "action": parsed.to_dict(),
                              "client_id": client_id, "sent_by": self.sent_by,
                              "created_at": utcnow(), "timer_before": timer_before})
        self.played.append(seq)
        return seq


#: The cap of a game's record (docs/deploy.md, "Flood limits"): a full 6-team, 6-round
#: game is ~700 actions and ~0.2 MB. Past it an action is refused with ``limit``; the GM
#: (and the timer) keep a reserve above the teams' cap, to end or correct the game.
MAX_ACTIONS = 5_000
MAX_RECORD_BYTES = 1_800_000
GM_RESERVE_ACTIONS, GM_RESERVE_BYTES = 100, 200_000
#: The record's re-upload limit (config MAX_CONTENT_LENGTH and web/results.py): the cap
#: with the reserve stays under it, with room for the upload's envelope.
UPLOAD_LIMIT = 2 * 1024 * 1024
assert MAX_RECORD_BYTES + GM_RESERVE_BYTES < UPLOAD_LIMIT - 50_000

#: game → [actions of its log counted, bytes of its record so far, the action last
#: checked against the cap and its bytes] (see ``record_bytes`` and ``_within_cap``).
_RECORD_SIZES: "weakref.WeakKeyDictionary[Game, list]" = weakref.WeakKeyDictionary()


def indented_size(value: object) -> tuple[int, int]:
    """The UTF-8 bytes and lines of ``json.dumps(value, ensure_ascii=False, indent=1)``,
    without writing it that way.

    An indent makes ``json`` use its pure-Python encoder, whose nested functions form
    a reference cycle on every call (two per action, left to the garbage collector).
    The compact C encoding with the same separators holds the same characters but for
    the line breaks and indents, which depend only on the nesting: counted here.
    """
    compact = json.dumps(value, ensure_ascii=False, separators=(",", ": "))
    size, lines = len(compact.encode("utf-8")), 1
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        children = (item.values() if isinstance(item, dict)
                    else item if isinstance(item, (list, tuple)) else None)
        if not children:
            continue
        # Each element on a line of its own, indented one more; the closing one, as deep.
        count = len(children)
        size += count * (depth + 2) + depth + 1
        lines += count + 1
        stack.extend((child, depth + 1) for child in children)
    return size, lines


def _action_bytes(data: dict) -> int:
    """Bytes an action takes in the downloaded record (``json.dumps(..., indent=1)``,
    UTF-8, each line indented two more, and its separator)."""
    size, lines = indented_size(data)
    return size + 2 * lines + 2


#: Question → (bytes, lines) of its indented JSON: games of one bank share their
#: questions (``_shared_question``), so each is counted once, not once a game.
_QUESTION_SIZES: "weakref.WeakKeyDictionary[Question, tuple[int, int]]" = \
    weakref.WeakKeyDictionary()


def _questions_bytes(questions) -> int:
    """What a record's list of ``questions`` adds to an empty one ("[]"), indented."""
    total = count = 0
    for question in questions:
        size = _QUESTION_SIZES.get(question)
        if size is None:
            size = _QUESTION_SIZES[question] = indented_size(question.to_dict())
        # At depth 2: each of its lines two spaces further in, after a line break and
        # two spaces, and a comma after all but the last.
        total += size[0] + 2 * (size[1] - 1) + 3 + 1
        count += 1
    # Less the last one's comma; the closing bracket on a line of its own ("\n ]").
    return total - 1 + 2 if count else 0


def record_bytes(game: Game, name: str = "") -> int:
    """The size of ``game``'s record as the GM downloads it, counted once per action."""
    entry = _RECORD_SIZES.get(game)
    if entry is None:
        empty = {"format": FORMAT, "name": name, "settings": game.settings.to_dict(),
                 "questions": [], "actions": []}
        # + 1: a list that holds actions closes on a line of its own ("\n ]", not "[]").
        entry = _RECORD_SIZES[game] = [0, indented_size(empty)[0] + 1
                                       + _questions_bytes(game.questions.values()), None, 0]
    log = game.log
    if entry[0] < len(log):
        entry[1] += sum(entry[3] if a is entry[2] else _action_bytes(a.to_dict())
                        for a in log[entry[0]:])
        entry[0] = len(log)
    return entry[1]


def _within_cap(game: Game, action, sent_by: str) -> None:
    """Refuse (``limit``) an action past the game's cap of actions or bytes."""
    gm = not sent_by.startswith("team")
    most = MAX_ACTIONS + (GM_RESERVE_ACTIONS if gm else 0)
    if game.seq >= most:
        raise Refusal("limit", f"this game holds {game.seq} actions, the most a game may "
                               f"hold{' for a team' if not gm else ''}: nothing more is stored")
    budget = MAX_RECORD_BYTES + (GM_RESERVE_BYTES if gm else 0)
    size = _action_bytes(action.to_dict())
    if record_bytes(game) + size > budget:
        raise Refusal("limit", f"this game's record is near {budget // 1000} KB, the most a "
                               f"game may hold: nothing more is stored")
    # Counted once: played next, it is the action record_bytes adds to the record.
    _RECORD_SIZES[game][2:] = [action, size]


#: What reading a game stored broken raises: JSON that does not parse (ValueError), JSON
#: of the wrong shape (TypeError, KeyError...), settings or actions the engine refuses.
BROKEN_ERRORS = (ValueError, TypeError, KeyError, IndexError, AttributeError, Refusal)

#: A game's row with its JSON columns as text (not its questions): parsed by
#: ``_raw_problem``, so that a damaged column is told, not raised by the query.
_JSON_COLUMNS = ("settings", "timer", "exchange_requests", "removed_devices")
_RAW_ROW = select(GameRow.id, GameRow.name, GameRow.created_at, GameRow.over, GameRow.winner,
                  *(cast(getattr(GameRow, name), Text).label(name) for name in _JSON_COLUMNS))
#: The JSON type each of those columns must hold.
_JSON_SHAPES = {"settings": dict, "timer": dict, "exchange_requests": list,
                "removed_devices": list}


def _raw_problem(raw) -> tuple[dict | None, str | None]:
    """A raw row's settings (None when unreadable) and why it is broken (None if not)."""
    settings = None
    for name in _JSON_COLUMNS:
        text = raw[name]
        if text is None:
            if name == "settings":
                return None, "settings: empty"
            continue
        try:
            value = json.loads(text)
        except ValueError as error:
            return None, f"{name}: not valid JSON ({error})"
        if not isinstance(value, _JSON_SHAPES[name]):
            return None, f"{name}: JSON of the wrong shape (a {type(value).__name__})"
        if name == "settings":
            settings = value
    try:
        parse_settings(settings)
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
        else:
            check_all(value, where)
    except UnsafeText as unsafe:
        raise Refusal("format", str(unsafe)) from None


def _names_again(game: Game, action) -> bool:
    """Whether ``action`` names the spokesperson or representative already named for
    that team in this turn (it would change nothing)."""
    if isinstance(action, Spokesperson):
        return game.state.turn.spokespersons.get(action.team) == action.name
    if isinstance(action, Representative):
        return game.state.turn.representatives.get(action.team) == action.name
    return False


class _LockNeeded(Exception):
    """A change outside the locked path wants to write more than the game row."""


#: How many of a game's latest actions this process keeps the stored timer of: an undo
#: puts back the timer kept with the action it takes back (R-G1), mostly a recent one.
KEPT_TIMERS = 64

#: How many of the newest games' public ids and watch codes a process learns at once
#: (``GameStore._named``); an older game's are looked up one by one.
NAMED_AT_ONCE = 2000

#: Seconds a game whose row another writer changed takes the locked path only: its
#: engine game, played on in vain, is loaded again, which the locked path need not do.
CONTENDED_SECONDS = 30.0


class GameStore:
    """Games in the database, with their replayed engine state cached per process."""

    def __init__(self, database: Database):
        self.database = database
        self._games: dict[int, Game] = {}
        # Each game's row as this process last read or wrote it (on PostgreSQL at its
        # version: a change can then be written in one statement, ``_transact_at_version``).
        self._rows: dict[int, LiveRow] = {}
        self._contended: dict[int, float] = {}    # game id → until when it goes locked
        self._timers: dict[int, dict[int, dict | None]] = {}   # game → seq → timer kept
        # What never changes in a game's life: the game a public id or a watch code names.
        self._public_ids: dict[str, int] = {}
        self._watch_codes: dict[str, int] = {}
        self._naming = threading.Lock()
        self._named_after = 0                     # the newest game whose names are known
        self._locks: dict[int, threading.Lock] = {}
        self._guard = threading.Lock()
        self._deadlines: dict[int, float] = {}   # timers this process saw committed or loaded

    def forget(self) -> None:
        """Drop every cached game (the database behind the store changed)."""
        with self._guard:
            self._games.clear()
            self._rows.clear()
            self._contended.clear()
            self._timers.clear()
            self._public_ids.clear()
            self._watch_codes.clear()
            self._named_after = 0
            self._deadlines.clear()

    # -- timers this process knows of --------------------------------------------------

    def earliest_deadline(self) -> float | None:
        """The first running timer's deadline among the games this process saw, if any."""
        return min(self._deadlines.values(), default=None)

    def forget_deadlines_until(self, now: float) -> None:
        """Drop the deadlines already past (the watcher has just dealt with them)."""
        with self._guard:
            for game_id in [g for g, d in self._deadlines.items() if d <= now]:
                del self._deadlines[game_id]

    def _saw_deadline(self, game_id: int, deadline: float | None) -> None:
        if deadline is None:
            self._deadlines.pop(game_id, None)
        else:
            self._deadlines[game_id] = deadline

    # -- creating and finding games ------------------------------------------------

    def create_game(self, name: str, settings: dict, questions: list[Question],
                    bank_name: str | None = None) -> int:
        """Create a game (settings checked by the engine: a Refusal names the rule).

        Its name, settings (team names, the class list) and questions are refused
        (``format``) when they hold a NUL byte or another control character: the
        database could not keep them, and no spreadsheet could show them."""
        _refuse_control_characters(name, "the game's name")
        _refuse_control_characters(settings, "settings")
        _refuse_control_characters([q.to_dict() for q in questions], "questions")
        parsed = parse_settings(settings)
        with self.database.session() as session:
            row = GameRow(name=name.strip()[:200] or "Partida", settings=parsed.to_dict(),
                          questions=[q.to_dict() for q in questions], seq=0,
                          watch_code=new_code(12), timer={}, exchange_requests=[],
                          bank_name=bank_name)
            session.add(row)
            session.flush()
            if bank_name and any("image:" in q.text_html + q.answer_html for q in questions):
                row.questions = _game_images(session, row.questions, bank_name, row.public_id)
            used = set()
            for team in range(1, parsed.team_count + 1):
                code = new_code()
                while code in used or session.get(JoinCodeRow, code) is not None:
                    code = new_code()
                used.add(code)
                session.add(JoinCodeRow(code=code, game_id=row.id, team=team))
            game_id, public_id, watch_code = row.id, row.public_id, row.watch_code
            stored_settings, stored_questions = row.settings, row.questions
        # A game made here is known here: its first screens ask nothing to find it, and
        # its engine game is built from what was just stored, not read back and parsed
        # again when the first screen connects.
        self._public_ids[public_id] = game_id
        self._watch_codes[watch_code] = game_id
        self._games[game_id] = _new_engine_game(stored_settings, stored_questions)
        return game_id

    def import_record(self, record: dict, name: str) -> int:
        """Store a replayable ``partida/1`` record as a game, every action included."""
        from ..engine import replay
        _refuse_control_characters(record.get("actions"), "actions")
        game = replay(record)
        game_id = self.create_game(name, record["settings"],
                                   [_sanitised(q) for q in game.questions.values()])
        with self.lock(game_id), self.database.session() as session:
            row = self.database.lock_game(session, game_id)
            for seq, action in enumerate(game.log, start=1):
                session.add(ActionRow(game_id=game_id, seq=seq, action=action.to_dict(),
                                      sent_by="record"))
            row.seq, row.over, row.winner = game.seq, game.state.over, _winner(game)
            row.ended_at = _ended_at(row, game)
        self._forget_state(game_id)
        return game_id

    def list_games(self) -> list[GameRow]:
        """Every game, newest first."""
        with self.database.session() as session:
            return list(session.scalars(select(GameRow).order_by(GameRow.id.desc())))

    # -- a game stored broken ------------------------------------------------------------

    def listing(self) -> list[dict]:
        """Every game, newest first, as the console lists them: ``{"id", "name",
        "created_at", "over", "winner", "teams", "broken"}``. ``broken`` is None, or why
        the row cannot be read (its settings, timer... are not the JSON they should be):
        one such row is listed as broken, and the others as always. The JSON columns are
        read as text and parsed here, so a damaged one cannot stop the query."""
        with self.database.read() as connection:
            rows = connection.execute(_RAW_ROW.order_by(GameRow.id.desc())).mappings().all()
        out = []
        for raw in rows:
            settings, broken = _raw_problem(raw)
            out.append({"id": raw["id"], "name": raw["name"], "created_at": raw["created_at"],
                        "over": bool(raw["over"]), "winner": raw["winner"],
                        "teams": [t["name"] for t in settings["teams"]] if settings else [],
                        "broken": broken})
        return out

    def broken(self, game_id: int) -> str | None:
        """Why game ``game_id`` as stored cannot be played or shown (a column or an action
        that is not the JSON it should be, a record that does not replay), or None when it
        can, or when there is no such game. Asks the engine to replay it (cached)."""
        with self.database.read() as connection:
            raw = connection.execute(_RAW_ROW.where(GameRow.id == game_id)).mappings().first()
        if raw is None:
            return None
        _settings, problem = _raw_problem(raw)
        if problem is not None:
            return problem
        try:
            self.load(game_id)
            self.row(game_id)
        except BROKEN_ERRORS as error:
            self._forget_state(game_id)
            return _described(error)
        return None

    def team_count(self, game_id: int) -> int:
        """How many teams game ``game_id`` has, from its join codes (readable whatever
        its settings hold)."""
        with self.database.read() as connection:
            return connection.scalar(select(func.count()).select_from(JoinCodeRow).where(
                JoinCodeRow.game_id == game_id)) or 0

    def row(self, game_id: int) -> GameRow | None:
        """The game row (settings, timer, codes loaded), or None."""
        with self.database.session() as session:
            row = session.get(GameRow, game_id)
            if row is not None:
                list(row.join_codes)
            return row

    def exists(self, game_id: int) -> bool:
        """Whether game ``game_id`` exists (one light query)."""
        with self.database.read() as connection:
            return connection.scalar(select(GameRow.id).where(GameRow.id == game_id)) is not None

    def find_join_code(self, code: str) -> JoinCodeRow | None:
        """The team a join code belongs to, or None."""
        with self.database.session() as session:
            return session.get(JoinCodeRow, normalise_code(code))

    def find_public_id(self, public_id: str) -> GameRef | None:
        """The game a device token names by its public id: its id, when it ended and the
        devices the GM removed (one indexed query; the questions are not read), or None."""
        if not isinstance(public_id, str) or not 0 < len(public_id) <= 64:
            return None
        with self.database.read() as connection:
            found = connection.execute(select(GameRow.id, GameRow.ended_at,
                                              GameRow.removed_devices)
                                       .where(GameRow.public_id == public_id)).first()
            return GameRef(found.id, found.ended_at, list(found.removed_devices or [])) \
                if found is not None else None

    def game_of_public_id(self, public_id: object) -> int | None:
        """The id of the game a device token names by its public id, or None. Read once
        per process: a game's public id never changes and is never another game's (a
        deleted game's id then finds no game to load)."""
        if not isinstance(public_id, str) or not 0 < len(public_id) <= 64:
            return None
        return self._named(self._public_ids, GameRow.public_id, public_id)

    def game_of_watch_code(self, code: object) -> int | None:
        """The id of the game a projector's watch code shows, or None (read once per
        process, as ``game_of_public_id``)."""
        if not isinstance(code, str) or not 0 < len(code) < 40:
            return None
        return self._named(self._watch_codes, GameRow.watch_code, normalise_code(code))

    def _named(self, known: dict[str, int], column, value: str) -> int | None:
        found = known.get(value)
        if found is None:
            # One lookup at a time, and each learns the names of every game made since
            # the last one: the devices of a hundred games reconnecting after a restart
            # ask the database once, not once a game.
            with self._naming:
                found = known.get(value)
                if found is None:
                    self._learn_new_games()
                    found = known.get(value)
                if found is None:         # an older game than those learnt, or none
                    with self.database.read() as connection:
                        found = connection.scalar(select(GameRow.id).where(column == value))
                    if found is not None:
                        known[value] = found
        return found

    def _learn_new_games(self) -> None:
        """Learn the public id and watch code of the games made since the newest one
        this process knows of (ids are never reused), NAMED_AT_ONCE at the most."""
        with self.database.read() as connection:
            found = connection.execute(
                select(GameRow.id, GameRow.public_id, GameRow.watch_code)
                .where(GameRow.id > self._named_after)
                .order_by(GameRow.id.desc()).limit(NAMED_AT_ONCE)).all()
        for game_id, public_id, watch_code in found:
            self._public_ids[public_id] = game_id
            self._watch_codes[watch_code] = game_id
        if found:
            self._named_after = max(self._named_after, found[0][0])

    def seq_of(self, game_id: int) -> int | None:
        """Game ``game_id``'s seq as the database has it now (one light query), or None."""
        with self.database.read() as connection:
            return connection.scalar(select(GameRow.seq).where(GameRow.id == game_id))

    def public_id(self, game_id: int) -> str | None:
        """The public id of game ``game_id`` (what its device tokens name), or None."""
        with self.database.read() as connection:
            return connection.scalar(select(GameRow.public_id).where(GameRow.id == game_id))

    def rotate_code(self, game_id: int, team: int) -> str | None:
        """Give team ``team`` of game ``game_id`` a fresh join code; the old one stops
        working (devices that already joined stay). The new code, or None if there is
        no such game or team."""
        with self.lock(game_id), self.database.session() as session:
            row = self.database.lock_game(session, game_id)
            if row is None or not 1 <= team <= len(row.settings["teams"]):
                return None
            session.execute(delete(JoinCodeRow).where(JoinCodeRow.game_id == game_id,
                                                      JoinCodeRow.team == team))
            code = new_code()
            while session.get(JoinCodeRow, code) is not None:
                code = new_code()
            session.add(JoinCodeRow(code=code, game_id=game_id, team=team))
            return code

    def remove_device(self, game_id: int, device: str) -> bool:
        """Refuse device ``device``'s token in game ``game_id`` from now on; False if
        there is no such game."""
        with self.lock(game_id):
            with self.database.session() as session:
                row = self.database.lock_game(session, game_id)
                if row is None:
                    return False
                removed = list(row.removed_devices or [])
                if device not in removed:
                    row.removed_devices = [*removed, device]
            # The row has a new version: the next change reads it, locked, instead of
            # finding its one statement refused and loading the game again.
            self.forget_row(game_id)
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
            self._forget_state(game_id)
            self._contended.pop(game_id, None)
            self._timers.pop(game_id, None)
            for names in (self._public_ids, self._watch_codes):
                for name in [name for name, named in names.items() if named == game_id]:
                    del names[name]
            self._deadlines.pop(game_id, None)
            self._locks.pop(game_id, None)

    def _forget_state(self, game_id: int) -> None:
        # The engine game and the row go together: the fast path needs both as they were.
        self._games.pop(game_id, None)
        self._rows.pop(game_id, None)

    # -- the state -------------------------------------------------------------------

    def lock(self, game_id: int) -> threading.Lock:
        """This process's lock of one game (the database lock covers other processes)."""
        with self._guard:
            return self._locks.setdefault(game_id, threading.Lock())

    def load(self, game_id: int) -> tuple[Game, LiveRow] | None:
        """The game replayed up to the database's last action, and its row's live columns."""
        with self.lock(game_id):
            row = self.database.read_live_row(game_id)
            if row is None:
                return None
            self._saw_deadline(game_id, row.timer_deadline)
            game = self._games.get(game_id)
            if game is None or game.seq != row.seq:
                # Each read stands alone: the actions up to the row's seq are there.
                with self.database.read() as connection:
                    game = self._current(connection, row)
            self._rows[game_id] = row           # what the database holds (at its version)
            return game, row

    def held(self, game_id: int) -> tuple[Game, LiveRow] | None:
        """The game and its row as this process last read or wrote them, asking nothing
        of the database; None when it holds no such pair.

        Current only where nothing but this process writes the database, which its
        caller knows (one process, no message queue: every change goes through it).
        Every write of a game row outside ``transact`` drops what is held of it
        (``forget_row``), or forgets the game.
        """
        game, row = self._games.get(game_id), self._rows.get(game_id)
        if (game is None or row is None or game.seq != row.seq
                or self._contended.get(game_id, 0.0) > time.monotonic()):
            return None
        return game, row

    def forget_row(self, game_id: int) -> None:
        """Game ``game_id``'s row was written outside ``transact``: what this process
        holds of it is no longer what the database has (the next read loads it)."""
        self._rows.pop(game_id, None)

    def _current(self, connection, row: LiveRow | GameRow) -> Game:
        """The engine game of ``row``, brought to the row's seq (``connection``: a
        Connection or a Session; outside a transaction each read stands alone, so
        only the actions up to the row's seq are played)."""
        game = self._games.get(row.id)
        if game is None or game.seq > row.seq:
            questions = connection.scalar(select(GameRow.questions).where(GameRow.id == row.id))
            game = _new_engine_game(row.settings, questions)
        if game.seq < row.seq:
            missing = connection.scalars(select(ActionRow.action).where(
                ActionRow.game_id == row.id, ActionRow.seq > game.seq,
                ActionRow.seq <= row.seq).order_by(ActionRow.seq))
            for action in missing:
                game.play(parse_action(action))
        self._games[row.id] = game
        return game

    def transact(self, game_id: int, sent_by: str, change: Callable[[Change], None],
                 client_id: str | None = None) -> Change:
        """Run ``change`` on the locked, current game and commit what it played.

        A Refusal raised by ``change`` rolls everything back and leaves the
        cached game as the database has it. ``client_id``: the id of the action
        ``change`` plays; if the game already holds an action with that id (a
        device sent it again), nothing changes and the result's ``duplicate_of``
        is its sequence number. The id is looked up only when the action fails
        (refused by the engine, or refused by the database's unique index), so
        the usual path costs no query for it.
        """
        try:
            return self._transact(game_id, sent_by, change)
        except (Refusal, *INTEGRITY_ERRORS):
            seq = self._seq_of_client_id(game_id, client_id) if client_id else None
            if seq is None:
                raise
            return Change(game=None, row=None, sent_by=sent_by, duplicate_of=seq)

    def _seq_of_client_id(self, game_id: int, client_id: str) -> int | None:
        with self.database.read() as connection:
            return connection.scalar(select(ActionRow.seq).where(
                ActionRow.game_id == game_id, ActionRow.client_id == client_id))

    def _transact(self, game_id: int, sent_by: str, change: Callable[[Change], None]) -> Change:
        with self.lock(game_id):
            if self.database.plain_sql:
                result = self._transact_at_version(game_id, sent_by, change)
                if result is not None:
                    return result
            try:
                with self.database.transaction() as connection:
                    row = self.database.live_row(connection, game_id, lock=True)
                    if row is None:
                        raise Refusal("format", f"there is no game {game_id}")
                    game = self._current(connection, row)
                    result = Change(game=game, row=row, sent_by=sent_by, _connection=connection)
                    change(result)
                    values = _row_values(result)
                    # The actions played and one UPDATE of what a change may touch;
                    # the row object is then set to match, as the callers see it.
                    version = self.database.append(connection, game_id, result.appended, values)
                    _set(row, values, version)
                self._committed(row, result.appended)
            except Refusal:
                if result_played(locals()):
                    self._forget_state(game_id)
                raise
            except BaseException:
                # The engine may have moved on before the failure: forget it.
                self._forget_state(game_id)
                raise
            return result

    def _transact_at_version(self, game_id: int, sent_by: str,
                             change: Callable[[Change], None]) -> Change | None:
        """The change on this process's game and row as they were last read or written,
        stored in one statement that applies only if the row is still at that version
        (PostgreSQL): one round trip instead of four (begin, lock, write, commit).

        None when it cannot be: nothing known of the game, another writer changed the
        row meanwhile, the change writes more than the row, or it is refused (the
        engine may have judged a state older than the database's). The caller then
        takes the locked path, which decides on the database's state.
        """
        known, game = self._rows.get(game_id), self._games.get(game_id)
        if (known is None or known.version is None or game is None or game.seq != known.seq
                or self._contended.get(game_id, 0.0) > time.monotonic()):
            return None
        row = known.copy()          # the known row stays as the database has it
        result = Change(game=game, row=row, sent_by=sent_by, locked=False,
                        _database=self.database)
        try:
            change(result)
            values = _row_values(result)
            version = self.database.append_if_unchanged(game_id, result.appended, values,
                                                        known.version)
        except (Refusal, _LockNeeded):
            if result.played:
                self._forget_state(game_id)
            return None
        except BaseException:
            self._forget_state(game_id)
            raise
        if version is None:
            # Another process or a page changed the row: an engine game that played on
            # in vain is loaded again; for a while this game takes the locked path.
            if result.played:
                self._forget_state(game_id)
            else:
                self._rows.pop(game_id, None)
            self._contended[game_id] = time.monotonic() + CONTENDED_SECONDS
            return None
        _set(row, values, version)
        self._committed(row, result.appended)
        return result

    def _committed(self, row: LiveRow, appended: list[dict]) -> None:
        """Keep what a committed change left: the row at its version, the timer's deadline,
        the timers stored with its actions."""
        self._rows[row.id] = row
        self._saw_deadline(row.id, row.timer_deadline)
        if appended:
            kept = self._timers.setdefault(row.id, {})
            for action in appended:
                kept[action["seq"]] = action["timer_before"]
            while len(kept) > KEPT_TIMERS:
                del kept[next(iter(kept))]          # the oldest: seqs come in order

    def timer_before(self, change: "Change", seq: int) -> dict | None:
        """The timer kept with action ``seq`` of the game ``change`` is changing (None for
        actions stored before timers were kept): as this process stored it, else read
        with the change. What is stored with an action never changes."""
        kept = self._timers.get(change.row.id)
        if kept is not None and seq in kept:
            return kept[seq]
        return change.read(select(ActionRow.timer_before).where(
            ActionRow.game_id == change.row.id, ActionRow.seq == seq))

    def record(self, game_id: int) -> dict | None:
        """The game's ``partida/1`` record, from the database."""
        with self.database.session() as session:
            row = session.get(GameRow, game_id)
            if row is None:
                return None
            actions = session.scalars(select(ActionRow.action).where(
                ActionRow.game_id == game_id).order_by(ActionRow.seq))
            return {"format": FORMAT, "name": row.name, "settings": row.settings,
                    "questions": row.questions, "actions": list(actions)}


def _sanitised(question: Question) -> Question:
    """A record's question with its formatted forms sanitised again: a record is a file
    anyone may have edited (its images, which are not in the record, are dropped)."""
    from dataclasses import replace

    from ..questions.formatting import sanitise
    return replace(question, **{key: sanitise(value, available=set()).html
                                for key in ("text_html", "answer_html")
                                if (value := getattr(question, key))})


def _row_values(change: Change) -> dict:
    """What a change sets on the game row: the live columns a change may touch, and with
    an action played, where the game stands."""
    row, game = change.row, change.game
    values = {"timer": dict(row.timer or {}), "timer_deadline": row.timer_deadline,
              "exchange_requests": list(row.exchange_requests or [])}
    if change.played:
        values.update(seq=game.seq, over=game.state.over, winner=_winner(game),
                      ended_at=_ended_at(row, game))
    return values


def _set(row: LiveRow, values: dict, version: int | None) -> None:
    """Set ``row`` to what was just stored: ``values``, at the row's new ``version``."""
    for name, value in values.items():
        setattr(row, name, value)
    row.version = version


def result_played(scope: dict) -> bool:
    """Whether a failed transaction had already played an action on the cached game."""
    result = scope.get("result")
    return result is None or bool(result.played)


def _new_engine_game(settings: dict, questions: list[dict]) -> Game:
    # Games made from the same bank hold the same questions: a process serving a
    # hundred games keeps one copy of each text (a bank of 120 questions is ~80 KB)
    # and one Question of each (frozen: 11 KB a game less for a bank of 120).
    return Game(parse_settings(settings), [_shared_question(q) for q in questions])


#: Every Question some cached game holds, by its fields (gone with the last game).
_QUESTIONS: weakref.WeakValueDictionary[tuple, Question] = weakref.WeakValueDictionary()


def _shared_question(stored: dict) -> Question:
    fields = tuple(_shared(stored.get(k, "")) for k in QUESTION_FIELDS)
    question = _QUESTIONS.get(fields)
    if question is None:
        question = _QUESTIONS.setdefault(fields, Question(*fields))
    return question


#: The fields of a stored question, in the order ``Question`` takes them.
QUESTION_FIELDS = ("id", "author", "type", "text", "answer", "notes", "text_html",
                   "answer_html")

_BANK_IMAGE = re.compile(r'src="image:([^"]+)"')


def _game_images(session, questions: list[dict], bank_name: str, public_id: str) -> list[dict]:
    """The game's questions with their bank images (``src="image:NAME"``) as URLs of
    this game (``/g/<public_id>/img/<image id>``, served without login to its teams
    and projector); an image the bank no longer has is dropped (its alt text stays)."""
    from .models import BankImage, BankRow
    names = {name for q in questions for key in ("text_html", "answer_html")
             for name in _BANK_IMAGE.findall(q.get(key, ""))}
    ids = dict(session.execute(select(BankImage.name, BankImage.id).join(
        BankRow, BankRow.id == BankImage.bank_id).where(
        BankRow.name == bank_name, BankImage.name.in_(names))).all())

    def url(match: re.Match) -> str:
        found = ids.get(html_module.unescape(match.group(1)))
        return f'src="/g/{public_id}/img/{found}"' if found else 'src=""'
    return [{**q, **{key: _BANK_IMAGE.sub(url, q[key]) for key in ("text_html", "answer_html")
                     if q.get(key)}} for q in questions]


def _shared(value: object) -> object:
    return sys.intern(value) if type(value) is str else value


def _ended_at(row: GameRow, game: Game):
    """When the game ended: kept once set, now when it has just ended, None again when
    an undo reopens it (device tokens expire a grace period after this)."""
    if not game.state.over:
        return None
    return row.ended_at or utcnow()


def _winner(game: Game) -> str | None:
    if not game.state.over:
        return None
    first = [r["name"] for r in game.standings() if r["rank"] == 1]
    return ", ".join(first)
