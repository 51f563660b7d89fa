"""The pages of the lecture's front door (issue 45) at every size they are seen at.

Students' pages on a phone (390×844) and a tablet (800×1280): the door's list of names
(11 and 40 names, one taken, the two errors, the filter and a search matching nobody,
the same phone's way back to the name it holds), the page that waits for the
teacher (and its refusal), the bye, a Hive board's and a colmena table's chooser. The
teacher's console (1366×768 and a phone, 390×844): the seating panel of a Hive board and
of a colmena table (holders online and offline, a request, a table screen with «Quitar»)
and the hall view's requests and door code. The hall's projector (1920×1080, 1280×720):
the door strip of a colmena hall and of a Hive hall.

Each state at each size: a screenshot in /tmp/shots45/<state>-<w>x<h>.png (to be looked
at), nothing wider than the screen, no text cut off by its box or its screen, no word
broken across lines (an address may wrap), 44 px targets on phones, the class's code large
on the hall view and the projector (7 % of the screen's height there, its QR code an
eighth), the projector without a scroll bar, and axe-core finds nothing. Every state is
photographed and measured before a test fails with all it found.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import requests

from server import Server
from .layout import axe
from .test_colmena_hall import hall_server  # noqa: F401  (the module's server, as there)

pytestmark = pytest.mark.slow

SHOTS = Path("/tmp/shots45")
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 800, "height": 1280}
CONSOLE = {"width": 1366, "height": 768}
PROJECTORS = ({"width": 1920, "height": 1080}, {"width": 1280, "height": 720})
STUDENT_SIZES = (PHONE, TABLET)
CONSOLE_SIZES = (CONSOLE, PHONE)

ELEVEN = ["Ana Díaz", "Bruno Castillo", "Camila Rodríguez", "Diego Fernández", "Elena Martín",
          "Facundo Pérez", "Gabriela Sánchez", "Hernán López", "Isabel Gómez",
          "Juan Pablo Hernández Villalobos", "Lucía Torres"]
FIRST = ["Agustina", "Benjamín", "Catalina", "Dante", "Emilia", "Felipe", "Guadalupe", "Ignacio",
         "Josefina", "Kevin", "Luciana", "Mateo", "Nicolás", "Olivia", "Pilar", "Quimey",
         "Renata", "Santiago", "Tomás", "Valentina"]
LAST = ["Acosta", "Benítez", "Córdoba", "Domínguez", "Echeverría Salazar", "Flores", "Giménez",
        "Herrera", "Ibáñez", "Juárez"]
FORTY = [f"{FIRST[i % 20]} {LAST[(i * 7 + i // 20) % 10]}" for i in range(40)]
FORTY[5] = "María Fernanda Gutiérrez de la Fuente"


class Hall:
    """A hall made through the console's JSON, its games and its door, as the teacher's
    HTTP session reads them."""

    def __init__(self, server: Server, http, kind: str, names: list[str], name: str):
        self.server, self.http, self.kind, self.names = server, http, kind, names
        made = http.post(server.url + "/console/halls", timeout=10, json={
            "kind": kind, "name": name, "players": "\n".join(names), "settings": {}, "seed": 7}).json()
        assert made["ok"], made
        self.id = made["hall_id"]
        self.refresh()

    def refresh(self) -> dict:
        data = self.http.get(f"{self.server.url}/console/halls/{self.id}.json", timeout=10).json()
        self.row, self.games, self.standings = data["hall"], data["games"], data["standings"]
        return data

    @property
    def door(self) -> str:
        return self.row["door_code"]

    def game(self, key: str) -> dict:
        return next(g for g in self.refresh()["games"] if g["key"] == key)

    def at_first_table(self) -> list[int]:
        """The players of game 1.1 (Hive: White then Black; la colmena: table 1)."""
        if self.kind == "hive":
            white, black = self.games[0]["name"].split(" ", 1)[1].split(" – ")
            return [self.names.index(white), self.names.index(black)]
        # A table not played yet is in no standings (C-A7): its seats, from the game.
        game = self.http.get(f"{self.server.url}/api/v1/games/{self.games[0]['game_id']}",
                             timeout=10).json()["game"]
        return [self.names.index(seat["name"]) for seat in game["teams"]]

    def resting(self) -> int:
        return next(s["player"] for s in self.standings if s.get("byes"))


def logged_in(http) -> dict:
    """The console's session as a browser context's storage state."""
    return {"cookies": [{"name": k, "value": v, "domain": "127.0.0.1", "path": "/", "expires": -1,
                         "httpOnly": True, "secure": False, "sameSite": "Lax"}
                        for k, v in http.cookies.items()], "origins": []}


PROBLEMS: list = []       # (state, size, what is wrong) of the running test


def check(ok: bool, state: str, size: dict, what) -> None:
    """Keep ``what`` in ``PROBLEMS`` unless ``ok``."""
    if not ok:
        PROBLEMS.append((state, f"{size['width']}x{size['height']}", what))


PHONES: list[requests.Session] = []   # the devices without a browser of the running test


@pytest.fixture
def problems():
    """What ``look`` found wrong in this test, asserted empty at its end (and the phones
    without a browser closed)."""
    PROBLEMS.clear()
    yield PROBLEMS
    while PHONES:
        PHONES.pop().close()
    assert PROBLEMS == [], "\n".join(map(str, PROBLEMS))


def http_phone() -> requests.Session:
    """A device without a browser (never connected: «sin conexión»), closed after the test."""
    PHONES.append(requests.Session())
    return PHONES[-1]


def phone_holds(server: Server, hall: Hall, player: int) -> requests.Session:
    """Another phone opens the door, taps ``player``'s name and reaches the seat, which it
    then holds."""
    other = http_phone()
    assert other.get(f"{server.url}/h/{hall.door}", timeout=10).ok
    seat = other.post(f"{server.url}/door", data={"player": str(player)}, timeout=10)
    assert seat.status_code == 200, seat.status_code
    return other


def measure(page, phone: bool) -> dict:
    """What is wrong with the page's geometry: sideways scroll, boxes past the screen's
    edges, text cut off by its box (or spilling out of it), words broken across lines,
    and (``phone``) targets under 44 px."""
    return page.evaluate("""(phone) => {
      const W = innerWidth, d = document.documentElement;
      const vis = (el) => { const r = el.getBoundingClientRect(); const cs = getComputedStyle(el);
        return r.width > 0 && r.height > 0 && cs.visibility !== 'hidden'; };
      const name = (el) => (el.getAttribute('data-testid') || el.tagName.toLowerCase()
        + (typeof el.className === 'string' && el.className ? '.' + el.className.split(' ').join('.') : ''))
        + ' «' + (el.innerText || el.value || '').trim().slice(0, 40) + '»';
      const out = [], cut = [], small = [], broken = [];
      // What is there for screen readers only (.sr-only, a table's header on a phone).
      const skip = (el) => el.closest('.sr-only, script, style, [hidden], svg, #offline, #notice')
        || (() => { const r = el.getBoundingClientRect(); return r.width <= 1 || r.height <= 1; })();
      // Words cut on purpose, the whole of them in the tooltip (a card's name clamped to its lines).
      const clamped = (el) => el.title && el.title.trim() === (el.textContent || '').trim();
      for (const el of document.body.querySelectorAll('*')) {
        if (skip(el) || !vis(el)) continue;
        const r = el.getBoundingClientRect();
        if (r.left < -0.5 || r.right > W + 0.5) out.push([name(el), Math.round(r.left), Math.round(r.right)]);
        // Text cut off: a box that hides what overflows it (and holds text) is too small
        // for it; a box that lets it show has no text sticking out sideways.
        const cs = getComputedStyle(el);
        const hides = cs.overflowX !== 'visible' || cs.overflowY !== 'visible';
        const wider = el.scrollWidth > el.clientWidth + 1, taller = el.scrollHeight > el.clientHeight + 1;
        const own = Array.from(el.childNodes).some((n) => n.nodeType === 3 && n.data.trim());
        const shows = (el.innerText || '').trim();
        if (cs.display !== 'inline' && !clamped(el)
            && ((hides && (wider || taller) && shows) || (!hides && own && wider)))
          cut.push([name(el), el.scrollWidth, el.clientWidth, el.scrollHeight, el.clientHeight]);
      }
      const targets = 'button, a.button, input, select, textarea, [role=button], summary';
      if (phone) for (const el of document.querySelectorAll(targets)) {
        if (skip(el) || !vis(el)) continue;
        const r = el.getBoundingClientRect();
        // A box or radio button is reached through its label.
        const label = el.closest('label') || (el.id && document.querySelector(`label[for="${el.id}"]`));
        const target = ['checkbox', 'radio'].includes(el.type) && label ? label.getBoundingClientRect() : r;
        if (target.height < 44 - 0.5) small.push([name(el), Math.round(target.width), Math.round(target.height)]);
      }
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      while (walker.nextNode()) {
        const node = walker.currentNode, el = node.parentElement;
        if (!el || skip(el) || !vis(el)) continue;
        const re = /\\S+/g; let m;
        while ((m = re.exec(node.data))) {
          const range = document.createRange();
          range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
          const tops = new Set(Array.from(range.getClientRects()).filter((q) => q.width > 0)
            .map((q) => Math.round(q.top)));
          if (tops.size > 1 && !/^https?:/.test(m[0])) broken.push(m[0]);      // an address may wrap
        }
      }
      return { sideways: d.scrollWidth > W ? [d.scrollWidth, W] : null, out, cut, small, broken };
    }""", phone)


def look(page, state: str, size: dict, phone: bool, full_page: bool = True) -> None:
    """``page`` at ``size``: its screenshot saved, its geometry and axe-core's verdict
    (what is wrong is kept in ``PROBLEMS``: every state is photographed before a test
    fails)."""
    page.set_viewport_size(size)
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{state}-{size['width']}x{size['height']}.png"),
                    full_page=full_page, animations="disabled")
    found = measure(page, phone)
    wrong = {k: v for k, v in found.items() if v}
    violations = axe(page)
    if violations:
        wrong["axe"] = violations
    if wrong:
        PROBLEMS.append((state, f"{size['width']}x{size['height']}", wrong))


def student(screens, name: str):
    """A student's phone, in the default Spanish (Latin American)."""
    return screens.page(name, PHONE, mobile=True, locale="es-419")


def at_the_door(page, server: Server, hall: Hall):
    """``page`` opens the hall's code: the list of names."""
    page.goto(f"{server.url}/h/{hall.door}")
    page.wait_for_url(re.compile(r"/door$"))
    return page


def look_student(page, state: str) -> None:
    """A student's page on the phone and on the tablet."""
    for size in STUDENT_SIZES:
        look(page, state, size, phone=size is PHONE)


def test_the_door_the_wait_the_bye_and_the_chooser(hall_server, screens, problems):
    """(a) the door's list, (b) the wait and the refusal, (c) the bye, (g) the choosers."""
    from playwright.sync_api import expect
    server = hall_server
    http = server.gm_session()
    hive = Hall(server, http, "hive", ELEVEN, "Filosofía 4.º B · torneo de Hive")
    colmena = Hall(server, http, "colmena", FORTY, "Ética 1.º A · la colmena")
    white, black = hive.at_first_table()

    # (a) Eleven names, none taken yet.
    door = student(screens, "door")
    at_the_door(door, server, hive)
    expect(door.locator("#door-people li")).to_have_count(11)
    look_student(door, "door-11")
    # White's name is taken by another phone: the list says so below it.
    other = phone_holds(server, hive, white)
    door.reload()
    expect(door.get_by_test_id(f"door-player-{white}").locator(".taken")).to_be_visible()
    look_student(door, "door-11-taken")
    # A name the list no longer has (an old page): the error above the list.
    door.set_viewport_size(PHONE)
    door.get_by_test_id(f"door-player-{black}").evaluate("(b) => { b.value = '97'; }")
    door.get_by_test_id(f"door-player-{black}").click()
    expect(door.get_by_test_id("door-error")).to_be_visible()
    look_student(door, "door-unknown")

    # Forty names, one taken; then narrowed by the filter.
    big = student(screens, "door40")
    at_the_door(big, server, colmena)
    phone_holds(server, colmena, 5)
    big.reload()
    expect(big.locator("#door-people li")).to_have_count(40)
    look_student(big, "door-40-taken")
    big.get_by_test_id("door-filter").fill("mar")      # accents aside: «María»
    expect(big.locator("#door-people li:visible")).to_have_count(1)
    look_student(big, "door-40-filter")
    big.get_by_test_id("door-filter").fill("zzz")
    expect(big.get_by_test_id("door-none")).to_be_visible()
    look_student(big, "door-40-none")

    # (c) The bye, and (a) the same phone's second tab tapping another name: elsewhere.
    rest = student(screens, "bye")
    at_the_door(rest, server, hive)
    second_tab = rest.context.new_page()
    second_tab.goto(f"{server.url}/door")
    rest.get_by_test_id(f"door-player-{hive.resting()}").click()
    rest.wait_for_url(re.compile(r"/seat$"))
    expect(rest.get_by_test_id("bye-title")).to_be_visible()
    look_student(rest, "bye")
    second_tab.set_viewport_size(PHONE)
    second_tab.get_by_test_id(f"door-player-{black}").click()
    expect(second_tab.get_by_test_id("door-error")).to_contain_text(ELEVEN[hive.resting()])
    expect(second_tab.get_by_test_id("door-go-on")).to_contain_text(ELEVEN[hive.resting()])
    look_student(second_tab, "door-elsewhere")
    second_tab.close()

    # (b) The door's phone taps White's name, which the other phone holds: it waits.
    door.goto(f"{server.url}/door")
    door.get_by_test_id(f"door-player-{white}").click()
    door.wait_for_url(re.compile(r"/seat$"))
    expect(door.get_by_test_id("waiting-text")).to_be_visible()
    look_student(door, "waiting")
    board = hive.game("1.1")
    asked = board["asks"]["1"]["device"]
    refused = http.post(f"{server.url}/console/{board['game_id']}/seats/1/answer",
                        json={"device": asked, "accept": False}, timeout=10).json()
    assert refused["ok"], refused
    expect(door.get_by_test_id("waiting-refused")).to_be_visible()    # the page asks by itself
    look_student(door, "refused")
    assert other.get(f"{server.url}/seat/where", timeout=10).json()["state"] == "ok"

    # (g) The choosers of a Hive board (White's seat taken) and of a colmena table.
    for hall, state in ((hive, "choose-hive"), (colmena, "choose-colmena")):
        chooser = student(screens, state)
        chooser.goto(f"{server.url}/j/{hall.games[0]['table_code']}")
        chooser.wait_for_url(re.compile(r"/team$"))
        expect(chooser.get_by_test_id("choose-form")).to_be_visible()
        look_student(chooser, state)
    expect(screens.pages["choose-hive"].get_by_test_id("choose-seat-1")).to_contain_text(
        "otro dispositivo")


def test_the_teacher_s_seating_panel_and_hall_view(hall_server, screens, problems):
    """(d) the seating panel of a Hive board and a colmena table; (e) the hall view's
    door code and requests: holders online and offline, a request, a table's screen."""
    from playwright.sync_api import expect
    server = hall_server
    http = server.gm_session()
    state = logged_in(http)
    halls = (Hall(server, http, "hive", ELEVEN, "Filosofía 4.º B · torneo de Hive"),
             Hall(server, http, "colmena", FORTY[:11], "Ética 1.º A · la colmena"))
    for hall in halls:
        first, second = hall.at_first_table()[:2]
        # The first player's phone plays (connected); the second's phone is off.
        online = student(screens, f"{hall.kind}-online")
        at_the_door(online, server, hall).get_by_test_id(f"door-player-{first}").click()
        online.wait_for_url(re.compile(r"/seat$"))
        expect(online.get_by_test_id("team-name")).to_be_visible()
        phone_holds(server, hall, second)
        # A second phone of the first player asks for the seat; a tablet joins as the
        # table's screen with the screen code.
        phone_holds(server, hall, first)
        tablet = http_phone()
        assert tablet.get(f"{server.url}/j/{hall.games[0]['screen_code']}", timeout=10).ok
        game = hall.game("1.1")
        assert game["asks"] and len(game["claims"]) == 2, game

        names = [hall.names[first], hall.names[second]]
        for size in CONSOLE_SIZES:
            phone = size is PHONE
            page = screens.page(f"{hall.kind}-console-{size['width']}", size, mobile=phone,
                                storage_state=state, locale="es-419")
            page.goto(f"{server.url}/console/{game['game_id']}")
            panel = page.get_by_test_id("seating")
            expect(panel.locator("[data-testid^=seating-ask-]")).to_have_count(1)
            expect(panel.locator("[data-testid^=seating-screen-]")).to_have_count(1)
            expect(panel.locator("[data-testid^=seating-holder-]")).to_have_count(2)
            expect(panel).to_contain_text("conectado")
            expect(panel).to_contain_text("sin conexión")
            expect(panel.locator("[data-testid^=seating-ask-]")).to_contain_text(
                names[0].split(" ")[0])
            panel.scroll_into_view_if_needed()
            look(page, f"seating-{hall.kind}", size, phone=phone, full_page=False)
            panel.screenshot(animations="disabled", path=str(
                SHOTS / f"seating-{hall.kind}-panel-{size['width']}x{size['height']}.png"))

            hall_page = screens.page(f"{hall.kind}-hall-{size['width']}", size, mobile=phone,
                                     storage_state=state, locale="es-419")
            hall_page.goto(f"{server.url}/console/halls/{hall.id}")
            expect(hall_page.get_by_test_id("hall-asks").locator("li")).to_have_count(1)
            code = hall_page.get_by_test_id("hall-door-code")
            expect(code).to_have_text(hall.door[:4] + "-" + hall.door[4:])
            px = code.evaluate("(el) => parseFloat(getComputedStyle(el).fontSize)")
            check(px >= 24, f"hall-{hall.kind}", size, ("the door code's font", px))
            look(hall_page, f"hall-{hall.kind}", size, phone=phone)


def test_the_door_strip_on_the_projector(hall_server, screens, problems):
    """(f) the hall projector's door strip beside the hall's name: the code large enough
    to read from the back row, the QR code beside it, the hall's own screen whole."""
    from playwright.sync_api import expect
    server = hall_server
    http = server.gm_session()
    for hall in (Hall(server, http, "colmena", FORTY, "Ética 1.º A · la colmena"),
                 Hall(server, http, "hive", ELEVEN, "Filosofía 4.º B · torneo de Hive")):
        watch = hall.row["watch_code"]
        for size in PROJECTORS:
            # La colmena's projector in Spain's Spanish, Hive's in the default one.
            room = screens.page(f"room-{hall.kind}-{size['width']}", size,
                                locale="es-ES" if hall.kind == "colmena" else "es-419")
            room.goto(f"{server.url}/halls/{watch}")
            if hall.kind == "colmena":             # the hall's own screen, drawn once it is told
                expect(room.locator("[data-testid^=room-table-]")).to_have_count(len(hall.games))
            else:
                expect(room.get_by_test_id("hall-pairings")).to_be_visible()
            code = room.get_by_test_id("door-code")
            expect(code).to_have_text(hall.door[:4] + "-" + hall.door[4:])
            expect(room.get_by_test_id("door-qr")).to_be_visible()
            look(room, f"projector-{hall.kind}", size, phone=False, full_page=False)
            state = f"projector-{hall.kind}"
            px = code.evaluate("(el) => parseFloat(getComputedStyle(el).fontSize)")
            check(px >= size["height"] / 16, state, size, ("the door code's font", px))
            qr = room.get_by_test_id("door-qr").bounding_box()
            check(qr["height"] >= size["height"] / 8, state, size, ("the QR code", qr))
            scroll = room.evaluate("() => [document.documentElement.scrollHeight, innerHeight]")
            check(scroll[0] <= scroll[1], state, size, ("the projector scrolls", scroll))
