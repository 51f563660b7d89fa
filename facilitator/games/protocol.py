"""The one small protocol every game of the facilitator speaks.

A game is a pure package under ``facilitator/games/<name>/``: it imports
nothing from Flask, Socket.IO or SQLAlchemy. The live, store and web layers
know a game only through this protocol (and the registry in
``facilitator/games/__init__.py``), so no rule of any game lives outside its
package.

- ``Role`` says who acts or looks: the GM (the teacher: sees everything, may
  do everything the rules let a GM do, undo and redo included), a ``seat``
  (a team of la partida, a player of la colmena, a colour of Hive: acts for
  itself and sees its own secrets), a ``table`` (one shared screen of a table
  or a pair: sees what everyone sees and may act where the game lets a shared
  screen act, e.g. both colours on one Hive tablet) or a ``watcher`` (the
  projector and anyone else: looks only).
- A ``Match`` is one game being played. ``play(action, by)`` checks the
  action against the state and either raises ``Refusal`` (naming the rule
  id, changing nothing) or returns the events it caused; the state is the
  fold of the events. ``legal(by)`` lists what ``by`` may do now (and, for
  the GM, who may do each thing); ``view(audience)`` is everything one
  audience's screen shows and nothing it may not see; ``record()`` writes
  the game so ``replay`` rebuilds it exactly.
- Timers are state: ``deadline()`` is when something happens by itself (or
  None), and ``due(now)`` the action the clock plays once it has passed.
  Time is always given (``now``): an engine never reads a clock.

A game the live layer serves is a ``LiveMatch``: its ``act`` takes an action
from a screen (a record action or one that only changes what the screens show,
such as a timer) at a given time and says what it did (``Played``): the
record actions it appended, the screens' state before each (so that an undo
can put it back), whether anything changed. ``live`` is that screens' state,
stored with the game between actions; ``screens`` is every audience's view.
The store and the live layer know a game only through these and its kind's
``load``.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, runtime_checkable

GM, SEAT, TABLE, WATCHER, CLOCK = "gm", "seat", "table", "watcher", "clock"
ROLE_KINDS = (GM, SEAT, TABLE, WATCHER, CLOCK)


def is_unicode(text: str) -> bool:
    """Whether ``text`` can be written as UTF-8 (JSON allows lone surrogates; records and
    pages cannot)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class Refusal(Exception):
    """An action (or a record) that breaks a rule of the game's rule book.

    ``rule`` is the rule id (``"R-U2"``, ``"C-P5"``, ``"H-P1.5"``, or
    ``"format"`` for a malformed record or action), ``message`` a sentence a
    teacher understands, and ``action`` the 0-based index of the refused action
    in a record, or ``None`` when the record is refused before any action.
    A refused action changes nothing.
    """

    def __init__(self, rule: str, message: str, action: int | None = None):
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message
        self.action = action

    def at(self, index: int | None) -> "Refusal":
        """The same refusal, located at action ``index`` of a record."""
        return type(self)(self.rule, self.message, index)

    def to_dict(self) -> dict:
        """The refusal as ``facilitator replay`` prints it."""
        return {"error": self.rule, "action": self.action, "message": self.message}


@dataclass(slots=True)
class Done:
    """One applied action of a History: the action as the engine keeps it, the events it
    caused, its seq (its 1-based place in the log) and, once undone, the seq of the undo
    that took it back."""

    action: Any
    events: list
    seq: int
    undone_at: int | None = None


class History:
    """The event log with undo and redo, the one every engine keeps (a game's state is
    the fold of the events of its actions not undone, so an undo is exact: the engine
    folds ``events()`` again from the start).

    ``log`` is every accepted action in order, undo and redo included: the record's
    actions, and its length the game's ``seq``. ``done`` holds the applied actions with
    their events; ``undone`` those an undo took back, last first, until an action that
    is neither undo nor redo drops them. The engine checks its own rule (who may undo,
    whether there is anything to undo) before it calls ``undo`` or ``redo``.
    """

    __slots__ = ("log", "done", "undone")

    def __init__(self):
        self.log: list = []
        self.done: list[Done] = []
        self.undone: list[Done] = []

    @property
    def seq(self) -> int:
        """How many actions were accepted (undo and redo included)."""
        return len(self.log)

    @property
    def can_undo(self) -> bool:
        """Whether there is an applied action to take back."""
        return bool(self.done)

    @property
    def can_redo(self) -> bool:
        """Whether there is an undone action to put back."""
        return bool(self.undone)

    def apply(self, action: Any, events: list) -> Done:
        """Log ``action``, applied with ``events``; what was undone can no longer be redone."""
        self.log.append(action)
        done = Done(action, events, len(self.log))
        self.done.append(done)
        self.undone.clear()
        return done

    def undo(self, action: Any) -> Done:
        """Log the ``undo`` ``action`` and take back the last applied action (returned)."""
        done = self.done.pop()
        self.log.append(action)
        done.undone_at = len(self.log)
        self.undone.append(done)
        return done

    def redo(self, action: Any) -> Done:
        """Log the ``redo`` ``action`` and put back the last undone action (returned)."""
        done = self.undone.pop()
        done.undone_at = None
        self.done.append(done)
        self.log.append(action)
        return done

    def events(self):
        """Every event of the applied actions, in order: what the state is the fold of."""
        for done in self.done:
            yield from done.events


@dataclass(frozen=True, slots=True)
class Role:
    """Who acts or looks. ``seat`` is the seat's number (1-based) for a ``seat``
    role, None for the others."""

    kind: str
    seat: int | None = None

    def __post_init__(self):
        if self.kind not in ROLE_KINDS:
            raise ValueError(f"unknown role {self.kind!r}")
        if (self.kind == SEAT) != (self.seat is not None):
            raise ValueError("a seat role, and only a seat role, has a seat number")

    @classmethod
    def gm(cls) -> "Role":
        """The teacher's console."""
        return cls(GM)

    @classmethod
    def of_seat(cls, seat: int) -> "Role":
        """The device of one seat (a team, a player, a colour)."""
        return cls(SEAT, seat)

    @classmethod
    def table(cls) -> "Role":
        """A table's shared screen."""
        return cls(TABLE)

    @classmethod
    def watcher(cls) -> "Role":
        """The projector, or anyone who only looks."""
        return cls(WATCHER)

    @classmethod
    def clock(cls) -> "Role":
        """The server's clock, acting when a deadline passes."""
        return cls(CLOCK)

    @property
    def sent_by(self) -> str:
        """How a game's stored actions name their sender: ``gm``, ``seat:3``..."""
        return f"{self.kind}:{self.seat}" if self.kind == SEAT else self.kind


@dataclass(frozen=True, slots=True)
class Legal:
    """One kind of action accepted now.

    ``seats``: the seats whose own devices may send it; ``table``: whether a
    table's shared screen may send it; neither: the GM only (the GM may send
    every entry). ``options``: the open choices, e.g. ``{"targets": [2, 4]}``.
    """

    do: str
    seats: tuple[int, ...] = ()
    options: dict = field(default_factory=dict)
    table: bool = False

    def allows(self, by: Role) -> bool:
        """Whether ``by`` may send this action now."""
        if by.kind == GM:
            return True
        if by.kind == SEAT:
            return by.seat in self.seats
        if by.kind == TABLE:
            return self.table
        return False

    def to_dict(self) -> dict:
        """The entry as JSON data."""
        out = {"do": self.do, "seats": list(self.seats), "options": self.options}
        if self.table:
            out["table"] = True
        return out


@runtime_checkable
class Match(Protocol):
    """One game being played, driven by actions (see the module's docstring)."""

    kind: ClassVar[str]

    @property
    def seq(self) -> int:
        """How many actions were accepted (undo and redo included): the version."""

    @property
    def over(self) -> bool:
        """Whether the game has ended."""

    @property
    def can_undo(self) -> bool:
        """Whether an ``undo`` would be accepted."""

    @property
    def can_redo(self) -> bool:
        """Whether a ``redo`` would be accepted."""

    def play(self, action: dict, by: Role) -> list:
        """Accept ``action`` from ``by`` and return its events, or raise Refusal."""

    def legal(self, by: Role | None = None) -> list[Legal]:
        """What ``by`` may do now (None: every entry, as the GM sees them)."""

    def view(self, audience: Role) -> dict:
        """Everything ``audience``'s screen shows, and nothing it may not see."""

    def deadline(self) -> float | None:
        """When the clock acts by itself (epoch seconds), or None."""

    def due(self, now: float) -> dict | None:
        """The action the clock plays at ``now`` once ``deadline()`` has passed."""

    def record(self) -> dict:
        """The game's record: ``replay`` of it gives the identical game."""

    def summary(self) -> dict:
        """What ``facilitator replay`` prints for this game (standings, a breakdown)."""


@dataclass(slots=True)
class Played:
    """What one accepted screen action did to a game.

    ``actions``: the record actions it appended, as the record holds them, in order
    (none for an action that only changes what the screens show, such as a timer;
    two for a verdict that first locks the writing). ``befores``: for each, the
    screens' state just before it (what an undo of it puts back). ``changed``:
    whether anything at all changed (naming the same person again changes nothing:
    nothing is stored or broadcast).
    """

    actions: list[dict] = field(default_factory=list)
    befores: list = field(default_factory=list)
    changed: bool = True


@runtime_checkable
class LiveMatch(Match, Protocol):
    """A game as the live layer serves it (see the module's docstring)."""

    live: dict

    def act(self, action: dict, by: Role, now: float, before_of=None) -> Played:
        """Accept ``action`` from ``by`` at ``now``, or raise Refusal (changing nothing
        the store keeps: on a refusal after a partial change the store drops the
        match). ``before_of(seq)``: the screens' state kept with record action ``seq``
        (an undo puts it back)."""

    def audiences(self) -> list[Role]:
        """Every audience whose screens the game has, the GM first."""

    def screens(self, now: float, names: bool = True) -> list[tuple[Role, dict]]:
        """Each audience's view at ``now``, built together (one public part shared).
        ``names`` False: no student's name in any view but the GM's and a seat's own
        (a class that keeps names off the projector)."""

    def screen(self, audience: Role, now: float, names: bool = True) -> dict:
        """One audience's view at ``now`` (as ``screens`` gives it)."""

    def timely(self, now: float) -> dict:
        """What changes in every view with the time alone (a clock's time left): merged
        into a view built earlier, so that a cached view is sent as of ``now``."""

    def follow(self, actions: list[dict], live: dict | None = None) -> None:
        """Play record actions another writer stored (already accepted), and take the
        screens' state stored with them."""

    def winner(self) -> str | None:
        """Who won, as a line of text, once the game is over."""

    #: Its event log with undo and redo (the accepted actions, the applied ones with
    #: their events, the undone ones): every engine keeps the one ``History``.
    history: History
    #: Whether its seats are each one person's (a hand, a colour: ``seats`` lists them,
    #: and the teacher's screen shows who holds each) rather than a team's.
    personal_seats: bool
    #: Whether ``due`` searches (a computer player's move): the live layer then asks for
    #: it off the game's lock, on a copy, beside the other clocks.
    due_searches: bool

    def seats(self) -> list[dict]:
        """The personal seats a device may hold: ``{"seat", "name", "as", "bot"?}``."""

    def question_for(self, ref: int, gm: bool) -> dict | None:
        """The content item ``ref`` (a question) as ``gm`` or a student may see it now,
        or None: what lets a screen load the images it holds."""

    def stored_actions(self) -> list[dict]:
        """The actions the store keeps of it (its record's, as they were played)."""

    def team_results(self) -> dict | None:
        """A game of teams as a class's term reads it: ``{"over", "teams": [{"team",
        "name", "rank", "score", "roster": [names]}], "voices": {"spokesperson": [(team,
        name)], "representative": [...]}}`` (who spoke for a team, once a time); None for
        a game with no teams."""

    def content_used(self) -> set[str]:
        """The ids of its content's items used so far (a bank's questions read)."""


class MatchDefaults:
    """What a live match answers for a capability it does not have (see ``LiveMatch``):
    every game's live match inherits it."""

    personal_seats = False
    due_searches = False

    def seats(self) -> list[dict]:
        """No personal seats."""
        return []

    def question_for(self, ref: int, gm: bool) -> dict | None:
        """No content with images of its own."""
        return None

    def stored_actions(self) -> list[dict]:
        """The record's actions."""
        return list(self.record().get("actions") or [])

    def team_results(self) -> dict | None:
        """No teams."""
        return None

    def content_used(self) -> set[str]:
        """No content of items used one by one."""
        return set()


class Teams(Protocol):
    """How a game of teams makes its teams from a class (la partida's): the set-up form,
    the class page and the API ask it, and repeat none of its rules."""

    max_name: int               # most characters of a team's or a student's name
    min_teams: int
    max_teams: int
    min_members: int
    default_max_members: int
    max_max_members: int

    def propose(self, students: int, max_members: int = ...) -> list[int]:
        """Team sizes for ``students`` students (Refusal naming the rule if none)."""

    def deal(self, names: list, sizes: list[int], rng) -> list[list]:
        """``names`` dealt at random into teams of ``sizes``."""

    def problems(self, sizes: list[int], max_members: int = ...) -> list[dict]:
        """Every way teams of ``sizes`` break the rules: ``{"rule", "what", "message"}``."""

    def check(self, settings: object) -> None:
        """The settings checked as the game does (Refusal naming the rule broken)."""

    def sizes(self, settings: object) -> list[int]:
        """The members of each team the settings name."""

    def check_roster(self, settings: object, roster: list[list[str]]) -> None:
        """A class list dealt into the settings' teams: as many names as members."""

    def deal_fresh(self, student_ids: list[int], rng, max_members: int = ...,
                   teams: int | None = None) -> list[list[int]]:
        """Today's students dealt at random into balanced teams (``teams`` of them)."""

    def keep(self, previous: list[list[int]], present: list[int], rng,
             max_members: int = ...) -> list[list[int]]:
        """Last game's teams kept as far as today's attendance allows."""


class GameKind(Protocol):
    """A game of the facilitator: how to start one and how to replay one.

    Every kind answers every attribute and method below; ``KindDefaults`` gives the
    answer of a game that lacks the capability (no pages of the facilitator's own, no
    teams, no hall, no downloads...), so the layers above ask and never probe.
    """

    name: str             # "partida", "colmena", "hive"
    record_format: str    # "partida/1", "colmena/1", "hive/1"
    #: Client events the game's screens send besides ``act`` and ``sync`` (each is
    #: handed to ``LiveMatch.act`` as ``{"do": event, **payload}``), with their fields.
    events: dict
    #: A game whose seats are personal (its match lists them: ``seats()``) names the
    #: rule of who holds a seat (one device a seat, changed hands by the teacher; the
    #: table's screen acts only for seats no device holds): refusals about seats cite it.
    seat_rule: str
    #: The actions a table's shared screen sends *for* a seat (a Hive pair's tablet moves
    #: for the side to move): refused while a device of its own holds that seat.
    table_for_seat: frozenset
    #: The rules a seat's device is refused by most, whose summaries its page carries
    #: (optional: a page without them asks nothing more than the refusal's message).
    seat_refusals: tuple
    #: Whether the console's set-up form (teams, a question bank, the schedule) makes its
    #: games (``setup_form``; one game of the registry, la partida, says so).
    setup_form: bool
    #: Console tools (``facilitator <game> <tool>``): name -> ``main(stdin, stdout)``,
    #: its exit code (Hive's ``uhp``); none for most games.
    tools: dict
    #: The facilitator's own templates of its screens, by role kind (``seat``, ``gm``,
    #: ``watcher``): la partida's; empty for a game whose screens are ES modules in
    #: ``screens_folder`` (served at ``/static/js/games/<name>/``), on shared pages.
    pages: dict
    screens_folder: Any
    #: The key of a record (and of a stored game) holding its content, and what that is
    #: named: ``questions`` (a bank's questions: the bank pages and coverage apply),
    #: ``deck``, ``players``; None for a game with none.
    content_key: str | None
    #: How a whole class plays it at once (``HallRules``), or None.
    hall: Any
    #: The teams capability of a game of teams (``Teams``), or None.
    teams: Any
    #: The results page's template, and the files a played game offers for download
    #: (``"standings.csv"`` -> its media type), each written by ``download``.
    results_page: str
    downloads: dict

    def results(self, match: Match, name: str | None, lang: str) -> dict:
        """What the results page (and ``results.json``) shows of a played game."""

    def download(self, match: Match, file: str, lang: str) -> tuple[str, bytes | str]:
        """One of ``downloads``: the word its file is named by (``clasificacion``) and its
        content."""

    def record_of_text(self, text: object, players: dict | None = None,
                       settings: dict | None = None) -> dict:
        """The record of a game written as text (Hive's GameString); Refusal when the
        game writes no text or this is not one."""

    def export(self, record: dict, fmt: str, table: str = "both", name: str | None = None,
               read_beside=None) -> str:
        """``facilitator export`` of a record: ``csv`` (``table``: which), ``json`` (the
        results) or ``record`` (replayed and written again); Refusal when it does not
        replay or the game writes no such table."""

    def configure(self, config: Any) -> None:
        """Read the server's configuration (the app's, a mapping) as the server starts: a
        kind takes the keys, or the environment variables, that are its own."""

    def settings_bounds(self) -> dict:
        """Every setting with its default and bounds, for set-up forms."""

    def new(self, settings: dict, **content: Any) -> Match:
        """A new game from its settings (and content: questions, a deck, a seed)."""

    def replay(self, record: dict, read_beside=None) -> Match:
        """Rebuild a game from its record; a refused action raises Refusal with its index.
        ``read_beside(name)``: the content of a file the record names instead of holding
        it (a question bank beside the record), read by the caller."""

    def load(self, settings: dict, content: object, actions: list[dict],
             live: dict | None) -> LiveMatch:
        """A stored game: its settings and content as stored, its accepted actions (the
        record's, in order) and the screens' state stored with it."""

    def stored(self, match: LiveMatch) -> tuple[dict, object]:
        """What the store keeps of a new game: its settings and content."""

    def record(self, settings: dict, content: object, actions: list[dict],
               name: str = "") -> dict:
        """The record of a stored game, as its players download it."""


class KindDefaults:
    """What a kind answers for a capability it does not have (see ``GameKind``): every
    game's kind inherits it, and overrides what it offers."""

    events: dict = {}
    seat_rule = "seat"
    table_for_seat: frozenset = frozenset()
    seat_refusals: tuple = ()
    setup_form = False
    tools: dict = {}
    pages: dict = {}
    screens_folder = None
    content_key: str | None = None
    hall = None
    teams = None
    results_page = "results/match.html"
    downloads: dict = {}

    def results(self, match: Match, name: str | None, lang: str) -> dict:
        """The match's own summary (what ``facilitator replay`` prints)."""
        return match.summary()

    def download(self, match: Match, file: str, lang: str) -> tuple[str, bytes | str]:
        """No downloads: every file name is refused."""
        raise Refusal("format", f"{self.name} offers no file {file!r}")

    def configure(self, config: Any) -> None:
        """Nothing of the server's configuration is this game's."""

    def record_of_text(self, text: object, players: dict | None = None,
                       settings: dict | None = None) -> dict:
        """This game writes no record as text."""
        raise Refusal("format", f"the game {self.name!r} does not load a pasted text")

    def export(self, record: dict, fmt: str, table: str = "both", name: str | None = None,
               read_beside=None) -> str:
        """The results as JSON or the record written again; the CSV tables of its
        downloads (``table``: the one named so, ``both``: all)."""
        match = self.replay(record, read_beside)
        if fmt == "record":
            again = match.record()
            return json.dumps({**again, "name": name} if name and isinstance(again, dict)
                              else again, ensure_ascii=False, indent=1)
        if fmt == "json":
            return json.dumps(self.results(match, name, "en"), ensure_ascii=False, indent=1)
        files = [f for f in self.downloads if f.endswith(".csv")
                 and (table == "both" or f == f"{table}.csv")]
        if not files:
            raise Refusal("format", f"{self.name} writes no {table} table as CSV: its "
                                    "results are on its page and in JSON")
        return "\r\n".join(str(self.download(match, f, "en")[1]).lstrip("\ufeff")
                             for f in files)


class HallRules(Protocol):
    """How a whole class plays one game at once, in one room: la colmena at a table per
    group, a Hive tournament of pairs round after round. A kind that can be played so has
    ``hall`` (an object with these methods); the store keeps a hall's ``plan`` (JSON data
    this object alone reads) and makes the games its rounds name; the live layer shows
    the hall's views. Pure, as the games are: no clock, no database.

    Players are named by their index in the hall's ``players`` list (the names as the
    teacher gave them, or the class's students); a game of the hall is named by its
    ``key``, ``"<round>.<place>"`` (``"1.3"``: round 1, table or board 3).

    ``place_words`` is the catalog key that names one game of a round to its players
    (``{n}``: its place: "Mesa 2", "Tablero 2"); ``rounds_named`` says whether a hall has
    rounds worth naming to a student ("Ronda 2 · Tablero 2"), or just one.
    """

    place_words: ClassVar[str]
    rounds_named: ClassVar[bool]
    #: The standings' columns beyond rank, name and points (keys of ``standings`` rows,
    #: worded by the catalog's ``<kind>hall.column.<key>``): a tournament's won, drawn,
    #: lost and tie-breaks, a table's number.
    columns: ClassVar[tuple]
    #: Who the results rank: ``"player"`` (each student, a tournament) or ``"group"`` (a
    #: group that plays as one, la colmena's table, its players listed under it: the
    #: results page and the downloads show ``groups``, its ``columns`` are a group's).
    ranks: ClassVar[str]

    def bounds(self) -> dict:
        """Every setting of a hall with its default and bounds, for the set-up form."""

    def plan(self, players: list[str], settings: dict, seed: int) -> dict:
        """A new hall's plan, its first round in it; Refusal (with the rule id) when these
        players and settings make none (too few players, a bound broken)."""

    def round_games(self, plan: dict) -> list[dict]:
        """The games of the plan's latest round, each ``{"key", "place", "round", "name",
        "players": [index, ...] in seat order, "seats": {player index as text: its seat
        number}, "settings": the kind's settings for ``KIND.new``, "content": what
        ``KIND.new`` takes besides}``. A seat no player takes (the bot, a bye) is written
        in the game's settings, as the game reads it; a player in no game of the round
        (a bye) is in no game's ``seats``: the door tells that player so."""

    def next_round(self, plan: dict, summaries: dict[str, dict]) -> dict:
        """The plan with one more round, from the summaries of its games so far (``key``
        -> ``summary``); Refusal when no round may follow (a game still on, the last round
        played, a kind that has one round)."""

    def summary(self, match) -> dict:
        """One game's line in the hall's views (JSON data: its step, whose turn, score or
        result, ``over``): what the hall screens and ``standings`` read of it."""

    def view(self, plan: dict, summaries: dict[str, dict], audience: "Role",
             shown: list[str], names: bool = True) -> dict:
        """The hall's screen for ``audience`` (the teacher's hall view, or the watcher's:
        the projector), from every game's summary. ``shown``: the keys of the games the
        teacher picked for the projector's live boards. No secret of any game in it.
        ``names`` False (a hall of a class that keeps names off the projector): no
        student's name in the watcher's view, each replaced by a neutral label (as
        ``{"name": None, "number": n}``, n the player's index + 1, which the screen
        writes «Jugador n»); the teacher's view keeps them."""

    def standings(self, plan: dict, summaries: dict[str, dict]) -> list[dict]:
        """Each player's place in the hall so far, best first: ``{"player": index, "rank",
        "points", ...}`` (ties share a rank): what the class's league counts."""

    def bell(self, summary: dict) -> dict | None:
        """The action that ends one game of the hall when the teacher rings the bell (the
        time is up), or None for a game that needs none (over already)."""

    def check_shown(self, plan: dict, keys: list[str]) -> None:
        """Refusal when the projector may not show these games' boards together."""

    def debrief(self, plan: dict, summaries: dict[str, dict], lang: str) -> list[dict]:
        """What the class talks about afterwards, as the hall's results page lists it:
        each part ``{"title", "items": [lines], "notes": [lines], "breakdown": [...]}``."""

    def groups(self, plan: dict, summaries: dict[str, dict], lang: str) -> list[dict]:
        """The results' rows of a hall that ranks groups (``ranks == "group"``), best
        first: ``{"rank" (None for a group that did not play), "name" (in ``lang``),
        "members": [names], "points" (None unplayed), "played", ...columns}``."""


class HallDefaults:
    """What a hall's rules answer for what they do not have (see ``HallRules``)."""

    place_words = "hall.table"
    rounds_named = False
    columns: tuple = ()
    ranks = "player"

    def groups(self, plan: dict, summaries: dict[str, dict], lang: str) -> list[dict]:
        """No groups: the hall ranks its players."""
        return []

    def bell(self, summary: dict) -> dict | None:
        """Nothing to do at the bell."""
        return None

    def check_shown(self, plan: dict, keys: list[str]) -> None:
        """Any games may be shown together."""

    def debrief(self, plan: dict, summaries: dict[str, dict], lang: str) -> list[dict]:
        """No debrief."""
        return []


class PlainLive(MatchDefaults):
    """The live side of a game that keeps no screen-only state and no clock: its
    actions are record actions played with ``play(action, by)`` and logged in
    ``self.log`` (the record's action dicts); each audience's screen is
    ``{"seq", "view", "legal", "can_undo", "can_redo"}`` from ``view`` and ``legal``.
    Mixed into a game's match to make it a LiveMatch."""

    @property
    def live(self) -> dict:
        """Nothing is kept between actions but the actions."""
        return {}

    def act(self, action: object, by: Role, now: float, before_of=None) -> Played:
        """Play ``action`` from ``by``; the actions it logged are what it appended."""
        if not isinstance(action, dict):
            raise Refusal("format", 'an action is an object: {"do": ...}')
        before = len(self.log)
        self.play(action, by)
        added = [dict(a) for a in self.log[before:]]
        return Played(added, [None] * len(added))

    def follow(self, actions: list[dict], live: dict | None = None) -> None:
        """Play record actions another writer stored (accepted already)."""
        teacher = Role.gm()
        for action in actions:
            self.play(action, teacher)

    def screen(self, audience: Role, now: float, names: bool = True) -> dict:
        """One audience's view and what it may send."""
        gm = audience.kind == GM
        return {"seq": self.seq, "view": self.view(audience),
                "legal": [entry.to_dict() for entry in self.legal(audience)],
                "can_undo": self.can_undo if gm else None,
                "can_redo": self.can_redo if gm else None}

    def screens(self, now: float, names: bool = True) -> list[tuple[Role, dict]]:
        """Every audience's screen."""
        return [(role, self.screen(role, now, names)) for role in self.audiences()]

    def timely(self, now: float) -> dict:
        """Nothing changes with the time alone."""
        return {}
