"""Issue 46, item 6: malformed forms and bodies on every route that changes something.

Every POST (and DELETE) route of the app, with the ids of real things (a game of each
kind, a class, a student, a bank, a hall) and with ids no row has (huge ones included),
gets seeded random bodies: form fields holding nothing, a NUL byte, digits of other
scripts, 100,000 characters, markup; JSON of every wrong shape, nested deep; files of
random bytes. None is answered 500, on SQLite and PostgreSQL, and the console still
answers afterwards. The routes that delete run last, so the others meet real rows.
"""
from __future__ import annotations

import io
import json
import random

import pytest

from facilitator.services.halls import halls

pytestmark = [pytest.mark.databases("sqlite", "postgres")]
#: Routes left out: the socket's own path, and those that end the console's session.
SKIPPED = {"socketio_path", "console.login", "console.logout", "console.logout_all"}
FIELDS = ["name", "settings", "text", "kind", "players", "white", "black", "bot",
          "bot_level", "turn_limit", "pasted", "seated", "code", "seat", "device", "id",
          "answer", "author", "type", "notes", "present", "mode", "teams", "max_members",
          "class_id", "absent", "then", "player", "label", "email", "id_number", "shown"]
JUNK = ["", " ", "\x00", "\x1b[2J", "²", "٣", "-1", "0", "9" * 400, "1e309", "NaN",
        "<script>alert(1)</script>", "%ff%fe", "[]", "{}", "null", "true", "x" * 100_000,
        "Ana\nBea\n\x00Carla", "\ud800".encode("utf-8", "surrogatepass").decode("latin-1")]
PER_ROUTE = 6


def _json_junk(rng: random.Random):
    shapes = [[], {}, "x", 12, None, True, [[[[]]]], {"settings": rng.choice(JUNK)},
              {"settings": {"teams": rng.choice(JUNK)}}, {"names": [rng.choice(JUNK)] * 3},
              {"sizes": [10 ** 30]}, {"kind": "hive", "players": {"a": 1}},
              {"present": ["x"], "mode": 7}, {"class_id": 10 ** 40, "absent": "zz"}]
    nested: object = 1
    for _ in range(200):
        nested = [nested]
    shapes.append({"settings": nested})
    return rng.choice(shapes)


def _things(app, gm) -> dict:
    """Ids of real rows, for the routes' URL parameters."""
    names = "\n".join(["Ana Díaz", "Bea Gil", "Carla Ruiz", "Dani Sanz", "Eva Mora"])
    game = gm.post("/console/games", json={"name": "P", "settings": {
        "teams": [{"name": f"Equipo {n}", "members": 4} for n in range(1, 5)]}}).get_json()
    klass = gm.post("/console/classes", json={"name": "1.º B"}).get_json()["id"]
    gm.post(f"/console/classes/{klass}/students", json={"text": names})
    hall = gm.post("/console/halls", json={"kind": "hive", "name": "Torneo", "players": names,
                                           "seed": 3}).get_json()
    with app.app_context():
        board = halls().games_of(hall["hall_id"])[0]["game_id"]
        from facilitator.extensions import database
        from facilitator.store.banks import list_banks
        bank = list_banks(database)[0]["id"]
    students = gm.get(f"/console/classes/{klass}.json").get_json()
    student = students["students"][0]["id"] if students and students.get("students") else 1
    return {"game_id": [game["game_id"], board, 10 ** 18], "class_id": [klass, 10 ** 18],
            "student_id": [student, 10 ** 18], "bank_id": [bank, 10 ** 18],
            "hall_id": [hall["hall_id"], 10 ** 18], "seat": [1, 0, 10 ** 18],
            "team": [1, 10 ** 18], "token_id": [1, 10 ** 18]}


def test_malformed_bodies_on_every_route_that_changes_something_answer_no_500(app, gm):
    rng = random.Random(466)
    things = _things(app, gm)
    rules = sorted((r for r in app.url_map.iter_rules()
                    if r.endpoint not in SKIPPED and r.methods & {"POST", "DELETE"}),
                   key=lambda r: ("delete" in r.rule or "remove" in r.endpoint, r.rule))
    answered = []
    for rule in rules:
        method = "DELETE" if "DELETE" in rule.methods else "POST"
        for n in range(PER_ROUTE):
            values = {arg: rng.choice(things.get(arg, [1])) for arg in rule.arguments}
            path = rule.rule
            for arg, value in values.items():
                path = path.replace(f"<int:{arg}>", str(value)).replace(f"<{arg}>", str(value))
            form = n % 3
            if form == 0:
                data = {field: rng.choice(JUNK) for field in rng.sample(FIELDS, 4)}
                if rng.random() < 0.5:
                    data["file"] = data["record"] = (io.BytesIO(rng.randbytes(300)), "x.csv")
                response = gm.open(path, method=method, data=data,
                                   content_type="multipart/form-data")
            elif form == 1:
                response = gm.open(path, method=method, data=json.dumps(_json_junk(rng)),
                                   content_type="application/json")
            else:
                response = gm.open(path, method=method, data=rng.randbytes(200),
                                   content_type=rng.choice(["application/json", "text/plain",
                                                            "application/x-www-form-urlencoded"]))
            answered.append((response.status_code, method, path[:80]))
            assert response.status_code < 500, (method, path[:80], form,
                                                response.get_data(as_text=True)[:300])
    assert len({path for _status, _method, path in answered}) >= 40
    assert gm.get("/console/").status_code in (200, 302)
