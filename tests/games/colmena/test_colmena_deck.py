"""The cards (C-C1..C-C5), the shipped deck (C-D1) and the deck file with its refusals
(C-D2, C-D3): one test per reason of C-D3, each checking the row it names."""
from __future__ import annotations

import pytest

from facilitator.games.colmena import KIND
from facilitator.games.colmena.deck import DEFAULT, ICON_NAMES, TASK, TEAM
from facilitator.games.colmena.deck_file import (DeckRefusal, deck_from_record, deck_to_csv,
                                                 read_deck_csv, read_deck_file)
from facilitator.games.protocol import Refusal

LETTER = {"P": "pencil", "M": "mortarboard", "K": "briefcase", "B": "book", "R": "brain"}
#: C-D1's task list, by icon set, as the rule book gives it.
TASK_SETS = {"PMKB": "T01 T02", "PMKR": "T03", "PMBR": "T04", "PKBR": "T05", "MKBR": "T06",
             "PMK": "T07 T08", "PMB": "T09 T10", "PMR": "T11 T12", "PKB": "T13 T14",
             "PKR": "T15", "PBR": "T16 T17", "MKB": "T18 T19", "MKR": "T20", "MBR": "T21",
             "KBR": "T22", "PM": "T23", "PK": "T24", "PB": "T25", "PR": "T26", "MK": "T27",
             "MB": "T28", "MR": "T29", "KB": "T30", "KR": "T31", "BR": "T32"}
TEAMS = [("FAC", "Faculty", "Profesorado", "pencil", 11),
         ("STU", "Students", "Alumnado", "mortarboard", 12),
         ("MAN", "Academic Management", "Gestión académica", "briefcase", 8),
         ("LIB", "Library Staff", "Personal de biblioteca", "book", 5),
         ("ARD", "Academic Research and Development", "I+D académica", "brain", 4)]


# ------------------------------------------------------------------ the cards

def test_the_deck_is_72_cards_32_tasks_and_40_team_cards():
    """C-C1."""
    kinds = [card.kind for card in DEFAULT.cards]
    assert len(kinds) == 72 and kinds.count(TASK) == 32 and kinds.count(TEAM) == 40


def test_a_task_shows_the_icons_of_the_teams_that_can_help():
    """C-C2: the manual's two examples are T16 (pencil, brain, book) and T09."""
    assert set(DEFAULT.card("T16").icons) == {"pencil", "brain", "book"}
    assert set(DEFAULT.card("T09").icons) == {"pencil", "mortarboard", "book"}
    for card in DEFAULT.cards:
        if card.is_task:
            assert 2 <= len(card.icons) <= 4 and set(card.icons) <= DEFAULT.icons


def test_a_team_card_shows_one_icon_and_its_teams_count():
    """C-C3: e.g. x4 on each Academic Research and Development card."""
    for card in DEFAULT.cards:
        if not card.is_task:
            assert len(card.icons) == 1
            assert card.count == len(DEFAULT.team(card.icon).ids)
    assert DEFAULT.card("ARD02").count == 4


def test_the_named_teams_with_their_spanish_names_and_icons():
    """C-C4, C-C5 and C-D1: only the named teams, one icon each."""
    teams = [(t.name, t.name_es, t.icon, t.count) for t in DEFAULT.teams]
    assert teams == [(en, es, icon, n) for _, en, es, icon, n in TEAMS]
    assert {icon: names["es"] for icon, names in ICON_NAMES.items()} == {
        "pencil": "lápiz", "mortarboard": "birrete", "briefcase": "maletín", "book": "libro",
        "brain": "cerebro"}


def test_the_shipped_deck_is_c_d1_card_by_card_in_file_order():
    """C-D1 and C-R2's file order: T01-T32, FAC01-FAC11, STU, MAN, LIB, ARD."""
    ids = [f"T{n:02d}" for n in range(1, 33)]
    for prefix, _, _, _, count in TEAMS:
        ids += [f"{prefix}{n:02d}" for n in range(1, count + 1)]
    assert DEFAULT.ids == ids
    for letters, names in TASK_SETS.items():
        for task in names.split():
            assert DEFAULT.card(task).icons == tuple(LETTER[x] for x in letters), task
    for prefix, en, es, icon, count in TEAMS:
        for n in range(1, count + 1):
            card = DEFAULT.card(f"{prefix}{n:02d}")
            assert (card.name, card.name_es, card.icons, card.count) == (en, es, (icon,), count)


def test_every_card_has_a_spanish_name():
    names = [card.name_es for card in DEFAULT.cards]
    assert all(names) and DEFAULT.card("T28").name_es == "Club de lectura"
    assert len({card.name_es for card in DEFAULT.cards if card.is_task}) == 32


# ------------------------------------------------------------------ the deck file (C-D2)

def lines() -> list[str]:
    """The shipped deck as a deck file's lines; line i is row i + 1 (the header is row 1)."""
    return deck_to_csv(DEFAULT).splitlines()


def row_of(card_id: str) -> int:
    return DEFAULT.ids.index(card_id) + 2


def refused(text_lines: list[str]) -> DeckRefusal:
    with pytest.raises(DeckRefusal) as caught:
        read_deck_csv("\n".join(text_lines) + "\n")
    assert caught.value.rule == "C-D3"
    return caught.value


def test_the_shipped_deck_reads_back_from_its_file():
    """C-D2: the file of a deck reads back to the same cards."""
    deck = read_deck_csv(deck_to_csv(DEFAULT))
    assert [c.to_record() for c in deck.cards] == [c.to_record() for c in DEFAULT.cards]
    assert deck.to_record() == [c.to_record() for c in DEFAULT.cards]   # a list, not "default"


def test_a_deck_file_as_a_spreadsheet_writes_it():
    """C-D2: a byte order mark, header case, blank rows, x4 counts, no name_es."""
    text = ["\ufeffID,Kind,Name,Icons,Count"]
    for card in DEFAULT.cards:
        count = f"x{card.count}" if card.count else ""
        text.append(f"{card.id},{card.kind.upper()},{card.name},{' '.join(card.icons).upper()},"
                    f"{count}")
    text.insert(5, ",,,,")
    deck = read_deck_csv("\r\n".join(text))
    assert deck.card("LIB01").count == 5 and deck.card("T09").icons == ("pencil", "mortarboard",
                                                                        "book")
    assert deck.card("T09").name_es == "Gender-balanced reading list"


def test_a_teacher_starts_a_table_with_a_deck_file():
    """C-D2: a new table takes a deck file's text; the record keeps a copy (C-R2)."""
    text = deck_to_csv(DEFAULT).replace("Library Staff", "Librarians")
    match = KIND.new({"players": ["Ana", "Bea"]}, deck=text, seed=5)
    record = match.record()
    assert isinstance(record["deck"], list) and record["deck"][64]["name"] == "Librarians"
    assert KIND.replay(record).state.to_dict() == match.state.to_dict()


# ------------------------------------------------------------------ its refusals (C-D3)

def test_c_d3_a_missing_column_is_row_1():
    text = lines()
    text[0] = "id,kind,name,icons"
    error = refused(text)
    assert error.row == 1 and "count" in error.reason


def test_c_d3_an_empty_id():
    text = lines()
    text[row_of("T05") - 1] = text[row_of("T05") - 1].replace("T05", "", 1)
    assert refused(text).row == row_of("T05")


def test_c_d3_a_repeated_id_names_its_second_row():
    text = lines()
    text[row_of("STU03") - 1] = text[row_of("STU03") - 1].replace("STU03", "STU02")
    error = refused(text)
    assert error.row == row_of("STU03") and f"row {row_of('STU02')}" in error.reason


def test_c_d3_a_kind_neither_task_nor_team():
    text = lines()
    text[row_of("T07") - 1] = text[row_of("T07") - 1].replace(",task,", ",tarea,")
    assert refused(text).row == row_of("T07")


def test_c_d3_a_33rd_task_row():
    text = lines() + ["T33,task,One task too many,pencil book,"]
    error = refused(text)
    assert error.row == 74 and "32" in error.reason


def test_c_d3_a_deck_short_of_team_cards_is_refused_at_its_last_row():
    text = [line for line in lines() if not line.startswith("ARD04")]
    error = refused(text)
    assert error.row == 72 and "39 team" in error.reason


def test_c_d3_a_team_row_without_exactly_one_icon():
    text = lines()
    text[row_of("MAN02") - 1] = text[row_of("MAN02") - 1].replace(",briefcase,",
                                                                  ",briefcase book,")
    assert refused(text).row == row_of("MAN02")
    text = lines()
    text[row_of("MAN03") - 1] = text[row_of("MAN03") - 1].replace(",briefcase,", ",,")
    assert refused(text).row == row_of("MAN03")


def test_c_d3_a_team_with_two_icons():
    text = lines()
    text[row_of("FAC04") - 1] = text[row_of("FAC04") - 1].replace(",pencil,", ",pen,")
    error = refused(text)
    assert error.row == row_of("FAC04") and "'pencil'" in error.reason


def test_c_d3_two_teams_with_one_icon():
    text = lines()
    text[row_of("STU01") - 1] = text[row_of("STU01") - 1].replace(",mortarboard,", ",pencil,")
    error = refused(text)
    assert error.row == row_of("STU01") and "'Faculty'" in error.reason


def test_c_d3_a_count_that_is_not_a_number():
    text = lines()
    text[row_of("LIB01") - 1] = text[row_of("LIB01") - 1].replace(",5,", ",five,")
    assert refused(text).row == row_of("LIB01")


def test_c_d3_a_count_that_differs_within_a_team():
    text = lines()
    text[row_of("LIB03") - 1] = text[row_of("LIB03") - 1].replace(",5,", ",6,")
    error = refused(text)
    assert error.row == row_of("LIB03") and "x5" in error.reason


def test_c_d3_more_rows_than_the_teams_count():
    text = lines()
    for card in ("LIB01", "LIB02", "LIB03", "LIB04", "LIB05"):
        text[row_of(card) - 1] = text[row_of(card) - 1].replace(",5,", ",4,")
    error = refused(text)
    assert error.row == row_of("LIB05") and "x4" in error.reason


def test_c_d3_fewer_rows_than_the_teams_count_names_its_last_row():
    text = lines()
    for card in DEFAULT.team("brain").ids:
        text[row_of(card) - 1] = text[row_of(card) - 1].replace(",4,", ",5,")
    error = refused(text)
    assert error.row == row_of("ARD04") and "x5" in error.reason


def test_c_d3_a_task_with_no_icon():
    text = lines()
    text[row_of("T23") - 1] = text[row_of("T23") - 1].replace("pencil mortarboard", "")
    assert refused(text).row == row_of("T23")


def test_c_d3_a_task_repeating_an_icon():
    text = lines()
    text[row_of("T24") - 1] = text[row_of("T24") - 1].replace("pencil briefcase",
                                                              "pencil briefcase pencil")
    assert refused(text).row == row_of("T24")


def test_c_d3_a_task_icon_no_team_shows():
    text = lines()
    text[row_of("T31") - 1] = text[row_of("T31") - 1].replace("briefcase brain", "briefcase owl")
    error = refused(text)
    assert error.row == row_of("T31") and "'owl'" in error.reason


def test_c_d3_an_empty_file_and_a_file_not_in_utf8(tmp_path):
    assert refused([]).row == 1
    path = tmp_path / "deck.csv"
    path.write_bytes(deck_to_csv(DEFAULT).replace("Gestión", "Gesti\u00f3n").encode("latin-1"))
    with pytest.raises(DeckRefusal) as caught:
        read_deck_file(str(path))
    assert caught.value.row == 1 and caught.value.rule == "C-D3"
    path.write_text(deck_to_csv(DEFAULT), encoding="utf-8")
    assert len(read_deck_file(str(path)).cards) == 72


def test_c_d3_a_records_own_deck_numbers_its_cards_from_1():
    cards = [c.to_record() for c in DEFAULT.cards]
    cards[40] = dict(cards[40], id="FAC01")
    with pytest.raises(DeckRefusal) as caught:
        deck_from_record(cards)
    assert caught.value.row == 41 and caught.value.message.startswith("card 41:")
    assert caught.value.at(None).row == 41


@pytest.mark.parametrize("deck", ["mine", {"cards": []}, [1], [{"id": "T01"}],
                                  [{"id": "T01", "kind": "task", "name": "x", "icons": "pencil",
                                    "count": None}],
                                  [{"id": "T01", "kind": "task", "name": "x", "icons": [],
                                    "count": "4"}],
                                  [{"id": "T01", "kind": "task", "name": "x", "icons": [],
                                    "count": None, "colour": "red"}]])
def test_a_records_deck_of_the_wrong_form_is_format(deck):
    with pytest.raises(Refusal) as caught:
        deck_from_record(deck)
    assert caught.value.rule == "format"


def _with_team_count(count: str) -> str:
    import re
    text = deck_to_csv(DEFAULT)
    line = next(line for line in text.split("\n") if ",team," in line)
    return text.replace(line, re.sub(r",(\d+),", "," + count + ",", line, count=1), 1)


@pytest.mark.parametrize("text, where, why", [
    (_with_team_count("²"), 34, "the count '²' is not the printed xN"),
    (_with_team_count("9" * 5000), 34, "the count '99999999999999999999' is not the printed xN"),
    (_with_team_count("-3"), 34, "is not the printed xN"),
    ("id,kind,name,icons,count\nT\x0001,task,Bienvenida,pencil,\n", 2, "control character"),
    ("id,kind,name,icons,count\n" + "a" * 200_000 + ",task,x,pencil,\n", 2,
     "cannot be read as CSV here: field larger than field limit"),
])
def test_a_deck_file_with_a_cell_no_card_prints_is_refused_with_its_row(text, where, why):
    """Issue 46: inputs that made the deck reader throw are refused (C-D3) with the row
    and the reason, like any other mistake in the file."""
    with pytest.raises(DeckRefusal) as refused:
        read_deck_csv(text)
    assert refused.value.rule == "C-D3" and refused.value.row == where
    assert why in refused.value.message, refused.value.message
