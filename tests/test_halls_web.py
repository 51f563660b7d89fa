"""Halls through the console (issues 37 and 38), on SQLite and PostgreSQL: a hall made
from a class counts in the class's league and participation (issues 37
and 38): each student played as a "team" of one, ranked by the hall rules' standings.
The toy counter's hall (tests/counter_game.py) stands for la colmena and Hive."""
from __future__ import annotations

from pathlib import Path

import pytest

from facilitator.extensions import store
from facilitator.games import MODULES, Role
from facilitator.services.halls import halls

NAMES = ["Ana Díaz", "Bea Gil", "Carla Ruiz", "Dani Sanz"]


pytestmark = [pytest.mark.databases("sqlite", "postgres"),
              pytest.mark.app_config(SAMPLE_BANK=None)]


@pytest.fixture(autouse=True)
def counter_game(monkeypatch):
    """The toy counter (tests/counter_game.py) is a game of the registry, for the app."""
    monkeypatch.syspath_prepend(str(Path(__file__).parent))
    monkeypatch.setitem(MODULES, "counter", "counter_game")


def test_a_class_hall_ranks_each_student_in_the_league(app, gm):
    made = gm.post("/console/classes", json={"name": "2.º A"})
    class_id = made.json["id"]
    students = gm.post(f"/console/classes/{class_id}/students",
                       json={"text": "\n".join(NAMES)}).json["students"]
    absent = [s["id"] for s in students if s["name"] == "Dani Sanz"]
    answer = gm.post("/console/halls", json={"kind": "counter", "class_id": class_id,
                                             "absent": absent, "settings": {"target": 3}})
    assert answer.status_code == 200 and answer.json["ok"], answer.json
    with app.app_context():
        games = halls().games_of(answer.json["hall_id"])
        assert [g["key"] for g in games] == ["1.1"]          # three present: one pair
        game_id = games[0]["game_id"]

        def add(seat, n):
            store.transact(game_id, "team", lambda c: c.act({"do": "add", "n": n},
                                                            Role.of_seat(seat), 0.0))
        add(1, 2)
        add(2, 1)                                          # count 3: seat 2 (Bea) wins
    league = gm.get(f"/console/classes/{class_id}/league.json").json["league"]
    assert [g["name"] for g in league["games"]] == ["2.º A"]
    rows = {r["name"]: r for r in league["students"]}
    assert rows["Bea Gil"]["rank"] == 1 and rows["Bea Gil"]["per_game"][0] is not None
    assert rows["Dani Sanz"]["per_game"] == [None]            # absent: not in the hall
    assert rows["Carla Ruiz"]["per_game"][0] is not None      # present, sat out the round
    present = gm.get(f"/console/classes/{class_id}/participation.json").json["participation"]
    by_name = {r["name"]: r for r in present["students"]}
    assert by_name["Ana Díaz"]["games_present"] == 1 and by_name["Dani Sanz"]["games_present"] == 0


def test_a_halls_downloads_hold_its_standings_and_every_record(app, gm):
    import io
    import json
    import zipfile

    from openpyxl import load_workbook
    answer = gm.post("/console/halls", json={"kind": "counter", "name": "Sala =1+1",
                                             "players": "Ana\nBea\n=HYPERLINK(\"x\")\nDani\n",
                                             "settings": {"target": 3}})
    assert answer.json["ok"], answer.json
    hall_id = answer.json["hall_id"]
    with app.app_context():
        game_id = halls().games_of(hall_id)[0]["game_id"]
        store.transact(game_id, "team", lambda c: c.act({"do": "add", "n": 2}, Role.of_seat(1), 0.0))
        store.transact(game_id, "team", lambda c: c.act({"do": "add", "n": 1}, Role.of_seat(2), 0.0))
    csv = gm.get(f"/console/halls/{hall_id}/export/standings.csv")
    assert csv.status_code == 200
    lines = csv.get_data(as_text=True).splitlines()
    assert lines[0] == "Puesto,Nombre,Puntos" and lines[1] == "1,Bea,1"
    assert "'=HYPERLINK" in csv.get_data(as_text=True)        # never a formula
    book = load_workbook(io.BytesIO(gm.get(f"/console/halls/{hall_id}/export/hall.xlsx").data))
    # A game is named by its place in the page's words (its round has a column).
    assert [c.value for c in book.worksheets[1][2]][:2] == [1, "Mesa 1"]
    english = load_workbook(io.BytesIO(gm.get(f"/console/halls/{hall_id}/export/hall.xlsx?lang=en").data))
    assert [c.value for c in english.worksheets[1][2]][:2] == [1, "Table 1"]
    archive = zipfile.ZipFile(io.BytesIO(gm.get(f"/console/halls/{hall_id}/export/records.zip").data))
    assert sorted(archive.namelist()) == ["1-1.json", "1-2.json"]
    record = json.loads(archive.read("1-1.json"))
    assert record["format"] == "counter/1" and len(record["actions"]) == 2
    assert gm.get(f"/console/halls/{hall_id}/export/other.txt").status_code == 404


@pytest.mark.parametrize("body, rule, says", [
    (None, "format", "object"),
    ({"kind": "partida", "players": "Ana\nBea"}, "format", "not played by a whole class"),
    ({"kind": "nada", "players": "Ana\nBea"}, "format", "no game 'nada'"),
    ({"kind": "counter", "players": "Ana"}, "H1", "two players"),
    ({"kind": "counter", "players": "Ana\nBea\x07\n"}, "format", "control character"),
    ({"kind": "counter", "players": "\n".join(["Ana"] * 39 + ["Bea; b@x; 1; 2"])}, "format",
     "line 40"),
    ({"kind": "counter", "players": 7}, "format", "one per line"),
    ({"kind": "counter", "class_id": 999, "players": ""}, "format", "no such class"),
    ({"kind": "counter", "players": "Ana\nBea", "settings": []}, "format", "settings"),
    ({"kind": "counter", "players": "Ana\nBea", "seed": "x"}, "format", "seed"),
])
def test_a_hall_refused_says_what_and_where_and_makes_nothing(app, gm, body, rule, says):
    answer = gm.post("/console/halls", json=body)
    assert answer.status_code == 400 and answer.json["ok"] is False
    assert answer.json["error"] == rule and says in answer.json["message"]
    with app.app_context():
        assert halls().listing() == [] and store.listing() == []


def test_a_hall_page_or_download_of_no_hall_is_a_404_page(gm):
    for path in ("/console/halls/99", "/console/halls/99.json", "/console/halls/99/export/standings.csv",
                 "/halls/NOSUCHCODE"):
        assert gm.get(path).status_code == 404, path
    assert gm.post("/console/halls/99/delete").status_code == 404


def test_a_halls_results_page_ranks_its_players_and_lists_its_games(app, gm):
    answer = gm.post("/console/halls", json={"kind": "counter", "name": "Martes",
                                             "players": "Ana\nBea\nCarla\nDani\n",
                                             "settings": {"target": 3}})
    hall_id = answer.json["hall_id"]
    with app.app_context():
        game_id = halls().games_of(hall_id)[1]["game_id"]
        store.transact(game_id, "team", lambda c: c.act({"do": "add", "n": 2}, Role.of_seat(1), 0.0))
        store.transact(game_id, "team", lambda c: c.act({"do": "add", "n": 2}, Role.of_seat(2), 0.0))
    page = gm.get(f"/console/halls/{hall_id}/results").get_data(as_text=True)
    standings = page.split('data-testid="hall-standings"')[1].split("</table>")[0]
    assert standings.index("Dani") < standings.index("Ana")     # Dani won table 1.2
    games = page.split('data-testid="hall-results-games"')[1].split("</table>")[0]
    assert "Ana, Bea" in games and "sigue en juego" in games and "Carla, Dani" in games


def test_a_halls_games_say_when_each_last_moved(app, gm):
    import time
    hall_id = gm.post("/console/halls", json={"kind": "counter", "players": "Ana\nBea\nCarla\nDani",
                                              "settings": {"target": 3}}).json["hall_id"]
    before = time.time()
    with app.app_context():
        game_id = halls().games_of(hall_id)[0]["game_id"]
        store.transact(game_id, "team", lambda c: c.act({"do": "add", "n": 1}, Role.of_seat(1), 0.0))
    games = gm.get(f"/console/halls/{hall_id}.json").json["games"]
    assert before <= games[0]["acted_at"] <= time.time()
    assert games[1]["acted_at"] is None                        # not begun


def test_a_halls_downloads_keep_the_accents_of_its_name(gm):
    """Issue 47: «Torneo Hive Lógica I» downloads as «Torneo-Hive-Lógica-I-hall.xlsx»
    (UTF-8 for browsers), with an ASCII name beside it for other programs."""
    from urllib.parse import unquote
    answer = gm.post("/console/halls", json={"kind": "hive", "name": "Torneo Hive Lógica I",
                                             "players": "Ana\nBea\nCarla\nDani"}).json
    header = gm.get(f"/console/halls/{answer['hall_id']}/export/hall.xlsx").headers[
        "Content-Disposition"]
    utf8 = header.split("filename*=UTF-8''")[1]
    assert unquote(utf8) == "Torneo-Hive-Lógica-I-hall.xlsx"
    assert 'filename="Torneo-Hive-Logica-I-hall.xlsx"' in header
