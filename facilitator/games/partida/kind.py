"""La partida in the registry of games: how one starts, is stored, loaded and replayed."""
from __future__ import annotations

import sys
import weakref

from ..protocol import KindDefaults
from . import settings as s
from .exports import export_record, results_xlsx, standings_csv, summary_json, turns_csv
from .game import Game
from .live import SCREEN_EVENTS, PartidaMatch
from ...questions.model import Question
from .record import FORMAT, replay, write_record
from .settings import parse_settings
from .teams import PartidaTeams

#: The fields of a stored question, in the order ``Question`` takes them.
QUESTION_FIELDS = ("id", "author", "type", "text", "answer", "notes", "text_html",
                   "answer_html")

#: Every Question some loaded game holds, by its fields (gone with the last game).
_QUESTIONS: "weakref.WeakValueDictionary[tuple, Question]" = weakref.WeakValueDictionary()


def shared_question(stored: dict) -> Question:
    """The Question of a stored one, shared by every game that holds the same: games made
    from one bank hold the same questions, and a process serving a hundred games keeps
    one copy of each text and one (frozen) Question of each."""
    fields = tuple(_interned(stored.get(k, "")) for k in QUESTION_FIELDS)
    question = _QUESTIONS.get(fields)
    if question is None:
        question = _QUESTIONS.setdefault(fields, Question(*fields))
    return question


def _interned(value: object) -> object:
    return sys.intern(value) if type(value) is str else value


#: The files a played partida offers: the stem of each one's name, per language.
_FILE_WORDS = {"standings.csv": {"es": "clasificacion", "en": "standings"},
               "turns.csv": {"es": "turnos", "en": "turns"},
               "results.xlsx": {"es": "resultados", "en": "results"}}
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


class PartidaKind(KindDefaults):
    """The team quiz game "la partida" (docs/reglas.md)."""

    name = "partida"
    record_format = FORMAT
    #: The record's key holding the game's content, and what that content is.
    content_key = "questions"
    events = SCREEN_EVENTS
    #: The pages its screens are (templates of the facilitator's own).
    pages = {"seat": "team/play.html", "gm": "console/game.html", "watcher": "projector.html",
             "rules": "rulebook.html"}
    #: The rules a team's device is refused by most (a device acting out of turn, writing
    #: late or twice, asking an exchange): its page carries their summaries.
    seat_refusals = ("R-G4", "R-U10", "R-U5", "R-K6")
    #: The console's set-up form (teams, a question bank, the schedule) makes its games.
    setup_form = True
    #: Its teams, made from a class (R-T1..R-T5).
    teams = PartidaTeams()
    #: The results page: standings, podium, charts, turn by turn; and its downloads.
    results_page = "results/game.html"
    downloads = {"standings.csv": "text/csv", "turns.csv": "text/csv", "results.xlsx": XLSX}

    def results(self, match: PartidaMatch, name: str | None, lang: str) -> dict:
        """Standings, turns, the score timeline, cards and participation."""
        return summary_json(match.game, name, lang)

    def download(self, match: PartidaMatch, file: str, lang: str) -> tuple[str, bytes | str]:
        """The standings or the turns as CSV (the stable machine format, codes as codes),
        or both as an .xlsx workbook in ``lang``."""
        words = _FILE_WORDS.get(file)
        if words is None:
            return super().download(match, file, lang)
        word = words["en" if lang == "en" else "es"]
        if file == "results.xlsx":
            return word, results_xlsx(match.game, lang)
        written = standings_csv if file == "standings.csv" else turns_csv
        return words["es"], "\ufeff" + written(match.game)

    def export(self, record: dict, fmt: str, table: str = "both", name: str | None = None,
               read_beside=None) -> str:
        """``facilitator export``: the standings and turns as CSV, the results as JSON, or
        the record replayed and written again."""
        return export_record(record, fmt, table, name, read_beside)

    def settings_bounds(self) -> dict:
        """Every setting with its default and bounds (RULES.md section 11)."""
        return {
            "teams": {"min": s.MIN_TEAMS, "max": s.MAX_TEAMS},
            "members": {"min": s.MIN_MEMBERS, "default_max": s.DEFAULT_MAX_MEMBERS,
                        "max": s.MAX_MAX_MEMBERS},
            "rounds": {"default": s.DEFAULT_ROUNDS, "min": 1, "max": s.MAX_ROUNDS},
            "deliberation_seconds": {"default": s.DEFAULT_DELIBERATION_SECONDS,
                                     "min": s.MIN_SECONDS, "max": s.MAX_SECONDS},
            "special_cards": {"default": dict(s.DEFAULT_SPECIAL_CARDS), "min": 0,
                              "max": s.MAX_SPECIAL_CARDS},
            "bank_special_cards": {"default": dict(s.DEFAULT_BANK_SPECIAL_CARDS), "min": 0,
                                   "max": s.MAX_BANK_SPECIAL_CARDS},
            "exchange_cost": {"default": s.DEFAULT_EXCHANGE_COST, "min": 1,
                              "max": s.MAX_EXCHANGE_COST},
            "points": {"default": dict(s.DEFAULT_POINTS), "min": -s.MAX_POINTS,
                       "max": s.MAX_POINTS, "step": 1 / s.POINTS_STEP},
            # The default schedule of a game of n rounds is entry n - 1 of each list.
            "round_modes": {"default": [s.default_round_modes(n)
                                        for n in range(1, s.MAX_ROUNDS + 1)]},
            "individual_rounds": {"default": [[n] for n in range(1, s.MAX_ROUNDS + 1)]},
        }

    def new(self, settings: dict, questions=(), **_content) -> PartidaMatch:
        """A new game (settings checked: a Refusal names the rule broken); ``questions``:
        Questions, or questions as stored."""
        return PartidaMatch(Game(parse_settings(settings),
                                 [q if isinstance(q, Question) else shared_question(q)
                                  for q in questions or ()]))

    def stored(self, match: PartidaMatch) -> tuple[dict, list[dict]]:
        """The settings and questions the store keeps of a game."""
        game = match.game
        return game.settings.to_dict(), [q.to_dict() for q in game.questions.values()]

    def load(self, settings: dict, content: list[dict], actions: list[dict],
             live: dict | None) -> PartidaMatch:
        """A stored game, its accepted actions played again."""
        match = PartidaMatch(Game(parse_settings(settings),
                                  [shared_question(q) for q in content or ()]), live)
        match.follow(actions)
        return match

    def replay(self, record: dict, read_beside=None) -> PartidaMatch:
        """The game of a ``partida/1`` record (a refusal names the action's index);
        ``read_beside(name)``: the questions of a bank file the record names."""
        return PartidaMatch(replay(record, load_bank=read_beside))

    def record(self, settings: dict, content: list[dict], actions: list[dict],
               name: str = "") -> dict:
        """The ``partida/1`` record of a stored game."""
        return {"format": FORMAT, "name": name, "settings": settings, "questions": content,
                "actions": actions}


KIND = PartidaKind()
__all__ = ["KIND", "PartidaKind", "QUESTION_FIELDS", "shared_question", "write_record"]
