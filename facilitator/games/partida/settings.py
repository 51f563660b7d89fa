"""Game settings: the fixed keys of a ``partida/1`` record and their defaults.

Every [D] number of RULES.md is a setting here (section 11's table), checked
when a game is created: a game that breaks R-T1..R-T3, R-O1 or R-O4 never
starts, and the refusal names the rule.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from .errors import refuse
from .numbers import exact, is_number, is_unicode, plain

MODES: tuple[str, ...] = ("normal", "simple", "risky")
CHALLENGE_MODES: tuple[str, ...] = ("simple", "risky")
SPECIAL_CARDS: tuple[str, ...] = ("desvio", "seguro", "elijo")

MIN_TEAMS, MAX_TEAMS = 4, 6                    # R-T1
MIN_MEMBERS = 3                                # R-T2 (the lower bound is not a setting)
DEFAULT_MAX_MEMBERS = 6                        # R-T2
DEFAULT_ROUNDS = 6                             # R-O1
DEFAULT_DELIBERATION_SECONDS = 60              # R-U8
DEFAULT_SPECIAL_CARDS = {"desvio": 1, "seguro": 1, "elijo": 1}          # R-K1
DEFAULT_BANK_SPECIAL_CARDS = {"desvio": 6, "seguro": 6, "elijo": 6}     # R-K6
DEFAULT_EXCHANGE_COST = 3                      # R-K6
MAX_ADJUST = 1_000_000                         # format: most points one correction adds or takes (R-P3)
MAX_EXCHANGE_COST = 20                         # an exchange action lists at most this many cards
DEFAULT_POINTS = {"card": 1, "consolation": 0.5, "pifie": -0.5, "risky_bonus": 4}  # R-P1

# Bounds (RULES.md section 12's settings table): generous for a real classroom, small
# enough that no setting can make a game's state or a check grow without limit.
MAX_ROUNDS = 20                                # R-O1
MAX_MAX_MEMBERS = 12                           # R-T2
MAX_TEAM_NAME = 100                            # format: characters of a team's name
MIN_SECONDS, MAX_SECONDS = 1, 1800             # R-U8: deliberation time of a round (1 s: live tests)
MAX_SPECIAL_CARDS = 10                         # R-K1: of each kind, dealt to each team
MAX_BANK_SPECIAL_CARDS = 50                    # R-K6: of each kind, in the bank
MAX_POINTS = 100                               # R-P1: each value from -100 to 100 ...
POINTS_STEP = 100                              # ... in steps of 0.01 (1/100)
MAX_EXTRA_DEPTH = 32                           # format: nesting of a key kept verbatim

#: The keys this project gives a meaning to; any other key is kept as it is.
KNOWN_KEYS = frozenset({
    "teams", "max_members", "rounds", "round_modes", "individual_rounds",
    "deliberation_seconds", "special_cards", "bank_special_cards",
    "exchange_cost", "points",
})


@dataclass(frozen=True, slots=True)
class TeamSetting:
    """A team as the game is set up: its name and how many members it has."""

    name: str
    members: int


@dataclass(frozen=True, slots=True)
class Points:
    """The value of each kind of point (R-P1), as exact fractions."""

    card: Fraction
    consolation: Fraction
    pifie: Fraction
    risky_bonus: Fraction

    def to_dict(self) -> dict:
        """The points as JSON numbers."""
        return {"card": plain(self.card), "consolation": plain(self.consolation),
                "pifie": plain(self.pifie), "risky_bonus": plain(self.risky_bonus)}


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything fixed when a game starts; see RULES.md section 11."""

    teams: tuple[TeamSetting, ...]
    rounds: int = DEFAULT_ROUNDS
    round_modes: tuple[tuple[str, ...], ...] = ()
    individual_rounds: tuple[int, ...] = ()
    deliberation_seconds: tuple[int, ...] = ()     # one entry per round
    max_members: int = DEFAULT_MAX_MEMBERS
    special_cards: dict = field(default_factory=lambda: dict(DEFAULT_SPECIAL_CARDS))
    bank_special_cards: dict = field(default_factory=lambda: dict(DEFAULT_BANK_SPECIAL_CARDS))
    exchange_cost: int = DEFAULT_EXCHANGE_COST
    points: Points = field(default_factory=lambda: _points({}))
    extra: dict = field(default_factory=dict)      # keys a project added; kept verbatim

    @property
    def team_count(self) -> int:
        """How many teams play."""
        return len(self.teams)

    def modes_of(self, round_no: int) -> tuple[str, ...]:
        """The turn modes round ``round_no`` (1-based) allows (R-O4)."""
        return self.round_modes[round_no - 1]

    def is_individual(self, round_no: int) -> bool:
        """Whether round ``round_no`` is individual (R-U9)."""
        return round_no in self.individual_rounds

    def seconds_for(self, round_no: int) -> int:
        """Deliberation time of round ``round_no`` (R-U8)."""
        return self.deliberation_seconds[round_no - 1]

    def to_dict(self) -> dict:
        """The settings as a record writes them: teams, rounds and every non-default key."""
        data: dict = {"teams": [{"name": t.name, "members": t.members} for t in self.teams],
                      "rounds": self.rounds}
        if [list(m) for m in self.round_modes] != default_round_modes(self.rounds):
            data["round_modes"] = [list(m) for m in self.round_modes]
        if list(self.individual_rounds) != [self.rounds]:
            data["individual_rounds"] = list(self.individual_rounds)
        seconds = set(self.deliberation_seconds)
        if seconds != {DEFAULT_DELIBERATION_SECONDS}:
            data["deliberation_seconds"] = (self.deliberation_seconds[0] if len(seconds) == 1
                                            else list(self.deliberation_seconds))
        if self.max_members != DEFAULT_MAX_MEMBERS:
            data["max_members"] = self.max_members
        if self.special_cards != DEFAULT_SPECIAL_CARDS:
            data["special_cards"] = dict(self.special_cards)
        if self.bank_special_cards != DEFAULT_BANK_SPECIAL_CARDS:
            data["bank_special_cards"] = dict(self.bank_special_cards)
        if self.exchange_cost != DEFAULT_EXCHANGE_COST:
            data["exchange_cost"] = self.exchange_cost
        if self.points != _points({}):
            data["points"] = self.points.to_dict()
        data.update(self.extra)
        return data


def default_round_modes(rounds: int) -> list[list[str]]:
    """R-O4's default schedule stretched to ``rounds`` rounds."""
    if rounds == 1:
        return [["normal"]]
    return [["normal"]] + [["simple", "risky"] for _ in range(rounds - 1)]


def _format(message: str):
    return refuse("format", message)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _points(given: dict) -> Points:
    merged = {**DEFAULT_POINTS, **given}
    return Points(*(exact(merged[k]) for k in ("card", "consolation", "pifie", "risky_bonus")))


def _card_counts(data: dict, key: str, default: dict, most: int, rule: str) -> dict:
    given = data.get(key, {})
    if not isinstance(given, dict):
        raise _format(f"settings.{key} must be an object like {default}")
    for name, count in given.items():
        if name not in SPECIAL_CARDS:
            raise _format(f"settings.{key}: unknown special card {name!r} "
                          f"(the cards are {', '.join(SPECIAL_CARDS)})")
        if not _whole(count):
            raise _format(f"settings.{key}.{name} must be a whole number, 0 or more")
        if not 0 <= count <= most:
            raise refuse(rule, f"settings.{key}.{name} must be from 0 to {most}, not {count}")
    return {**default, **given}


def _depth_within(value: object, most: int) -> bool:
    """Whether ``value`` (JSON data) nests at most ``most`` lists/objects deep and all its
    text (keys too) is valid Unicode; no recursion, so any depth is safe to check."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str) and not is_unicode(item):
            return False
        if isinstance(item, (list, dict)):
            if depth > most:
                return False
            if isinstance(item, dict):
                stack.extend((key, depth) for key in item if isinstance(key, str))
            stack.extend((child, depth + 1)
                         for child in (item.values() if isinstance(item, dict) else item))
    return True


def _check_points(points: object) -> None:
    if not isinstance(points, dict) or any(
            k not in DEFAULT_POINTS or not is_number(v) for k, v in points.items()):
        raise _format("settings.points must be an object of numbers with keys "
                      + ", ".join(DEFAULT_POINTS))
    for key, value in points.items():
        if not -MAX_POINTS <= value <= MAX_POINTS or (exact(value) * POINTS_STEP).denominator != 1:
            raise refuse("R-P1", f"settings.points.{key} must be from {-MAX_POINTS} to "
                                 f"{MAX_POINTS} in steps of 0.01, not {value}")


def parse_settings(data: object) -> Settings:
    """Check a record's ``settings`` object and return the full settings.

    Every setting is bounded (RULES.md section 12's table): raises a Refusal naming
    ``format`` (a wrong type or length), R-T1, R-T2, R-T3, R-O1, R-O4, R-U8, R-K1,
    R-K6 or R-P1.
    """
    if not isinstance(data, dict):
        raise _format("settings must be an object holding at least the team list")
    teams = _parse_teams(data.get("teams"))
    max_members = data.get("max_members", DEFAULT_MAX_MEMBERS)
    if not _whole(max_members):
        raise _format(f"settings.max_members must be a whole number from {MIN_MEMBERS} "
                      f"to {MAX_MAX_MEMBERS}")
    if not MIN_MEMBERS <= max_members <= MAX_MAX_MEMBERS:
        raise refuse("R-T2", f"settings.max_members must be from {MIN_MEMBERS} to "
                             f"{MAX_MAX_MEMBERS}, not {max_members}")

    special = _card_counts(data, "special_cards", DEFAULT_SPECIAL_CARDS,
                           MAX_SPECIAL_CARDS, "R-K1")
    bank = _card_counts(data, "bank_special_cards", DEFAULT_BANK_SPECIAL_CARDS,
                        MAX_BANK_SPECIAL_CARDS, "R-K6")
    cost = data.get("exchange_cost", DEFAULT_EXCHANGE_COST)
    if not _whole(cost) or not 1 <= cost <= MAX_EXCHANGE_COST:
        raise _format(f"settings.exchange_cost must be a whole number from 1 to {MAX_EXCHANGE_COST}")
    points = data.get("points", {})
    _check_points(points)

    rounds = data.get("rounds")
    round_modes = data.get("round_modes")
    if rounds is not None and (not _whole(rounds) or isinstance(rounds, bool)):
        raise refuse("R-O1", "the number of rounds must be a whole number")
    if rounds is not None and not 1 <= rounds <= MAX_ROUNDS:
        raise refuse("R-O1", f"a game has 1 to {MAX_ROUNDS} rounds, not {rounds}")
    if isinstance(round_modes, list) and len(round_modes) > MAX_ROUNDS:
        raise refuse("R-O1", f"a game has 1 to {MAX_ROUNDS} rounds; round_modes lists "
                             f"{len(round_modes)}")
    if round_modes is not None:
        _check_round_modes(round_modes)
    if rounds is None:
        rounds = len(round_modes) if round_modes is not None else DEFAULT_ROUNDS
    seconds = data.get("deliberation_seconds", DEFAULT_DELIBERATION_SECONDS)
    individual = data.get("individual_rounds")
    _check_team_rules(teams, max_members)
    if rounds < 1:
        raise refuse("R-O1", f"a game has at least one round, not {rounds}")
    if round_modes is None:
        round_modes = default_round_modes(rounds)
    elif len(round_modes) != rounds:
        raise refuse("R-O4", f"round_modes lists {len(round_modes)} rounds but the game "
                             f"has {rounds}")
    if individual is None:
        individual = [rounds]
    if not isinstance(individual, list) or len(individual) > rounds or any(
            not _whole(r) or not 1 <= r <= rounds for r in individual):
        raise _format(f"settings.individual_rounds must list at most {rounds} round numbers "
                      f"from 1 to {rounds}")
    # -- issue 16: the game's default language for the team pages and the projector
    # (kept, like any other extra key; a device's own choice wins over it) --
    if "language" in data and data["language"] not in ("es", "es-ES", "en"):
        raise _format('settings.language must be "es", "es-ES" or "en"')
    _check_extras(data)
    return Settings(
        teams=teams, rounds=rounds,
        round_modes=tuple(tuple(m) for m in round_modes),
        individual_rounds=tuple(sorted(set(individual))),
        deliberation_seconds=_parse_seconds(seconds, rounds),
        max_members=max_members, special_cards=special, bank_special_cards=bank,
        exchange_cost=cost, points=_points(points),
        extra={k: v for k, v in data.items() if k not in KNOWN_KEYS},
    )


def _check_extras(data: dict) -> None:
    """Keys kept verbatim: no deeper than MAX_EXTRA_DEPTH; the console's ``class_name`` and
    ``roster`` (the pasted class list, names per team) as short text."""
    for key, value in data.items():
        if key not in KNOWN_KEYS and not _depth_within([key, value], MAX_EXTRA_DEPTH + 1):
            raise _format(f"settings.{str(key)[:40] if is_unicode(str(key)) else '?'} must be valid "
                          f"text nested at most {MAX_EXTRA_DEPTH} levels deep")
    name = data.get("class_name")
    if name is not None and not _short_text(name):
        raise _format(f"settings.class_name must be text of at most {MAX_TEAM_NAME} characters")
    roster = data.get("roster")
    if roster is not None and (
            not isinstance(roster, list) or len(roster) > MAX_TEAMS
            or any(not isinstance(names, list) or len(names) > MAX_MAX_MEMBERS
                   or not all(_short_text(n) for n in names) for names in roster)):
        raise _format(f"settings.roster must list, for each team, at most {MAX_MAX_MEMBERS} "
                      f"names of at most {MAX_TEAM_NAME} characters")


def _short_text(value: object) -> bool:
    return isinstance(value, str) and len(value) <= MAX_TEAM_NAME and is_unicode(value)


def _parse_teams(teams: object) -> tuple[TeamSetting, ...]:
    if not isinstance(teams, list):
        raise _format('settings.teams must be a list of {"name", "members"}, team 1 first')
    if len(teams) > MAX_TEAMS:
        raise refuse("R-T1", f"a game has {MIN_TEAMS} to {MAX_TEAMS} teams, not {len(teams)}")
    parsed = []
    for number, team in enumerate(teams, start=1):
        if not isinstance(team, dict):
            raise _format(f"settings.teams: team {number} must be an object with name and members")
        name, members = team.get("name"), team.get("members")
        if not isinstance(name, str) or not name.strip():
            raise _format(f"settings.teams: team {number} needs a name")
        if len(name) > MAX_TEAM_NAME or not is_unicode(name):
            raise _format(f"settings.teams: team {number}'s name must be text of at most "
                          f"{MAX_TEAM_NAME} characters")
        if not _whole(members):
            raise _format(f"settings.teams: team {number} ({name}) needs a whole number of members")
        parsed.append(TeamSetting(name.strip(), members))
    return tuple(parsed)


def _check_team_rules(teams: tuple[TeamSetting, ...], max_members: int) -> None:
    problems = team_problems([t.members for t in teams], max_members,
                             [t.name for t in teams])
    if problems:
        raise refuse(problems[0]["rule"], problems[0]["message"])


def team_problems(sizes: list[int], max_members: int = DEFAULT_MAX_MEMBERS,
                  names: list[str] | None = None) -> list[dict]:
    """Every way teams of ``sizes`` members break R-T1..R-T3, in that order: each
    ``{"rule", "what", "message", ...}`` with what a screen words it from (``what``:
    ``teams`` with ``n``; ``size`` with ``team``, ``n``, ``max``; ``balance`` with
    ``min``, ``max``). Empty when such teams may start a game."""
    found = []
    if not MIN_TEAMS <= len(sizes) <= MAX_TEAMS:
        found.append({"rule": "R-T1", "what": "teams", "n": len(sizes),
                      "message": f"a game has {MIN_TEAMS} to {MAX_TEAMS} teams, not {len(sizes)}"})
    for number, members in enumerate(sizes, start=1):
        if not MIN_MEMBERS <= members <= max_members:
            name = names[number - 1] if names and len(names) >= number else str(number)
            found.append({"rule": "R-T2", "what": "size", "team": number, "n": members,
                          "max": max_members,
                          "message": f"team {number} ({name}) has {members} members; a team "
                                     f"has {MIN_MEMBERS} to {max_members}"})
    if sizes and max(sizes) - min(sizes) > 1:
        found.append({"rule": "R-T3", "what": "balance", "min": min(sizes), "max": max(sizes),
                      "message": f"team sizes {sizes} differ by more than one member"})
    return found


def check_roster(sizes: list[int], roster: list[list[str]]) -> None:
    """R-T5: a class list dealt into teams has as many names per team as its members."""
    given = [len(team) for team in roster]
    if given != list(sizes):
        raise refuse("R-T5", f"the class list has teams of {given} names; the teams have "
                             f"{list(sizes)} members")


def _check_round_modes(round_modes: object) -> None:
    if not isinstance(round_modes, list) or not round_modes:
        raise refuse("R-O4", "round_modes must list, for each round, the modes it allows")
    for number, modes in enumerate(round_modes, start=1):
        if (not isinstance(modes, list) or not modes or len(modes) > len(MODES)
                or any(m not in MODES for m in modes) or len(set(modes)) != len(modes)):
            raise refuse("R-O4", f"round {number} must allow one or more of "
                                 f"{', '.join(MODES)}, each once")


def _parse_seconds(seconds: object, rounds: int) -> tuple[int, ...]:
    given = seconds if isinstance(seconds, list) and len(seconds) == rounds else [seconds]
    if not all(_whole(s) for s in given):
        raise _format("settings.deliberation_seconds must be a whole number of seconds, "
                      f"or a list of {rounds} of them, one per round")
    for number, value in enumerate(given, start=1):
        if not MIN_SECONDS <= value <= MAX_SECONDS:
            where = f" (round {number})" if given is seconds else ""
            raise refuse("R-U8", f"a round's deliberation time is {MIN_SECONDS} to "
                                 f"{MAX_SECONDS} seconds, not {value}{where}")
    return tuple(given) if given is seconds else (seconds,) * rounds


def propose_team_sizes(students: int, max_members: int = DEFAULT_MAX_MEMBERS) -> list[int]:
    """R-T5: team sizes for ``students`` students that satisfy R-T1..R-T3.

    Uses as few teams as the bounds allow, so each team keeps enough voices, and
    puts the larger teams first:

    >>> propose_team_sizes(29)
    [6, 6, 6, 6, 5]
    >>> propose_team_sizes(12)
    [3, 3, 3, 3]

    Raises a Refusal naming R-T1/R-T2 when no split exists.
    """
    for teams in range(MIN_TEAMS, MAX_TEAMS + 1):
        small, extra = divmod(students, teams)
        if small >= MIN_MEMBERS and small + (1 if extra else 0) <= max_members:
            return [small + 1] * extra + [small] * (teams - extra)
    low, high = MIN_TEAMS * MIN_MEMBERS, MAX_TEAMS * max_members
    raise refuse("R-T2" if students > high else "R-T1",
                 f"{students} students cannot make {MIN_TEAMS} to {MAX_TEAMS} teams of "
                 f"{MIN_MEMBERS} to {max_members}: the game takes {low} to {high} students")


def deal_students(names: list[str], sizes: list[int], rng) -> list[list[str]]:
    """R-T5: deal named students into teams of ``sizes`` at random (``rng`` is a random.Random)."""
    if len(names) != sum(sizes):
        raise refuse("R-T5", f"{len(names)} names do not fill teams of {sizes}")
    shuffled = list(names)
    rng.shuffle(shuffled)
    teams, start = [], 0
    for size in sizes:
        teams.append(shuffled[start:start + size])
        start += size
    return teams
