"""La colmena's hall screens in Chromium (issue 37, item 3): the hall made with the
console's form from a pasted list, three tables played from their consoles, the
teacher's hall view at 1366×768 and on a phone (390×844), a table opened from it on its
own console, and the projector at 1280×720 and 1920×1080: what they say agrees with each
table's state, nothing is cut off or scrolls sideways, touch targets are 44 px, axe
finds nothing; the bell (confirmed first) ends every table and the projector shows each
table's result as the manual words it."""
from __future__ import annotations

import random
import re

import pytest

from facilitator.i18n import catalog
from .layout import assert_fits, axe, font, geometry
from server import Server
from test_colmena_hall_live import Console

NINE = ["Ana Díaz", "Bea Gil", "Carla Ruiz", "Dani Sanz", "Eli Mora", "Fran Vega",
        "Gala Pons", "Hugo Saez", "Iris Cano"]
CONSOLE = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
PROJECTORS = ({"width": 1280, "height": 720}, {"width": 1920, "height": 1080})
KEYS = ("1.1", "1.2", "1.3")


@pytest.fixture(scope="module")
def hall_server(tmp_path_factory):
    server = Server(tmp_path_factory.mktemp("colmena-hall"),
                    env={"FACILITATOR_SOCKET_RATE_SCALE": "50"}).start()
    yield server
    server.stop()


def logged_in(server: Server, http) -> dict:
    """The console's session as a browser context's storage state."""
    return {"cookies": [{"name": k, "value": v, "domain": "127.0.0.1", "path": "/",
                         "expires": -1, "httpOnly": True, "secure": False, "sameSite": "Lax"}
                        for k, v in http.cookies.items()], "origins": []}


def texts(page, prefix: str) -> dict[str, str]:
    """The text of each ``<prefix><key>`` element of the page, by key."""
    return {key: page.get_by_test_id(prefix + key).inner_text().strip() for key in KEYS
            if page.get_by_test_id(prefix + key).count()}


def number(text: str) -> int:
    return int(text.replace("\u2212", "-"))


def check_hall_view(page, states: dict, words: dict) -> None:
    """The hall view says what each table's state is: score, step, whose turn, deck."""
    from playwright.sync_api import expect
    for key, state in states.items():
        view = state["view"]
        # A table whose first task is not laid has no score yet (issue 47): «—».
        shown = str(view["score"]["total"]).replace("-", "\u2212") if view["board"] else "—"
        expect(page.get_by_test_id("hall-score-" + key)).to_have_text(
            re.compile("^" + re.escape(shown) + "$"))
        step = view["awaiting"]["step"]
        expect(page.get_by_test_id("hall-step-" + key)).to_contain_text(
            words["colmenahall.step." + step])
        expect(page.get_by_test_id("hall-deck-" + key)).to_have_text(str(view["deck"]))
        seat = view["awaiting"]["seat"]
        if seat and not view["over"]:
            name = view["players"][seat - 1]["name"]
            expect(page.get_by_test_id("hall-who-" + key)).to_contain_text(name)
            expect(page.get_by_test_id("hall-players-" + key).locator("li.now")).to_contain_text(name)


def test_the_hall_view_and_the_projector_follow_three_tables_to_the_bell(hall_server, screens):
    from playwright.sync_api import expect
    server = hall_server
    http = server.gm_session()
    state = logged_in(server, http)
    # The teacher makes the hall with the console's form: la colmena, 9 names pasted.
    form = screens.page("hall-form", CONSOLE, storage_state=state)
    form.goto(server.url + "/console/halls/new")
    form.get_by_test_id("hall-kind-colmena").check()
    expect(form.get_by_test_id("hall-setting-solo")).not_to_be_checked()   # the kind's bounds
    expect(form.locator("label", has=form.get_by_test_id("hall-setting-solo"))).to_contain_text(
        catalog("es-ES")["colmenahall.setting.solo"])
    assert axe(form) == []
    screens.shot(form, "form")
    form.get_by_test_id("hall-name-input").fill("Jueves 2.º B")
    form.get_by_test_id("hall-players").fill("\n".join(NINE))
    form.get_by_test_id("hall-create").click()
    form.wait_for_url(re.compile(r"/console/halls/\d+$"))
    hall_id = int(form.url.rsplit("/", 1)[1])
    games = {g["key"]: g for g in http.get(f"{server.url}/console/halls/{hall_id}.json",
                                           timeout=10).json()["games"]}
    assert sorted(games) == list(KEYS)
    watch = form.get_by_test_id("hall-projector-link").get_attribute("href").rsplit("/", 1)[1]
    form.close()

    # Three tables: one plays a while, one a little and is ended from its console, one
    # has not begun.
    consoles = {key: Console(server, http, games[key]["game_id"]) for key in KEYS}
    try:
        rng = random.Random(5)
        states = {"1.1": consoles["1.1"].play(16, rng), "1.2": consoles["1.2"].play(6, rng),
                  "1.3": consoles["1.3"].state()}
        ack = consoles["1.2"].sio.call("act", {"id": "end-1.2", "action": {"do": "end_game"}},
                                       timeout=10)
        assert ack["ok"], ack
        states["1.2"] = consoles["1.2"].state(states["1.2"]["seq"] + 1)

        views = {}
        for size, name in ((CONSOLE, "console"), (PHONE, "phone")):
            page = views[name] = screens.page("hall-" + name, size, mobile=size is PHONE,
                                              storage_state=state)
            page.goto(f"{server.url}/console/halls/{hall_id}")
            words = catalog(page.evaluate("document.documentElement.lang"))
            check_hall_view(page, states, words)
            expect(page.get_by_test_id("hall-tier-1.2")).to_have_text(
                words["colmenahall.result." + states["1.2"]["view"]["result"]["tier"]])
            expect(page.get_by_test_id("hall-wait-1.1")).to_contain_text(
                words["colmenahall.waiting"].split("{")[0].strip())
            expect(page.get_by_test_id("hall-wait-1.3")).to_have_text(words["colmenahall.not_begun"])
            expect(page.get_by_test_id("hall-count-over")).to_have_text("1")
            for key in KEYS:
                assert page.get_by_test_id("hall-console-" + key).get_attribute("href") == \
                    f"/console/{games[key]['game_id']}"
            g = geometry(page, ["[data-testid^=hall-table-]", "#screen button", "#screen a"])
            assert g["sw"] <= g["w"], f"the hall view scrolls sideways at {size}"
            for box in g["boxes"]:
                assert box["x"] >= 0 and box["r"] <= g["w"], box
            if size is PHONE:
                small = [b for b in g["boxes"] if b["sel"] != "[data-testid^=hall-table-]"
                         and (b["b"] - b["y"] < 44 or b["r"] - b["x"] < 44)]
                assert small == [], small
            assert axe(page) == []
            screens.shot(page, f"view-{name}-playing")

        # A table opened from the hall view: its own console (its screen of la colmena)
        # draws the board, every hand and the score so far as its state has them.
        opened = screens.page("hall-table-console", CONSOLE, storage_state=state)
        opened.goto(f"{server.url}/console/halls/{hall_id}")
        opened.get_by_test_id("hall-console-1.1").click()
        opened.wait_for_url(re.compile(r"/console/\d+$"))
        table_view = states["1.1"]["view"]
        expect(opened.get_by_test_id("colmena-board").locator(".cc-card")).to_have_count(
            len(table_view["board"]))
        for seat, hand in table_view["hands"].items():
            expect(opened.get_by_test_id(f"colmena-gm-hand-{seat}").locator(".cc-face")).to_have_count(
                len(hand))
        expect(opened.get_by_test_id("colmena-total")).to_have_text(
            str(table_view["score"]["total"]).replace("-", "\u2212"))
        expect(opened.get_by_test_id("colmena-undo")).to_be_visible()
        assert axe(opened) == []
        screens.shot(opened, "table-console-from-the-hall", full_page=False)
        opened.close()

        # The projector: each table's points so far; table 2's result in words.
        rooms = {}
        for size in PROJECTORS:
            room = rooms[size["width"]] = screens.page(f"room-{size['width']}", size)
            room.goto(f"{server.url}/halls/{watch}")
            for key in KEYS:
                view = states[key]["view"]
                expect(room.get_by_test_id("room-score-" + key)).to_have_text(
                    str(view["score"]["total"]).replace("-", "\u2212") if view["board"] else "—")
            message = states["1.2"]["view"]["result"]["message"]["es-ES"]     # the manual's
            expect(room.get_by_test_id("room-tier-1.2")).to_have_text(message)
            expect(room.get_by_test_id("room-state-1.1")).to_contain_text(
                str(states["1.1"]["view"]["deck"]))
            assert_fits(room, ["[data-testid^=room-table-]", ".ch-num", ".ch-said", ".ch-state"],
                        apart=["[data-testid^=room-table-]"])
            # Read from the back row: the score at least a tenth of the screen's height.
            assert font(room, ".ch-num") >= size["height"] / 10
            assert font(room, ".ch-tile h2") >= size["height"] / 30
            assert axe(room) == []
            screens.shot(room, f"projector-{size['width']}-playing", full_page=False)

        # The bell, asked first: the question can be taken back, then answered.
        page = views["console"]
        page.get_by_test_id("hall-bell").click()
        expect(page.get_by_test_id("hall-bell-confirm")).to_contain_text("2")   # two still on
        assert axe(page) == []
        screens.shot(page, "view-console-bell-asked", full_page=False)
        page.get_by_test_id("hall-bell-no").click()
        expect(page.get_by_test_id("hall-bell")).to_be_focused()
        assert not consoles["1.1"].state()["view"]["over"]
        page.get_by_test_id("hall-bell").click()
        page.get_by_test_id("hall-bell-yes").click()
        expect(page.get_by_test_id("hall-all-over")).to_be_visible()
        expect(page.get_by_test_id("hall-bell-done")).to_contain_text("2")
        expect(views["phone"].get_by_test_id("hall-all-over")).to_be_visible()   # live
        finals = {key: consoles[key].state(states[key]["seq"] + (key != "1.2"))
                  for key in KEYS}
        assert all(s["view"]["over"] for s in finals.values())
        words = catalog(page.evaluate("document.documentElement.lang"))
        for key, final in finals.items():
            # Table 1.3 never laid its first task: rung off unplayed, no tier (C-A6, C-A7).
            expect(page.get_by_test_id("hall-tier-" + key)).to_have_text(
                words["colmenahall.unplayed"] if not final["view"]["board"]
                else words["colmenahall.result." + final["view"]["result"]["tier"]])
        screens.shot(page, "view-console-over")
        phone_links = geometry(views["phone"], ["#screen button", "#screen a"])
        assert [b for b in phone_links["boxes"] if b["b"] - b["y"] < 44] == []
        screens.shot(views["phone"], "view-phone-over")
        for width, room in rooms.items():
            for key, final in finals.items():
                expect(room.get_by_test_id("room-tier-" + key)).to_have_text(
                    words["colmenahall.room.unplayed"] if not final["view"]["board"]
                    else final["view"]["result"]["message"]["es-ES"])
            assert_fits(room, ["[data-testid^=room-table-]", ".ch-num", ".ch-said"],
                        apart=["[data-testid^=room-table-]"])
            overflow = room.evaluate("""() => [...document.querySelectorAll('.ch-tile-in')]
                .filter((el) => el.scrollHeight > el.clientHeight + 1).length""")
            assert overflow == 0, "a tile's text is cut off"
            assert axe(room) == []
            screens.shot(room, f"projector-{width}-over", full_page=False)
        # In neutral Spanish the room is spoken to with ustedes; in English, in English.
        room = rooms[1280]
        for lang in ("es", "en"):
            room.goto(f"{server.url}/halls/{watch}?lang={lang}")
            expect(room.get_by_test_id("room-tier-1.1")).to_have_text(
                finals["1.1"]["view"]["result"]["message"][lang])
        screens.shot(room, "projector-1280-over-en", full_page=False)
        # The results: each table's tier, the completed tasks by table.
        page.get_by_test_id("hall-results").click()
        page.wait_for_url(re.compile(r"/results$"))
        expect(page.get_by_test_id("hall-debrief")).to_have_count(3)
        expect(page.get_by_test_id("hall-results-games")).to_contain_text(
            words["colmenahall.result." + finals["1.1"]["view"]["result"]["tier"]])
        assert axe(page) == []
        screens.shot(page, "results")
    finally:
        for console in consoles.values():
            console.sio.disconnect()


def test_a_hall_of_sixty_fits_the_projector_table_by_table(hall_server, screens):
    """Sixty students sit at fifteen tables (C-A2): every tile on the projector, its
    number and score readable, nothing cut off; the ended tables keep their headline."""
    from playwright.sync_api import expect
    server = hall_server
    http = server.gm_session()
    names = [f"Estudiante {n}" for n in range(1, 61)]
    made = http.post(server.url + "/console/halls",
                     json={"kind": "colmena", "players": "\n".join(names), "seed": 2},
                     timeout=10).json()
    assert made["ok"], made
    page = http.get(f"{server.url}/console/halls/{made['hall_id']}", timeout=10).text
    watch = page.split("/halls/")[1].split('"')[0]
    games = http.get(f"{server.url}/console/halls/{made['hall_id']}.json", timeout=10).json()["games"]
    assert len(games) == 15
    ended = Console(server, http, games[0]["game_id"])
    try:
        assert ended.sio.call("act", {"id": "end", "action": {"do": "end_game"}}, timeout=10)["ok"]
    finally:
        ended.sio.disconnect()
    for size in PROJECTORS:
        room = screens.page(f"room-sixty-{size['width']}", size)
        room.goto(f"{server.url}/halls/{watch}")
        expect(room.locator("[data-testid^=room-table-]")).to_have_count(15)
        expect(room.get_by_test_id("room-tier-1.1")).to_be_visible()
        assert_fits(room, ["[data-testid^=room-table-]", ".ch-num", ".ch-said .ch-head", ".ch-state"],
                    apart=["[data-testid^=room-table-]"])
        overflow = room.evaluate("""() => [...document.querySelectorAll('.ch-tile-in')]
            .filter((el) => el.scrollHeight > el.clientHeight + 1).length""")
        assert overflow == 0, "a tile's text is cut off"
        assert font(room, ".ch-num") >= size["height"] / 20
        assert font(room, ".ch-tile h2") >= size["height"] / 48
        assert axe(room) == []
        screens.shot(room, f"projector-{size['width']}-sixty", full_page=False)
