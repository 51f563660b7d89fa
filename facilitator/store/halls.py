"""Halls in the database: one game played by a whole class at once, in one room.

A hall's kind brings its hall rules (``kind(name).hall``: tables, rounds of pairs); the
store keeps the hall's row (its ``plan``, which only those rules read) and makes the
games each round names as ordinary games (``GameStore.create_game``), placed in the hall
by ``games.hall_id`` and ``games.hall_key``. Every write of a hall's row is checked
against its ``version``, so two consoles asking for the next round make one.
"""
from __future__ import annotations

import secrets

from sqlalchemy import select, update
from sqlalchemy.orm import aliased

from ..games import Refusal, kind
from ..safe_text import UnsafeText, check_all, check_text
from .codes import WATCH_CODE_LENGTH, fresh_code, new_code, normalise_code
from .games import SCREEN_CODE, GameStore
from .kept import MISSING, Kept
from .models import ClassRow, GameRow, HallRow, JoinCodeRow

#: At most this many players in one hall (a lecture hall's class).
MAX_PLAYERS = 200
MAX_NAME = 200


def _hall(row: HallRow) -> dict:
    return {"id": row.id, "public_id": row.public_id, "kind": row.kind, "name": row.name,
            "created_at": row.created_at.isoformat(timespec="minutes"),
            "settings": dict(row.settings or {}), "players": list(row.players),
            "plan": row.plan, "shown": list(row.shown or []), "watch_code": row.watch_code,
            "version": row.version, "class_id": row.class_id,
            "lineup": list(row.lineup) if row.lineup is not None else None,
            "door_code": row.door_code, "holders": dict(row.holders or {})}


def _read_hall(connection, hall_id: int) -> dict | None:
    """Hall ``hall_id``'s row as a dict (a plain query: no ORM session), or None; with
    ``projector_names``: whether its projector may show the students' names (a hall made
    from a class follows the class's choice; a hall of a pasted list may)."""
    row = connection.execute(select(HallRow.__table__).where(HallRow.id == hall_id)).first()
    if row is None:
        return None
    hall = _hall(row)
    hall["projector_names"] = row.class_id is None or bool(connection.scalar(
        select(ClassRow.projector_names).where(ClassRow.id == row.class_id)))
    return hall


def _read_games(connection, hall_id: int) -> list[dict]:
    """The games of hall ``hall_id`` (as ``Halls.games_of`` gives them), in one query."""
    screen = aliased(JoinCodeRow)
    rows = connection.execute(
        select(GameRow.id, GameRow.hall_key, GameRow.name, GameRow.claims, GameRow.acted_at,
               GameRow.asks, JoinCodeRow.code, screen.code.label("screen_code"))
        .outerjoin(JoinCodeRow, (JoinCodeRow.game_id == GameRow.id) & (JoinCodeRow.team == 0))
        .outerjoin(screen, (screen.game_id == GameRow.id) & (screen.team == SCREEN_CODE))
        .where(GameRow.hall_id == hall_id).order_by(GameRow.id)).all()
    return [{"key": r.hall_key, "game_id": r.id, "name": r.name, "table_code": r.code,
             "screen_code": r.screen_code,
             "claims": dict(r.claims or {}), "asks": dict(r.asks or {}),
             "acted_at": r.acted_at} for r in rows]


def _code_taken(session, code: str) -> bool:
    """Whether ``code`` is already a hall's door code or a game's join code (a code typed
    at the join page finds one thing)."""
    return (session.get(JoinCodeRow, code) is not None
            or session.scalar(select(HallRow.id).where(HallRow.door_code == code)) is not None)


def _checked(value: object, where: str) -> None:
    try:
        if isinstance(value, str):
            check_text(value, where)
        else:
            check_all(value, where)
    except UnsafeText as unsafe:
        raise Refusal("format", str(unsafe)) from None


class Halls:
    """The halls of one database, their games made through the game store."""

    def __init__(self, store: GameStore):
        self.store = store
        self.database = store.database
        # Each game's last summary, stamped with the seq it was made at: a game's actions
        # are only ever appended (an undo is one more), so a seq names one state of it.
        self._summaries_at = Kept("hall summaries")

    def rules(self, kind_name: str):
        """The hall rules of game ``kind_name``; a Refusal when it is not played so."""
        try:
            found = kind(kind_name)
        except KeyError:
            raise Refusal("format", f"there is no game {kind_name!r}") from None
        rules = found.hall
        if rules is None:
            raise Refusal("format", f"{kind_name} is not played by a whole class at once")
        return rules

    def create(self, kind_name: str, name: str, players: list[str], settings: dict | None = None,
               seed: int | None = None, class_id: int | None = None,
               lineup: list[int] | None = None) -> int:
        """A new hall of ``kind_name`` for ``players`` (names, in the teacher's order;
        with a class, ``lineup`` holds each one's student id), its first round's games
        made. A Refusal (the hall rule's id) when the rules make no plan of them."""
        rules = self.rules(kind_name)
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise Refusal("format", "players is a list of names")
        players = [p.strip() for p in players if p.strip()]
        if len(players) > MAX_PLAYERS:
            raise Refusal("format", f"at most {MAX_PLAYERS} players in one hall")
        settings = dict(settings or {})
        _checked(name, "the hall's name")
        _checked(players, "players")
        _checked(settings, "settings")
        seed = secrets.randbelow(2**31) if seed is None else seed
        plan = rules.plan(players, settings, seed)
        made: list[int] = []

        def hall_row(session) -> None:
            row = HallRow(kind=kind_name, name=(name or "").strip()[:MAX_NAME] or kind_name,
                          settings=settings, players=players, plan=plan, shown=[],
                          watch_code=new_code(WATCH_CODE_LENGTH), version=0,
                          class_id=class_id, lineup=lineup, holders={},
                          door_code=fresh_code(lambda c: _code_taken(session, c)))
            session.add(row)
            session.flush()
            made.append(row.id)
        # The hall and its first round's games in one transaction: all or nothing.
        self._make_games(made, kind_name, rules.round_games(plan), before=hall_row)
        return made[0]

    def _make_games(self, hall: list[int], kind_name: str, games: list[dict],
                    holders: dict | None = None, before=None) -> list[int]:
        """Make a round's ``games`` of the hall whose id is ``hall[0]`` (set by ``before``
        for a new hall) in one transaction with ``before(session)`` (the hall's own
        write): a crash between them leaves no round half made."""
        specs = []
        for game in games:
            # Each seat goes to the device that holds its player in the hall (the last
            # round's phone is this round's): no other device takes it first.
            claims = {str(seat): holders[player] for player, seat in
                      (game.get("seats") or {}).items() if player in (holders or {})}

            def link(session, row, key=game["key"], claims=claims):
                row.hall_id, row.hall_key = hall[0], key
                row.claims = claims
            specs.append({"name": game.get("name") or game["key"],
                          "settings": game.get("settings") or {},
                          "content": game.get("content"), "link": link})
        return self.store.create_games(kind_name, specs, before=before)

    def hall(self, hall_id: int) -> dict | None:
        """Hall ``hall_id`` (its row as a dict), or None."""
        with self.database.read() as connection:
            return _read_hall(connection, hall_id)

    def of_class(self, class_id: int) -> list[int]:
        """The halls made from class ``class_id`` (their projectors follow its choices)."""
        with self.database.read() as connection:
            return list(connection.scalars(select(HallRow.id).where(HallRow.class_id == class_id)))

    def of_door_code(self, code: object) -> int | None:
        """The hall whose door code (the lecture's code) is ``code``, typed in any case,
        with or without its dash; or None."""
        if not isinstance(code, str) or not 0 < len(code) <= 40:
            return None
        with self.database.read() as connection:
            return connection.scalar(select(HallRow.id).where(
                HallRow.door_code == normalise_code(code)))

    def of_public_id(self, public_id: object) -> int | None:
        """The hall a hall token names by its public id, or None."""
        if not isinstance(public_id, str) or not 0 < len(public_id) <= 64:
            return None
        with self.database.read() as connection:
            return connection.scalar(select(HallRow.id).where(HallRow.public_id == public_id))

    def hold(self, hall_id: int, player: int, device: str, take: bool = False) -> str:
        """Device ``device`` holds player ``player`` of the hall (its seats in every round
        follow): ``ok`` (now or already), ``held`` (another device holds that player:
        the seat's own request decides), ``elsewhere`` (this device holds another
        player), ``unknown``. ``take``: the device now holds the player's seat (the
        teacher moved it): the hall follows."""
        for _ in range(3):
            hall = self.hall(hall_id)
            if hall is None or not 0 <= player < len(hall["players"]):
                return "unknown"
            holders = hall["holders"]
            held = holders.get(str(player))
            if held == device:
                return "ok"
            if any(d == device for p, d in holders.items() if p != str(player)):
                if not take:
                    return "elsewhere"
                holders = {p: d for p, d in holders.items() if d != device}
            if held is not None and not take:
                return "held"
            try:
                self._write(hall, holders={**holders, str(player): device})
                return "ok"
            except Refusal:
                continue            # the hall changed meanwhile: look again
        return "held"

    def of_watch_code(self, code: object) -> int | None:
        """The hall whose projector code is ``code``, or None."""
        if not isinstance(code, str) or not 0 < len(code) <= 40:
            return None
        with self.database.read() as connection:
            return connection.scalar(select(HallRow.id).where(HallRow.watch_code == code))

    def listing(self) -> list[dict]:
        """Every hall, newest first: id, kind, name, created_at, players' count."""
        with self.database.session() as session:
            rows = session.scalars(select(HallRow).order_by(HallRow.id.desc())).all()
            return [{"id": r.id, "kind": r.kind, "name": r.name, "players": len(r.players),
                     "created_at": r.created_at.isoformat(timespec="minutes")} for r in rows]

    def games_of(self, hall_id: int) -> list[dict]:
        """The games of hall ``hall_id`` in play order: ``{"key", "game_id", "name",
        "table_code", "claims", "acted_at"}`` (the code of the table's screen and chooser,
        if it has one; the device holding each personal seat; when its last action was
        accepted, epoch seconds: how long a table has been waiting)."""
        with self.database.read() as connection:
            return _read_games(connection, hall_id)

    def hall_of_game(self, game_id: int) -> int | None:
        """The hall game ``game_id`` is played in, or None."""
        with self.database.read() as connection:
            return connection.scalar(select(GameRow.hall_id).where(GameRow.id == game_id))

    def summaries(self, hall: dict, current=None) -> dict[str, dict]:
        """Each game's summary (its key → the hall rules' ``summary`` of its match).
        ``current(game_id)``: a game's ``(match, row)`` as the caller holds it (by default
        the store's ``current``, which reads the row)."""
        return self._summaries(hall, self.games_of(hall["id"]), current)[0]

    def _summaries(self, hall: dict, games: list[dict], current=None):
        """Each game's summary and its seq, by the game's key."""
        rules = self.rules(hall["kind"])
        current = current or self.store.current
        summaries, seqs = {}, {}
        for game in games:
            loaded = current(game["game_id"])
            if loaded is None:
                continue                    # deleted meanwhile
            match = loaded[0]
            made = self._summaries_at.get(game["game_id"], match.seq)
            if made is MISSING:
                made = self._summaries_at.put(game["game_id"], rules.summary(match), match.seq)
            summaries[game["key"]], seqs[game["key"]] = made, match.seq
        return summaries, seqs

    def view(self, hall_id: int, audience) -> dict | None:
        """The hall's screen for ``audience`` (the hall rules' view), with the hall's
        name, kind and version; None when there is no such hall."""
        found = self.views(hall_id, [audience])
        return found[0][0] if found is not None else None

    def views(self, hall_id: int, audiences: list, current=None):
        """The hall's screen for each of ``audiences`` (as ``view`` gives one), from one
        read of the hall and of its games: ``(screens, games)`` (``games`` as
        ``games_of`` gives them), or None when there is no such hall. Each screen also
        has ``seqs``, every game's seq by its key: how far the screen shows each table.
        ``current``: as for ``summaries``."""
        found = self.read(hall_id)
        return self.screens_of(*found, audiences, current) if found is not None else None

    def read(self, hall_id: int) -> tuple[dict, list[dict]] | None:
        """Hall ``hall_id`` and its games (as ``hall`` and ``games_of`` give them), in one
        read; None when there is no such hall."""
        with self.database.read() as connection:
            hall = _read_hall(connection, hall_id)
            return (hall, _read_games(connection, hall_id)) if hall is not None else None

    def screens_of(self, hall: dict, games: list[dict], audiences: list, current=None):
        """``views`` of a hall and its games already read: ``(screens, games)``. The
        watcher's view names no student when the hall's class keeps names off the
        projector (the hall rules leave them out of it; the teacher's keeps them)."""
        rules = self.rules(hall["kind"])
        names = hall.get("projector_names", True)
        summaries, seqs = self._summaries(hall, games, current)
        head = {"id": hall["id"], "name": hall["name"], "kind": hall["kind"],
                "version": hall["version"]}
        return [{"hall": head, "view": rules.view(hall["plan"], summaries, audience,
                                                  hall["shown"], names=names), "seqs": seqs}
                for audience in audiences], games

    def standings(self, hall_id: int) -> list[dict]:
        """Each player's place in the hall so far (the hall rules' standings)."""
        hall = self.hall(hall_id)
        if hall is None:
            return []
        return self.rules(hall["kind"]).standings(hall["plan"], self.summaries(hall))

    def _write(self, hall: dict, connection=None, **values) -> None:
        """Write hall columns if the row is still at the version read; a Refusal
        (``stale``) when another console changed it meanwhile. ``connection``: the
        transaction to write in (a round's), else one of its own."""
        if connection is None:
            with self.database.transaction() as connection:
                return self._write(hall, connection, **values)
        done = connection.execute(
            update(HallRow).where(HallRow.id == hall["id"], HallRow.version == hall["version"])
            .values(version=hall["version"] + 1, **values))
        if done.rowcount != 1:
            raise Refusal("stale", "the hall changed meanwhile: look again and retry")

    def next_round(self, hall_id: int) -> list[int]:
        """The hall's next round, its games made; a Refusal (the hall rule's id) when
        none may follow yet."""
        hall = self.hall(hall_id)
        if hall is None:
            raise Refusal("not_found", f"there is no hall {hall_id}")
        rules = self.rules(hall["kind"])
        plan = rules.next_round(hall["plan"], self.summaries(hall))

        def write_plan(session) -> None:
            self._write(hall, plan=plan, connection=session.connection())
        # The plan and the round's games in one transaction: all or nothing.
        return self._make_games([hall_id], hall["kind"], rules.round_games(plan),
                                hall["holders"], before=write_plan)

    def set_shown(self, hall_id: int, keys: list[str]) -> None:
        """The games the projector's live boards show (their keys); the hall rules
        refuse what they cannot show."""
        hall = self.hall(hall_id)
        if hall is None:
            raise Refusal("not_found", f"there is no hall {hall_id}")
        rules = self.rules(hall["kind"])
        if not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
            raise Refusal("format", "shown is a list of game keys")
        known = {game["key"] for game in self.games_of(hall_id)}
        unknown = [k for k in keys if k not in known]
        if unknown:
            raise Refusal("format", f"no game {unknown[0]!r} in this hall")
        rules.check_shown(hall["plan"], keys)
        self._write(hall, shown=list(dict.fromkeys(keys)))

    def delete(self, hall_id: int, delete_game=None) -> list[int]:
        """Delete hall ``hall_id`` and its games (each with ``delete_game``, the live
        layer's when it must close their screens; else the store's); the ids of the
        games deleted."""
        delete_game = delete_game or self.store.delete_game
        with self.database.read() as connection:
            games = list(connection.scalars(select(GameRow.id).where(GameRow.hall_id == hall_id)))
        for game_id in games:
            delete_game(game_id)
            self._summaries_at.forget(game_id)
        with self.database.session() as session:
            row = session.get(HallRow, hall_id)
            if row is not None:
                session.delete(row)
        return games
