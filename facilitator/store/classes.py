"""Classes in the database: their students and their links to their games.

Every function takes the :class:`~facilitator.store.database.Database` (what adds up
across a class's games, its league and participation, is
:mod:`facilitator.classes.summaries`'s: the store keeps no game's rules).
"""
from __future__ import annotations

from sqlalchemy import bindparam, delete, func, select, update

from ..classes import StudentEntry, roster_names
from ..classes.league import SCHEMES
from ..classes.roster import MAX_STUDENTS
from ..i18n.collation import name_key
from ..safe_text import UnsafeText, check_all, check_text
from .database import Database
from .models import BankRow, ClassGameRow, ClassRow, GameRow, HallRow, StudentRow

MAX_CLASSES = 200
MAX_CLASS_NAME = 200


class ClassError(ValueError):
    """A change to a class that cannot be made; the message says why."""


def _student(row: StudentRow) -> dict:
    return {"id": row.id, "name": row.name, "email": row.email, "id_number": row.id_number,
            "left": row.left}


def _class(row: ClassRow, students: bool = True) -> dict:
    data = {"id": row.id, "name": row.name, "created_at": row.created_at.isoformat(timespec="minutes"),
            "bank_id": row.bank_id, "settings": dict(row.settings or {}),
            "league_scheme": row.league_scheme, "projector_names": row.projector_names}
    if students:
        data["students"] = [_student(s) for s in row.students]
    return data


def list_classes(database: Database, lang: str = "es") -> list[dict]:
    """Every class, by name (as ``lang`` sorts it): id, name, how many students (present
    in the list) and games."""
    with database.session() as session:
        counts = dict(session.execute(select(StudentRow.class_id, func.count()).where(
            StudentRow.left.is_(False)).group_by(StudentRow.class_id)).all())
        games = dict(session.execute(select(ClassGameRow.class_id, func.count()).group_by(
            ClassGameRow.class_id)).all())
        rows = sorted(session.scalars(select(ClassRow)),
                      key=lambda r: (name_key(r.name, lang), r.id))
        return [{**_class(r, students=False), "students": counts.get(r.id, 0),
                 "games": games.get(r.id, 0)} for r in rows]


def _clean_name(name: object) -> str:
    if not isinstance(name, str) or not name.strip():
        raise ClassError("a class needs a name")
    name = " ".join(name.split())
    if len(name) > MAX_CLASS_NAME:
        raise ClassError(f"a class name has at most {MAX_CLASS_NAME} characters")
    try:
        return check_text(name, "the class name")
    except UnsafeText as unsafe:
        raise ClassError(str(unsafe)) from None


def create_class(database: Database, name: object) -> int:
    """A new, empty class named ``name``; returns its id."""
    name = _clean_name(name)
    with database.session() as session:
        if session.scalar(select(func.count()).select_from(ClassRow)) >= MAX_CLASSES:
            raise ClassError(f"the console keeps at most {MAX_CLASSES} classes")
        row = ClassRow(name=name, settings={}, league_scheme="rank_points",
                       projector_names=False)
        session.add(row)
        session.flush()
        return row.id


def get_class(database: Database, class_id: int) -> dict | None:
    """A class with its students (in list order), or None."""
    with database.session() as session:
        row = session.get(ClassRow, class_id)
        return None if row is None else _class(row)


def update_class(database: Database, class_id: int, changes: dict) -> dict | None:
    """Change a class's ``name``, ``bank_id``, ``settings`` (the set-up form's, without
    teams), ``league_scheme`` or ``projector_names``; None when there is no such class."""
    with database.session() as session:
        row = session.get(ClassRow, class_id)
        if row is None:
            return None
        if "name" in changes:
            row.name = _clean_name(changes["name"])
        if "bank_id" in changes:
            bank_id = changes["bank_id"]
            if bank_id is not None and (not isinstance(bank_id, int) or isinstance(bank_id, bool)
                                        or session.get(BankRow, bank_id) is None):
                raise ClassError("no such question bank")
            row.bank_id = bank_id
        if "league_scheme" in changes:
            if changes["league_scheme"] not in SCHEMES:
                raise ClassError(f"the league scheme is one of {', '.join(SCHEMES)}")
            row.league_scheme = changes["league_scheme"]
        if "projector_names" in changes:
            if not isinstance(changes["projector_names"], bool):
                raise ClassError("projector_names is true or false")
            row.projector_names = changes["projector_names"]
        if "settings" in changes:
            settings = changes["settings"]
            if not isinstance(settings, dict) or len(str(settings)) > 20_000:
                raise ClassError("settings must be the set-up form's settings (an object)")
            try:
                check_all(settings, "settings")
            except UnsafeText as unsafe:
                raise ClassError(str(unsafe)) from None
            row.settings = {k: v for k, v in settings.items() if k not in ("teams", "roster", "class_name")}
        session.flush()
        return _class(row)


def add_students(database: Database, class_id: int, entries: list[StudentEntry]) -> list[dict]:
    """Append students to a class's list (in the order given); returns the whole list."""
    with database.session() as session:
        row = session.get(ClassRow, class_id)
        if row is None:
            raise ClassError("no such class")
        if len(row.students) + len(entries) > MAX_STUDENTS:
            raise ClassError(f"a class lists at most {MAX_STUDENTS} students")
        position = max((s.position for s in row.students), default=0)
        for number, entry in enumerate(entries, start=1):
            row.students.append(StudentRow(name=entry.name, email=entry.email,
                                           id_number=entry.id_number, left=False,
                                           position=position + number))
        session.flush()
        return [_student(s) for s in row.students]


def update_student(database: Database, class_id: int, student_id: int,
                   entry: StudentEntry | None = None, left: bool | None = None) -> dict | None:
    """Rename a student / change their e-mail and ID number, or mark them as having left
    (or back); None when the class has no such student."""
    with database.session() as session:
        row = session.get(StudentRow, student_id)
        if row is None or row.class_id != class_id:
            return None
        if entry is not None:
            row.name, row.email, row.id_number = entry.name, entry.email, entry.id_number
        if left is not None:
            row.left = left
        return _student(row)


def delete_student(database: Database, class_id: int, student_id: int) -> bool:
    """Remove a student from the list and from the class's league and participation
    (their name stays only in the records of games already played)."""
    with database.session() as session:
        return bool(session.execute(delete(StudentRow).where(
            StudentRow.id == student_id, StudentRow.class_id == class_id)).rowcount)


def class_game_ids(database: Database, class_id: int) -> list[int]:
    """The ids of a class's games, oldest first."""
    with database.session() as session:
        return list(session.scalars(select(ClassGameRow.game_id).where(
            ClassGameRow.class_id == class_id).order_by(ClassGameRow.game_id)))


def delete_class(database: Database, class_id: int) -> bool:
    """Delete a class, its students and its links to games. The caller deletes the
    class's games first (:func:`class_game_ids`), so that their devices are disconnected."""
    with database.session() as session:
        session.execute(delete(ClassGameRow).where(ClassGameRow.class_id == class_id))
        session.execute(delete(StudentRow).where(StudentRow.class_id == class_id))
        return bool(session.execute(delete(ClassRow).where(ClassRow.id == class_id)).rowcount)


def link_game(database: Database, game_id: int, class_id: int, lineup: list[list[int]],
              kept: bool, allow_repeats: bool) -> None:
    """Record that game ``game_id`` was made from class ``class_id`` with ``lineup``."""
    with database.session() as session:
        session.add(ClassGameRow(game_id=game_id, class_id=class_id, lineup=lineup, kept=kept,
                                 allow_repeats=allow_repeats, league_shown=False))


def game_class(database: Database, game_id: int) -> dict | None:
    """The class a game was made from: ``{"class_id", "lineup", "kept", "allow_repeats",
    "league_shown", "projector_names"}``, or None for a game made without a class
    (one query: the live layer asks it for every class game's screens)."""
    with database.read() as connection:
        row = connection.execute(GAME_CLASS, {"game_id": game_id}).first()
        if row is None:
            return None
        return {"class_id": row.class_id, "lineup": row.lineup, "kept": row.kept,
                "allow_repeats": row.allow_repeats, "league_shown": row.league_shown,
                "projector_names": bool(row.projector_names)}


#: ``game_class``'s one query: plain columns, no ORM objects.
GAME_CLASS = (select(ClassGameRow.class_id, ClassGameRow.lineup, ClassGameRow.kept,
                     ClassGameRow.allow_repeats, ClassGameRow.league_shown,
                     ClassRow.projector_names)
              .join(ClassRow, ClassRow.id == ClassGameRow.class_id)
              .where(ClassGameRow.game_id == bindparam("game_id")))


def last_lineup(database: Database, class_id: int) -> list[list[int]] | None:
    """The teams of the class's latest game (student ids per team), or None."""
    with database.session() as session:
        row = session.scalars(select(ClassGameRow).where(ClassGameRow.class_id == class_id)
                              .order_by(ClassGameRow.game_id.desc())).first()
        return None if row is None else row.lineup


def game_roster(students: list[dict], lineup: list[list[int]]) -> list[list[str]]:
    """The names of a game's roster for ``lineup``: each student's name, told apart
    from a namesake in the class by " (2)" (:func:`facilitator.classes.roster_names`)."""
    unique = dict(zip([s["id"] for s in students], roster_names([s["name"] for s in students])))
    return [[unique[s] for s in team] for team in lineup]


def hide_league(change, game_id: int) -> None:
    """With ``change`` (a change of game ``game_id``, facilitator.store.games): the
    class's league is no longer shown on its projector."""
    change.write(update(ClassGameRow).where(
        ClassGameRow.game_id == game_id, ClassGameRow.league_shown.is_(True))
        .values(league_shown=False))


def set_league_shown(change, game_id: int, shown: bool) -> bool:
    """With ``change``: show (or hide) the class's league on game ``game_id``'s
    projector. False if the game was not made from a class."""
    found = change.read(select(ClassGameRow.game_id).where(ClassGameRow.game_id == game_id))
    if found is None:
        return False
    change.write(update(ClassGameRow).where(ClassGameRow.game_id == game_id)
                 .values(league_shown=shown))
    return True


def class_links(database: Database, class_id: int) -> list[ClassGameRow]:
    """The links of a class's games to it, oldest game first (detached rows)."""
    with database.session() as session:
        links = list(session.scalars(select(ClassGameRow).where(
            ClassGameRow.class_id == class_id).order_by(ClassGameRow.game_id)))
        session.expunge_all()
    return links


def class_places(database: Database, class_id: int) -> list[dict]:
    """The class's games and halls, newest first, in two plain queries: ``{"kind": "game"
    | "hall", "id", "public_id", "name", "created_at", "lineup"}`` (a game's lineup: student
    ids per team; a hall's: the student id of each player). A hall's own games are the
    hall's, not listed."""
    with database.read() as connection:
        games = connection.execute(
            select(GameRow.id, GameRow.public_id, GameRow.name, GameRow.created_at,
                   ClassGameRow.lineup)
            .join(ClassGameRow, ClassGameRow.game_id == GameRow.id)
            .where(ClassGameRow.class_id == class_id)).all()
        halls = connection.execute(
            select(HallRow.id, HallRow.public_id, HallRow.name, HallRow.created_at,
                   HallRow.lineup).where(HallRow.class_id == class_id)).all()
    places = [{"kind": kind, "id": row.id, "public_id": row.public_id, "name": row.name,
               "created_at": row.created_at, "lineup": list(row.lineup or [])}
              for kind, rows in (("game", games), ("hall", halls)) for row in rows]
    return sorted(places, key=lambda p: (p["created_at"], p["kind"] == "hall", p["id"]),
                  reverse=True)
