"""Classes over a term (issue 15): the list of students, games made from attendance,
no repeated questions, the league and participation, deleting everything.

Games are played through the live layer (``LiveGames.act``, as a GM's socket would),
on a real SQLite file; expected figures are computed from the games' own records.
"""
from __future__ import annotations

import csv
import io

import pytest
from sqlalchemy import func, select

from facilitator.games.partida import Question
from facilitator.extensions import database, store
from facilitator.live.audience import GM, Audience
from facilitator.store.banks import save_bank
from facilitator.store.models import ClassGameRow, ClassRow, GameRow, StudentRow

NAMES = ["Ana Gómez", "Bruno Díaz", "Carla Ruiz", "Diego Sosa", "Elena Paz", "Fede Ríos",
         "Gala Vidal", "Hugo Luna", "Irene Soto", "Juan Cruz", "Lía Mora", "Mateo Gil",
         "Nora Vega", "Olga Paz"]
ONE_ROUND = {"rounds": 1, "round_modes": [["normal"]], "individual_rounds": []}


pytestmark = pytest.mark.app_config(SAMPLE_BANK=None)


@pytest.fixture
def app(app):
    """The shared app with one small bank and no sample bank."""
    with app.app_context():
        # 2 authors x 3 types x 2 questions: exactly the 12 turns of three 4-team games.
        save_bank(database, "Pequeño", [
            Question(f"{a.lower()}-{t}-{i}", a, t, f"¿{a} {t} {i}?", f"R {a} {t} {i}")
            for a in ("Kant", "Marx") for t in ("vf", "quien", "abierta") for i in (1, 2)])
    return app


def new_class(gm, text: str = "\n".join(NAMES)) -> tuple[int, list[dict]]:
    answer = gm.post("/console/classes", json={"name": "1.º Bach. B · Filosofía"})
    assert answer.status_code == 201, answer.json
    class_id = answer.json["id"]
    added = gm.post(f"/console/classes/{class_id}/students", json={"text": text}).json
    assert added["ok"], added
    return class_id, added["students"]


def deal(gm, class_id, present, mode="fresh", **extra):
    answer = gm.post(f"/console/classes/{class_id}/deal",
                     json={"present": present, "mode": mode, **extra})
    assert answer.status_code == 200 and answer.json["ok"], answer.json
    return answer.json


def make_game(gm, class_id, lineup, kept=False, allow_repeats=False) -> int:
    answer = gm.post(f"/console/classes/{class_id}/games", json={
        "name": "Clase", "settings": dict(ONE_ROUND), "lineup": lineup, "kept": kept,
        "allow_repeats": allow_repeats})
    assert answer.status_code == 200 and answer.json["ok"], answer.json
    return answer.json["game_id"]


def play_game(app, game_id: int, winners=(), speakers=None) -> dict:
    """Play a 1-round game: each turn's host answers right only if it is in ``winners``;
    ``speakers`` {team: name} records that team's spokesperson in every turn.
    Returns the record."""
    live = app.extensions["facilitator_live"]
    gm_ = Audience(GM, game_id)

    def act(**action):
        ack = live.act(gm_, action, None)
        assert ack["ok"], (action, ack)

    with app.app_context():
        for _turn in range(4):
            game = store.current(game_id)[0].game
            host = game.state.turn.host
            question = next(q for q in game.questions.values() if q.id not in game.state.used)
            act(do="declare", mode="normal")
            for team, name in (speakers or {}).items():
                act(do="spokesperson", team=team, name=name)
            act(do="choose", author=question.author, type=question.type)
            act(do="question", id=question.id)
            act(do="verdict", result="full" if host in winners else "wrong")
            game = store.current(game_id)[0].game
            if not game.state.over:
                act(do="end_turn")
        return store.record(game_id)


def names_of(students, ids):
    by_id = {s["id"]: s["name"] for s in students}
    return sorted(by_id[i] for i in ids)


def test_pasted_list_keeps_good_lines_and_names_bad_ones(gm):
    class_id, students = new_class(gm, "Nombre;correo;DNI\nAna; ana@x.edu; 1\n;b@x.edu\n"
                                       "Bruno\tbruno@x.edu\nCarla, 3, 4, 5\n")
    answer = gm.post(f"/console/classes/{class_id}/students",
                     json={"text": "Dora\n" + "x" * 101 + "\n"}).json
    assert answer["added"] == 1
    assert answer["errors"] == ["line 2: a name has at most 100 characters"]
    first = gm.post("/console/classes", json={"name": "otra"})
    assert first.status_code == 201
    listed = gm.get(f"/console/classes/{class_id}.json").json["class"]["students"]
    assert [(s["name"], s["email"], s["id_number"]) for s in listed] == [
        ("Ana", "ana@x.edu", "1"), ("Bruno", "bruno@x.edu", ""), ("Dora", "", "")]
    # Bad input of each kind: a clear 4xx naming the problem, nothing changed.
    assert gm.post(f"/console/classes/{class_id}/students", json={"name": ""}).status_code == 400
    assert gm.post(f"/console/classes/{class_id}/students",
                   json={"name": "Eva", "email": "no-at"}).json["message"].endswith(
        "is not an e-mail address")
    assert gm.post("/console/classes/999/students", json={"text": "x"}).status_code == 404
    assert gm.post(f"/console/classes/{class_id}", json={"league_scheme": "x"}).status_code == 400


def test_three_games_league_participation_and_no_repeats(app, gm):
    class_id, students = new_class(gm)
    ids = [s["id"] for s in students]
    by_name = {s["name"]: s["id"] for s in students}
    # A student who left is not offered, but the list keeps them.
    left = gm.post(f"/console/classes/{class_id}/students/{by_name['Nora Vega']}",
                   json={"left": True}).json
    assert left["student"]["left"] is True
    present = [i for i in ids if i != by_name["Nora Vega"]]

    # Game 1: fresh teams (13 students: 4 teams of 4, 3, 3, 3: R-T3).
    first = deal(gm, class_id, present)
    assert sorted(map(len, first["lineup"])) == [3, 3, 3, 4] and first["kept"] is False
    lineup1 = first["lineup"]
    game1 = make_game(gm, class_id, lineup1)
    roster1 = store_settings(app, game1)["roster"]
    assert [names_of(students, t) for t in lineup1] == [sorted(r) for r in roster1]
    record1 = play_game(app, game1, winners={1},
                        speakers={1: roster1[0][0], 2: roster1[1][0]})

    # Game 2: one student absent, fresh teams; the bank has 8 unread questions left.
    absent = lineup1[0][1]
    counts = gm.get(f"/console/classes/{class_id}/questions?turns=4").json
    assert counts["unread_count"] == 8 and counts["read_count"] == 4 and not counts["runs_short"]
    present2 = [i for i in present if i != absent]
    second = deal(gm, class_id, present2)
    assert sorted(map(len, second["lineup"])) == [3, 3, 3, 3]
    # Eleven students cannot make a game (R-T1): the deal says so and deals nothing.
    short = gm.post(f"/console/classes/{class_id}/deal", json={"present": present2[1:]})
    assert short.status_code == 400 and short.json["error"] == "R-T1"
    game2 = make_game(gm, class_id, second["lineup"])
    record2 = play_game(app, game2, winners={2, 3})

    # Game 3: everyone back, last game's teams kept (the absent student joins the smallest).
    third = deal(gm, class_id, present, mode="keep")
    assert third["kept"] is True
    for before, after in zip(second["lineup"], third["lineup"]):
        assert set(before) <= set(after)
    assert absent in {s for team in third["lineup"] for s in team}
    assert max(map(len, third["lineup"])) - min(map(len, third["lineup"])) <= 1
    counts = gm.get(f"/console/classes/{class_id}/questions?turns=4").json
    assert counts["unread_count"] == 4
    game3 = make_game(gm, class_id, third["lineup"], kept=True)
    record3 = play_game(app, game3, winners={4})

    # No question read twice in the term.
    read = [a["id"] for r in (record1, record2, record3) for a in r["actions"]
            if a["do"] == "question"]
    assert len(read) == 12 and len(set(read)) == 12
    # The bank is used up for this class: the set-up warns before the game (R-Q2).
    counts = gm.get(f"/console/classes/{class_id}/questions?turns=4").json
    assert counts["unread_count"] == 0 and counts["runs_short"] is True
    assert gm.get(f"/console/classes/{class_id}/questions?turns=4&allow_repeats=1"
                  ).json["unread_count"] == 12

    # The league (rank points), computed here from the three records.
    expected: dict[int, int] = {}
    for record, lineup in ((record1, lineup1), (record2, second["lineup"]),
                           (record3, third["lineup"])):
        ranks = final_ranks(app, record)
        for team, members in enumerate(lineup, start=1):
            for sid in members:
                expected[sid] = expected.get(sid, 0) + len(lineup) - ranks[team] + 1
    table = gm.get(f"/console/classes/{class_id}/league.json").json["league"]
    assert {r["student"]: r["points"] for r in table["students"]} == expected
    assert [g["id"] for g in table["games"]] == [game1, game2, game3]
    absent_row = next(r for r in table["students"] if r["student"] == absent)
    assert absent_row["games"] == 2 and absent_row["per_game"][1] is None
    points = [r["points"] for r in table["students"]]
    assert points == sorted(points, reverse=True)
    for row, nxt in zip(table["students"], table["students"][1:]):
        assert nxt["rank"] == (row["rank"] if nxt["points"] == row["points"]
                               else table["students"].index(nxt) + 1)
    # Teams were kept in game 3: the team table covers games 2 and 3.
    assert table["teams"]["games"] == [game2, game3]
    # The other scheme sums each team's score.
    scores = gm.get(f"/console/classes/{class_id}/league.json?scheme=team_score").json["league"]
    assert scores["scheme"] == "team_score"

    # Participation: presence and who spoke, from the records.
    people = gm.get(f"/console/classes/{class_id}/participation.json").json["participation"]
    rows = {r["student"]: r for r in people["students"]}
    assert rows[absent]["games_present"] == 2 and rows[absent]["games_total"] == 3
    spoke_first = by_name[roster1[0][0]]
    assert rows[spoke_first]["spokesperson"] == 4 and rows[spoke_first]["never_spoke"] is False
    assert sum(r["never_spoke"] for r in rows.values()) == 11
    assert by_name["Nora Vega"] not in rows           # left before playing any game

    # A change of the class reaches its games' screens at once (no error with three games).
    changed = gm.post(f"/console/classes/{class_id}", json={"projector_names": True}).json
    assert changed["ok"] and changed["class"]["projector_names"] is True

    # Exports: the CSV's points are the league's.
    sheet = list(csv.reader(io.StringIO(gm.get(
        f"/console/classes/{class_id}/export/league.csv").get_data(as_text=True))))
    assert len(sheet) == 1 + len(table["students"])
    xlsx = gm.get(f"/console/classes/{class_id}/export/class.xlsx")
    assert xlsx.status_code == 200 and xlsx.data[:2] == b"PK"


def store_settings(app, game_id):
    with app.app_context():
        return store.row(game_id).settings


def final_ranks(app, record) -> dict[int, int]:
    from facilitator.games.partida import replay
    return {r["team"]: r["rank"] for r in replay(record).standings()}


def test_lineups_are_checked(gm):
    class_id, students = new_class(gm)
    ids = [s["id"] for s in students]
    url = f"/console/classes/{class_id}/games"
    twice = [[ids[0], ids[0], ids[1]], ids[2:5], ids[5:8], ids[8:11]]
    answer = gm.post(url, json={"settings": ONE_ROUND, "lineup": twice})
    assert answer.status_code == 400 and answer.json["error"] == "format"
    stranger = [[999999, ids[1], ids[2]], ids[3:6], ids[6:9], ids[9:12]]
    assert gm.post(url, json={"settings": ONE_ROUND, "lineup": stranger}).status_code == 400
    lopsided = [ids[0:5], ids[5:8], ids[8:11], ids[11:13]]
    answer = gm.post(url, json={"settings": ONE_ROUND, "lineup": lopsided})
    assert answer.status_code == 400 and answer.json["error"] in ("R-T2", "R-T3")
    assert gm.post(f"/console/classes/{class_id}/deal",
                   json={"present": ids[:5]}).json["error"] == "R-T1"


def test_deleting_a_class_deletes_its_students_and_games(app, gm):
    class_id, students = new_class(gm)
    lineup = deal(gm, class_id, [s["id"] for s in students][:12])["lineup"]
    game_id = make_game(gm, class_id, lineup)
    other = gm.post("/console/games", json={"name": "Sin clase", "settings": {
        "teams": [{"name": f"E{n}", "members": 3} for n in range(1, 5)], **ONE_ROUND}}).json
    assert other["ok"], other
    assert gm.post(f"/console/classes/{class_id}/delete").status_code == 302
    with app.app_context(), database.session() as session:
        for table in (ClassRow, StudentRow, ClassGameRow):
            assert session.scalar(select(func.count()).select_from(table)) == 0
        assert session.get(GameRow, game_id) is None
        assert session.get(GameRow, other["game_id"]) is not None    # not the class's
    assert gm.get(f"/console/classes/{class_id}").status_code == 404


def test_class_pages_are_the_gms_only(app):
    anonymous = app.test_client()
    assert anonymous.get("/console/classes").status_code in (302, 401)
    answer = anonymous.post("/console/classes", json={"name": "x"},
                            headers={"Origin": "http://localhost"})
    assert answer.status_code in (302, 401)


# -- issue 34 ------------------------------------------------------------------------------

def test_repeated_names_are_flagged_at_paste_time_naming_them(gm):
    class_id, students = new_class(gm, "Ana García\nBruno Díaz\nana  garcía; ana2@x.edu\n"
                                       "Carla\n")
    answer = gm.post(f"/console/classes/{class_id}/students",
                     json={"text": "Dora\nCarla; carla2@x.edu\n"}).json
    assert answer["added"] == 2
    assert answer["duplicates"] == [{"name": "Carla", "lines": [2], "existing": 1}]
    first = gm.post(f"/console/classes/{class_id}/students",
                    json={"text": "Eva\nEva\n"}).json
    assert first["duplicates"] == [{"name": "Eva", "lines": [1, 2], "existing": 0}]
    one = gm.post(f"/console/classes/{class_id}/students", json={"name": "Bruno Díaz"}).json
    assert one["duplicates"] == [{"name": "Bruno Díaz", "lines": [], "existing": 1}]
    assert gm.post(f"/console/classes/{class_id}/students",
                   json={"name": "Fede"}).json["duplicates"] == []


def test_the_first_paste_names_its_own_repeats_and_the_roster_tells_them_apart(gm):
    answer = gm.post("/console/classes", json={"name": "Homónimos"})
    class_id = answer.json["id"]
    pasted = gm.post(f"/console/classes/{class_id}/students", json={
        "text": "\n".join(["Ana García", *NAMES[1:11], "Ana García; otra@x.edu"])}).json
    assert pasted["duplicates"] == [{"name": "Ana García", "lines": [1, 12], "existing": 0}]
    ids = [s["id"] for s in pasted["students"]]
    game_id = make_game(gm, class_id, [ids[0:3], ids[3:6], ids[6:9], ids[9:12]])
    roster = store.row(game_id).settings["roster"]
    assert roster[0][0] == "Ana García" and roster[3][-1] == "Ana García (2)"
    import json
    import re
    page = gm.get(f"/console/{game_id}").get_data(as_text=True)
    shown = json.loads(re.search(r'<script id="page" type="application/json">(.*?)</script>',
                                 page).group(1))
    assert shown["roster"] == roster          # the console offers these names to choose from


def test_two_games_of_a_class_made_on_one_day_get_names_of_their_own(gm):
    class_id, students = new_class(gm)
    ids = [s["id"] for s in students]
    lineup = [ids[0:3], ids[3:6], ids[6:9], ids[9:12]]
    names = []
    for _ in range(3):
        answer = gm.post(f"/console/classes/{class_id}/games", json={
            "name": "1.º B 3 de diciembre", "settings": dict(ONE_ROUND), "lineup": lineup})
        names.append(store.row(answer.json["game_id"]).name)
    assert names == ["1.º B 3 de diciembre", "1.º B 3 de diciembre (2)",
                     "1.º B 3 de diciembre (3)"]
    answer = gm.post(f"/console/classes/{class_id}/games", json={
        "settings": dict(ONE_ROUND), "lineup": lineup})
    assert store.row(answer.json["game_id"]).name == "1.º Bach. B · Filosofía"


def test_the_moodle_panel_names_who_is_left_out_and_why(gm):
    class_id, students = new_class(gm, "Ana Gómez; ana@x.edu; 1\nBruno\nCarla; =c@x.edu; 3\n"
                                       + "\n".join(NAMES[3:12]))
    ids = [s["id"] for s in students]
    game_id = make_game(gm, class_id, [ids[0:3], ids[3:6], ids[6:9], ids[9:12]])
    store.transact(game_id, "gm", lambda c: c.play({"do": "declare", "mode": "normal"}))
    left = gm.get(f"/console/classes/{class_id}/export/moodle-missing.json?identifier=email").json
    names = {s["name"]: s["reason"] for s in left["left_out"]}
    assert names["Bruno"] == "none" and names["Carla"] == "formula"
    assert "Ana Gómez" not in names
    by_id = gm.get(f"/console/classes/{class_id}/export/moodle-missing.json?identifier=id_number")
    assert "Ana Gómez" not in {s["name"] for s in by_id.json["left_out"]}
    assert gm.get(f"/console/classes/{class_id}/export/moodle-missing.json?identifier=x") \
        .status_code == 400


def test_the_classes_are_listed_as_spanish_sorts_their_names(gm):
    for name in ("Ñandú 2.º", "Martina A", "María B", "Nuño C"):
        assert gm.post("/console/classes", json={"name": name}).status_code == 201
    page = gm.get("/console/classes").get_data(as_text=True)
    at = [page.index(name) for name in ("María B", "Martina A", "Nuño C", "Ñandú 2.º")]
    assert at == sorted(at)
