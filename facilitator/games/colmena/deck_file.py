"""A printed deck entered by a teacher: the CSV file of C-D2 and its refusals (C-D3).

The file is UTF-8 CSV with the header ``id,kind,name,icons,count`` (and,
optionally, ``name_es``), one row per card. Rows are numbered as a
spreadsheet shows them: the header is row 1, the first card row 2. A record's
own deck (C-R2) is the same cards as a list of objects; its cards are numbered
from 1. Either is refused, with ``C-D3``, the row and the reason, at the first
check it breaks, in the order C-D3 lists them.

>>> deck = read_deck_csv(deck_to_csv(DEFAULT))
>>> len(deck.cards), deck.card("LIB05").count
(72, 5)
"""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from ..protocol import Refusal
from .deck import DEFAULT, KINDS, TASK, TASKS_IN_A_DECK, TEAM, TEAMS_IN_A_DECK, Card, Deck

COLUMNS = ("id", "kind", "name", "icons", "count")
OPTIONAL_COLUMNS = ("name_es",)


class DeckRefusal(Refusal):
    """A deck refused by C-D3: ``row`` is where (1-based), ``reason`` why."""

    def __init__(self, rule: str, message: str, action: int | None = None, *,
                 row: int | None = None, reason: str = ""):
        super().__init__(rule, message, action)
        self.row = row
        self.reason = reason or message

    def at(self, index: int | None) -> "DeckRefusal":
        """The same refusal, located at action ``index`` of a record."""
        return DeckRefusal(self.rule, self.message, index, row=self.row, reason=self.reason)


@dataclass(frozen=True, slots=True)
class Row:
    """One card as read, before its checks: ``number`` is its row (or place in a list)."""

    number: int
    id: str
    kind: str
    name: str
    name_es: str
    icons: tuple[str, ...]
    count: object


def _refuse(label: str, number: int, reason: str) -> DeckRefusal:
    return DeckRefusal("C-D3", f"{label} {number}: {reason}", row=number, reason=reason)


def _whole_count(value: object) -> int | None:
    """The printed xN as a whole number (``4``, ``"4"``, ``"x4"``, ``"×4"``), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value > 0 else None
    if not isinstance(value, str):
        return None
    text = value.strip().lower().lstrip("x×").strip()
    # ASCII digits only ("²" is a digit to Python, not a count), and no more than a deck
    # could print (a 5,000-digit number is no count either).
    if not (text.isascii() and text.isdigit() and len(text) <= 6):
        return None
    return int(text) if int(text) > 0 else None


def check_rows(rows: list[Row], label: str = "row", last: int = 1) -> Deck:
    """The deck these rows make, or a C-D3 refusal naming the first row that breaks a check.

    ``label`` names a row in messages ("row", "card"); ``last`` is the number of the
    last row read (where a short deck is found short).
    """
    seen: dict[str, int] = {}
    tasks = teams = 0
    team_icon: dict[str, str] = {}          # team name -> its icon
    icon_team: dict[str, str] = {}          # icon -> the team that shows it
    team_count: dict[str, tuple[int, int]] = {}   # team name -> (count, row that set it)
    team_rows: dict[str, list[int]] = {}
    cards: list[Card] = []
    for row in rows:
        where = row.number
        if not row.id:
            raise _refuse(label, where, "the id is empty")
        if row.id in seen:
            raise _refuse(label, where, f"the id {row.id!r} is already used in {label} "
                                        f"{seen[row.id]}")
        seen[row.id] = where
        if row.kind not in KINDS:
            raise _refuse(label, where, f"the kind {row.kind!r} is neither 'task' nor 'team'")
        if row.kind == TASK:
            tasks += 1
            if tasks > TASKS_IN_A_DECK:
                raise _refuse(label, where, f"a task card beyond the {TASKS_IN_A_DECK} a deck "
                                            "holds (it needs exactly 32 task and 40 team cards)")
        else:
            teams += 1
            if teams > TEAMS_IN_A_DECK:
                raise _refuse(label, where, f"a team card beyond the {TEAMS_IN_A_DECK} a deck "
                                            "holds (it needs exactly 32 task and 40 team cards)")
        if row.kind == TEAM:
            count = _check_team_row(row, label, team_icon, icon_team, team_count, team_rows)
            cards.append(Card(row.id, TEAM, row.name, row.name_es or row.name, row.icons, count))
        else:
            if not row.icons:
                raise _refuse(label, where, "a task card shows at least one icon; this one "
                                            "shows none")
            repeated = sorted({i for i in row.icons if row.icons.count(i) > 1})
            if repeated:
                raise _refuse(label, where, f"the icon {repeated[0]!r} is shown twice")
            cards.append(Card(row.id, TASK, row.name, row.name_es or row.name, row.icons))
    if tasks != TASKS_IN_A_DECK or teams != TEAMS_IN_A_DECK:
        raise _refuse(label, last, f"the deck has {tasks} task and {teams} team cards; it needs "
                                   f"exactly {TASKS_IN_A_DECK} and {TEAMS_IN_A_DECK}")
    for name, numbers in team_rows.items():
        count = team_count[name][0]
        if len(numbers) != count:
            raise _refuse(label, numbers[-1], f"the team {name!r} has {len(numbers)} cards but "
                                              f"its count says x{count}")
    for row, card in zip(rows, cards):
        if card.is_task:
            for icon in card.icons:
                if icon not in icon_team:
                    raise _refuse(label, row.number, f"the icon {icon!r} is on no team card")
    return Deck(cards)


def _check_team_row(row: Row, label: str, team_icon: dict, icon_team: dict,
                    team_count: dict, team_rows: dict) -> int:
    where, name = row.number, row.name
    if len(row.icons) != 1:
        raise _refuse(label, where, f"a team card shows one icon; this one shows "
                                    f"{len(row.icons)}")
    icon = row.icons[0]
    if name in team_icon and team_icon[name] != icon:
        raise _refuse(label, where, f"the team {name!r} already shows the icon "
                                    f"{team_icon[name]!r}, not {icon!r}: a team has one icon")
    if icon in icon_team and icon_team[icon] != name:
        raise _refuse(label, where, f"the icon {icon!r} is already the team "
                                    f"{icon_team[icon]!r}'s: two teams cannot share one")
    team_icon[name], icon_team[icon] = icon, name
    count = _whole_count(row.count)
    if count is None:
        raise _refuse(label, where, f"the count {str(row.count)[:20]!r} is not the printed xN "
                                    "of the team (a whole number of cards)")
    if name in team_count and team_count[name][0] != count:
        before, first = team_count[name]
        raise _refuse(label, where, f"the count x{count} of the team {name!r} differs from "
                                    f"its x{before} in {label} {first}")
    team_count.setdefault(name, (count, where))
    numbers = team_rows.setdefault(name, [])
    numbers.append(where)
    if len(numbers) > count:
        raise _refuse(label, where, f"the team {name!r} has {len(numbers)} cards but its count "
                                    f"says x{count}")
    return count


def _icons(text: str) -> tuple[str, ...]:
    return tuple(word.lower() for word in text.split())


def read_deck_csv(text: str) -> Deck:
    """Read a deck file's text (C-D2), or raise a ``DeckRefusal`` (C-D3)."""
    if text.startswith("\ufeff"):        # a spreadsheet's byte order mark
        text = text[1:]
    reader = csv.reader(io.StringIO(text, newline=""))
    table: list[list[str]] = []
    try:
        for line in reader:
            table.append(line)
    except csv.Error as error:
        # A NUL byte, a cell past the reader's limit, a quote never closed: said, with
        # the row where the reader stopped.
        raise _refuse("row", reader.line_num, f"the file cannot be read as CSV here: "
                                              f"{error}") from None
    if not table:
        raise _refuse("row", 1, "the file is empty: it needs the header "
                                "id,kind,name,icons,count")
    header = [cell.strip().lower() for cell in table[0]]
    for column in COLUMNS:
        if column not in header:
            raise _refuse("row", 1, f"the column {column!r} is missing (the header is "
                                    "id,kind,name,icons,count)")
    place = {column: header.index(column) for column in COLUMNS + OPTIONAL_COLUMNS
             if column in header}

    def cell(line: list[str], column: str) -> str:
        index = place.get(column)
        return line[index].strip() if index is not None and index < len(line) else ""

    rows = []
    for number, line in enumerate(table[1:], start=2):
        if not any(part.strip() for part in line):
            continue                      # a blank line a spreadsheet left
        if any(ord(c) < 32 and c != "\t" for part in line for c in part):
            # A NUL byte or another control character: no card prints one, and no
            # database or spreadsheet could keep it.
            raise _refuse("row", number, "a cell holds a control character (such as a NUL "
                                         "byte): no printed card has one")
        rows.append(Row(number, cell(line, "id"), cell(line, "kind").lower(), cell(line, "name"),
                        cell(line, "name_es"), _icons(cell(line, "icons")), cell(line, "count")))
    return check_rows(rows, "row", len(table))


def read_deck_file(path: str) -> Deck:
    """Read a deck file from disk (UTF-8), or raise a ``DeckRefusal`` (C-D3)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except UnicodeDecodeError as error:
        raise _refuse("row", 1, f"the file is not UTF-8 text: {error}") from None
    return read_deck_csv(text)


def deck_from_record(data: object) -> Deck:
    """The deck a record names (C-R1): ``"default"`` or its card list; refused as ``format``
    when it has the wrong form, as ``C-D3`` when its cards break a check."""
    if data == "default":
        return DEFAULT
    if not isinstance(data, list):
        raise Refusal("format", "deck must be \"default\" or a list of "
                                "{id, kind, name, icons, count} objects")
    rows = []
    for number, item in enumerate(data, start=1):
        if not isinstance(item, dict):
            raise Refusal("format", f"deck card {number} must be an object")
        unknown = set(item) - set(COLUMNS) - set(OPTIONAL_COLUMNS)
        if unknown:
            raise Refusal("format", f"deck card {number} has an unknown field "
                                    f"{sorted(unknown)[0]!r}")
        for key in ("id", "kind", "name"):
            if not isinstance(item.get(key), str):
                raise Refusal("format", f"deck card {number} needs '{key}' as text")
        if not isinstance(item.get("name_es", ""), str):
            raise Refusal("format", f"deck card {number}: 'name_es' must be text")
        icons = item.get("icons")
        if not isinstance(icons, list) or not all(isinstance(i, str) for i in icons):
            raise Refusal("format", f"deck card {number} needs 'icons' as a list of words")
        count = item.get("count")
        if count is not None and (isinstance(count, bool) or not isinstance(count, int)):
            raise Refusal("format", f"deck card {number}: 'count' must be a whole number "
                                    "or null")
        rows.append(Row(number, item["id"].strip(), item["kind"].strip().lower(),
                        item["name"].strip(), item.get("name_es", "").strip(),
                        tuple(i.strip().lower() for i in icons if i.strip()), count))
    return check_rows(rows, "card", len(rows))


def deck_to_csv(deck: Deck) -> str:
    """The deck as a deck file (C-D2): a template a teacher can edit."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS + OPTIONAL_COLUMNS)
    for card in deck.cards:
        writer.writerow([card.id, card.kind, card.name, " ".join(card.icons),
                         "" if card.count is None else card.count, card.name_es])
    return out.getvalue()
