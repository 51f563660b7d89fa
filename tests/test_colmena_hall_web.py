"""A hall of la colmena through the console (issue 37, item 3), on SQLite and PostgreSQL:
made from a pasted list of 11 names or from a class, its tables ordinary games of la
colmena, its results page (standings by table score, each table's tier, the completed
tasks by name) and its downloads (standings CSV, .xlsx, every table's colmena/1 record,
which replays to the same score)."""
from __future__ import annotations

import io
import json
import random
import re
import zipfile

import pytest

from colmena_hall_play import legal_of, next_action
from facilitator.extensions import store
from facilitator.games import Role, kind
from facilitator.services.halls import halls

ELEVEN = ["Ana Díaz", "Bea Gil", "Carla Ruiz", "Dani Sanz", "Eli Mora", "Fran Vega",
          "Gala Pons", "Hugo Saez", "Iris Cano", "Joel Ruiz", "Kira Font"]
TEACHER = Role.gm()
pytestmark = [pytest.mark.databases("sqlite", "postgres"),
              pytest.mark.app_config(SAMPLE_BANK=None)]


def act(game_id: int, action: dict) -> None:
    store.transact(game_id, "gm", lambda c: c.act(action, TEACHER, 0.0))


def start(game_id: int) -> None:
    """The teacher lays a table's first task (it is played from then on)."""
    match = store.current(game_id)[0]
    entry = next(e for e in match.legal(None) if e.do == "first_task")
    seat, cards = next((int(s), c) for s, c in entry.options["cards"].items() if c)
    act(game_id, {"do": "first_task", "player": seat, "card": cards[0]})
    assert store.current(game_id)[0].state.board


def play_to_the_end(game_id: int, seed: int, limit: int = 500) -> None:
    """The teacher plays a table to the end of its deck (every action from the legal list)."""
    rng = random.Random(seed)
    for _ in range(limit):
        match = store.current(game_id)[0]
        if match.over:
            return
        act(game_id, next_action(legal_of(match), rng))
    raise AssertionError("the table did not end")


def test_a_pasted_list_of_eleven_makes_three_tables_whose_results_and_downloads_agree(app, gm):
    from openpyxl import load_workbook
    answer = gm.post("/console/halls", json={"kind": "colmena", "name": "Martes 3.º B",
                                             "players": "\n".join(ELEVEN) + "\n", "seed": 48151})
    assert answer.status_code == 200 and answer.json["ok"], answer.json
    hall_id = answer.json["hall_id"]
    with app.app_context():
        games = halls().games_of(hall_id)
        assert [(g["key"], g["name"]) for g in games] == [("1.1", "Mesa 1"), ("1.2", "Mesa 2"),
                                                           ("1.3", "Mesa 3")]
        seated = [store.current(g["game_id"])[0].players for g in games]
        assert [len(p) for p in seated] == [4, 4, 3]                    # C-A2
        assert sorted(n for table in seated for n in table) == sorted(ELEVEN)
        assert all(g["table_code"] for g in games)                      # each its own code
        play_to_the_end(games[0]["game_id"], seed=1)
        act(games[1]["game_id"], {"do": "end_game"})                    # ended at the bell
        first = store.current(games[0]["game_id"])[0]
        totals = [store.current(g["game_id"])[0].score()["total"] for g in games]
    page = gm.get(f"/console/halls/{hall_id}")
    assert page.status_code == 200 and "/games/colmena/hall.js" in page.get_data(as_text=True)
    for script in ("hall.js", "hall_watcher.js"):
        served = gm.get(f"/games/colmena/{script}")
        served.close()
        assert served.status_code == 200, script
    # The results rank the tables (the game is cooperative), each with its students and
    # its talking penalties; table 2 was ended before its first task and table 3 never
    # started: neither is played, so neither is ranked (C-A7).
    page = gm.get(f"/console/halls/{hall_id}/results?lang=es-ES").get_data(as_text=True)
    standings = page.split('data-testid="hall-standings"')[1].split("</table>")[0]
    groups = standings.split('<tr data-testid="hall-group-')[1:]
    assert [g.split('"')[0] for g in groups] == ["1", "2", "3"]
    assert all(name in groups[0] for name in seated[0])
    assert "<td>1</td>" in groups[0] and "Sin jugar" in groups[1] and "Sin jugar" in groups[2]
    assert all(name in groups[1] for name in seated[1])
    penalties = sum(type(e).__name__ == "HandDiscarded" for e in first.state.history)
    assert f'data-testid="hall-group-1-penalties">{penalties}<' in groups[0]
    assert "Penalizaciones por hablar" in standings
    debrief = page.split('data-testid="hall-debrief"')
    assert len(debrief) == 4                                            # one per table
    for task in first.score()["completed"]:
        assert first.deck.card(task["card"]).name_es in debrief[1]
    assert "Mesa 2: no se ha jugado" in debrief[2] or "Mesa 2: no se jugó" in debrief[2]
    assert "puntos" not in debrief[2].split("</section>")[0]           # never played: no score
    # The finished table's score line by line, as its tablet wrote it (C-X): the points of
    # each line add up to its total.
    scored = first.score()
    lines = debrief[1].split('data-testid="hall-breakdown"')[1].split("</table>")[0]
    assert f"Tareas completadas ({len(scored['completed'])})" in lines
    assert f"Tareas sin completar ({len(scored['open'])})" in lines
    points = [int(p.replace("\u2212", "-")) for p in re.findall(r'class="num">([^<]+)<', lines)]
    assert len(points) == 5 and sum(points) == scored["total"], (points, scored["total"])
    tables = page.split('data-testid="hall-results-games"')[1].split("</table>")[0]
    assert "sigue en juego" in tables                                   # table 3 still on
    english = gm.get(f"/console/halls/{hall_id}/results?lang=en").get_data(as_text=True)
    assert "Table 1: " in english
    for task in first.score()["completed"]:
        assert first.deck.card(task["card"]).name in english
    # The debrief says each table's talking penalties.
    assert f"Penalizaciones por hablar: {penalties}" in debrief[1] or (
        penalties == 0 and "Penalizaciones por hablar: ninguna" in debrief[1])
    # The standings CSV and workbook: a row per table, its students, its total and its
    # penalties; the unplayed tables have no rank and no score (C-A7).
    csv = gm.get(f"/console/halls/{hall_id}/export/standings.csv?lang=es").get_data(as_text=True)
    lines = csv.splitlines()
    assert lines[0] == "Puesto,Mesa,Quiénes jugaron,Puntos,Penalizaciones por hablar"
    assert len(lines) == 4 and lines[1].startswith("1,Mesa 1,")
    assert lines[1].endswith(f",{totals[0]},{penalties}")
    assert lines[2].startswith(",Mesa 2,") and ",Sin jugar," in lines[2]
    book = load_workbook(io.BytesIO(gm.get(f"/console/halls/{hall_id}/export/hall.xlsx?lang=es").data))
    ranked = [[c.value for c in row] for row in book.worksheets[0].iter_rows()]
    assert ranked[0] == ["Puesto", "Mesa", "Quiénes jugaron", "Puntos", "Penalizaciones por hablar"]
    assert ranked[1] == [1, "Mesa 1", ", ".join(seated[0]), totals[0], penalties]
    assert ranked[2][:2] == [None, "Mesa 2"] and ranked[2][3] == "Sin jugar"
    rows = [[c.value for c in row] for row in book.worksheets[1].iter_rows(min_row=2)]
    assert [row[:2] for row in rows] == [[1, "Mesa 1"], [1, "Mesa 2"], [1, "Mesa 3"]]
    assert rows[0][3] == "sí" and rows[2][3] == "no"
    # The result in words, never a code word (issue 47): a tier's sentence; «Sin jugar»
    # for the table ended before its first card; nothing yet for the one still on.
    assert rows[0][4] and "_" not in rows[0][4] and rows[1][4] == "Sin jugar" and rows[2][4] is None
    listed = page.split('data-testid="hall-results-games"')[1].split("</table>")[0]
    assert listed.split("<tr>")[3].count("Sin jugar") == 1      # «Mesas y partidas»: table 2
    assert "Sin jugar" not in listed.split("<tr>")[2]
    english = load_workbook(io.BytesIO(gm.get(f"/console/halls/{hall_id}/export/hall.xlsx?lang=en").data))
    sheets = [[[c.value for c in row] for row in sheet.iter_rows()] for sheet in english.worksheets]
    assert sheets[0][0] == ["Rank", "Table", "Players", "Points", "Talking penalties"]
    assert sheets[0][2][:2] == [None, "Table 2"] and sheets[0][2][3] == "Not played"
    assert sheets[1][0] == ["Round", "Game", "Players", "Over", "Result"]
    # The games named in the page's words, as the standings name the tables.
    assert [row[1] for row in sheets[1][1:]] == ["Table 1", "Table 2", "Table 3"]
    assert [row[3:] for row in sheets[1][1:]] == [["yes", sheets[1][1][4]], ["yes", "Not played"],
                                                 ["no", None]]
    assert sheets[1][1][4] and "_" not in sheets[1][1][4]       # a tier in English words
    archive = zipfile.ZipFile(io.BytesIO(gm.get(f"/console/halls/{hall_id}/export/records.zip").data))
    assert sorted(archive.namelist()) == ["1-1.json", "1-2.json", "1-3.json"]
    for name, total in zip(sorted(archive.namelist()), totals):
        record = json.loads(archive.read(name))
        assert record["format"] == "colmena/1"
        assert kind("colmena").replay(record).score()["total"] == total   # replays exactly


def test_a_class_makes_a_hall_of_its_students_present_with_a_solo_seat(app, gm):
    made = gm.post("/console/classes", json={"name": "2.º A"})
    class_id = made.json["id"]
    students = gm.post(f"/console/classes/{class_id}/students",
                       json={"text": "\n".join(ELEVEN[:8])}).json["students"]
    absent = [s["id"] for s in students if s["name"] == "Hugo Saez"]
    answer = gm.post("/console/halls", json={"kind": "colmena", "class_id": class_id,
                                             "absent": absent, "settings": {"solo": True}})
    assert answer.status_code == 200 and answer.json["ok"], answer.json
    with app.app_context():
        games = halls().games_of(answer.json["hall_id"])
        seated = [store.current(g["game_id"])[0].players for g in games]
        assert [len(p) for p in seated] == [3, 3, 1]                    # C-A3: 6 + the solo
        assert seated[-1] == ("Gala Pons",)                             # the last present
        assert "Hugo Saez" not in [n for table in seated for n in table]
        for game in games:            # each table lays its first task (it is played), then ends
            start(game["game_id"])
            act(game["game_id"], {"do": "end_game"})
    league = gm.get(f"/console/classes/{class_id}/league.json").json["league"]
    assert [g["name"] for g in league["games"]] == ["2.º A"]
    rows = {r["name"]: r for r in league["students"]}
    assert rows["Hugo Saez"]["per_game"] == [None]
    assert rows["Gala Pons"]["per_game"][0] is not None
    present = gm.get(f"/console/classes/{class_id}/participation.json").json["participation"]
    assert {r["name"]: r["games_present"] for r in present["students"]}["Ana Díaz"] == 1


@pytest.mark.parametrize("body, rule, says", [
    ({"kind": "colmena", "players": "Ana"}, "C-A1", "2 players at least"),
    ({"kind": "colmena", "players": "Ana\nBea", "settings": {"solo": True}}, "C-A3", "solo"),
    ({"kind": "colmena", "players": "Ana\nBea", "settings": {"solo": "yes"}}, "C-A3", "true or false"),
    ({"kind": "colmena", "players": "Ana\nBea", "settings": {"tables": 2}}, "format", "unknown setting"),
])
def test_a_colmena_hall_refused_names_its_rule_and_makes_nothing(app, gm, body, rule, says):
    answer = gm.post("/console/halls", json=body)
    assert answer.status_code == 400 and answer.json["error"] == rule, answer.json
    assert says in answer.json["message"]
    with app.app_context():
        assert halls().listing() == [] and store.listing() == []


def test_the_form_offers_la_colmena_with_its_solo_seat(gm):
    page = gm.get("/console/halls/new").get_data(as_text=True)
    assert 'data-testid="hall-kind-colmena"' in page and '"solo"' in page
