"""A Hive class tournament through the console (issue 38, items 4 and 6), on SQLite and
PostgreSQL: made from a pasted list of seven names with the computer for the odd one
(H-T3, H-G7), two rounds played through the store as the live layer plays them, its
standings (H-T5), its downloads, and a class's tournament counted in the class's league."""
from __future__ import annotations

import io
import json
import zipfile

import pytest
from openpyxl import load_workbook

from facilitator.extensions import store
from facilitator.games import Role
from facilitator.services.halls import halls

NAMES = ["Ana Díaz", "Bea Gil", "Carla Ruiz", "Dani Sanz", "Eva Mora", "Fede Paz", "Gil Oro"]
pytestmark = [pytest.mark.databases("sqlite", "postgres"),
              pytest.mark.app_config(SAMPLE_BANK=None)]


def act(game_id: int, action: dict, by: Role) -> None:
    store.transact(game_id, by.sent_by, lambda c: c.act(action, by, 0.0))


def play_round(hall_id: int, round_number: int) -> dict[str, dict]:
    """Every game of the round finished: the board against the computer played a move each
    (the computer's by the clock, as the live layer's clock plays it) and then forfeited
    by the computer; the others won by White, but board 2, a draw."""
    outcomes = {}
    for game in halls().games_of(hall_id):
        if not game["key"].startswith(f"{round_number}."):
            continue
        match, _row = store.current(game["game_id"])
        if match.bot:
            if match.deadline() is not None:                 # the computer plays White
                act(game["game_id"], match.due(0.0), Role.clock())
            act(game["game_id"], {"do": "move", "move": store.current(game["game_id"])[0]
                                  .legal(Role.table())[0].options["moves"][0]}, Role.table())
            act(game["game_id"], store.current(game["game_id"])[0].due(0.0), Role.clock())
            human = "black" if match.bot == 1 else "white"
            action = {"do": "end", "result": human, "reason": "forfeit: the computer resigns"}
        elif game["key"].endswith(".2"):
            action = {"do": "end", "result": "draw", "reason": "agreement"}
        else:
            action = {"do": "end", "result": "white", "reason": "forfeit"}
        act(game["game_id"], action, Role.gm())
        outcomes[game["key"]] = action
    return outcomes


def test_seven_students_and_the_computer_play_two_rounds(app, gm):
    answer = gm.post("/console/halls", json={"kind": "hive", "name": "Torneo de martes",
                                             "players": "\n".join(NAMES),
                                             "settings": {"odd": "bot", "bot_level": "casual"},
                                             "seed": 7})
    assert answer.status_code == 200 and answer.json["ok"], answer.json
    hall_id = answer.json["hall_id"]
    with app.app_context():
        games = halls().games_of(hall_id)
        assert [g["key"] for g in games] == ["1.1", "1.2", "1.3", "1.4"]
        bots = [store.current(g["game_id"])[0].bot for g in games]
        assert bots[:3] == [None] * 3 and bots[3] in (1, 2)      # the odd one's board last
    data = gm.get(f"/console/halls/{hall_id}.json").json
    assert data["hall"]["kind"] == "hive" and len(data["games"]) == 4
    with app.app_context():
        from facilitator.games import Refusal
        with pytest.raises(Refusal) as early:                    # H-T4
            halls().next_round(hall_id)
        assert early.value.rule == "H-T4"
        play_round(hall_id, 1)
        halls().next_round(hall_id)
        assert [g["key"] for g in halls().games_of(hall_id)][4:] == ["2.1", "2.2", "2.3", "2.4"]
        play_round(hall_id, 2)
        hall = halls().hall(hall_id)
        pairs = [frozenset((b["white"], b["black"])) for r in hall["plan"]["rounds"] for b in r]
        assert len(set(pairs)) == 8                              # H-T2: no pair twice
        table = halls().standings(hall_id)
        assert len(table) == 7 and table[0]["rank"] == 1
        assert sum(row["played"] for row in table) == 2 * 7     # everyone played twice
        assert sum(row["points"] for row in table) == 2 * 4      # a point a board, a round
        view = halls().view(hall_id, Role.watcher())["view"]
        last = view["pairings"][3]
        assert view["round"] == 2 and (last["white"].get("bot") or last["black"].get("bot"))
        leader = hall["players"][table[0]["player"]]
    csv = gm.get(f"/console/halls/{hall_id}/export/standings.csv").get_data(as_text=True)
    lines = csv.splitlines()
    # Won, drawn, lost, the byes and the tie-breaks in words, after the points (H-T5).
    assert lines[0] == ("Puesto,Nombre,Puntos,Ganadas,Tablas,Perdidas,Descansos,Buchholz,"
                        "Sonneborn-Berger") and len(lines) == 8
    assert lines[1].split(",")[:2] == ["1", leader]
    assert [int(float(n)) for n in lines[1].split(",")[3:5]] == [table[0]["wins"], table[0]["draws"]]
    book = load_workbook(io.BytesIO(gm.get(f"/console/halls/{hall_id}/export/hall.xlsx").data))
    assert [c.value for c in book.worksheets[1][3]][:2] == [1, "Tablero 2"]   # round, place
    archive = zipfile.ZipFile(io.BytesIO(gm.get(f"/console/halls/{hall_id}/export/records.zip").data))
    assert len(archive.namelist()) == 8
    records = [json.loads(archive.read(name)) for name in sorted(archive.namelist())]
    assert {r["format"] for r in records} == {"hive/1"}
    with_bot = [r for r in records if r["settings"]["bot"]]
    assert len(with_bot) == 2 and all("Bot" in r["players"].values() for r in with_bot)
    assert all(len(r["game"].split(";")) >= 5 for r in with_bot)   # two moves at least each
    assert all(r["result"]["reason"] for r in records)
    page = gm.get(f"/console/halls/{hall_id}/results").get_data(as_text=True)
    assert 'data-testid="hall-standings"' in page and "Gil Oro" in page
    # The results name each game by its round and board in the page's words.
    assert ">Ronda 2 · Tablero 1</a>" in page
    english = gm.get(f"/console/halls/{hall_id}/results?lang=en").get_data(as_text=True)
    assert ">Round 2 · Board 1</a>" in english and "Tablero" not in english


def test_a_class_tournament_counts_in_the_class_league(app, gm):
    class_id = gm.post("/console/classes", json={"name": "3.º B"}).json["id"]
    gm.post(f"/console/classes/{class_id}/students", json={"text": "\n".join(NAMES[:5])})
    answer = gm.post("/console/halls", json={"kind": "hive", "class_id": class_id,
                                             "settings": {"odd": "bye"}})
    assert answer.json["ok"], answer.json
    hall_id = answer.json["hall_id"]
    with app.app_context():
        plan = halls().hall(hall_id)["plan"]
        assert plan["system"] == "round_robin" and plan["rounds_total"] == 5     # H-T1
        bye = [b["bye"] for b in plan["rounds"][0] if "bye" in b][0]
        play_round(hall_id, 1)
        from facilitator.classes.summaries import hall_summaries
        summaries = hall_summaries(store, class_id)
        assert len(summaries) == 1
    league = gm.get(f"/console/classes/{class_id}/league.json").json["league"]
    assert [g["name"] for g in league["games"]] == ["3.º B"]
    rows = {r["name"]: r for r in league["students"]}
    assert rows[NAMES[bye]]["per_game"][0] is not None                          # H-T3's point
    assert all(rows[name]["per_game"][0] is not None for name in NAMES[:5])
