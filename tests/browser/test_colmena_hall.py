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


def check_room(room, states: dict, size: dict) -> None:
    """The hall's projector says what each table's state is: a tile with its points and
    its board (every card of it) for a table that plays, the others named in one line;
    nothing scrolls or is cut, the tiles fill the screen, table names and points are read
    from the back row (28 px at 720 lines), on la partida's projector's dark ground."""
    from playwright.sync_api import expect
    words = catalog("es-ES")
    playing = [key for key, state in states.items() if state["view"]["board"]]
    others = [key for key in states if key not in playing]
    expect(room.locator("[data-testid^=room-table-]")).to_have_count(len(playing))
    for key in playing:
        view = states[key]["view"]
        expect(room.get_by_test_id("room-score-" + key)).to_have_text(
            str(view["score"]["total"]).replace("-", "\u2212"))
        expect(room.get_by_test_id("room-board-" + key).locator("li")).to_have_count(len(view["board"]))
    for key in others:
        name = words["colmenahall.room.table"].format(n=key.split(".")[1])
        expect(room.get_by_test_id("room-others")).to_contain_text(name)
    g = assert_fits(room, ["[data-testid^=room-table-]", ".ch-num", ".ch-tile h2", ".ch-state", ".ch-said",
                           "[data-testid=room-others]"], apart=["[data-testid^=room-table-]"])
    assert room.evaluate("() => document.scrollingElement.scrollHeight <= innerHeight")
    overflow = room.evaluate("""() => [...document.querySelectorAll('.ch-tile-in')]
        .filter((el) => el.scrollHeight > el.clientHeight + 1).length""")
    assert overflow == 0, "a tile's text is cut off"
    least = 28 * size["height"] / 720
    assert font(room, ".ch-tile h2") >= least and font(room, ".ch-num") >= least
    # The tiles fill the screen: no third of it left empty below or beside them.
    tiles = [b for b in g["boxes"] if b["sel"] == "[data-testid^=room-table-]"]
    assert max(b["b"] for b in tiles) >= g["h"] * 0.8, tiles
    assert max(b["r"] for b in tiles) - min(b["x"] for b in tiles) >= g["w"] * 0.85, tiles
    # Each board drawn small fills its part of the tile and stays inside it.
    boards = room.evaluate("""() => [...document.querySelectorAll('[data-testid^=room-board-]')].map((el) => {
      const b = el.getBoundingClientRect(); const t = el.closest('.ch-tile').getBoundingClientRect();
      const cells = [...el.querySelectorAll('li')].map((c) => c.getBoundingClientRect());
      return { inside: cells.every((c) => c.left >= b.left - 1 && c.right <= b.right + 1 && c.top >= b.top - 1 && c.bottom <= b.bottom + 1),
               share: b.height / t.height };
    })""")
    assert all(b["inside"] and b["share"] >= 0.35 for b in boards), boards
    assert room.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(13, 17, 23)"


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
        # The console's header, with the way back to the hall (issue 47).
        back = opened.get_by_test_id("hall-link")
        expect(back).to_have_attribute("href", f"/console/halls/{hall_id}")
        expect(back).to_contain_text("Jueves 2.º B")
        expect(opened.get_by_test_id("games-link")).to_be_visible()
        assert axe(opened) == []
        screens.shot(opened, "table-console-from-the-hall", full_page=False)
        # On the teacher's phone: no card's name cut, no sideways scroll.
        opened.set_viewport_size(PHONE)
        expect(back).to_be_visible()
        cut = opened.evaluate("""() => [...document.querySelectorAll('.cc-gm-hands .cc-name, .cc-gm-hands .cc-icon-name, .cc-gm-hands .cc-times')]
          .filter((el) => el.scrollWidth > el.clientWidth + 0.5 || el.scrollHeight > el.clientHeight + 0.5)
          .map((el) => el.textContent)""")
        assert cut == [], cut
        assert opened.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
        assert axe(opened) == []
        screens.shot(opened, "table-console-phone-390x844", full_page=False)
        opened.get_by_test_id(f"colmena-gm-hand-1").scroll_into_view_if_needed()
        screens.shot(opened, "table-console-phone-390x844-hands", full_page=False)
        back.click()
        opened.wait_for_url(re.compile(rf"/console/halls/{hall_id}$"))
        opened.close()

        # The projector: a tile for each table that plays, with its points and its board
        # drawn small, live; the table not begun named under them (issue 47).
        rooms = {}
        for size in PROJECTORS:
            room = rooms[size["width"]] = screens.page(f"room-{size['width']}", size)
            room.goto(f"{server.url}/halls/{watch}")
            check_room(room, states, size)
            expect(room.get_by_test_id("room-state-1.1")).to_contain_text(
                str(states["1.1"]["view"]["deck"]))
            if states["1.2"]["view"]["board"]:
                message = states["1.2"]["view"]["result"]["message"]["es-ES"]
                expect(room.get_by_test_id("room-tier-1.2")).to_contain_text(message.split("!")[0] + "!")
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
        for size in PROJECTORS:
            room = rooms[size["width"]]
            check_room(room, finals, size)
            for key, final in finals.items():
                if final["view"]["board"]:
                    head = final["view"]["result"]["message"]["es-ES"].split("!")[0] + "!"
                    expect(room.get_by_test_id("room-tier-" + key)).to_contain_text(head)
            expect(room.get_by_test_id("room-heading")).to_have_text(words["colmenahall.room.all_over"])
            assert axe(room) == []
            screens.shot(room, f"projector-{size['width']}-over", full_page=False)
        # In neutral Spanish the room is spoken to with ustedes; in English, in English.
        room = rooms[1280]
        for lang in ("es", "en"):
            room.goto(f"{server.url}/halls/{watch}?lang={lang}")
            expect(room.get_by_test_id("room-tier-1.1")).to_contain_text(
                finals["1.1"]["view"]["result"]["message"][lang].split("!")[0] + "!")
        screens.shot(room, "projector-1280-over-en", full_page=False)
        # The results: each table's tier, the completed tasks by table.
        page.get_by_test_id("hall-results").click()
        page.wait_for_url(re.compile(r"/results$"))
        expect(page.get_by_test_id("hall-debrief")).to_have_count(3)
        # Ranked by table (the game is cooperative): each table with its students, its
        # points or «Sin jugar», its talking penalties; the debrief says them too.
        expect(page.get_by_test_id("hall-standings").locator("tbody tr")).to_have_count(3)
        for key, final in finals.items():
            row = page.get_by_test_id("hall-group-" + key.split(".")[1])
            for player in final["view"]["players"]:
                expect(row).to_contain_text(player["name"])
            expect(row).to_contain_text(
                str(final["view"]["score"]["total"]).replace("-", "\u2212")
                if final["view"]["board"] else "Sin jugar")
            penalties = page.get_by_test_id("hall-group-" + key.split(".")[1] + "-penalties")
            expect(penalties).to_have_text(re.compile(r"^\d+$"))
        expect(page.get_by_test_id("hall-debrief-note").first).to_contain_text(
            "Penalizaciones por hablar")
        expect(page.get_by_test_id("hall-results-games")).to_contain_text(
            words["colmenahall.result." + finals["1.1"]["view"]["result"]["tier"]])
        assert axe(page) == []
        screens.shot(page, "results")
    finally:
        for console in consoles.values():
            console.sio.disconnect()


def posted_hall(server: Server, http, names: list[str], seed: int) -> tuple[str, list[dict]]:
    """A hall of la colmena made for ``names`` as the console's JSON makes it: its
    projector's watch code and its games."""
    made = http.post(server.url + "/console/halls",
                     json={"kind": "colmena", "players": "\n".join(names), "seed": seed},
                     timeout=10).json()
    assert made["ok"], made
    page = http.get(f"{server.url}/console/halls/{made['hall_id']}", timeout=10).text
    watch = page.split("/halls/")[1].split('"')[0]
    games = http.get(f"{server.url}/console/halls/{made['hall_id']}.json", timeout=10).json()["games"]
    return watch, games


def test_a_hall_of_sixty_fits_the_projector_table_by_table(hall_server, screens):
    """Sixty students sit at fifteen tables (C-A2): every tile on the projector, its
    number and score readable, nothing cut off; the ended tables keep their headline."""
    from playwright.sync_api import expect
    server = hall_server
    http = server.gm_session()
    names = [f"Estudiante {n}" for n in range(1, 61)]
    watch, games = posted_hall(server, http, names, seed=2)
    assert len(games) == 15
    ended = Console(server, http, games[0]["game_id"])
    try:
        assert ended.sio.call("act", {"id": "end", "action": {"do": "end_game"}}, timeout=10)["ok"]
    finally:
        ended.sio.disconnect()
    rooms = {}
    for size in PROJECTORS:
        # Before any table plays: who sits at each of the fifteen tables.
        room = rooms[size["width"]] = screens.page(f"room-sixty-{size['width']}", size)
        room.goto(f"{server.url}/halls/{watch}")
        expect(room.locator("[data-testid^=room-table-]")).to_have_count(15)
        expect(room.get_by_test_id("room-tier-1.1")).to_be_visible()
        assert_fits(room, ["[data-testid^=room-table-]", ".ch-tile h2", ".ch-said .ch-head", ".ch-state"],
                    apart=["[data-testid^=room-table-]"])
        overflow = room.evaluate("""() => [...document.querySelectorAll('.ch-tile-in')]
            .filter((el) => el.scrollHeight > el.clientHeight + 1).length""")
        assert overflow == 0, "a tile's text is cut off"
        assert font(room, ".ch-tile h2") >= 28 * size["height"] / 720
        # Four names a table, each on one line, at 28 px at 720 lines: a fifth of the
        # width holds «Estudiante 58» (docs/screens.md).
        assert font(room, ".ch-seated") >= 28 * size["height"] / 720 - 0.1
        assert room.evaluate("""() => [...document.querySelectorAll('.ch-seated li')]
            .every((li) => li.getClientRects().length === 1
                           && li.getBoundingClientRect().height < 1.5 * parseFloat(getComputedStyle(li).fontSize))""")
        assert font(room, ".ch-tile.unplayed .ch-head") >= 28 * size["height"] / 720
        assert axe(room) == []
        screens.shot(room, f"projector-{size['width']}-sixty", full_page=False)
    # Twelve tables play: twelve boards, small; the table rung off and the two not begun
    # named in one line under them.
    states = {"1.1": None}
    rng = random.Random(8)
    for game in games[1:13]:
        console = Console(server, http, game["game_id"])
        try:
            states[game["key"]] = console.play(4, rng)
        finally:
            console.sio.disconnect()
    finals = {key: state for key, state in states.items() if state}
    finals.update({g["key"]: {"view": {"board": []}} for g in games if g["key"] not in finals})
    for size in PROJECTORS:
        room = rooms[size["width"]]
        check_room(room, finals, size)
        assert axe(room) == []
        screens.shot(room, f"projector-{size['width']}-sixty-playing", full_page=False)


def test_before_any_table_plays_the_projector_shows_who_sits_where(hall_server, screens):
    """Nine students, three tables, none begun: the projector shows each table with the
    names of who sits at it, one a line, read from the back row (28 px at 720 lines), and
    no score (no «−12» of an empty board); nothing scrolls or is cut."""
    from playwright.sync_api import expect
    server = hall_server
    http = server.gm_session()
    watch, _games = posted_hall(server, http, NINE, seed=3)
    words = catalog("es-ES")
    for size in PROJECTORS:
        room = screens.page(f"room-seating-{size['width']}", size)
        room.goto(f"{server.url}/halls/{watch}")
        expect(room.locator("[data-testid^=room-table-]")).to_have_count(3)
        expect(room.get_by_test_id("room-heading")).to_have_text(words["colmenahall.room.seating"])
        seated = [name for key in KEYS for name in
                  room.get_by_test_id("room-seated-" + key).locator("li").all_inner_texts()]
        assert sorted(seated) == sorted(NINE)
        expect(room.locator(".ch-num")).to_have_count(0)                # no score before play
        assert_fits(room, ["[data-testid^=room-table-]", ".ch-tile h2", ".ch-seated li", ".ch-state"],
                    apart=["[data-testid^=room-table-]"])
        least = 28 * size["height"] / 720
        assert font(room, ".ch-tile h2") >= least and font(room, ".ch-seated") >= least
        assert room.evaluate("() => document.scrollingElement.scrollHeight <= innerHeight")
        assert axe(room) == []
        screens.shot(room, f"projector-{size['width']}-seating", full_page=False)
