"""LTI 1.3 in the database (issue 48): registered platforms, the facilitator's signing
keys, what a launch keeps between its two requests, courses and the classes they
became, their people, and the marks waiting for a gradebook.

Every function takes the :class:`~facilitator.store.database.Database`. What a platform
sends is checked by the caller (facilitator/lti); here it is only kept and found.
"""
from __future__ import annotations

from datetime import timedelta

from sqlalchemy import delete, or_, select, update
from sqlalchemy.exc import IntegrityError

from ..classes import StudentEntry
from ..classes.roster import MAX_STUDENTS, name_key
from .database import Database
from .models import (ClassRow, LtiCourseRow, LtiKeyRow, LtiMarkRow, LtiPersonRow,
                     LtiPlatformRow, LtiValueRow, StudentRow, utcnow)

#: Longest issuer, client id, deployment id or context id kept.
MAX_ID = 300
#: Longest address kept (a platform's endpoint).
MAX_URL = 1000


class LtiStoreError(ValueError):
    """A registration that cannot be kept; the message says why."""


def _platform(row: LtiPlatformRow) -> dict:
    return {"id": row.id, "name": row.name, "issuer": row.issuer, "client_id": row.client_id,
            "deployment_ids": list(row.deployment_ids or []),
            "auth_login_url": row.auth_login_url, "auth_token_url": row.auth_token_url,
            "key_set_url": row.key_set_url, "auth_audience": row.auth_audience}


def _address(value: object, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise LtiStoreError(f"{what} is missing")
    value = value.strip()
    if not value.startswith(("https://", "http://")) or len(value) > MAX_URL \
            or any(c.isspace() for c in value):
        raise LtiStoreError(f"{what} must be a web address (https://...), not {value[:80]!r}")
    return value


def _identifier(value: object, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise LtiStoreError(f"{what} is missing")
    value = value.strip()
    if len(value) > MAX_ID or not value.isprintable():
        raise LtiStoreError(f"{what} has at most {MAX_ID} printable characters")
    return value


def add_platform(database: Database, *, issuer: str, client_id: str, deployment_ids: list[str],
                 auth_login_url: str, auth_token_url: str, key_set_url: str,
                 auth_audience: str = "", name: str = "") -> tuple[int, bool]:
    """Register a platform (or add deployments to the one of the same issuer and client
    id); returns its id and whether it is new. Raises LtiStoreError naming a bad field."""
    issuer = _address(issuer, "the issuer")
    client_id = _identifier(client_id, "the client id")
    deployments = [_identifier(d, "a deployment id") for d in deployment_ids]
    if not deployments:
        raise LtiStoreError("at least one deployment id is needed")
    values = {"auth_login_url": _address(auth_login_url, "the authentication (login) URL"),
              "auth_token_url": _address(auth_token_url, "the access token URL"),
              "key_set_url": _address(key_set_url, "the public keyset URL"),
              "auth_audience": _address(auth_audience, "the token audience")
              if auth_audience else ""}
    with database.session() as session:
        row = session.scalars(select(LtiPlatformRow).where(
            LtiPlatformRow.issuer == issuer, LtiPlatformRow.client_id == client_id)).first()
        if row is not None:
            row.deployment_ids = list(dict.fromkeys([*row.deployment_ids, *deployments]))
            for key, value in values.items():
                setattr(row, key, value)
            return row.id, False
        row = LtiPlatformRow(name=(name or issuer)[:200], issuer=issuer, client_id=client_id,
                             deployment_ids=deployments, **values)
        session.add(row)
        session.flush()
        return row.id, True


def list_platforms(database: Database) -> list[dict]:
    """Every registered platform, oldest first."""
    with database.session() as session:
        return [_platform(r) for r in session.scalars(select(LtiPlatformRow)
                                                      .order_by(LtiPlatformRow.id))]


def find_platform(database: Database, issuer: object, client_id: object = None) -> dict | None:
    """The platform of ``issuer`` (and ``client_id``, when given: a platform may register
    the tool more than once), or None."""
    if not isinstance(issuer, str) or len(issuer) > MAX_URL:
        return None
    query = select(LtiPlatformRow).where(LtiPlatformRow.issuer == issuer)
    if client_id is not None:
        if not isinstance(client_id, str) or len(client_id) > MAX_ID:
            return None
        query = query.where(LtiPlatformRow.client_id == client_id)
    with database.session() as session:
        rows = list(session.scalars(query.order_by(LtiPlatformRow.id).limit(2)))
        # Without a client id, only an issuer registered once names a platform.
        return _platform(rows[0]) if len(rows) == 1 else None


def get_platform(database: Database, platform_id: int) -> dict | None:
    """The platform ``platform_id``, or None."""
    with database.session() as session:
        row = session.get(LtiPlatformRow, platform_id)
        return None if row is None else _platform(row)


# -- the facilitator's own keys ----------------------------------------------------------

def add_key(database: Database, kid: str, private_pem: str, public_jwk: dict,
            retire_others: bool = False) -> None:
    """Keep a new signing key (it signs from now on); with ``retire_others``, the keys
    signing until now are retired (still published for ``grace``, see published_keys)."""
    now = utcnow()
    with database.session() as session:
        if retire_others:
            for row in session.scalars(select(LtiKeyRow).where(LtiKeyRow.retired_at.is_(None))):
                row.retired_at = now
        session.add(LtiKeyRow(kid=kid, private_pem=private_pem, public_jwk=public_jwk,
                              created_at=now))


def signing_key(database: Database) -> dict | None:
    """The key that signs now (the newest one not retired): ``{"kid", "private_pem",
    "public_jwk"}``, or None before the first."""
    with database.session() as session:
        row = session.scalars(select(LtiKeyRow).where(LtiKeyRow.retired_at.is_(None))
                              .order_by(LtiKeyRow.id.desc())).first()
        return None if row is None else {"kid": row.kid, "private_pem": row.private_pem,
                                         "public_jwk": dict(row.public_jwk)}


def published_keys(database: Database, grace: timedelta) -> list[dict]:
    """The public keys to publish: every key not retired, and those retired less than
    ``grace`` ago (a platform may still check what they signed), newest first."""
    since = utcnow() - grace
    with database.session() as session:
        rows = session.scalars(select(LtiKeyRow).where(
            (LtiKeyRow.retired_at.is_(None)) | (LtiKeyRow.retired_at > since))
            .order_by(LtiKeyRow.id.desc()))
        return [dict(r.public_jwk) for r in rows]


def list_keys(database: Database) -> list[dict]:
    """Every key, newest first: ``{"kid", "created_at", "retired_at"}``."""
    with database.session() as session:
        return [{"kid": r.kid, "created_at": r.created_at, "retired_at": r.retired_at}
                for r in session.scalars(select(LtiKeyRow).order_by(LtiKeyRow.id.desc()))]


# -- what a launch keeps between its requests --------------------------------------------

def put_value(database: Database, key: str, value: object, seconds: int) -> None:
    """Keep ``value`` under ``key`` for ``seconds`` (replacing what it held); expired
    values are swept out on the way."""
    now = utcnow()
    with database.session() as session:
        session.execute(delete(LtiValueRow).where(LtiValueRow.expires_at <= now))
        row = session.get(LtiValueRow, key)
        if row is None:
            session.add(LtiValueRow(key=key, value={"v": value},
                                    expires_at=now + timedelta(seconds=seconds)))
        else:
            row.value, row.expires_at = {"v": value}, now + timedelta(seconds=seconds)


def claim_value(database: Database, key: str, seconds: int) -> bool:
    """Keep ``key`` for ``seconds`` if no one keeps it now: True for the one caller (of any
    process sharing the database) that got it, until it takes it back (take_value) or it
    expires."""
    now = utcnow()
    with database.session() as session:
        session.execute(delete(LtiValueRow).where(LtiValueRow.key == key,
                                                  LtiValueRow.expires_at <= now))
    try:
        with database.session() as session:
            session.add(LtiValueRow(key=key, value={"v": True},
                                    expires_at=now + timedelta(seconds=seconds)))
    except IntegrityError:
        return False
    return True


def get_value(database: Database, key: str) -> object:
    """The value kept under ``key``, or None (none, or expired)."""
    with database.session() as session:
        row = session.get(LtiValueRow, key)
        if row is None or row.expires_at <= utcnow():
            return None
        return (row.value or {}).get("v")


def take_value(database: Database, key: str) -> bool:
    """Remove the value kept under ``key``: True only for the one caller that removed it
    before it expired (a nonce is taken once)."""
    with database.session() as session:
        return bool(session.execute(delete(LtiValueRow).where(
            LtiValueRow.key == key, LtiValueRow.expires_at > utcnow())).rowcount)


# -- courses, their classes and people ---------------------------------------------------

def _course(row: LtiCourseRow) -> dict:
    return {"id": row.id, "platform_id": row.platform_id, "deployment_id": row.deployment_id,
            "context_id": row.context_id, "class_id": row.class_id, "title": row.title,
            "services": dict(row.services or {}), "measures": list(row.measures or []),
            "lineitems": dict(row.lineitems or {})}


def find_course(database: Database, platform_id: int, deployment_id: str,
                context_id: str) -> dict | None:
    """The course a platform's deployment calls ``context_id``, or None."""
    with database.session() as session:
        row = session.scalars(select(LtiCourseRow).where(
            LtiCourseRow.platform_id == platform_id, LtiCourseRow.deployment_id == deployment_id,
            LtiCourseRow.context_id == context_id)).first()
        return None if row is None else _course(row)


def course_of_class(database: Database, class_id: int) -> dict | None:
    """The course class ``class_id`` was made from, or None (a class of its own)."""
    with database.session() as session:
        row = session.scalars(select(LtiCourseRow).where(LtiCourseRow.class_id == class_id)).first()
        return None if row is None else _course(row)


def link_course(database: Database, platform_id: int, deployment_id: str, context_id: str,
                class_id: int, title: str) -> dict:
    """Record that the course became class ``class_id``; returns the course."""
    with database.session() as session:
        row = LtiCourseRow(platform_id=platform_id, deployment_id=deployment_id,
                           context_id=context_id, class_id=class_id, title=title[:300],
                           services={}, measures=["league_points"], lineitems={})
        session.add(row)
        session.flush()
        return _course(row)


def update_course(database: Database, course_id: int, **changes) -> dict | None:
    """Change a course's ``services``, ``measures``, ``lineitems`` or ``title``."""
    with database.session() as session:
        row = session.get(LtiCourseRow, course_id)
        if row is None:
            return None
        for key in ("services", "measures", "lineitems", "title"):
            if key in changes:
                setattr(row, key, changes[key])
        session.flush()
        return _course(row)


def _matching(students: list[StudentRow], linked: set[int], entry: StudentEntry):
    """The class's student a platform's user is, when the list has them already (pasted
    earlier): the same e-mail, else the same ID number, else the same name, and not
    already someone else of the platform."""
    free = [s for s in students if s.id not in linked]
    if entry.email:
        found = [s for s in free if s.email and s.email.casefold() == entry.email.casefold()]
        if found:
            return found[0]
    if entry.id_number:
        found = [s for s in free if s.id_number and s.id_number == entry.id_number]
        if found:
            return found[0]
    found = [s for s in free if name_key(s.name) == name_key(entry.name)
             and not (entry.email and s.email) and not (entry.id_number and s.id_number)]
    return found[0] if len(found) == 1 else None


def merge_people(database: Database, course_id: int, people: list[tuple[str, StudentEntry]]
                 ) -> dict[str, int]:
    """Bring a course's students into its class: each ``(sub, entry)`` is the student
    linked to ``sub`` before (their e-mail and ID number filled in when the platform now
    sends them), or one pasted earlier (:func:`_matching`), or a new student at the end of
    the list. Nobody is listed twice. Returns ``{sub: student id}``."""
    with database.session() as session:
        course = session.get(LtiCourseRow, course_id)
        klass = session.get(ClassRow, course.class_id)
        links = {p.sub: p for p in session.scalars(select(LtiPersonRow).where(
            LtiPersonRow.course_id == course_id))}
        students = list(klass.students)
        by_id = {s.id: s for s in students}
        linked = {p.student_id for p in links.values() if p.student_id is not None}
        position = max((s.position for s in students), default=0)
        out: dict[str, int] = {}
        for sub, entry in people:
            person = links.get(sub)
            student = by_id.get(person.student_id) if person is not None else None
            if student is None:
                student = _matching(students, linked, entry)
            if student is None:
                if len(students) >= MAX_STUDENTS:
                    continue
                position += 1
                student = StudentRow(name=entry.name, email=entry.email,
                                     id_number=entry.id_number, left=False, position=position)
                klass.students.append(student)
                session.flush()
                students.append(student)
                by_id[student.id] = student
            else:
                student.email = student.email or entry.email
                student.id_number = student.id_number or entry.id_number
            if person is None:
                person = LtiPersonRow(course_id=course_id, sub=sub)
                session.add(person)
                links[sub] = person
            person.student_id = student.id
            linked.add(student.id)
            out[sub] = student.id
        session.flush()
        return out


def set_left(database: Database, course_id: int, gone: list[str]) -> None:
    """Mark the course's students of the platform users ``gone`` as having left the class
    (one who comes back is put back by the teacher, whose choice a roster never undoes)."""
    if not gone:
        return
    with database.session() as session:
        ids = select(LtiPersonRow.student_id).where(LtiPersonRow.course_id == course_id,
                                                    LtiPersonRow.sub.in_(gone))
        session.execute(update(StudentRow).where(StudentRow.id.in_(ids)).values(left=True))


def people_of(database: Database, course_id: int) -> dict[int, str]:
    """The course's students linked to a platform user: ``{student id: sub}``."""
    with database.session() as session:
        return {p.student_id: p.sub for p in session.scalars(select(LtiPersonRow).where(
            LtiPersonRow.course_id == course_id, LtiPersonRow.student_id.is_not(None)))}


# -- marks for the gradebook -------------------------------------------------------------

def set_marks(database: Database, course_id: int, measure: str,
              marks: list[tuple[str, float, float]]) -> int:
    """Record the marks of ``measure`` (``(sub, score, maximum)``); a mark the platform
    already took with the same score stays done. Returns how many now wait."""
    now = utcnow()
    waiting = 0
    with database.session() as session:
        rows = {r.sub: r for r in session.scalars(select(LtiMarkRow).where(
            LtiMarkRow.course_id == course_id, LtiMarkRow.measure == measure))}
        for sub, score, maximum in marks:
            row = rows.get(sub)
            if row is None:
                row = LtiMarkRow(course_id=course_id, measure=measure, sub=sub, score=score,
                                 maximum=maximum, sent=None, error="", updated_at=now)
                session.add(row)
            elif row.score != score or row.maximum != maximum:
                row.score, row.maximum, row.updated_at = score, maximum, now
            if row.sent is None or row.sent != row.score:
                waiting += 1
    return waiting


def waiting_marks(database: Database, course_id: int) -> list[dict]:
    """The course's marks not yet taken by the platform (new, changed, or refused):
    ``{"id", "measure", "sub", "score", "maximum", "error"}``."""
    with database.session() as session:
        rows = session.scalars(select(LtiMarkRow).where(LtiMarkRow.course_id == course_id)
                               .order_by(LtiMarkRow.measure, LtiMarkRow.id))
        return [{"id": r.id, "measure": r.measure, "sub": r.sub, "score": r.score,
                 "maximum": r.maximum, "error": r.error}
                for r in rows if r.sent is None or r.sent != r.score]


def classes_with_waiting_marks(database: Database) -> list[int]:
    """The classes whose course has marks the platform has not taken yet (a server that
    starts sends them: the waits of the one that stopped went with it)."""
    with database.session() as session:
        return list(session.scalars(
            select(LtiCourseRow.class_id).distinct()
            .join(LtiMarkRow, LtiMarkRow.course_id == LtiCourseRow.id)
            .where(LtiCourseRow.class_id.is_not(None),
                   or_(LtiMarkRow.sent.is_(None), LtiMarkRow.sent != LtiMarkRow.score))
            .order_by(LtiCourseRow.class_id)))


def mark_sent(database: Database, mark_id: int, score: float) -> None:
    """The platform took ``score`` for this mark."""
    with database.session() as session:
        row = session.get(LtiMarkRow, mark_id)
        if row is not None:
            row.sent, row.error = score, ""


def mark_refused(database: Database, mark_id: int, error: str) -> None:
    """The platform did not take this mark (it waits, with why)."""
    with database.session() as session:
        row = session.get(LtiMarkRow, mark_id)
        if row is not None:
            row.error = error[:1000]

