"""The state of a game: what the fold of its events has built.

The state is plain mutable data owned by one Game; only events change it
(``events.py``), and only through ``Event.apply``. Nothing here decides
anything: the rules are in ``rules.py``, the resolution table in
``resolution.py``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from .order import host_of
from ...questions.model import Question
from .settings import Settings
from .numbers import plain


@dataclass(slots=True)
class TeamState:
    """One team's holdings: cards, pifies, points beside cards, special cards, markers."""

    number: int
    name: str
    members: int
    cards: list[str] = field(default_factory=list)          # "author:Kant", "type:vf"
    pifies: int = 0
    consolations: int = 0
    bonuses: int = 0
    adjustments: list[tuple[Fraction, str]] = field(default_factory=list)
    special: dict[str, int] = field(default_factory=dict)    # desvio/seguro/elijo held
    markers: set[str] = field(default_factory=set)           # modes challenged in this round
    exchanged: list[str] = field(default_factory=list)       # cards given to the bank (R-K6)

    def to_dict(self) -> dict:
        """The team as plain JSON data (public: R-V4 makes special cards public)."""
        return {"team": self.number, "name": self.name, "members": self.members,
                "cards": list(self.cards), "pifies": self.pifies,
                "consolations": self.consolations, "bonuses": self.bonuses,
                "adjustments": [{"points": plain(p), "reason": r} for p, r in self.adjustments],
                "special": dict(self.special), "markers": sorted(self.markers),
                "exchanged": list(self.exchanged)}


@dataclass(slots=True)
class Turn:
    """The turn in progress: who hosts, what was declared, played, chosen and judged."""

    number: int                      # 1-based across the game
    round: int
    position: int                    # 0-based place in the round's order
    host: int
    mode: str | None = None          # None until declared
    target: int | None = None        # the team challenged now (after any Desvío)
    first_target: int | None = None  # the team the host challenged
    desvio_by: int | None = None
    seguro_by: int | None = None
    elijo_by: int | None = None
    author: str | None = None
    type: str | None = None
    question: str | None = None      # question id
    written: str | None = None       # the last `write` (sealed: R-U6)
    locked: bool = False             # time up (R-U5)
    extra_seconds: int = 0
    verdict: str | None = None
    primary_pick: str | None = None
    written_correct: bool | None = None
    argument: str | None = None
    secondary_pick: str | None = None
    spokespersons: dict[int, str] = field(default_factory=dict)
    representatives: dict[int, str] = field(default_factory=dict)
    awards: list[tuple[int, str]] = field(default_factory=list)  # (team, "author:Kant"/"pifie"/...)

    @property
    def declared(self) -> bool:
        """Whether step 1 is done."""
        return self.mode is not None

    @property
    def is_challenge(self) -> bool:
        """Whether this is a simple or risky challenge."""
        return self.mode in ("simple", "risky")

    @property
    def primary(self) -> int | None:
        """The team that answers aloud first (section 4's table)."""
        if self.mode is None:
            return None
        return self.target if self.mode == "risky" else self.host

    @property
    def secondary(self) -> int | None:
        """The team that writes an anticipation, if any."""
        if self.mode == "simple":
            return self.target
        if self.mode == "risky":
            return self.host
        return None

    @property
    def chooser(self) -> int:
        """Who chooses author and type: the Elijo team, else the host."""
        return self.elijo_by if self.elijo_by is not None else self.host

    @property
    def has_anticipation(self) -> bool:
        """Whether the secondary team wrote something that counts (R-U5)."""
        return self.written is not None and self.written.strip() != ""

    def to_dict(self) -> dict:
        """The whole turn as JSON data, sealed answer included: the GM's view."""
        return {"number": self.number, "round": self.round, "position": self.position,
                "host": self.host, "mode": self.mode, "target": self.target,
                "first_target": self.first_target, "primary": self.primary,
                "secondary": self.secondary, "desvio_by": self.desvio_by,
                "seguro_by": self.seguro_by, "elijo_by": self.elijo_by,
                "chooser": self.chooser, "author": self.author, "type": self.type,
                "question": self.question, "written": self.written, "locked": self.locked,
                "extra_seconds": self.extra_seconds, "verdict": self.verdict,
                "primary_pick": self.primary_pick, "written_correct": self.written_correct,
                "argument": self.argument, "secondary_pick": self.secondary_pick,
                "spokespersons": {str(k): v for k, v in self.spokespersons.items()},
                "representatives": {str(k): v for k, v in self.representatives.items()},
                "awards": [[t, a] for t, a in self.awards]}


@dataclass(slots=True)
class GameState:
    """Everything a game is at one moment; rebuilt exactly by folding its events."""

    settings: Settings
    questions: dict[str, Question]
    teams: list[TeamState]
    bank: dict[str, int]             # special cards left in the bank (R-K6)
    discard: dict[str, int]          # special cards played (R-K2)
    turn: Turn
    used: set[str] = field(default_factory=set)      # question ids read (R-Q1)
    history: list[dict] = field(default_factory=list)  # one summary per ended turn
    adjust_log: list[dict] = field(default_factory=list)
    over: bool = False
    ended_early: bool = False

    def team(self, number: int) -> TeamState:
        """Team ``number`` (1-based)."""
        return self.teams[number - 1]

    def is_team(self, number: int) -> bool:
        """Whether ``number`` names a team of this game (R-T4)."""
        return 1 <= number <= len(self.teams)

    def unused_count(self, author: str, qtype: str) -> int:
        """How many questions of ``author`` and ``qtype`` are still unused (R-Q2)."""
        return sum(1 for q in self.questions.values()
                   if q.author == author and q.type == qtype and q.id not in self.used)

    def to_dict(self) -> dict:
        """The whole state as JSON data; two states are equal when these are equal."""
        return {"round": self.turn.round, "over": self.over, "ended_early": self.ended_early,
                "turn": self.turn.to_dict(),
                "teams": [t.to_dict() for t in self.teams],
                "bank": dict(self.bank), "discard": dict(self.discard),
                "used": sorted(self.used), "history": [dict(h) for h in self.history],
                "adjust_log": [dict(a) for a in self.adjust_log]}


def initial_state(settings: Settings, questions: dict[str, Question]) -> GameState:
    """The state before any action: special cards dealt (R-K1), team 1 to host."""
    teams = [TeamState(number=i, name=t.name, members=t.members,
                       special=dict(settings.special_cards))
             for i, t in enumerate(settings.teams, start=1)]
    return GameState(settings=settings, questions=questions, teams=teams,
                     bank=dict(settings.bank_special_cards),
                     discard={k: 0 for k in settings.bank_special_cards},
                     turn=Turn(number=1, round=1, position=0,
                               host=host_of(1, 0, settings.team_count)))
