"""Issue 45, item 5: a hall's projector follows its class's choice about names. A hall
made from a class that keeps names off the projector shows no student's name on the
hall's projector (``hall_watcher``), in la colmena or in a Hive tournament, while the
teacher's hall view (``hall_gm``) keeps them; the class's change reaches the projector."""
from __future__ import annotations

import json

import pytest

from facilitator.extensions import socketio, store
from facilitator.games import Role
from facilitator.services.halls import halls

STUDENTS = ["Zoraida Quintanilla", "Wenceslao Yrigoyen", "Xiomara Beltrocchi",
            "Ulises Farnetti", "Brunilda Okonkwo"]
PARTS = {part for name in STUDENTS for part in name.split()}


def strings(value) -> list[str]:
    """Every string of a JSON value, keys included."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [k, *strings(v)]]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def named(payload) -> set[str]:
    """The students' names (or parts of them) found in any string of ``payload``."""
    return {part for text in strings(payload) for part in PARTS if part in text}


def class_hall(gm, kind: str) -> tuple[int, int]:
    """A class of the five students (names off the projector, as a class starts) and a
    hall of ``kind`` made from it."""
    class_id = gm.post("/console/classes", json={"name": "4.º C"}).json["id"]
    gm.post(f"/console/classes/{class_id}/students", json={"text": "\n".join(STUDENTS)})
    assert gm.get(f"/console/classes/{class_id}.json").json["class"]["projector_names"] is False
    made = gm.post("/console/halls", json={"kind": kind, "class_id": class_id})
    assert made.json["ok"], made.json
    return class_id, made.json["hall_id"]


def hall_screens(app, gm, hall_id: int) -> dict[str, dict]:
    """What the hall's projector and the teacher's hall view receive as they connect."""
    watch = halls().hall(hall_id)["watch_code"]
    got = {}
    for role, auth, client in (("hall_watcher", {"role": "hall_watcher", "watch": watch}, None),
                               ("hall_gm", {"role": "hall_gm", "hall": hall_id}, gm)):
        sio = socketio.test_client(app, flask_test_client=client, auth=auth)
        try:
            [message] = [m["args"][0] for m in sio.get_received() if m["name"] == "hall"]
            got[role] = json.loads(json.dumps(message))
        finally:
            sio.disconnect()
    return got


def finish_first_board(app, hall_id: int) -> None:
    """Hive: the teacher ends the first board (Black wins), so the results name its players."""
    with app.app_context():
        game = halls().games_of(hall_id)[0]
        store.transact(game["game_id"], "gm",
                       lambda c: c.act({"do": "end", "result": "black", "reason": "acuerdo"},
                                         Role.gm(), 0.0))


@pytest.mark.parametrize("kind", ["hive", "colmena"])
def test_a_class_hall_projector_names_no_student_and_the_teachers_view_does(app, gm, kind):
    class_id, hall_id = class_hall(gm, kind)
    with app.app_context():
        keys = [g["key"] for g in halls().games_of(hall_id)][:2]
        halls().set_shown(hall_id, keys)              # live boards on the projector too
    if kind == "hive":
        finish_first_board(app, hall_id)
    screens = hall_screens(app, gm, hall_id)
    assert named(screens["hall_watcher"]) == set(), screens["hall_watcher"]
    assert named(screens["hall_gm"]) == PARTS           # the teacher sees every student
    if kind == "hive":
        view = screens["hall_watcher"]["view"]
        sides = [p[c] for p in view["pairings"] for c in ("white", "black")] + view["standings"]
        numbers = {s["number"] for s in sides if not s.get("bot")}
        assert numbers == set(range(1, len(STUDENTS) + 1))      # «Jugador n», each once
        assert all(s["name"] is None for s in sides if not s.get("bot"))
        assert view["boards"] and all(b["players"] == {} for b in view["boards"].values())

    # The class lets the projector show names: the hall's projector shows them.
    assert gm.post(f"/console/classes/{class_id}", json={"projector_names": True}).json["ok"]
    shown = hall_screens(app, gm, hall_id)["hall_watcher"]
    # Names allowed: the projector names the students (la colmena's in who sits where).
    assert named(shown) == PARTS


def test_a_hall_of_a_pasted_list_shows_names_on_its_projector(app, gm):
    made = gm.post("/console/halls", json={"kind": "hive", "players": "\n".join(STUDENTS)})
    screens = hall_screens(app, gm, made.json["hall_id"])
    assert named(screens["hall_watcher"]) == PARTS
