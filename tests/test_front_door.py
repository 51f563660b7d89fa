"""The lecture's front door (issue 45): one code for a hall, a student picks their name and
lands on their seat, round after round; one device per seat, a second device asks and the
teacher answers; the computer's seat is never offered; a table's screen only by the
teacher's screen code. On SQLite and PostgreSQL, through the pages a phone opens."""
from __future__ import annotations

import re

import pytest

from facilitator.extensions import store
from facilitator.games import Role
from facilitator.services.halls import halls

NAMES = ["Ana Díaz", "Bea Gil", "Carla Ruiz", "Dani Sanz", "Eva Mora"]
pytestmark = [pytest.mark.databases("sqlite", "postgres"),
              pytest.mark.app_config(SAMPLE_BANK=None)]


def make_hall(gm, kind="hive", names=NAMES, **settings) -> int:
    answer = gm.post("/console/halls", json={"kind": kind, "name": "Clase del martes",
                                             "players": "\n".join(names),
                                             "settings": settings, "seed": 7})
    assert answer.status_code == 200 and answer.json["ok"], answer.json
    return answer.json["hall_id"]


def door_code(app, hall_id: int) -> str:
    with app.app_context():
        return halls().hall(hall_id)["door_code"]


def phone(app):
    return app.test_client()


def pick(client, app, hall_id: int, player: int):
    """A phone opens the lecture's code and taps a name; the page it lands on."""
    first = client.get(f"/h/{door_code(app, hall_id)}")
    assert first.status_code == 302 and first.headers["Location"].endswith("/door")
    names = client.get("/door")
    assert names.status_code == 200
    assert f'data-testid="door-player-{player}"' in names.get_data(as_text=True)
    chosen = client.post("/door", data={"player": str(player)})
    assert chosen.status_code == 302 and chosen.headers["Location"].endswith("/seat")
    return client.get("/seat")


def page_data(response) -> dict:
    import json
    text = response.get_data(as_text=True)
    found = re.search(r'<script id="page" type="application/json">(.*?)</script>', text, re.S)
    return json.loads(found.group(1))


def test_a_student_picks_their_name_and_lands_on_their_board(app, gm):
    hall_id = make_hall(gm)
    with app.app_context():
        games = {g["key"]: g for g in halls().games_of(hall_id)}
        plan = halls().hall(hall_id)["plan"]
    seats = {}
    for place, board in enumerate(plan["rounds"][0], start=1):
        for seat, colour in ((1, "white"), (2, "black")):
            if board.get(colour) is not None:
                seats[board[colour]] = (f"1.{place}", seat)
    player, (key, seat) = next(iter(seats.items()))
    screen = pick(phone(app), app, hall_id, player)
    assert screen.status_code == 200
    data = page_data(screen)
    assert data["role"] == "team" and data["game"] == games[key]["game_id"] and data["team"] == seat
    assert NAMES[player] in screen.get_data(as_text=True)
    # The student who sits out this round is told so, and not given anyone's board.
    resting = next(p for p in range(len(NAMES)) if p not in seats)
    bye = pick(phone(app), app, hall_id, resting)
    assert 'data-testid="bye-title"' in bye.get_data(as_text=True)


def test_a_second_phone_asks_and_the_teacher_decides(app, gm):
    hall_id = make_hall(gm)
    first, second = phone(app), phone(app)
    with app.app_context():
        plan = halls().hall(hall_id)["plan"]
    player = plan["rounds"][0][0]["white"]
    assert page_data(pick(first, app, hall_id, player))["team"] == 1
    waiting = pick(second, app, hall_id, player)
    text = waiting.get_data(as_text=True)
    assert 'data-testid="waiting-text"' in text and NAMES[player] in text
    assert second.get("/seat/where").json["state"] == "waiting"
    with app.app_context():
        game_id = halls().games_of(hall_id)[0]["game_id"]
    with app.app_context():
        asks = store.find_public_id(store.public_id(game_id)).asks
    device = asks["1"]["device"]
    # Refused first: the second phone is told so, the first keeps the seat.
    assert gm.post(f"/console/{game_id}/seats/1/answer",
                   json={"device": device, "accept": False}).json["ok"]
    assert 'data-testid="waiting-refused"' in second.get("/seat").get_data(as_text=True)
    assert page_data(first.get("/seat"))["team"] == 1
    # Asked again and accepted: the seat is the second phone's, the first is out.
    second.post("/seat/ask")
    accepted = gm.post(f"/console/{game_id}/seats/1/answer", json={"device": device, "accept": True})
    assert accepted.json["ok"] and accepted.json["removed"]
    assert page_data(second.get("/seat"))["team"] == 1
    cut_off = first.get("/seat")
    assert cut_off.status_code == 409
    assert "El docente quitó este dispositivo" in cut_off.get_data(as_text=True)
    # A second answer to a request already decided is a plain refusal, not a 500.
    again = gm.post(f"/console/{game_id}/seats/1/answer", json={"device": device, "accept": True})
    assert again.status_code == 409 and again.json["error"] == "seat"


def test_one_phone_holds_one_name(app, gm):
    hall_id = make_hall(gm)
    client = phone(app)
    first = page_data(pick(client, app, hall_id, 0))
    client.get(f"/h/{door_code(app, hall_id)}")
    # The same phone picking another name is refused: a phone is one student's.
    answer = client.post("/door", data={"player": "1"})
    assert answer.status_code == 409
    assert 'data-testid="door-error"' in answer.get_data(as_text=True)
    # Its seat is as it was (the page's token is issued anew, its issue time aside).
    again = page_data(client.get("/seat"))
    assert {k: again[k] for k in ("game", "team", "role")} == \
        {k: first[k] for k in ("game", "team", "role")}


def test_the_next_round_takes_each_phone_to_its_new_board(app, gm):
    hall_id = make_hall(gm, names=NAMES[:4])
    clients = {p: phone(app) for p in range(4)}
    before = {p: page_data(pick(c, app, hall_id, p))["game"] for p, c in clients.items()}
    with app.app_context():
        for game in halls().games_of(hall_id):
            store.transact(game["game_id"], "gm", lambda c: c.act(
                {"do": "end", "result": "draw", "reason": "agreement"}, Role.gm(), 0.0))
    where = {p: c.get("/seat/where").json for p, c in clients.items()}
    assert all(w["round"] == 1 and w["over"] for w in where.values())
    with app.app_context():
        halls().next_round(hall_id)
    for p, client in clients.items():
        moved = client.get("/seat/where").json
        assert moved["round"] == 2 and moved["key"].startswith("2.")
        page = client.get("/seat")
        screen = page_data(page)
        assert screen["game"] != before[p]
        # Nobody asked: each phone holds its seat of round 2 already, and says where.
        assert screen["role"] == "team"
        board = moved["key"].split(".")[1]
        assert f'data-testid="seat-spot">Ronda 2 · Tablero {board}<' in page.get_data(as_text=True)


def test_the_computer_seat_is_never_offered(app, gm):
    made = gm.post("/console/games", json={"kind": "hive", "name": "Contra la computadora",
                                           "settings": {"bot": 2}}).json
    assert made["ok"], made
    codes = {c["team"]: c["code"] for c in gm.get(f"/api/games/{made['game_id']}/codes").json["teams"]}
    # The table's chooser offers White only; asking for Black anyway is refused.
    client = phone(app)
    client.get(f"/j/{codes[0]}")
    chooser = client.get("/team").get_data(as_text=True)
    assert 'data-testid="choose-seat-1"' in chooser and 'data-testid="choose-seat-2"' not in chooser
    refused = client.post("/team/seat", data={"seat": "2"})
    assert refused.status_code == 409 and "Ese lugar no existe en esta mesa." in refused.get_data(as_text=True)
    # Black's own code lets no phone in either.
    taken = phone(app).get(f"/j/{codes[2]}")
    assert taken.status_code == 409 and "Ese lugar no existe en esta mesa." in taken.get_data(as_text=True)


def test_a_connection_that_outlived_its_seat_is_refused_in_the_actions_own_transaction(app, gm):
    """A connection opened at the moment its device lost its seat (or whose close another
    process missed) still cannot act: the action's transaction checks the device."""
    from facilitator.games import Refusal
    from facilitator.live.audience import Audience
    hall_id = make_hall(gm)
    first, second = phone(app), phone(app)
    with app.app_context():
        plan = halls().hall(hall_id)["plan"]
        game_id = halls().games_of(hall_id)[0]["game_id"]
    player = plan["rounds"][0][0]["white"]
    pick(first, app, hall_id, player)
    with app.app_context():
        old = store.find_public_id(store.public_id(game_id)).claims["1"]
    pick(second, app, hall_id, player)
    with app.app_context():
        new = store.find_public_id(store.public_id(game_id)).asks["1"]["device"]
    live = app.extensions["facilitator_live"]
    move = {"do": "move", "move": "wS1"}
    # Held by another device: only the holder acts (H-G8).
    with app.app_context(), pytest.raises(Refusal) as refused:
        live.act(Audience("team", game_id, 1, new), move)
    assert refused.value.rule == "H-G8"
    gm.post(f"/console/{game_id}/seats/1/answer", json={"device": new, "accept": True})
    # The old device, removed: refused as such, the game unchanged.
    with app.app_context(), pytest.raises(Refusal) as refused:
        live.act(Audience("team", game_id, 1, old), move)
    assert refused.value.rule == "auth"
    with app.app_context():
        assert store.current(game_id)[0].seq == 0
        assert live.act(Audience("team", game_id, 1, new), move)["ok"]


def test_a_colmena_student_lands_at_their_table_named_as_the_projector_names_it(app, gm):
    hall_id = make_hall(gm, kind="colmena", names=NAMES + ["Fede Ríos", "Gala Vidal"])
    with app.app_context():
        games = halls().games_of(hall_id)
        tables = {str(p): g["key"] for g in games for p in
                  next(r for r in halls().rules("colmena").round_games(halls().hall(hall_id)["plan"])
                       if r["key"] == g["key"])["seats"]}
    page = pick(phone(app), app, hall_id, 0)
    place = tables["0"].split(".")[1]
    assert f'data-testid="seat-spot">Mesa {place}<' in page.get_data(as_text=True)
