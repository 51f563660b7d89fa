"""The record ``colmena/1`` (C-R1..C-R4): write any table, replay it exactly.

A record is one JSON object: ``format``, ``settings`` (the players by seat),
``deck`` (``"default"`` or its own card list), ``seed`` and ``actions``. The
record itself is checked first, with ``"action": null`` when refused (C-Z1):
its form (``format``), the number of players (C-S1), its deck (C-D3). Then
each action is played as the teacher would send it; the first refused one
stops the replay, its 0-based index in the refusal.

>>> match = replay({"format": "colmena/1", "settings": {"players": ["Ana", "Bea"]},
...                 "deck": "default", "seed": 7, "actions": []})
>>> match.state.step, [len(hand) for hand in match.state.hands]
('first_task', [6, 6])
"""
from __future__ import annotations

from ..protocol import Refusal, Role
from .deal import MAX_PLAYERS, MIN_PLAYERS
from .deck_file import deck_from_record
from .match import FORMAT, ColmenaMatch

#: Longest player name.
MAX_NAME = 40


def _is_unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def parse_players(settings: object) -> tuple[str, ...]:
    """The players' names, by seat, from a record's (or a new table's) settings."""
    if not isinstance(settings, dict):
        raise Refusal("format", "settings must be an object like {\"players\": [\"Ana\", "
                                "\"Bea\"]}")
    for key in settings:
        if key != "players":
            raise Refusal("format", f"unknown setting {key!r}"[:120])
    players = settings.get("players")
    if not isinstance(players, list):
        raise Refusal("format", "settings need 'players', a list of names by seat")
    names = []
    for seat, name in enumerate(players, start=1):
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME \
                or not _is_unicode(name):
            raise Refusal("format", f"the player of seat {seat} needs a name of 1 to "
                                    f"{MAX_NAME} characters")
        names.append(name.strip())
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise Refusal("C-S1", f"la colmena is played by 2 to 4 players, or 1 solo; "
                              f"this table has {len(names)}")
    return tuple(names)


def parse_seed(seed: object) -> int:
    """The seed of the shuffle (C-R2): a whole number."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise Refusal("format", "the record needs 'seed', a whole number")
    return seed


def new_match(record: object) -> ColmenaMatch:
    """The table a record sets up, dealt, with no action played yet."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise Refusal("format", f"this is not a {FORMAT} record: it needs \"format\": "
                                f"\"{FORMAT}\"")
    players = parse_players(record.get("settings"))
    deck = deck_from_record(record.get("deck", "default"))
    from .live import ColmenaLive        # the live table: what the facilitator serves
    return ColmenaLive(players, deck, parse_seed(record.get("seed")))


def replay(record: object) -> ColmenaMatch:
    """Replay a record; a refused action raises a Refusal carrying its 0-based index."""
    match = new_match(record)
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise Refusal("format", "actions must be a list")
    teacher = Role.gm()
    for index, action in enumerate(actions):
        try:
            match.play(action, teacher)
        except Refusal as refusal:
            raise refusal.at(index) from None
    return match


def write_record(match: ColmenaMatch) -> dict:
    """The record of ``match``: it replays to the identical table."""
    return match.record()
