"""La partida's front door (issue 45): the projector shows one code for the whole room and
who is in each team; a student opens it, taps their name from the class list (or their
team, when the game has no list) and lands on their team's page. The teams' own codes stay
for typing. On SQLite and PostgreSQL, through the pages a phone opens."""
from __future__ import annotations

import re

import pytest

pytestmark = [pytest.mark.databases("sqlite", "postgres")]

TEAMS = {"teams": [{"name": f"Equipo {n}", "members": 3} for n in range(1, 5)]}
ROSTER = [["Ana Díaz", "Bruno Paz"], ["Camila Ríos", "Diego Sosa"], ["Elena Vera"],
          ["Facundo Gil", "Gabriela Luna", "Horacio Ibáñez"]]


def make_game(gm, roster=None) -> int:
    body = {"name": "Historia 1.º B", "settings": TEAMS}
    if roster is not None:
        body["roster"] = roster
    made = gm.post("/console/games", json=body).get_json()
    assert made["ok"], made
    return made["game_id"]


def console_code(gm, game_id: int, testid: str) -> str:
    page = gm.get(f"/console/{game_id}").get_data(as_text=True)
    found = re.search(rf'data-testid="{testid}">([^<]+)<', page)
    assert found, testid
    return found.group(1).replace("-", "")


def projector(gm, game_id: int) -> str:
    page = gm.get(f"/console/{game_id}").get_data(as_text=True)
    watch = re.search(r'href="[^"]*(/projector/[^"]+)"', page).group(1)
    return gm.get(watch).get_data(as_text=True)


def test_a_student_opens_the_projectors_code_taps_their_name_and_lands_on_their_team(app, gm):
    game_id = make_game(gm, ROSTER)
    code = console_code(gm, game_id, "door-code")
    shown = projector(gm, game_id)
    assert re.search(rf'data-testid="door-code">{code[:4]}-{code[4:]}<', shown)
    assert re.search(r'data-testid="members-2"><li[^>]*>Camila Ríos</li><li[^>]*>Diego Sosa</li></ul>', shown)
    phone = app.test_client()
    entered = phone.get(f"/j/{code}")
    assert entered.status_code == 302 and entered.headers["Location"].endswith("/team")
    door = phone.get("/team").get_data(as_text=True)
    assert "¿Quiénes son?" in door
    names = re.findall(r'data-testid="door-player-[^"]+">([^<]+)<span class="detail">([^<]+)<', door)
    assert [n for n, _team in names] == sorted(n for team in ROSTER for n in team)
    assert ("Diego Sosa", "Equipo 2") in names
    chosen = phone.post("/team/seat", data={"seat": "2"})
    assert chosen.status_code == 302 and chosen.headers["Location"].endswith("/team")
    page = phone.get("/team").get_data(as_text=True)
    assert 'data-testid="team-name"' in page and "Equipo 2" in page
    # The same phone scanning the code again picks again (a student who tapped the wrong
    # name); a team's own code still takes a device straight to its team.
    other = app.test_client()
    team_code = console_code(gm, game_id, "join-code-3")
    assert other.get(f"/j/{team_code}").headers["Location"].endswith("/team")
    assert "Equipo 3" in other.get("/team").get_data(as_text=True)


def test_without_a_class_list_a_student_taps_their_team(app, gm):
    game_id = make_game(gm)
    code = console_code(gm, game_id, "door-code")
    assert 'data-testid="members-' not in projector(gm, game_id)
    phone = app.test_client()
    phone.get(f"/j/{code}")
    door = phone.get("/team").get_data(as_text=True)
    assert "¿Cuál es su equipo?" in door
    assert re.findall(r'data-testid="door-player-t(\d)"', door) == ["1", "2", "3", "4"]
    # A team that does not exist: said on the same page, nothing joined.
    wrong = phone.post("/team/seat", data={"seat": "9"})
    assert wrong.status_code == 409 and "Ese nombre no está en la lista." in wrong.get_data(as_text=True)
    assert "¿Cuál es su equipo?" in phone.get("/team").get_data(as_text=True)
    phone.post("/team/seat", data={"seat": "4"})
    assert "Equipo 4" in phone.get("/team").get_data(as_text=True)


def test_a_new_game_code_stops_the_old_one_and_keeps_the_phones_in(app, gm):
    game_id = make_game(gm, ROSTER)
    old = console_code(gm, game_id, "door-code")
    phone = app.test_client()
    phone.get(f"/j/{old}")
    phone.post("/team/seat", data={"seat": "1"})
    renewed = gm.post(f"/console/{game_id}/teams/0/code").get_json()
    assert renewed["ok"] and renewed["code"] != old
    assert app.test_client().get(f"/j/{old}").status_code == 404
    assert "Equipo 1" in phone.get("/team").get_data(as_text=True)
    codes = gm.get(f"/api/games/{game_id}/codes").get_json()
    assert codes["door"]["code"] == renewed["code"]
    assert [c["team"] for c in codes["teams"]] == [1, 2, 3, 4]


def test_a_class_games_projector_names_its_students_only_as_the_class_allows(app, gm):
    from test_classes import deal, new_class
    from test_classes import make_game as class_game
    class_id, students = new_class(gm)
    lineup = deal(gm, class_id, [s["id"] for s in students][:12])["lineup"]
    game_id = class_game(gm, class_id, lineup)
    hidden = projector(gm, game_id)
    assert 'data-testid="door-code"' in hidden and 'data-testid="members-' not in hidden
    assert not any(s["name"] in hidden for s in students)
    # The phones' door lists the class (a student finds their own name there).
    phone = app.test_client()
    phone.get(f"/j/{console_code(gm, game_id, 'door-code')}")
    door = phone.get("/team").get_data(as_text=True)
    assert all(s["name"] in door for s in students[:12])
    assert gm.post(f"/console/classes/{class_id}", json={"projector_names": True}).get_json()["ok"]
    assert 'data-testid="members-1"' in projector(gm, game_id)
