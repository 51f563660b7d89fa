"""Issue 46, item 2: every route that takes a game answers every kind the same way: a
game of la partida, a table of la colmena and a board of Hive each go through the API,
the console, the records, the results and exports, the coverage and the codes, on SQLite
and PostgreSQL, and none answers 500 (a route that does not apply to a kind says so with
404, as for a game that does not exist)."""
from __future__ import annotations

import pytest

from facilitator.services.halls import halls

pytestmark = [pytest.mark.databases("sqlite", "postgres")]
NAMES = "\n".join(["Ana Díaz", "Bea Gil", "Carla Ruiz", "Dani Sanz", "Eva Mora"])
SETTINGS = {"teams": [{"name": f"Equipo {n}", "members": 4} for n in range(1, 5)]}
ROUTES = ["/console/{id}", "/console/{id}/record.json", "/console/{id}/speakers",
          "/api/games/{id}/codes", "/console/banks/game/{id}/coverage", "/console/{id}/results",
          "/console/{id}/results.json", "/console/{id}/standings.csv", "/console/{id}/turns.csv",
          "/console/{id}/results.xlsx", "/api/v1/games/{id}", "/api/v1/games/{id}/record",
          "/api/v1/games/{id}/results"]
#: Routes a kind has no use for (a bank's coverage of a game that reads no questions; la
#: partida's team and turn sheets), answered 404 as for a game that does not exist.
PARTIDA_ONLY = {"/console/banks/game/{id}/coverage", "/console/{id}/standings.csv",
                "/console/{id}/turns.csv", "/console/{id}/results.xlsx"}
NOT_FOR = {"colmena": PARTIDA_ONLY, "hive": PARTIDA_ONLY}


def games_of_every_kind(app, gm) -> dict[str, int]:
    made = {"partida": gm.post("/console/games", json={"name": "P", "settings": SETTINGS}
                               ).get_json()["game_id"]}
    for kind in ("colmena", "hive"):
        hall = gm.post("/console/halls", json={"kind": kind, "name": kind, "players": NAMES,
                                               "seed": 7}).get_json()
        with app.app_context():
            made[kind] = halls().games_of(hall["hall_id"])[0]["game_id"]
    return made


def test_every_game_route_answers_every_kind(app, gm):
    answers = {}
    for kind, game_id in games_of_every_kind(app, gm).items():
        for route in ROUTES:
            response = gm.get(route.format(id=game_id))
            answers[kind, route] = response.status_code
            expected = 404 if route in NOT_FOR.get(kind, ()) else 200
            assert response.status_code == expected, (kind, route, response.status_code,
                                                      response.get_data(as_text=True)[:300])
    assert gm.get("/api/v1/games").status_code == 200


def test_every_game_route_answers_the_toy_game(app, gm, monkeypatch):
    """A game plugged in from outside (tests/counter_game.py) gets every route by
    declaring nothing more than the protocol asks: its results page, its record, its
    one download; la partida's sheets and a bank's coverage are 404 for it."""
    import facilitator.games as games
    monkeypatch.setitem(games.MODULES, "counter", "counter_game")
    hall = gm.post("/console/halls", json={"kind": "counter", "name": "Contador",
                                           "players": NAMES, "seed": 7}).get_json()
    with app.app_context():
        game_id = halls().games_of(hall["hall_id"])[0]["game_id"]
    for route in ROUTES:
        response = gm.get(route.format(id=game_id))
        expected = 404 if route in PARTIDA_ONLY - {"/console/{id}/standings.csv"} else 200
        assert response.status_code == expected, (route, response.status_code,
                                                  response.get_data(as_text=True)[:300])
    sheet = gm.get(f"/console/{game_id}/standings.csv")
    assert sheet.get_data(as_text=True).startswith("count,target,winner")
    assert f"marcador-{game_id}.csv" in sheet.headers["Content-Disposition"]


def test_the_v1_summary_names_each_kinds_seats(app, gm):
    made = games_of_every_kind(app, gm)
    seats = {kind: [t["name"] for t in gm.get(f"/api/v1/games/{game_id}").get_json()["game"]["teams"]]
             for kind, game_id in made.items()}
    assert seats["partida"] == ["Equipo 1", "Equipo 2", "Equipo 3", "Equipo 4"]
    assert set(seats["colmena"]) <= set(NAMES.split("\n")) and len(seats["colmena"]) >= 2
    assert set(seats["hive"]) <= set(NAMES.split("\n")) and 1 <= len(seats["hive"]) <= 2


@pytest.mark.parametrize("body, why", [
    ({"class_id": 10 ** 30}, "there is no such class"),
    ({"class_id": -1}, "there is no such class"),
    ({"class_id": 1, "absent": "zz"}, "there is no such class"),
])
def test_a_hall_from_a_malformed_class_is_refused_not_a_500(gm, body, why):
    answer = gm.post("/console/halls", json={"kind": "colmena", "name": "x", **body})
    assert answer.status_code == 400 and why in answer.get_json()["message"], answer.get_json()


def test_a_halls_absent_list_must_be_student_ids(gm):
    klass = gm.post("/console/classes", json={"name": "1.º B"}).get_json()["id"]
    gm.post(f"/console/classes/{klass}/students", json={"text": NAMES})
    for absent in ("zz", [[1]], {"a": 1}, [True], ["3"]):
        answer = gm.post("/console/halls", json={"kind": "colmena", "name": "x", "class_id": klass,
                                                 "absent": absent})
        assert answer.status_code == 400, absent
        assert answer.get_json()["message"] == "absent is a list of student ids", absent


@pytest.mark.parametrize("kind", ["partida", "colmena"])
def test_a_record_past_the_action_limit_is_refused_before_anything_is_stored(app, gm, kind):
    import io
    import json

    from facilitator.extensions import store
    from facilitator.store.budget import GM_RESERVE_ACTIONS, MAX_ACTIONS
    game_id = games_of_every_kind(app, gm)[kind]
    record = json.loads(gm.get(f"/console/{game_id}/record.json").data)
    with app.app_context():
        before = len(store.list_games())
    one = {"do": "end_game"}
    record["actions"] = [one] * (MAX_ACTIONS + GM_RESERVE_ACTIONS + 1)
    answer = gm.post("/console/records", data={"record": (io.BytesIO(json.dumps(record).encode()),
                                                          f"{kind}.json")},
                     content_type="multipart/form-data")
    text = answer.get_data(as_text=True)
    assert answer.status_code == 400 and "limit" in text and "5101 actions" in text, text[:500]
    with app.app_context():
        assert len(store.list_games()) == before          # no game left behind
