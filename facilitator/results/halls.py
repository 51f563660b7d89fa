"""A hall's downloads: its standings as CSV and .xlsx, and every game's record in one zip
(each its kind's own format, replayable with ``facilitator replay``)."""
from __future__ import annotations

import io
import json
import re
import zipfile

from ..classes.exports import _csv, _sheet

WORDS = {
    "es": {"rank": "Puesto", "name": "Nombre", "points": "Puntos", "standings": "Clasificación",
           "games": "Juegos", "game": "Juego", "round": "Ronda", "players": "Jugadores",
           "over": "Terminado", "result": "Resultado", "yes": "sí", "no": "no",
           "group": "Mesa", "members": "Quiénes jugaron", "unplayed": "Sin jugar"},
    "en": {"rank": "Rank", "name": "Name", "points": "Points", "standings": "Standings",
           "games": "Games", "game": "Game", "round": "Round", "players": "Players",
           "over": "Over", "result": "Result", "yes": "yes", "no": "no",
           "group": "Table", "members": "Players", "unplayed": "Not played"},
}


def _words(lang: str) -> dict:
    return WORDS["es" if (lang or "").lower().startswith("es") else "en"]


def standings_rows(hall: dict, standings: list[dict], lang: str = "es",
                   columns: tuple = ()) -> tuple[list, list]:
    """The standings' header and rows: rank, name, points (a number, as a spreadsheet
    adds it up), then the hall's own ``columns``: ``(key, header)`` each."""
    words = _words(lang)
    rows = [[row["rank"], hall["players"][row["player"]], row.get("points"),
             *(row.get(key) for key, _header in columns)]
            for row in standings]
    return [words["rank"], words["name"], words["points"],
            *(header for _key, header in columns)], rows


def groups_rows(groups: list[dict], lang: str = "es", columns: tuple = ()) -> tuple[list, list]:
    """The standings of a hall that ranks groups (la colmena's tables): rank, the group's
    name, its members, points (a number; «No se jugó» for a group that did not play),
    then the hall's own ``columns``."""
    words = _words(lang)
    rows = [[row["rank"], row["name"], ", ".join(row["members"]),
             row["points"] if row["played"] else words["unplayed"],
             *(row.get(key) for key, _header in columns)]
            for row in groups]
    return [words["rank"], words["group"], words["members"], words["points"],
            *(header for _key, header in columns)], rows


def _standings(hall, standings, lang, columns, groups):
    return (groups_rows(groups, lang, columns) if groups is not None
            else standings_rows(hall, standings, lang, columns))


def games_rows(games: list[dict], lang: str = "es") -> tuple[list, list]:
    """One row per game of the hall: its round (a number), its name (its place, in the
    page's words), players, whether it is over and its result in words (``result``; a
    game over that was never played, ``played`` False, says so)."""
    words = _words(lang)
    rows = [[int(str(game["key"]).split(".")[0]), game["name"],
             ", ".join(game.get("players") or ()),
             words["yes"] if game.get("over") else words["no"],
             words["unplayed"] if game.get("over") and not game.get("played", True)
             else game.get("result") or ""]
            for game in games]
    return [words["round"], words["game"], words["players"], words["over"],
            words["result"]], rows


def standings_csv(hall: dict, standings: list[dict], lang: str = "es",
                  columns: tuple = (), groups: list[dict] | None = None) -> str:
    """The hall's standings as CSV (text cells neutralised against formulas): a row per
    group when ``groups`` is given (a hall that ranks groups), else per player."""
    return _csv(*_standings(hall, standings, lang, columns, groups))


def hall_xlsx(hall: dict, standings: list[dict], games: list[dict], lang: str = "es",
              columns: tuple = (), groups: list[dict] | None = None) -> bytes:
    """The standings (per group when ``groups`` is given) and the games as an .xlsx
    workbook."""
    from openpyxl import Workbook
    words = _words(lang)
    book = Workbook()
    _sheet(book, words["standings"], *_standings(hall, standings, lang, columns, groups),
           first=True)
    _sheet(book, words["games"], *games_rows(games, lang))
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def file_name(text: str) -> str:
    """``text`` as a file name every system keeps (letters, digits, dashes)."""
    return re.sub(r"[^\w-]+", "-", text, flags=re.ASCII).strip("-")[:60] or "hall"


def records_zip(records: list[tuple[str, dict]]) -> bytes:
    """A zip of the games' records: ``(key, record)`` each as ``<key>.json``."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for key, record in records:
            archive.writestr(f"{file_name(key)}.json",
                             json.dumps(record, ensure_ascii=False, indent=1))
    return out.getvalue()
