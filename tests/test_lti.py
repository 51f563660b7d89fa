"""Issue 48: LTI 1.3 against a platform no one here wrote (lti1p3platform, on 127.0.0.1):
registered with the add-platform values, a teacher and three students launched, the
roster read, a game made, the marks posted and read back from the platform's side, and
every bad token refused with a page, logged, nothing created.
"""
from __future__ import annotations

import logging
import time

import jwt
import pytest
from click.testing import CliRunner
from sqlalchemy import func, select

from facilitator.extensions import database
from facilitator.lti import keys
from facilitator.store import lti as lti_store
from facilitator.store.models import ClassRow, StudentRow
from lti_platform import INSTRUCTOR, Platform, User, follow_login, new_pem, query_of
from test_classes import app, make_game, play_game  # noqa: F401  (the app with a bank)

pytestmark = [pytest.mark.databases("sqlite", "postgres"),
              pytest.mark.app_config(SAMPLE_BANK=None)]

TEACHER = User("t-1", "Marta Profe", "marta@uni.example", [INSTRUCTOR])
STUDENTS = [User("s-1", "Ana Gómez", "ana@uni.example", id_number="A1"),
            User("s-2", "Bruno Díaz", "bruno@uni.example"),
            User("s-3", "Carla Ruiz", "", id_number="C3")]
#: What a script sending the marks asks for.
JSON = {"Accept": "application/json"}
#: In the course's roster, never launched (a game of teams needs 3 to a team).
QUIET = [User(f"s-{n}", name, f"{name.split()[0].lower()}@uni.example")
         for n, name in enumerate(["Diego Sosa", "Elena Paz", "Fede Ríos", "Gala Vidal",
                                   "Hugo Luna", "Irene Soto", "Juan Cruz", "Lía Mora",
                                   "Mateo Gil"], start=4)]
EVERYONE = [*STUDENTS, *QUIET]


@pytest.fixture
def platform(app):
    """The platform, serving, with the facilitator registered on both sides."""
    found = Platform().start()
    with app.app_context():
        lti_store.add_platform(database, name="Moodle de prueba", **found.tool_values())
    found.tool_keys = app.test_client().get("/lti/jwks.json").get_json()
    yield found
    found.stop()


def count(app, model) -> int:
    with app.app_context(), database.session() as session:
        return session.scalar(select(func.count()).select_from(model))


def students_of(app, class_id: int) -> list[dict]:
    with app.app_context(), database.session() as session:
        return [{"name": s.name, "email": s.email, "id_number": s.id_number, "id": s.id}
                for s in session.scalars(select(StudentRow).where(StudentRow.class_id == class_id)
                                         .order_by(StudentRow.position))]


def eventually(check, seconds: float = 20) -> None:
    """Wait until ``check()`` is true (what a game's end sends goes in the background)."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "waited in vain"
        time.sleep(0.05)


def wait_for_posts(platform, label: str, count: int) -> None:
    """Wait until the platform's column ``label`` got ``count`` scores."""
    eventually(lambda: label in {i.get("label") for i in platform.lineitems.values()}
               and platform.posts(label) >= count)


def teacher_with_roster(app, platform):
    """The teacher launched twice (the second launch reads the whole roster): their
    browser, the class's id and its students' ids by name."""
    teacher = browser(app)
    answer, _ = follow_login(teacher, platform, TEACHER)
    class_id = int(answer.headers["Location"].rsplit("/", 1)[1])
    for student in EVERYONE:
        platform.users[student.sub] = student
    follow_login(teacher, platform, TEACHER)
    return teacher, class_id, {s["name"]: s["id"] for s in students_of(app, class_id)}


def four_teams(ids: dict) -> list[list[int]]:
    """Everyone dealt into four teams of three (Ana, Bruno and Carla in teams 1 to 3)."""
    return [[ids[u.name] for u in EVERYONE[n::4]] for n in range(4)]


def browser(app):
    client = app.test_client()
    return client


def test_the_key_set_is_published_and_rotation_keeps_the_old_key_a_while(app):
    first = app.test_client().get("/lti/jwks.json")
    assert first.status_code == 200
    kids = [k["kid"] for k in first.get_json()["keys"]]
    assert len(kids) == 1 and all("d" not in k for k in first.get_json()["keys"])
    with app.app_context():
        new = keys.rotate(database)
        assert keys.signing_key(database)["kid"] == new
    after = [k["kid"] for k in app.test_client().get("/lti/jwks.json").get_json()["keys"]]
    assert after == [new, kids[0]]


def test_a_teacher_and_three_students_the_roster_and_the_marks(app, platform):
    # A student pasted before the course launched: the roster must not list her twice.
    teacher = browser(app)
    answer, _ = follow_login(teacher, platform, TEACHER)
    assert answer.status_code == 302 and "/console/classes/" in answer.headers["Location"]
    class_id = int(answer.headers["Location"].rsplit("/", 1)[1])
    assert teacher.get(answer.headers["Location"]).status_code == 200     # in the console
    pasted = teacher.post(f"/console/classes/{class_id}/students",
                          json={"text": "Ana Gómez; ana@uni.example"})
    assert pasted.get_json()["ok"]
    for student in EVERYONE:
        platform.users[student.sub] = student
    # The next teacher's launch reads the roster: every student once, e-mail and ID number.
    again, _ = follow_login(teacher, platform, TEACHER)
    assert again.status_code == 302
    listed = students_of(app, class_id)
    assert sorted(s["name"] for s in listed) == sorted(u.name for u in EVERYONE)
    by_name = {s["name"]: s for s in listed}
    assert by_name["Ana Gómez"]["id_number"] == "A1"
    assert by_name["Carla Ruiz"]["id_number"] == "C3"
    # Three students launch: each named, none in the console; refreshed, never duplicated.
    phones = []
    for student in STUDENTS:
        phone = browser(app)
        landed, _ = follow_login(phone, platform, student)
        assert landed.status_code == 200 and student.name in landed.get_data(as_text=True)
        assert phone.get(f"/console/classes/{class_id}").status_code == 302   # to the login
        phones.append(phone)
    assert len(students_of(app, class_id)) == len(EVERYONE)
    # A game of the class: each student's launch now lands on their team.
    game_id = make_game(teacher, class_id,
                        four_teams({s["name"]: s["id"] for s in students_of(app, class_id)}))
    landed, _ = follow_login(browser(app), platform, STUDENTS[1])
    assert landed.status_code == 302 and landed.headers["Location"].endswith("/team")
    play_game(app, game_id, winners=(1, 3))
    wait_for_posts(platform, "Liga: puntos", len(EVERYONE))      # sent at the game's end
    # The marks: the league's points and the games present, as moodle.csv has them.
    chosen = teacher.post(f"/lti/classes/{class_id}/measures",
                          json={"measures": ["league_points", "games_present"]})
    assert chosen.get_json() == {"ok": True, "measures": ["league_points", "games_present"]}
    sent = teacher.post(f"/lti/classes/{class_id}/marks", headers=JSON)
    assert sent.status_code == 200 and sent.get_json()["waiting"] == 0, sent.get_json()
    moodle = teacher.get(f"/console/classes/{class_id}/export/moodle.csv"
                         "?identifier=email&measures=league_points").get_data(as_text=True)
    points = platform.results("Liga: puntos")
    present = platform.results("Partidas presentes")
    assert set(points) == set(present) == {u.sub for u in EVERYONE}
    assert set(present.values()) == {1} and set(points.values()) != {0}
    assert f"ana@uni.example,{points['s-1']:g}" in moodle.replace(".0,", ",")
    # Sent again with nothing changed: nothing posted twice, the line items made once.
    posts = platform.posts("Liga: puntos")
    assert teacher.post(f"/lti/classes/{class_id}/marks", headers=JSON).get_json()["sent"] == 0
    assert platform.posts("Liga: puntos") == posts and len(platform.lineitems) == 2


def test_a_mark_the_platform_refuses_waits_and_goes_once_it_answers(app, platform):
    teacher, class_id, ids = teacher_with_roster(app, platform)
    game_id = make_game(teacher, class_id, four_teams(ids))
    play_game(app, game_id, winners=(1,))
    wait_for_posts(platform, "Liga: puntos", len(EVERYONE))      # sent at the game's end
    chosen = teacher.post(f"/lti/classes/{class_id}/measures",
                          data={"measures": ["games_present"]})
    assert chosen.status_code == 302 and chosen.headers["Location"].endswith("#lti")
    assert teacher.post(f"/lti/classes/{class_id}/measures",
                        data={"measures": ["nope"]}).status_code == 400
    platform.refuse_scores = True
    failed = teacher.post(f"/lti/classes/{class_id}/marks", headers=JSON).get_json()
    assert failed["sent"] == 0 and failed["waiting"] == 12 and failed["error"]
    shown = teacher.get(f"/lti/classes/{class_id}/marks.json").get_json()
    assert len(shown["waiting"]) == 12 and any(m["error"] for m in shown["waiting"])
    page = teacher.get(f"/console/classes/{class_id}").get_data(as_text=True)
    assert 'data-testid="lti-waiting"' in page and "Partidas presentes" in page
    assert "Filosofía 1.º B" in page
    platform.refuse_scores = False
    done = teacher.post(f"/lti/classes/{class_id}/marks", headers=JSON).get_json()
    assert done == {"ok": True, "sent": 12, "waiting": 0, "error": ""}
    assert platform.posts("Partidas presentes") == 12
    page = teacher.get(f"/console/classes/{class_id}").get_data(as_text=True)
    assert 'data-testid="lti-all-sent"' in page


def _refused(app, answer, caplog, reason_words: str):
    text = answer.get_data(as_text=True)
    assert answer.status_code in (400, 403), (answer.status_code, text[:300])
    assert 'data-testid="error-page"' in text
    assert any(r.name == "facilitator.lti" and r.levelno >= logging.WARNING
               for r in caplog.records), caplog.records
    assert reason_words in text, text[:2000]


def test_bad_tokens_are_refused_with_a_page_logged_and_nothing_made(app, platform, caplog):
    caplog.set_level(logging.WARNING, logger="facilitator.lti")
    # Replayed: the same token and state posted again.
    client = browser(app)
    first, posted = follow_login(client, platform, STUDENTS[0])
    assert first.status_code == 200
    classes, students = count(app, ClassRow), count(app, StudentRow)
    _refused(app, client.post("/lti/launch", data=posted), caplog, "no se acepta dos veces")
    # Expired before it arrived.
    platform.next_launch["expiration"] = -60
    answer, _ = follow_login(browser(app), platform, STUDENTS[1])
    _refused(app, answer, caplog, "venció")
    # Forged: signed with a key that is not the platform's (its kid kept).
    platform.next_launch["private_pem"] = new_pem()
    answer, _ = follow_login(browser(app), platform, STUDENTS[1])
    _refused(app, answer, caplog, "firma")
    # A deployment the platform never registered for the tool.
    platform.next_launch["deployment_id"] = "dep-other"
    answer, _ = follow_login(browser(app), platform, STUDENTS[1])
    _refused(app, answer, caplog, "instalación")
    # Another platform altogether (its login is refused first; its token too).
    other = Platform(context_id="course-9").start()
    try:
        answer = browser(app).get("/lti/login?" + other.login_url(STUDENTS[1]).split("?", 1)[1])
        _refused(app, answer, caplog, "no está registrada")
        client = browser(app)
        answer, _ = _login_only(client, platform, STUDENTS[1])   # a state and nonce given
        given = query_of(answer.headers["Location"])
        stranger = _token_of(other, STUDENTS[1], given["nonce"])
        _refused(app, client.post("/lti/launch", data={"id_token": stranger,
                                                      "state": given["state"]}),
                 caplog, "no conoce")
    finally:
        other.stop()
    # Tampered: the platform's token with its course changed, the signature kept.
    client = browser(app)
    _, posted = _login_only(client, platform, STUDENTS[2])
    head, body, sig = posted["id_token"].split(".")
    claims = jwt.decode(posted["id_token"], options={"verify_signature": False})
    claims["https://purl.imsglobal.org/spec/lti/claim/context"]["id"] = "course-9"
    forged = jwt.encode(claims, "x" * 32, algorithm="HS256").split(".")[1]
    _refused(app, client.post("/lti/launch", data={**posted, "id_token": f"{head}.{forged}.{sig}"}),
             caplog, "firma")
    # A state this browser never got.
    _refused(app, browser(app).post("/lti/launch", data=posted), caplog, "navegador")
    # A user id longer than any the facilitator keeps (cut short, two could become one).
    answer, _ = follow_login(browser(app), platform, User("u" * 400, "Larga Larguísima"))
    _refused(app, answer, caplog, "no trae lo que hace falta")
    # Junk.
    _refused(app, browser(app).post("/lti/launch", data={"id_token": "x", "state": "y"}),
             caplog, "")
    assert (count(app, ClassRow), count(app, StudentRow)) == (classes, students)


def _login_only(client, platform, user):
    """The login and the platform's answer, without posting the launch."""
    from urllib.parse import urlsplit

    import requests
    start = urlsplit(platform.login_url(user))
    answer = client.get(f"{start.path}?{start.query}")
    form = requests.get(answer.headers["Location"], timeout=10).json()
    return answer, {"id_token": form["id_token"], "state": form["state"]}


def _token_of(platform, user, nonce: str) -> str:
    """A launch token ``platform`` signs for ``user`` with ``nonce``."""
    import requests
    query = {"login_hint": user.sub, "nonce": nonce, "state": "s", "client_id":
             platform.client_id, "redirect_uri": f"{platform.tool_url}/lti/launch",
             "lti_message_hint": "resource-1"}
    platform.users[user.sub] = user
    return requests.get(f"{platform.url}/auth", params=query, timeout=10).json()["id_token"]


def test_a_student_launch_never_reaches_the_console_even_from_a_teachers_browser(app, platform):
    shared = browser(app)
    answer, _ = follow_login(shared, platform, TEACHER)
    class_id = int(answer.headers["Location"].rsplit("/", 1)[1])
    assert shared.get(f"/console/classes/{class_id}").status_code == 200
    landed, _ = follow_login(shared, platform, STUDENTS[0])
    assert landed.status_code == 200
    assert shared.get(f"/console/classes/{class_id}").status_code == 302


def test_a_courses_launch_never_reaches_another_courses_class(app, platform, gm):
    one = browser(app)
    first, _ = follow_login(one, platform, TEACHER)
    platform.context_id, platform.context_title = "course-8", "Lógica"
    two = browser(app)
    second, _ = follow_login(two, platform, TEACHER)
    assert first.headers["Location"] != second.headers["Location"]
    mine, theirs = (int(a.headers["Location"].rsplit("/", 1)[1]) for a in (first, second))
    # A game of each class, made from the console's own login.
    for class_id in (mine, theirs):
        gm.post(f"/console/classes/{class_id}/students", json={"text": "\n".join(
            f"Estudiante {n}" for n in range(12))})
    ids = {c: [s["id"] for s in students_of(app, c)] for c in (mine, theirs)}
    games = {c: make_game(gm, c, [ids[c][n::4] for n in range(4)]) for c in (mine, theirs)}
    assert one.get(f"/console/classes/{mine}").status_code == 200
    assert one.get(f"/console/{games[mine]}").status_code == 200
    for path in (f"/console/classes/{theirs}", f"/console/{games[theirs]}",
                 f"/console/classes/{theirs}/league.json", "/console/tokens",
                 f"/lti/classes/{theirs}/marks.json", f"/console/{10 ** 12}"):
        refused = one.get(path)
        assert refused.status_code in (403, 404), (path, refused.status_code)
    assert one.post(f"/console/classes/{theirs}/students",
                    json={"text": "Intrusa"}).status_code == 403
    assert one.post("/console/games", json={"name": "Suelta"}).status_code == 403
    assert one.get("/console").headers["Location"].endswith(f"/console/classes/{mine}")
    assert "Lógica" not in one.get("/console/halls/new").get_data(as_text=True)
    # The console's own login still reaches everything.
    assert gm.get(f"/console/classes/{theirs}").status_code == 200
    with app.app_context():
        names = sorted(c["name"] for c in __import__(
            "facilitator.store.classes", fromlist=["x"]).list_classes(database))
    assert names == ["Filosofía 1.º B", "Lógica"]


def test_add_platform_from_the_command_line(tmp_path, monkeypatch):
    from facilitator.cli import main
    monkeypatch.setenv("FACILITATOR_DATABASE_URL", f"sqlite:///{tmp_path / 'f.db'}")
    runner = CliRunner()
    values = ["--issuer", "https://moodle.uni.example", "--client-id", "AbC123",
              "--deployment-id", "4", "--auth-url", "https://moodle.uni.example/mod/lti/auth.php",
              "--token-url", "https://moodle.uni.example/mod/lti/token.php",
              "--keyset-url", "https://moodle.uni.example/mod/lti/certs.php"]
    made = runner.invoke(main, ["lti", "add-platform", *values])
    assert made.exit_code == 0 and "registered" in made.output, made.output
    again = runner.invoke(main, ["lti", "add-platform", *values[:4], "--deployment-id", "5",
                                 *values[6:]])
    assert again.exit_code == 0 and "updated" in again.output
    listed = runner.invoke(main, ["lti", "list"])
    assert "deployments 4, 5" in listed.output
    bad = runner.invoke(main, ["lti", "add-platform", *values[:-1], "moodle/certs.php"])
    assert bad.exit_code != 0 and "public keyset URL" in bad.output
    url = runner.invoke(main, ["lti", "registration-url", "https://facilitador.uni.example"])
    assert url.output.startswith("https://facilitador.uni.example/lti/register?key=")
    rotated = runner.invoke(main, ["lti", "rotate-keys"])
    assert rotated.exit_code == 0 and "New signing key" in rotated.output


def test_a_students_launch_lands_on_their_seat_in_the_class_hall(app, platform):
    teacher, class_id, _ids = teacher_with_roster(app, platform)
    made = teacher.post("/console/halls", json={"kind": "hive", "name": "Torneo",
                                                "class_id": class_id, "seed": 3})
    assert made.status_code == 200, made.get_json()
    phone = browser(app)
    landed, _ = follow_login(phone, platform, STUDENTS[2])
    assert landed.status_code == 302 and landed.headers["Location"].endswith("/seat")
    seat = phone.get("/seat")
    assert seat.status_code == 200
    # Named already: the hall's door holds this student for this phone, no list to pick.
    assert phone.get("/door").headers["Location"].endswith("/seat")
    # The same phone launching again keeps its seat (it does not ask the teacher for it).
    again, _ = follow_login(phone, platform, STUDENTS[2])
    assert again.headers["Location"].endswith("/seat")
    assert 'data-testid="error-page"' not in phone.get("/seat").get_data(as_text=True)
    assert "waiting" not in phone.get("/seat/where").get_json().get("state", "")
    with app.app_context():
        hall = app.extensions["facilitator_live"].halls.halls.hall(made.get_json()["hall_id"])
    student_id = next(s["id"] for s in students_of(app, class_id) if s["name"] == "Carla Ruiz")
    assert hall["players"][hall["lineup"].index(student_id)] == "Carla Ruiz"


def test_deep_linking_places_a_game_of_the_class_as_the_activity(app, platform):
    import re

    import requests
    teacher, class_id, ids = teacher_with_roster(app, platform)
    game_id = make_game(teacher, class_id, four_teams(ids))
    make_game(teacher, class_id, four_teams(ids))
    # A student cannot place an activity.
    platform.next_launch["deep_link"] = True
    refused, _ = follow_login(browser(app), platform, STUDENTS[0])
    assert refused.status_code == 403 and "Solo quien enseña" in refused.get_data(as_text=True)
    # The teacher adds an activity: the choices, then the signed answer for the platform.
    platform.next_launch["deep_link"] = True
    placing, _ = follow_login(teacher, platform, TEACHER)
    assert placing.headers["Location"].endswith("/lti/place")
    page = teacher.get("/lti/place").get_data(as_text=True)
    assert f'value="game:{game_id}"' in page and 'value="today"' in page
    assert teacher.post("/lti/place", data={"target": "game:999999"}).status_code == 400
    placed = teacher.post("/lti/place", data={"target": f"game:{game_id}"})
    assert placed.status_code == 200
    html = placed.get_data(as_text=True)
    action = re.search(r'<form method="post" action="([^"]+)"', html).group(1)
    token = re.search(r'name="JWT" value="([^"]+)"', html).group(1)
    assert action == f"{platform.url}/deep-link-return"
    assert requests.post(action, data={"JWT": token}, timeout=10).json() == {"ok": True}
    (item,) = platform.placed
    assert item["type"] == "ltiResourceLink" and item["url"] == "http://localhost/lti/launch"
    assert item["custom"] == {"facilitator": f"game:{game_id}"}
    # The placed activity opens that game (not the newer one): the student on their team.
    platform.next_launch["custom"] = item["custom"]
    phone = browser(app)
    landed, _ = follow_login(phone, platform, STUDENTS[0])
    assert landed.headers["Location"].endswith("/team")
    from facilitator.live.audience import decode_device_token
    with app.app_context():
        public_id = app.extensions["facilitator_live"].store.public_id(game_id)
    token = next(c.value for c in phone._cookies.values() if c.key == "team_token")
    held = decode_device_token(app.config["SECRET_KEY"], token)
    assert held.public_id == public_id and held.team == 1      # Ana plays in team 1
    platform.next_launch["custom"] = item["custom"]
    opened, _ = follow_login(teacher, platform, TEACHER)
    assert opened.headers["Location"].endswith(f"/console/{game_id}")
    # The answer is made once: the page is gone afterwards.
    assert teacher.get("/lti/place").status_code == 400


def test_dynamic_registration_with_a_one_time_url(app):
    from urllib.parse import urlencode

    from facilitator.lti.registration import new_registration_key
    fresh = Platform(client_id="dyn-client", deployment_id="dep-dyn").start()
    try:
        with app.app_context():
            key = new_registration_key(database)
        query = {"openid_configuration": f"{fresh.url}/.well-known/openid-configuration",
                 "registration_token": "registration-token"}
        admin = browser(app)
        # Without the URL's key nothing is fetched, nothing registered.
        assert admin.get("/lti/register?" + urlencode(query)).status_code == 403
        assert fresh.registrations == []
        done = admin.get("/lti/register?" + urlencode({**query, "key": key}))
        assert done.status_code == 200, done.get_data(as_text=True)[:3000]
        assert "lti_registered.js" in done.get_data(as_text=True)
        (asked,) = fresh.registrations
        assert asked["initiate_login_uri"] == "http://localhost/lti/login"
        assert asked["jwks_uri"] == "http://localhost/lti/jwks.json"
        assert asked["redirect_uris"] == ["http://localhost/lti/launch"]
        with app.app_context():
            (kept,) = lti_store.list_platforms(database)
        assert (kept["issuer"], kept["client_id"], kept["deployment_ids"]) == (
            fresh.issuer, "dyn-client", ["dep-dyn"])
        # The key is used up.
        assert admin.get("/lti/register?" + urlencode({**query, "key": key})).status_code == 403
        # And the platform launches the teacher straight away.
        fresh.tool_keys = app.test_client().get("/lti/jwks.json").get_json()
        landed, _ = follow_login(browser(app), fresh, TEACHER)
        assert landed.status_code == 302 and "/console/classes/" in landed.headers["Location"]
    finally:
        fresh.stop()


def test_rotating_the_keys_breaks_no_launch_in_flight(app, platform):
    # The platform reads the tool's key set at each check, as Moodle reads its URL.
    platform.tool_keys = lambda: app.test_client().get("/lti/jwks.json").get_json()
    teacher, class_id, ids = teacher_with_roster(app, platform)
    game_id = make_game(teacher, class_id, four_teams(ids))
    # A deep-linking answer signed before the rotation reaches the platform after it.
    platform.next_launch["deep_link"] = True
    follow_login(teacher, platform, TEACHER)
    html = teacher.post("/lti/place", data={"target": f"game:{game_id}"}).get_data(as_text=True)
    import re

    import requests
    token = re.search(r'name="JWT" value="([^"]+)"', html).group(1)
    with app.app_context():
        old = keys.signing_key(database)["kid"]
        new = keys.rotate(database)
    assert jwt.get_unverified_header(token)["kid"] == old != new
    assert requests.post(f"{platform.url}/deep-link-return", data={"JWT": token},
                         timeout=10).json() == {"ok": True}
    # A launch begun before the rotation ends after it; the marks go with the new key.
    phone = browser(app)
    _, posted = _login_only(phone, platform, STUDENTS[0])
    with app.app_context():
        keys.rotate(database)
    assert phone.post("/lti/launch", data=posted).status_code == 302     # to the team
    platform.token_requests = 0
    from facilitator.lti.tool import ServiceConnector
    ServiceConnector.access_tokens.clear()             # no token cached from before
    play_game(app, game_id, winners=(2,))
    wait_for_posts(platform, "Liga: puntos", len(EVERYONE))
    assert platform.token_requests >= 1


def refused_at_a_games_end(app, platform, winner: int):
    """A class game played to its end while the platform refuses every mark: the class's
    id and a function of what waits (once the refusals are in); the platform answers
    again from then on."""
    teacher, class_id, ids = teacher_with_roster(app, platform)
    game_id = make_game(teacher, class_id, four_teams(ids))
    platform.refuse_scores = True
    play_game(app, game_id, winners=(winner,))

    def waiting():
        return teacher.get(f"/lti/classes/{class_id}/marks.json").get_json()["waiting"]
    eventually(lambda: any(mark["error"] for mark in waiting()))
    assert platform.scores == {}
    platform.refuse_scores = False                      # the platform answers again
    return class_id, waiting


@pytest.mark.app_config(SAMPLE_BANK=None, LTI_RETRY_SECONDS=(0.2,) * 50)
def test_marks_a_platform_refused_at_a_games_end_go_once_it_answers(app, platform):
    _class_id, waiting = refused_at_a_games_end(app, platform, winner=4)
    wait_for_posts(platform, "Liga: puntos", len(EVERYONE))
    eventually(lambda: waiting() == [])
    assert platform.posts("Liga: puntos") == len(EVERYONE)          # each once


def test_the_platforms_keys_are_kept_and_fetched_again_when_it_rotates_them(app, platform):
    from jwcrypto.jwk import JWK
    for student in STUDENTS:
        assert follow_login(browser(app), platform, student)[0].status_code == 200
    assert platform.key_set_requests == 1     # kept for the lecture's launches
    platform.private_pem = new_pem()          # the platform rotates its key
    platform.public_pem = JWK.from_pem(platform.private_pem.encode()).export_to_pem().decode()
    assert follow_login(browser(app), platform, STUDENTS[0])[0].status_code == 200
    assert platform.key_set_requests == 2


def test_without_any_platform_the_lti_addresses_refuse_with_a_page(app, gm):
    client = browser(app)
    for answer in (client.get("/lti/login?iss=https://moodle.example&login_hint=1"),
                   client.post("/lti/login", data={"iss": "x"}),
                   client.post("/lti/launch", data={"id_token": "a.b.c", "state": "s"}),
                   client.post("/lti/launch"), client.get("/lti/register"),
                   client.get("/lti/place")):
        assert answer.status_code in (302, 400, 403), answer.status_code
        assert answer.status_code == 302 or 'data-testid="error-page"' in answer.get_data(
            as_text=True)
    assert gm.get("/console").status_code == 200          # the console as ever
    assert count(app, ClassRow) == 0
    with app.app_context():
        assert lti_store.list_platforms(database) == [] and lti_store.list_keys(database) == []


def test_only_the_courses_own_roles_make_a_teacher(app, platform):
    from lti_platform import LEARNER
    institution = "http://purl.imsglobal.org/vocab/lis/v2/institution/person#Instructor"
    follow_login(browser(app), platform, TEACHER)
    # Teaching elsewhere (Canvas's institution role) makes no teacher of this course.
    elsewhere = browser(app)
    landed, _ = follow_login(elsewhere, platform, User("s-9", "Profe Alumna", "pa@uni.example",
                                                       [institution, LEARNER]))
    assert landed.status_code == 200 and "Profe Alumna" in landed.get_data(as_text=True)
    assert elsewhere.get("/console").status_code == 302              # to the login
    # An observer (a parent, a guest) is neither: refused, nobody added.
    students = count(app, StudentRow)
    observer = "http://purl.imsglobal.org/vocab/lis/v2/membership#Mentor"
    refused, _ = follow_login(browser(app), platform, User("o-1", "Madre", "", [observer]))
    assert refused.status_code == 403 and count(app, StudentRow) == students
    # A teaching assistant teaches.
    assistant = "http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant"
    helper, _ = follow_login(browser(app), platform, User("t-2", "Ayudante", "", [assistant]))
    assert "/console/classes/" in helper.headers["Location"]


def test_the_roster_marks_who_left_and_a_deleted_column_is_made_again(app, platform):
    import dataclasses
    teacher, class_id, ids = teacher_with_roster(app, platform)
    gone = QUIET[0]
    platform.users[gone.sub] = dataclasses.replace(gone, status="Inactive")
    follow_login(teacher, platform, TEACHER)
    with app.app_context():
        left = {s["name"]: s["left"] for s in __import__(
            "facilitator.store.classes", fromlist=["x"]).get_class(database, class_id)["students"]}
    assert left[gone.name] is True and not any(v for k, v in left.items() if k != gone.name)
    game_id = make_game(teacher, class_id, four_teams(ids))
    play_game(app, game_id, winners=(1,))
    wait_for_posts(platform, "Liga: puntos", len(EVERYONE))
    # The teacher deletes the column on the platform; the next marks make it again.
    platform.lineitems.clear()
    platform.scores.clear()
    second = make_game(teacher, class_id, four_teams(ids))
    play_game(app, second, winners=(2,))
    teacher.post(f"/lti/classes/{class_id}/marks", headers=JSON)
    sent = teacher.post(f"/lti/classes/{class_id}/marks", headers=JSON).get_json()
    assert sent["waiting"] == 0, sent
    assert len(platform.results("Liga: puntos")) == len(EVERYONE)


def test_one_sending_of_a_class_at_a_time_in_every_process(app):
    """What keeps a game's end and the teacher's button (in any process) from sending the
    same marks together: a claim in the database, taken by one caller at a time."""
    with app.app_context():
        assert lti_store.claim_value(database, "sending-class-1", 60)
        assert not lti_store.claim_value(database, "sending-class-1", 60)
        assert lti_store.take_value(database, "sending-class-1")
        assert lti_store.claim_value(database, "sending-class-1", 60)
        assert lti_store.claim_value(database, "sending-class-2", 0)      # expired at once
        assert lti_store.claim_value(database, "sending-class-2", 60)


@pytest.mark.app_config(SAMPLE_BANK=None, LTI_RETRY_SECONDS=(3600,))
def test_marks_that_wait_when_a_server_starts_go_with_no_game_and_no_button(app, platform):
    # The server that had them waiting stopped: its next try (an hour on) went with it.
    from facilitator.web.lti import resume_waiting_marks
    class_id, waiting = refused_at_a_games_end(app, platform, winner=2)
    with app.app_context():
        assert lti_store.classes_with_waiting_marks(database) == [class_id]
    resume_waiting_marks(app)                           # what a server runs as it starts
    wait_for_posts(platform, "Liga: puntos", len(EVERYONE))
    eventually(lambda: waiting() == [])
    assert platform.posts("Liga: puntos") == len(EVERYONE)          # each once
    with app.app_context():
        assert lti_store.classes_with_waiting_marks(database) == []
