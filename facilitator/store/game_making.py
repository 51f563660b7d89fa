"""Making, renaming and deleting games and their join codes (``GameStore``'s second
job): a game (or a hall's round of them) made in one transaction, checked by its kind
before anything is written; a record stored whole or not at all. A mixin of
``GameStore`` (store/games.py), whose ``transact`` stores what a game plays."""
from __future__ import annotations

from sqlalchemy import delete, select

from typing import TYPE_CHECKING

from ..games import Refusal, kind
from ..safe_text import UnsafeText, check_all, check_text
from .budget import check_record_length
from .codes import WATCH_CODE_LENGTH, fresh_code, new_code

if TYPE_CHECKING:
    from .games import Change
from .models import ActionRow, ClassGameRow, GameRow, JoinCodeRow, utcnow

#: The join code's seat number of a table's screen code (shown only on the teacher's
#: console): a device joining with it becomes one of the table's screens.
SCREEN_CODE = -1


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


class GameMaking:
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
            self._hold_new(game_id, found.load(stored_settings, stored, [], live))
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

    def import_record(self, record: dict, name: str, content=None, match=None) -> int:
        """Store a replayable record as a game, every action included; ``content``: its
        content as it is to be stored (sanitised), else the record's; ``match``: the
        record already replayed by the caller (not replayed again)."""
        check_record_length(record)
        _refuse_control_characters(record.get("actions") if isinstance(record, dict) else None,
                                   "actions")
        found = kind_of(record)
        match = match if match is not None else found.replay(record)
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
        held = self._held.get(game_id, default=None)
        if held is not None:
            held.budget = None           # counted again, with the record's actions
        return game_id

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

    def delete_game(self, game_id: int) -> bool:
        """Delete a game and everything it holds."""
        with self.lock(game_id), self.database.session() as session:
            session.execute(delete(ActionRow).where(ActionRow.game_id == game_id))
            session.execute(delete(JoinCodeRow).where(JoinCodeRow.game_id == game_id))
            session.execute(delete(ClassGameRow).where(ClassGameRow.game_id == game_id))
            deleted = session.execute(delete(GameRow).where(GameRow.id == game_id)).rowcount
        self.forget_game(game_id)
        return bool(deleted)
