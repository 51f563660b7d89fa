"""Creating games: from the set-up form (or the API's JSON), from a record.

A partida's content is its questions, from a bank: the game keeps a copy of them,
with the bank's images as addresses of the game's own (``/g/<public id>/img/<id>``).
"""
from __future__ import annotations

import functools
import html as html_module
import re

from ..extensions import database, store
from ..games import Refusal, is_unicode, kind, names
from ..store.banks import bank_questions, image_ids, list_banks

@functools.cache
def setup_kind() -> str:
    """The game the console's set-up form makes (teams, a question bank, the schedule):
    the first game of the registry that declares that form its own (``setup_form``)."""
    return next(name for name in names() if kind(name).setup_form)


def setup_teams():
    """The set-up game's ``teams`` (``protocol.Teams``): how the set-up form, the API and a
    class's page make its teams."""
    return kind(setup_kind()).teams

_BANK_IMAGE = re.compile(r'src="image:([^"]+)"')


def setup_defaults(game: str | None = None) -> dict:
    """The set-up form's defaults (the game's own): rounds, times, cards, points, team
    size."""
    bounds = kind(game or setup_kind()).settings_bounds()
    return {"rounds": bounds["rounds"]["default"],
            "deliberation_seconds": bounds["deliberation_seconds"]["default"],
            "special_cards": bounds["special_cards"]["default"],
            "bank_special_cards": bounds["bank_special_cards"]["default"],
            "exchange_cost": bounds["exchange_cost"]["default"],
            "points": bounds["points"]["default"],
            "max_members": bounds["members"]["default_max"]}


def setup_bounds(game: str | None = None) -> dict:
    """The set-up form's bounds (the game's own): each setting's ``min`` and ``max``, and
    ``schedules``, the default schedule of a game of n rounds at ``n - 1``: the modes
    of each round and the individual rounds."""
    bounds = kind(game or setup_kind()).settings_bounds()
    limits = {key: {b: v[b] for b in ("min", "max") if b in v}
              for key, v in bounds.items() if "min" in v or "max" in v}
    limits["schedules"] = [{"modes": modes, "individual": individual} for modes, individual
                           in zip(bounds["round_modes"]["default"],
                                  bounds["individual_rounds"]["default"])]
    return limits


def create_from_setup(data: object, leave_out: set[str] | None = None) -> int:
    """Create a game from the set-up form's JSON ``{"name", "settings", "bank_id",
    "roster"}``; returns its id.

    Without ``bank_id`` the first bank is used. The settings are checked by the game.
    Raises a Refusal: ``format`` for a malformed form (no such bank, a name that is
    not text...), else the rule the settings break. ``leave_out``: ids of questions
    read in a class's earlier games, left out of this game's questions (the game
    offers only what it is given)."""
    if not isinstance(data, dict):
        raise Refusal("format", "send the game as JSON")
    bank_id = data.get("bank_id")
    banks = list_banks(database)
    if bank_id is None and banks:
        bank_id = banks[0]["id"]
    bank_id = str(bank_id)
    bank = (bank_questions(database, int(bank_id))
            if bank_id.isdecimal() and bank_id.isascii() and len(bank_id) < 10 else None)
    if bank is None:
        raise Refusal("format", "choose a question bank")
    name = data.get("name") if isinstance(data.get("name"), str) else ""
    if not is_unicode(name):
        raise Refusal("format", "the class name is not valid text")
    settings = data.get("settings")
    if isinstance(settings, dict) and isinstance(data.get("roster"), list):
        settings = {**settings, "roster": distinct_roster(data["roster"])}
    bank_name, questions = bank
    if leave_out:
        questions = [q for q in questions if q.id not in leave_out]

    # The bank's images the questions show, read before the game's transaction (on
    # SQLite a read inside it would wait for it): their ids make this game's addresses.
    shown = {html_module.unescape(name) for q in questions
             for name in _BANK_IMAGE.findall(q.text_html + q.answer_html)}
    ids = image_ids(database, bank_name, shown) if shown else {}

    def images(_session, row) -> None:
        if shown:
            row.content = _game_images(row.content, ids, row.public_id)
    return store.create_game(setup_kind(), name or "", settings, questions,
                             bank_name=bank_name, link=images)


def distinct_roster(roster: list) -> list:
    """A class list (names per team) whose namesakes are told apart, "Ana García" and
    "Ana García (2)" (:func:`facilitator.classes.roster.roster_names`), so that naming a
    spokesperson names one student; anything not a list of lists of names is left as it
    is for the game to refuse."""
    from ..classes.roster import roster_names
    if not all(isinstance(team, list) and all(isinstance(n, str) for n in team)
               for team in roster):
        return roster
    flat = roster_names([" ".join(n.split()) for team in roster for n in team])
    out, at = [], 0
    for team in roster:
        out.append(flat[at:at + len(team)])
        at += len(team)
    return out


def create_class_game(klass: dict, lineup: list[list[int]], settings: dict, bank: dict | None,
                      name: str, allow_repeats: bool = False, kept: bool = False) -> int:
    """Create a game from class ``klass`` with ``lineup`` (student ids per team): the
    teams' sizes are the lineup's, the roster its students' names (checked by the game);
    questions read in the class's earlier games (of ``bank``) are left out unless
    ``allow_repeats``. The class remembers the bank and settings as the defaults of its
    next game. Returns the game's id (a Refusal names what is wrong)."""
    from ..classes.summaries import read_questions
    from ..store import classes as stored
    names = settings.get("teams") if isinstance(settings.get("teams"), list) else []
    teams = []
    for number, members in enumerate(lineup, start=1):
        given = names[number - 1] if len(names) >= number and isinstance(names[number - 1], dict) else {}
        team_name = given.get("name") if isinstance(given.get("name"), str) and given["name"].strip() else None
        teams.append({"name": team_name or f"Equipo {number}", "members": len(members)})
    settings = {**settings, "teams": teams,
                "roster": stored.game_roster(klass["students"], lineup),
                "class_name": klass["name"][:100]}
    bank_id = None if bank is None else bank["id"]
    leave_out = None
    if not allow_repeats and bank is not None:
        leave_out = read_questions(database, store, klass["id"], bank["name"])
    kind(setup_kind()).new(settings)           # the game's check, before anything is stored
    game_id = create_from_setup({"name": name, "bank_id": bank_id, "settings": settings},
                                leave_out)
    stored.link_game(database, game_id, klass["id"], lineup, kept=kept,
                     allow_repeats=allow_repeats)
    stored.update_class(database, klass["id"], {"bank_id": bank_id, "settings": settings})
    return game_id


def create_plain(game: str, name: str, settings: dict, players: object = None) -> int:
    """Create a game of a kind that takes no bank: its settings, and ``players`` for a kind
    that keeps its players beside them (Hive's, by colour: checked by the game)."""
    from ..games import names
    if game not in names():
        raise Refusal("format", f"there is no game {game!r}")
    if not isinstance(name, str) or not is_unicode(name):
        raise Refusal("format", "the game's name is not valid text")
    content = None if players is None else {"players": players}
    return store.create_game(game, name or game, settings if isinstance(settings, dict) else {},
                             content)


def create_from_text(game: str, name: str, text: object, players: object = None,
                     settings: object = None) -> int:
    """Create a game of ``game`` from a text its kind reads as a game so far (Hive's
    GameString pasted from MzingaViewer), with its players and settings; it goes on live
    from there. A Refusal names what is wrong: ``format`` for a kind that reads no such
    text, else the rule the text breaks, with ``action`` the 0-based index of the move
    that cannot be played."""
    from ..games import names
    if game not in names():
        raise Refusal("format", f"the game {game!r} does not load a pasted text")
    if not isinstance(name, str) or not is_unicode(name):
        raise Refusal("format", "the game's name is not valid text")
    if isinstance(text, str) and not is_unicode(text):
        raise Refusal("format", "the pasted text is not valid text")
    record = kind(game).record_of_text(text, players, settings if settings else None)
    return import_record(record, name)


def import_record(record: dict, name: str) -> int:
    """Store a record as a game, every action included (a Refusal names what is wrong).
    A record is a file anyone may have edited: its questions' formatting is sanitised
    again (and their images, which are not in the record, dropped)."""
    from ..store.games import kind_of
    found = kind_of(record)
    match = found.replay(record)
    settings, content = found.stored(match)
    if found.content_key == "questions":
        content = [_sanitised(q) for q in content]
    return store.import_record(record, name, content, match)


def _sanitised(question: dict) -> dict:
    from ..questions.formatting import sanitise
    return {**question, **{key: sanitise(value, available=set()).html
                           for key in ("text_html", "answer_html")
                           if (value := question.get(key))}}


def _game_images(questions: list[dict], ids: dict[str, int], public_id: str) -> list[dict]:
    """The game's questions with their bank images (``src="image:NAME"``) as addresses of
    this game (``/g/<public_id>/img/<image id>``, served without login to its teams and
    projector); an image the bank no longer has (no id) is dropped (its alt text stays)."""

    def url(match: re.Match) -> str:
        found = ids.get(html_module.unescape(match.group(1)))
        return f'src="/g/{public_id}/img/{found}"' if found else 'src=""'
    return [{**q, **{key: _BANK_IMAGE.sub(url, q[key]) for key in ("text_html", "answer_html")
                     if q.get(key)}} for q in questions]
