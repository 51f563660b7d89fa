"""The game record, ``partida/1`` (RULES.md section 11): write any game, replay it exactly."""
from __future__ import annotations

import json
from typing import Callable, Iterable

from .actions import parse_action
from .errors import Refusal, refuse
from .numbers import is_unicode
from .game import Game
from ...questions.model import QUESTION_TYPES, Question
from .settings import parse_settings

FORMAT = "partida/1"

#: Loads the questions of a bank a record names instead of listing them.
BankLoader = Callable[[str], Iterable[Question]]


def parse_questions(data: object) -> list[Question]:
    """Check a record's ``questions`` list and return the questions."""
    if not isinstance(data, list):
        raise refuse("format", "questions must be a list of {id, author, type, text, answer}")
    questions, seen = [], set()
    for index, item in enumerate(data):
        where = f"questions[{index}]"
        if not isinstance(item, dict):
            raise refuse("format", f"{where} must be an object")
        values = {}
        for key in ("id", "author", "type", "text", "answer"):
            value = item.get(key)
            if not isinstance(value, str) or not value.strip() or not is_unicode(value):
                raise refuse("format", f"{where} needs '{key}' as non-empty text")
            # Names are compared exactly (a choice of "Kant" finds "Kant"), so no stray spaces.
            values[key] = value.strip() if key in ("id", "author", "type") else value
        if values["type"] not in QUESTION_TYPES:
            raise refuse("format", f"{where} has type {values['type']!r}; the types are "
                                   f"{', '.join(QUESTION_TYPES)}")
        if values["id"] in seen:
            raise refuse("format", f"{where}: the id {values['id']!r} is used twice")
        seen.add(values["id"])
        extras = {key: item[key] for key in ("notes", "text_html", "answer_html")
                  if isinstance(item.get(key), str)}   # optional: their formatted forms
        questions.append(Question(**values, **extras))
    return questions


def new_game(record: dict, load_bank: BankLoader | None = None) -> Game:
    """A game with the record's settings and questions and no action played yet."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise refuse("format", f"this is not a {FORMAT} record: it needs \"format\": "
                               f"\"{FORMAT}\"")
    settings = parse_settings(record.get("settings"))
    if "questions" in record:
        questions = parse_questions(record["questions"])
    elif isinstance(record.get("bank"), str) and load_bank is not None:
        try:
            questions = list(load_bank(record["bank"]))
        except (OSError, ValueError) as error:
            raise refuse("format", f"the question bank {record['bank']!r} cannot be read: "
                                   f"{error}") from error
    else:
        questions = []
    return Game(settings, questions)


def replay(record: dict, load_bank: BankLoader | None = None) -> Game:
    """Replay a record; a refused action raises a Refusal carrying its 0-based index."""
    game = new_game(record, load_bank)
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise refuse("format", "actions must be a list")
    for index, data in enumerate(actions):
        try:
            game.play(parse_action(data))
        except Refusal as refusal:
            raise refusal.at(index) from None
    return game


def write_record(game: Game, extra: dict | None = None) -> dict:
    """The record of ``game``: it replays to the identical state."""
    record = {"format": FORMAT, "settings": game.settings.to_dict(),
              "questions": [q.to_dict() for q in game.questions.values()],
              "actions": [act.to_dict() for act in game.log]}
    if extra:
        record.update(extra)
    return record


def load_record(text: str) -> dict:
    """Parse a record's JSON text; refuse it as ``format`` if it is not JSON."""
    try:
        data = json.loads(text)
    except ValueError as error:
        raise refuse("format", f"the record is not valid JSON: {error}") from None
    return data
