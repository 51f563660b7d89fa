"""La colmena (The HIVE), the cooperative card game of the GEDIS print & play manual.

The rule book is docs/colmena.md; every refusal names one of its rule ids.
``KIND`` is the game as the facilitator's registry knows it
(``facilitator.games.kind("colmena")``):

>>> from facilitator.games.protocol import Role
>>> match = KIND.new({"players": ["Ana", "Bea", "Carla"]}, seed=48151)
>>> match.view(Role.table())["awaiting"]["step"]
'first_task'
>>> KIND.replay(match.record()).state.to_dict() == match.state.to_dict()
True
"""
from __future__ import annotations

import secrets
from pathlib import Path

from ...resources import data_path
from ..protocol import KindDefaults, Refusal
from .deal import HAND_SIZES, MAX_PLAYERS, MIN_PLAYERS
from .deck import DEFAULT, Deck
from .deck_file import DeckRefusal, deck_from_record, deck_to_csv, read_deck_csv
from .match import FORMAT, ColmenaMatch
from .record import MAX_NAME, parse_players, replay

__all__ = ["KIND", "ColmenaKind", "ColmenaMatch", "DEFAULT", "Deck", "DeckRefusal", "FORMAT",
           "deck_to_csv", "read_deck_csv", "replay"]


class ColmenaKind(KindDefaults):
    """La colmena for the registry: its settings, a new table, a replayed one."""

    name = "colmena"
    record_format = FORMAT
    #: Client events its screens send besides ``act`` and ``sync``: none.
    events: dict = {}
    #: The rule of who holds a seat (one device per seat; the table's screen acts only
    #: for a seat no device holds): the id refusals about seats name.
    seat_rule = "C-Q1"
    #: The folder its screens' scripts are served from (``/games/colmena/<role>.js``): a
    #: phone's hand, the table's board, the teacher's console, the projector.
    screens_folder: Path = data_path("static") / "js" / "games" / "colmena"
    #: No page of its own: the generic game screen loads the scripts above.
    pages: dict = {}

    def settings_bounds(self) -> dict:
        """Every setting with its default and bounds, for set-up forms."""
        return {
            "players": {"default": ["Jugadora 1", "Jugadora 2"], "min": MIN_PLAYERS,
                        "max": MAX_PLAYERS, "name_max": MAX_NAME,
                        "hand_sizes": {str(n): size for n, size in HAND_SIZES.items()}},
            "deck": {"default": "default",
                     "file": "UTF-8 CSV with the header id,kind,name,icons,count "
                             "(optional name_es)"},
            "seed": {"default": None, "note": "a whole number; chosen at random if not given"},
        }

    #: The record's key holding the table's content (its deck and seed, as the store keeps it).
    content_key = "deck"

    def new(self, settings: dict, content: dict | None = None, *, deck=None,
            seed: int | None = None) -> ColmenaMatch:
        """A new table: ``settings`` holds ``"players"`` (1 to 4 names, by seat); ``deck``
        is ``"default"`` (or None), a Deck, a record's card list or a deck file's text;
        ``content``: ``{"deck", "seed"}`` as the store keeps them."""
        if isinstance(content, dict):
            deck = content.get("deck", deck)
            seed = content.get("seed", seed)
        players = parse_players(settings)
        if deck is None or deck == "default":
            deck = DEFAULT
        elif isinstance(deck, str):
            deck = read_deck_csv(deck)
        elif not isinstance(deck, Deck):
            deck = deck_from_record(deck)
        if seed is None:
            seed = secrets.randbelow(2 ** 31)
        elif isinstance(seed, bool) or not isinstance(seed, int):
            raise Refusal("format", "the seed must be a whole number")
        return ColmenaLive(players, deck, seed)

    def replay(self, record: dict, read_beside=None) -> ColmenaMatch:
        """Rebuild a table from its record; a refused action raises Refusal with its index."""
        return replay(record)

    def stored(self, match: ColmenaMatch) -> tuple[dict, dict]:
        """What the store keeps of a table: its players, and its deck and seed."""
        return {"players": list(match.players)}, {"deck": match.deck.to_record(),
                                                  "seed": match.seed}

    def load(self, settings: dict, content: dict, actions: list[dict],
             live: dict | None) -> ColmenaLive:
        """A stored table, its actions played again."""
        match = self.new(settings, content)
        match.follow(actions)
        return match

    def record(self, settings: dict, content: dict, actions: list[dict],
               name: str = "") -> dict:
        """The ``colmena/1`` record of a stored table (C-R1)."""
        content = content or {}
        record = {"format": FORMAT, "settings": {"players": list(settings.get("players", []))},
                  "deck": content.get("deck", "default"), "seed": content.get("seed"),
                  "actions": list(actions)}
        if name:
            record["name"] = name
        return record


from .live import ColmenaLive  # noqa: E402  (the live table, after the rules it wraps)

from .hall import ColmenaHall  # noqa: E402  (a whole class at once, tables of this game)

KIND = ColmenaKind()
KIND.hall = ColmenaHall()
