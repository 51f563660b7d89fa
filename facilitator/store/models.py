"""The database tables (SQLAlchemy 2.x typed models).

A game is its kind, its settings, its content and its accepted actions, in
order: exactly its record. The state is never stored; it is the replay of the
actions, so what is stored can always be replayed to the same screen. What the
screens show between actions (a clock, say) is kept as one value the game reads
(``live``); the store does not look inside it.
"""
from __future__ import annotations

import secrets
from datetime import datetime, timezone

from sqlalchemy import JSON, Float, ForeignKey, Index, LargeBinary, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


def utcnow(clock=None) -> datetime:
    """Now, in UTC (stored without a time zone); by ``clock`` (seconds since the epoch,
    like ``time.time``) when given."""
    if clock is None:
        return datetime.now(timezone.utc).replace(tzinfo=None)
    return datetime.fromtimestamp(clock(), timezone.utc).replace(tzinfo=None)


def new_public_id() -> str:
    """A random public identity for a game (128 bits, URL-safe)."""
    return secrets.token_hex(16)


class Base(DeclarativeBase):
    """The declarative base of every table."""


class GameRow(Base):
    """One game: its kind, its record's settings and content, and the screens' state."""

    __tablename__ = "games"
    # AUTOINCREMENT: SQLite would otherwise give a deleted newest game's id to the next one.
    # (A revision that rebuilds this table on SQLite must pass it again: see 0003.)
    __table_args__ = {"sqlite_autoincrement": True}

    id: Mapped[int] = mapped_column(primary_key=True)
    #: The game's identity outside the GM's pages (device tokens, addresses): random,
    #: never reused, not guessable from another game's.
    public_id: Mapped[str] = mapped_column(String(32), unique=True, default=new_public_id)
    name: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    #: Which game this is (the registry's name, facilitator.games).
    kind: Mapped[str] = mapped_column(String(20), default="partida", server_default="partida")
    settings: Mapped[dict] = mapped_column(JSON)
    #: What the game is played with (a partida's questions), as its kind stores it.
    content: Mapped[list] = mapped_column(JSON)
    seq: Mapped[int] = mapped_column(default=0)           # actions accepted so far
    over: Mapped[bool] = mapped_column(default=False)
    winner: Mapped[str | None] = mapped_column(String(200), default=None)
    watch_code: Mapped[str] = mapped_column(String(40), unique=True)
    #: What the screens show between actions, as the game keeps it (not in the record).
    live: Mapped[dict | None] = mapped_column(JSON, default=dict)
    #: When the game's clock acts by itself (epoch seconds), if it runs.
    deadline: Mapped[float | None] = mapped_column(default=None, index=True)
    #: Bumped by every write of the row: a process holding the game at this version
    #: holds what the database holds.
    version: Mapped[int] = mapped_column(default=0, server_default="0")
    bank_name: Mapped[str | None] = mapped_column(String(200), default=None)
    #: When the game ended: its devices' tokens expire a grace period later.
    ended_at: Mapped[datetime | None] = mapped_column(default=None)
    #: Device ids the GM removed from the game: their tokens are refused.
    removed_devices: Mapped[list] = mapped_column(JSON, default=list)
    #: The hall the game is a table or a board of (revision 0009), and its key there
    #: (``"<round>.<place>"``); None for a game played on its own.
    hall_id: Mapped[int | None] = mapped_column(ForeignKey("halls.id", ondelete="CASCADE"),
                                                default=None, index=True)
    hall_key: Mapped[str | None] = mapped_column(String(20), default=None)
    #: The device holding each seat, for a game whose seats are personal (a hand of
    #: cards): seat number (as text) -> device id. Another device is refused the seat
    #: until the GM moves it.
    claims: Mapped[dict | None] = mapped_column(JSON, default=dict)
    #: The table's shared screens the teacher admitted (revision 0010): device ids.
    screens: Mapped[list | None] = mapped_column(JSON, default=list)
    #: A second device asking for a seat another device holds (revision 0010): seat
    #: number (as text) -> ``{"device", "at"}`` (``"refused"`` once refused), until answered.
    asks: Mapped[dict | None] = mapped_column(JSON, default=dict)
    #: When the game's last action was accepted (epoch seconds): how long a table has
    #: been waiting.
    acted_at: Mapped[float | None] = mapped_column(default=None)

    actions: Mapped[list["ActionRow"]] = relationship(
        back_populates="game", order_by="ActionRow.seq", cascade="all, delete-orphan")
    join_codes: Mapped[list["JoinCodeRow"]] = relationship(
        back_populates="game", order_by="JoinCodeRow.team", cascade="all, delete-orphan")


#: Every column of a game but its content: what a change and the screens read of it.
LIVE_COLUMNS = tuple(c for c in GameRow.__table__.c if c.name != "content")


class LiveRow:
    """A game row's live columns (:data:`LIVE_COLUMNS`), read with one plain query.

    What a change of the game and the screens need of its row, without the ORM's
    identity map and change tracking: reading one ``GameRow`` through the ORM cost
    more server CPU than the rest of an action's database work (bench/fanout.py
    --profile). Its attributes are set freely; nothing is written back by itself.
    """

    __slots__ = tuple(c.name for c in LIVE_COLUMNS)

    def __init__(self, values) -> None:
        for column in LIVE_COLUMNS:
            setattr(self, column.name, values[column.name])

    def copy(self) -> "LiveRow":
        """Another LiveRow with the same values (the JSON values themselves shared: a
        change replaces them, never edits them in place)."""
        other = LiveRow.__new__(LiveRow)
        for name in self.__slots__:
            setattr(other, name, getattr(self, name))
        return other


class ActionRow(Base):
    """One accepted action of a game, numbered 1, 2, 3, ... in the order accepted."""

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("game_id", "seq"),
                      UniqueConstraint("game_id", "client_id"))

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int]
    action: Mapped[dict] = mapped_column(JSON)
    client_id: Mapped[str | None] = mapped_column(String(64), default=None)
    #: Who sent it: "gm", "seat:3" (a partida's team devices wrote "team:3"), "clock"...
    sent_by: Mapped[str] = mapped_column(String(20), default="gm")
    #: What the screens showed just before this action (an undo of it puts it back).
    live_before: Mapped[dict | None] = mapped_column(JSON, default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    game: Mapped[GameRow] = relationship(back_populates="actions")


class JoinCodeRow(Base):
    """The code a team's devices join with (shown as a QR code and in letters)."""

    __tablename__ = "join_codes"

    code: Mapped[str] = mapped_column(String(16), primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    team: Mapped[int]

    game: Mapped[GameRow] = relationship(back_populates="join_codes")


class BankRow(Base):
    """A question bank kept in the database (imported from CSV, GIFT or Moodle XML)."""

    __tablename__ = "banks"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    questions: Mapped[list["BankQuestionRow"]] = relationship(
        back_populates="bank", order_by="BankQuestionRow.id", cascade="all, delete-orphan")


class BankQuestionRow(Base):
    """One question of a bank."""

    __tablename__ = "bank_questions"
    __table_args__ = (UniqueConstraint("bank_id", "qid"), Index("ix_bank_author_type",
                                                               "bank_id", "author", "type"))

    id: Mapped[int] = mapped_column(primary_key=True)
    bank_id: Mapped[int] = mapped_column(ForeignKey("banks.id", ondelete="CASCADE"))
    qid: Mapped[str] = mapped_column(String(200))
    author: Mapped[str] = mapped_column(String(200))
    type: Mapped[str] = mapped_column(String(10))
    text: Mapped[str] = mapped_column(Text)
    answer: Mapped[str] = mapped_column(Text)
    notes: Mapped[str] = mapped_column(Text, default="")

    bank: Mapped[BankRow] = relationship(back_populates="questions")


class SecretRow(Base):
    """A hashed credential: the GM password, the console secret printed at start."""

    __tablename__ = "secrets"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    hash: Mapped[str] = mapped_column(String(300))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class ApiToken(Base):
    """A personal API token of the GM (``Authorization: Bearer <token>``).

    Only the SHA-256 of the token is kept: the token itself is shown once, when
    it is issued. A revoked token stays listed in the table (``revoked_at``) but
    never authenticates again, nor does one past ``expires_at`` (revision 0007; the
    teacher chooses it when issuing the token).
    """

    __tablename__ = "api_tokens"

    id: Mapped[int] = mapped_column(primary_key=True)
    label: Mapped[str] = mapped_column(String(100))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    last_used_at: Mapped[datetime | None] = mapped_column(default=None)
    revoked_at: Mapped[datetime | None] = mapped_column(default=None)
    expires_at: Mapped[datetime | None] = mapped_column(default=None)


class ConsoleSession(Base):
    """A GM's console session: the browser's cookie names it, the server can end it.

    Only the SHA-256 of the session's secret is kept. Logging out ends it
    (``ended_at``), "log out every console" ends them all, and it ends by
    itself at ``expires_at`` (a lecture day by default).
    """

    __tablename__ = "console_sessions"

    id: Mapped[int] = mapped_column(primary_key=True)
    secret_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime]
    ended_at: Mapped[datetime | None] = mapped_column(default=None)


class BankImage(Base):
    """An image of a bank, embedded in the Moodle XML file it was imported from.

    Questions show it as ``<img src="image:NAME">`` (their ``text_html``); a game
    made from the bank serves it at ``/g/<public_id>/img/<id>``. Only PNG, JPEG,
    GIF and WebP (checked by their bytes), at most 1 MB each
    (:mod:`facilitator.questions.images`).
    """

    __tablename__ = "bank_images"
    __table_args__ = (UniqueConstraint("bank_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    bank_id: Mapped[int] = mapped_column(ForeignKey("banks.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(200))
    mime: Mapped[str] = mapped_column(String(40))
    data: Mapped[bytes] = mapped_column(LargeBinary)
    size: Mapped[int]


# The formatted forms of a bank question (issue 14, revision 0004), added here so that
# this change only appends to the file: sanitised HTML, "" for a plain question.
BankQuestionRow.text_html = mapped_column(Text, nullable=False, default="", server_default="")
BankQuestionRow.answer_html = mapped_column(Text, nullable=False, default="",
                                             server_default="")


class ClassRow(Base):
    """A class the GM plays with many times in a term (issue 15): its students, its
    default bank and settings, and how its league is scored.

    Students' names are personal data: deleting the class deletes them, the class's
    games and everything computed from them (``ondelete="CASCADE"`` everywhere below).
    """

    __tablename__ = "classes"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    #: The bank its new games use by default (null: the first bank).
    bank_id: Mapped[int | None] = mapped_column(ForeignKey("banks.id", ondelete="SET NULL"),
                                                default=None)
    #: The set-up form's settings its new games start from (teams and roster left out).
    settings: Mapped[dict] = mapped_column(JSON, default=dict)
    #: ``rank_points`` or ``team_score`` (facilitator.classes.league).
    league_scheme: Mapped[str] = mapped_column(String(20), default="rank_points")
    #: Whether the projector may show students' names (the league); else teams only.
    projector_names: Mapped[bool] = mapped_column(default=False)

    students: Mapped[list["StudentRow"]] = relationship(
        back_populates="klass", order_by="StudentRow.position", cascade="all, delete-orphan")


class StudentRow(Base):
    """A student of a class; one who left stays (their games count) but is not dealt."""

    __tablename__ = "students"

    id: Mapped[int] = mapped_column(primary_key=True)
    class_id: Mapped[int] = mapped_column(ForeignKey("classes.id", ondelete="CASCADE"),
                                          index=True)
    name: Mapped[str] = mapped_column(String(200))
    email: Mapped[str] = mapped_column(String(200), default="")
    id_number: Mapped[str] = mapped_column(String(100), default="")
    left: Mapped[bool] = mapped_column(default=False)
    position: Mapped[int] = mapped_column(default=0)

    klass: Mapped[ClassRow] = relationship(back_populates="students")


class ClassGameRow(Base):
    """A game made from a class: which student played in which team, and its choices."""

    __tablename__ = "class_games"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"),
                                         primary_key=True)
    class_id: Mapped[int] = mapped_column(ForeignKey("classes.id", ondelete="CASCADE"),
                                          index=True)
    #: Student ids per team, team 1 first, in the order of the game's roster names.
    lineup: Mapped[list] = mapped_column(JSON)
    #: The teams were kept from the class's previous game (as attendance allowed).
    kept: Mapped[bool] = mapped_column(default=False)
    #: Questions read in the class's earlier games were offered again (the GM allowed it).
    allow_repeats: Mapped[bool] = mapped_column(default=False)
    #: The projector shows the class's league (before the first turn, after the finale).
    league_shown: Mapped[bool] = mapped_column(default=False)


class HallRow(Base):
    """A hall (revision 0009): one game played by a whole class at once, in one room:
    la colmena's tables, a Hive tournament's rounds of pairs. Its games are ordinary
    games (``GameRow.hall_id``); the hall keeps who plays (``players``, and with a
    class, ``lineup``: the student id of each player), its ``plan`` (what its kind's
    ``hall`` rules read and write: the rounds, who plays where) and the games the GM
    picked for the projector (``shown``).
    """

    __tablename__ = "halls"
    __table_args__ = {"sqlite_autoincrement": True}

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True, default=new_public_id)
    kind: Mapped[str] = mapped_column(String(20))
    name: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    settings: Mapped[dict] = mapped_column(JSON)
    players: Mapped[list] = mapped_column(JSON)
    plan: Mapped[dict] = mapped_column(JSON)
    shown: Mapped[list] = mapped_column(JSON, default=list)
    watch_code: Mapped[str] = mapped_column(String(40), unique=True)
    #: Bumped by every write of the row (a held hall is checked against it).
    version: Mapped[int] = mapped_column(default=0, server_default="0")
    class_id: Mapped[int | None] = mapped_column(ForeignKey("classes.id", ondelete="CASCADE"),
                                                 default=None, index=True)
    #: With a class: the student id of each player, in ``players``' order.
    lineup: Mapped[list | None] = mapped_column(JSON, default=None)
    #: The lecture's one code (revision 0010): a student types or scans it, picks their
    #: name and is sent to their seat, round after round.
    door_code: Mapped[str | None] = mapped_column(String(16), default=None, unique=True, index=True)
    #: The device holding each player of the hall (revision 0010): player index (as
    #: text) -> device id; each new round's seats are given to the same devices.
    holders: Mapped[dict | None] = mapped_column(JSON, default=dict)


class LtiPlatformRow(Base):
    """A learning platform (Moodle, Canvas) registered for LTI 1.3 (revision 0011): what
    it showed its admin, and what the facilitator checks every launch against."""

    __tablename__ = "lti_platforms"
    __table_args__ = (UniqueConstraint("issuer", "client_id", name="uq_lti_platforms_issuer"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    issuer: Mapped[str] = mapped_column(String(500))
    client_id: Mapped[str] = mapped_column(String(200))
    #: The deployments of the tool the platform made (a launch names one of them).
    deployment_ids: Mapped[list] = mapped_column(JSON)
    auth_login_url: Mapped[str] = mapped_column(String(1000))
    auth_token_url: Mapped[str] = mapped_column(String(1000))
    key_set_url: Mapped[str] = mapped_column(String(1000))
    #: The audience of a token request, when the platform wants one other than its URL.
    auth_audience: Mapped[str] = mapped_column(String(1000), default="")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class LtiKeyRow(Base):
    """One of the facilitator's own signing keys (revision 0011): the newest unretired one
    signs; a retired one stays published a while, for what it signed before."""

    __tablename__ = "lti_keys"

    id: Mapped[int] = mapped_column(primary_key=True)
    kid: Mapped[str] = mapped_column(String(100), unique=True)
    private_pem: Mapped[str] = mapped_column(Text)
    public_jwk: Mapped[dict] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    retired_at: Mapped[datetime | None] = mapped_column(default=None)


class LtiValueRow(Base):
    """What a launch in progress needs between its two requests (revision 0011): the
    nonce given at the login (taken once by the launch), a state's token hash."""

    __tablename__ = "lti_values"

    key: Mapped[str] = mapped_column(String(300), primary_key=True)
    value: Mapped[dict] = mapped_column(JSON)
    expires_at: Mapped[datetime] = mapped_column(index=True)


class LtiCourseRow(Base):
    """A platform's course and the class it became (revision 0011), with the addresses
    of its roster (Names and Role Provisioning) and gradebook (Assignment and Grade
    Services) the platform's launches gave."""

    __tablename__ = "lti_courses"
    __table_args__ = (UniqueConstraint("platform_id", "deployment_id", "context_id",
                                       name="uq_lti_courses_context"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    platform_id: Mapped[int] = mapped_column(ForeignKey("lti_platforms.id", ondelete="CASCADE"))
    deployment_id: Mapped[str] = mapped_column(String(300))
    context_id: Mapped[str] = mapped_column(String(300))
    class_id: Mapped[int] = mapped_column(ForeignKey("classes.id", ondelete="CASCADE"),
                                          unique=True)
    title: Mapped[str] = mapped_column(String(300), default="")
    #: The services' claims of the newest teacher's launch: ``{"nrps": ..., "ags": ...}``.
    services: Mapped[dict] = mapped_column(JSON, default=dict)
    #: The measures whose marks go to the gradebook (keys of classes.exports.MEASURES).
    measures: Mapped[list] = mapped_column(JSON, default=list)
    #: The line item made on the platform for each measure: measure -> its address.
    lineitems: Mapped[dict] = mapped_column(JSON, default=dict)


class LtiPersonRow(Base):
    """A platform's user in a course, and the student of the class they are (revision
    0011): a launch or the roster names them by ``sub``, the platform's own id."""

    __tablename__ = "lti_people"
    __table_args__ = (UniqueConstraint("course_id", "sub", name="uq_lti_people_sub"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    course_id: Mapped[int] = mapped_column(ForeignKey("lti_courses.id", ondelete="CASCADE"))
    sub: Mapped[str] = mapped_column(String(300))
    student_id: Mapped[int | None] = mapped_column(
        ForeignKey("students.id", ondelete="CASCADE"), default=None, index=True)


class LtiMarkRow(Base):
    """A mark for the course's gradebook (revision 0011): one per student and measure,
    ``sent`` is the value the platform last took, so a mark is
    sent again only when it changed, and one the platform could not take waits."""

    __tablename__ = "lti_marks"
    __table_args__ = (UniqueConstraint("course_id", "measure", "sub", name="uq_lti_marks"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    course_id: Mapped[int] = mapped_column(ForeignKey("lti_courses.id", ondelete="CASCADE"))
    measure: Mapped[str] = mapped_column(String(40))
    sub: Mapped[str] = mapped_column(String(300))
    score: Mapped[float] = mapped_column(Float)
    maximum: Mapped[float] = mapped_column(Float)
    sent: Mapped[float | None] = mapped_column(Float, default=None)
    error: Mapped[str] = mapped_column(Text, default="")
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
