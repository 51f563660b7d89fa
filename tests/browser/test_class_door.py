"""A class through the lecture's front door (issue 45, item 6), in Chromium, as a class
uses it: the teacher makes a Hive tournament of eleven students from a pasted list, the
computer playing the odd one, with the console's form; the hall's projector (1280×720)
shows the door's code and QR code beside the hall's name and who sits where (a pasted
list allows names); each student opens the door's address on a phone (390×844), taps
their own name and lands on their seat: their colour at their board, or the computer
across it. A second phone of one student taps the same name and waits; the teacher sees
«… pide seguir en otro teléfono» beside the seat, refuses (the phone says so), the phone
asks again and the teacher accepts on the board's console: the second phone shows the
seat and the first is cut off. The teacher ends three rounds with the bell and pairs the
next: every student's page goes to its next board by itself (nothing scanned, nothing
reloaded) within seconds.

A hall where the computer plays the odd student has no bye, so the bye's page is seen in
a second, small hall (three students, the odd one resting): it too follows its student
to a board when the round changes.

The door's list, the waiting page (waiting and refused) and the bye's page are measured
(nothing sideways or cut off at 390×844, no word broken) and checked by axe-core;
screenshots go to test-artifacts/class_door-*.png.
"""
from __future__ import annotations

import re
import time

import pytest

from .layout import FITTED, axe, steady

CONSOLE = {"width": 1366, "height": 768}
PROJECTOR = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}
#: The class list as pasted (a long name among them: it must wrap, not overflow).
CLASS = ["Ana Díaz", "Bruno Sáez", "Carla Ruiz", "Diego Ortega", "Elena Muñoz", "Facundo Gil",
         "Gabriela Ibáñez", "Hugo Pons", "Inés Cano", "Julián Vega",
         "María de los Ángeles Santisteban"]
SMALL = ["Lucía Mora", "Mateo Rey", "Nora Paz"]
#: How long a student's page may take to follow the hall (it asks every 4 s).
FOLLOW_MS = 15_000
COLOUR = {1: "Blancas", 2: "Negras"}

pytestmark = pytest.mark.slow


@pytest.fixture
def teacher(make_room, server):
    """The teacher's console (logged in, 1366×768) on the browser tests' server."""
    room = make_room(server)
    room.gm.set_viewport_size(CONSOLE)
    return room


def seating(gm, url: str, hall_id: int, r: int) -> dict[str, dict]:
    """Who sits where in round ``r``, from the hall as the console reads it: each
    student's ``{"key", "game_id", "seat", "opponent"}``, or ``{"bye": True}``."""
    data = gm.context.request.get(f"{url}/console/halls/{hall_id}.json").json()
    names = data["hall"]["players"]
    places: dict[str, dict] = {}
    for game in data["games"]:
        if not game["key"].startswith(f"{r}."):
            continue
        white, black = game["name"].split(" ", 1)[1].split(" – ")
        for seat, me, other in ((1, white, black), (2, black, white)):
            if me in names:
                places[me] = {"key": game["key"], "game_id": game["game_id"], "seat": seat,
                              "opponent": other}
    return {name: places.get(name, {"bye": True}) for name in names}


def page_data(page, good, timeout: int) -> dict | None:
    """The page's data (its ``#page`` script) once ``good(data)`` holds, asked every 200 ms
    for at most ``timeout`` ms (the page may be moving to another address meanwhile);
    None if it never did."""
    from playwright.sync_api import Error
    deadline = time.monotonic() + timeout / 1000
    while True:
        try:
            data = page.evaluate("() => { const el = document.getElementById('page');"
                                 " return el ? JSON.parse(el.textContent) : null; }")
        except Error:               # the page navigated while it was asked
            data = None
        if data is not None and good(data):
            return data
        if time.monotonic() > deadline:
            return None
        page.wait_for_timeout(200)


def assert_on_seat(page, name: str, place: dict, timeout: int = 10_000):
    """The student's page shows their seat: the board's game and their colour in the
    page's data, their name as the page's title, their side marked as this phone's and
    the opponent across (a classmate, or «la computadora», never the engine's «Bot»)."""
    from playwright.sync_api import expect
    wanted = {"role": "team", "game": place["game_id"], "team": place["seat"]}
    assert page_data(page, lambda data: {k: data.get(k) for k in wanted} == wanted, timeout), \
        (name, place, page.url)
    expect(page.get_by_test_id("team-name")).to_have_text(name)
    who = page.get_by_test_id("hive-who")
    expect(who.locator(".me")).to_have_text(f"{COLOUR[place['seat']]} ({name}) · este dispositivo")
    other = COLOUR[3 - place["seat"]]
    opponent = "la computadora" if place["opponent"] == "Bot" else place["opponent"]
    expect(who.locator(".hive-side:not(.me)")).to_have_text(f"{other} ({opponent})")


def fits_a_phone(page, what: str):
    """Nothing sideways at 390 px: no scroll, no box or line of text past the right edge,
    no text cut off inside its box, no word broken across two lines."""
    found = page.evaluate("""() => {
      const w = document.documentElement.clientWidth;
      const shown = (el) => { const r = el.getBoundingClientRect(); const cs = getComputedStyle(el);
        return r.width > 0 && r.height > 0 && cs.visibility !== 'hidden' && !el.closest('.sr-only, [hidden]'); };
      const out = [], cut = [], broken = [];
      for (const el of document.body.querySelectorAll('*')) {
        if (!shown(el)) continue;
        const r = el.getBoundingClientRect();
        if (r.left < -0.5 || r.right > w + 0.5) out.push([el.tagName, el.dataset.testid || el.className, r.left, r.right]);
        const ox = getComputedStyle(el).overflowX;
        if (ox !== 'visible' && el.scrollWidth > el.clientWidth + 1) cut.push([el.tagName, el.dataset.testid || el.className]);
      }
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      while (walker.nextNode()) {
        const node = walker.currentNode;
        if (!node.parentElement || !shown(node.parentElement) || node.parentElement.closest('script, style')) continue;
        const re = /\\S+/g; let m;
        while ((m = re.exec(node.data))) {
          const range = document.createRange();
          range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
          const rects = Array.from(range.getClientRects()).filter((q) => q.width > 0);
          if (rects.some((q) => q.right > w + 0.5)) out.push(['text', m[0]]);
          if (new Set(rects.map((q) => Math.round(q.top))).size > 1) broken.push(m[0]);
        }
      }
      return { sw: document.documentElement.scrollWidth, w: w, iw: innerWidth, out: out, cut: cut, broken: broken };
    }""")
    assert found["sw"] <= found["w"] and found["w"] <= found["iw"], (what, "scrolls sideways", found)
    assert found["out"] == [], (what, "past the right edge", found["out"])
    assert found["cut"] == [], (what, "text cut off", found["cut"])
    assert found["broken"] == [], (what, "words broken", found["broken"])


def clean(page, what: str):
    fits_a_phone(page, what)
    found = axe(page)
    assert found == [], (what, found)


def tap_name(page, name: str):
    """On the door's list, the student finds their name (typing part of it narrows a list
    long enough to have the field) and taps it."""
    from playwright.sync_api import expect
    if page.get_by_test_id("door-filter").count():
        page.get_by_test_id("door-filter").fill(name.split()[0][:3])
    button = page.locator("#door-people li:not([hidden]) button", has_text=name)
    expect(button).to_have_count(1)
    button.click()


def ring_the_bell_and_pair(gm, screens, r: int, total: int, over=None):
    """On the hall view: the bell ends the boards still on, then the next round is paired.
    ``over``: a student's page that says its game is over first, by itself."""
    from playwright.sync_api import expect
    gm.get_by_test_id("hall-bell").click()
    expect(gm.get_by_test_id("hall-said")).to_contain_text("Ronda terminada")
    if over is not None:
        expect(over.get_by_test_id("follow-over")).to_have_text(
            "Su partida terminó. Miren el proyector; si hay otra ronda, esta página los lleva "
            "sola a su próximo lugar.", timeout=FOLLOW_MS)
        # The bell's reason in words (not the data's «bell»), and the note in the page,
        # covering none of it.
        expect(over.get_by_test_id("hive-status")).to_have_text("Tablas — fin de la ronda")
        covered = over.get_by_test_id("follow-over").evaluate("""(note) => {
          const n = note.getBoundingClientRect();
          return Array.from(document.querySelectorAll('h1, #screen p, #screen h2, #screen button'))
            .filter((el) => { const r = el.getBoundingClientRect();
              return r.width > 0 && Math.min(r.right, n.right) - Math.max(r.left, n.left) > 1
                && Math.min(r.bottom, n.bottom) - Math.max(r.top, n.top) > 1; })
            .map((el) => el.textContent.slice(0, 30)); }""")
        assert covered == [], covered
        screens.shot(over, "board-over")
    expect(gm.get_by_test_id("hall-next-round")).to_be_enabled()
    gm.get_by_test_id("hall-next-round").click()
    expect(gm.get_by_test_id("hall-round")).to_contain_text(f"Ronda {r + 1} de {total}")
    return time.monotonic()


def test_a_class_of_eleven_comes_in_by_the_door_and_follows_three_rounds(teacher, screens):
    from playwright.sync_api import expect
    room, gm, url = teacher, teacher.gm, teacher.server.url

    # The teacher makes the tournament with the console's form: the list pasted, the
    # computer playing the odd student.
    gm.goto(f"{url}/console/halls/new?lang=es&kind=hive")
    expect(gm.get_by_test_id("hall-kind-hive")).to_be_checked()
    gm.get_by_test_id("hall-name-input").fill("Filosofía 1.º B · Hive")
    gm.get_by_test_id("hall-players").fill("\n".join(CLASS) + "\n")
    gm.get_by_test_id("hall-setting-odd").select_option("bot")
    gm.get_by_test_id("hall-create").click()
    gm.wait_for_url(re.compile(r"/console/halls/\d+$"))
    hall_id = int(gm.url.rsplit("/", 1)[1])
    expect(gm.get_by_test_id("hall-round")).to_contain_text("Ronda 1 de 5")
    code = gm.get_by_test_id("hall-door-code").inner_text().strip()
    assert re.fullmatch(r"[A-Z0-9]{4}-[A-Z0-9]{4}", code), code
    plain = code.replace("-", "")
    places = seating(gm, url, hall_id, 1)
    assert not any(p.get("bye") for p in places.values()), places      # the computer plays the odd one
    bot_boards = [p for p in places.values() if p["opponent"] == "Bot"]
    assert len(bot_boards) == 1, places

    # The projector: the door's code and QR code in the strip beside the hall's name, and
    # who sits where, named (a pasted list allows names).
    projector = screens.page("projector", PROJECTOR, locale="es")
    projector.goto(gm.get_by_test_id("hall-projector-link").get_attribute("href"))
    head = projector.locator(".screen-head")
    expect(head.get_by_test_id("team-name")).to_have_text("Filosofía 1.º B · Hive")
    expect(head.get_by_test_id("door-code")).to_have_text(code)
    expect(head.get_by_test_id("door-url")).to_have_text(f"{url}/j/{plain}")
    qr = head.get_by_test_id("door-qr")
    assert qr.get_attribute("src") == f"/qr/{plain}.svg"
    expect(qr).to_have_js_property("complete", True)
    assert qr.evaluate("(img) => img.naturalWidth") > 0
    # While the class comes in (no board begun), the QR code grows as far as the screen
    # allows without scrolling (to be scanned from the back row): the strip with it takes
    # up to half the screen, the rest is the pairings' and the standings'.
    expect(projector.locator("body")).to_have_class(re.compile(r"\bdoor-open\b"))
    steady(projector, FITTED)             # the code grown to the screen
    box = head.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= PROJECTOR["height"] / 2, box
    coming_in = qr.bounding_box()["height"]
    assert coming_in >= 0.135 * PROJECTOR["height"], coming_in
    assert projector.evaluate("document.documentElement.scrollHeight") <= PROJECTOR["height"]
    for key in sorted({p["key"] for p in places.values()}):
        sides = {p["seat"]: n for n, p in places.items() if p.get("key") == key}
        expect(projector.get_by_test_id(f"hall-pairing-{key}")).to_contain_text(
            f"Tablero {key.split('.')[1]}: {sides.get(1, 'Computadora')} – "
            f"{sides.get(2, 'Computadora')}")
    expect(projector.get_by_test_id("hall-bye")).to_have_count(0)
    # Nothing ranked before the first result: the pairings take the screen, no standings.
    expect(projector.get_by_test_id("hall-standings")).to_have_count(0)
    sizes = projector.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    assert sizes[0] <= sizes[1], sizes
    assert axe(projector) == []
    screens.shot(projector, "projector-1280x720", full_page=False)

    # Each student opens the door on their phone and taps their own name. One types the
    # address the projector writes; the others open the code as the QR code gives it.
    phones = {}
    for n, name in enumerate(CLASS):
        phone = phones[name] = screens.page(f"student-{n + 1}", PHONE, mobile=True, locale="es")
        phone.goto(f"{url}/j/{plain}" if n == 0 else f"{url}/h/{plain}")
        phone.wait_for_url(re.compile(r"/door$"))
        if n == 0:
            expect(phone.get_by_test_id("door-title")).to_have_text("¿Quiénes son?")
            expect(phone.locator("#door-people button")).to_have_count(11)
            field = phone.get_by_test_id("door-filter").bounding_box()
            top = phone.locator("#door-people button").first.bounding_box()
            assert top["y"] >= field["y"] + field["height"] + 4, (field, top)   # apart, not touching
            clean(phone, "the door's list")
            screens.shot(phone, "door-list")
        tap_name(phone, name)
        phone.wait_for_url(re.compile(r"/seat$"))
    for name, phone in phones.items():
        assert_on_seat(phone, name, places[name])
    against_bot = next(n for n, p in places.items() if p["opponent"] == "Bot")
    screens.shot(phones[against_bot], "seat-against-the-computer")

    # A second phone of one student taps the same name: it waits for the teacher.
    student = next(n for n, p in places.items() if p["opponent"] != "Bot" and p["seat"] == 1)
    key, seat, game_id = places[student]["key"], places[student]["seat"], places[student]["game_id"]
    first = phones[student]
    second = screens.page("second-phone", PHONE, mobile=True, locale="es")
    second.goto(f"{url}/h/{plain}")
    second.wait_for_url(re.compile(r"/door$"))
    taken = second.locator("#door-people button", has_text=student)
    expect(taken).to_contain_text("ya está en otro teléfono: el docente decide")
    # The note under the name, the name on a line of its own.
    button, note = taken.bounding_box(), taken.locator(".taken").bounding_box()
    assert note["x"] - button["x"] < 30 and note["y"] - button["y"] > 20, (button, note)
    clean(second, "the door's list, every name taken")
    screens.shot(second, "door-list-taken")
    tap_name(second, student)
    second.wait_for_url(re.compile(r"/seat$"))
    expect(second.get_by_test_id("waiting-title")).to_have_text("Esperando al docente")
    expect(second.get_by_test_id("waiting-text")).to_contain_text(f"{student} ya juega en otro teléfono")
    clean(second, "the waiting page")
    screens.shot(second, "waiting")

    # The teacher sees the request on the hall view and beside the seat on the board's
    # console; refused, the second phone says so by itself and the first keeps the seat.
    asking = f"{student} pide seguir en otro teléfono"
    expect(gm.get_by_test_id(f"hall-ask-{key}-{seat}")).to_contain_text(f"{asking} · {key}")
    screens.shot(gm, "hall-view-request", full_page=False)
    board = room.console_page("board-console", CONSOLE)
    board.goto(f"{url}/console/{game_id}")
    panel = board.get_by_test_id("seating")
    expect(panel.get_by_test_id(f"seating-ask-{seat}")).to_contain_text(asking)
    expect(panel.get_by_test_id(f"seating-holder-{seat}")).to_contain_text(
        f"{COLOUR[seat].lower()} ({student})")
    panel.scroll_into_view_if_needed()
    screens.shot(board, "console-seating-request", full_page=False)
    gm.get_by_test_id(f"hall-refuse-{key}-{seat}").click()
    expect(gm.get_by_test_id(f"hall-ask-{key}-{seat}")).to_have_count(0)
    expect(panel.get_by_test_id(f"seating-ask-{seat}")).to_have_count(0)
    refused = second.get_by_test_id("waiting-refused")
    expect(refused).to_have_text("El docente no pasó el lugar a este teléfono.", timeout=FOLLOW_MS)
    clean(second, "the refused page")
    screens.shot(second, "waiting-refused")
    assert second.context.request.get(f"{url}/seat/where").json()["state"] == "refused"
    assert_on_seat(first, student, places[student])

    # Asked again and accepted on the board's console: the seat is the second phone's,
    # the first is cut off (its page says so, the seat refuses it).
    second.get_by_test_id("waiting-again").click()
    expect(second.get_by_test_id("waiting-text")).to_be_visible()
    expect(panel.get_by_test_id(f"seating-ask-{seat}")).to_contain_text(asking)
    panel.get_by_test_id(f"seating-accept-{seat}").click()
    expect(panel.get_by_test_id(f"seating-ask-{seat}")).to_have_count(0)
    assert_on_seat(second, student, places[student], timeout=FOLLOW_MS)
    expect(first.locator("body")).to_contain_text("El docente quitó este dispositivo del juego.",
                                                  timeout=FOLLOW_MS)
    assert first.context.request.get(f"{url}/seat").status == 409
    screens.shot(first, "first-phone-cut-off")
    phones[student] = second
    board.close()

    # Three rounds: the bell ends every board, the next round is paired, and every
    # student's page moves to its new board by itself.
    for r in (1, 2, 3):
        paired = ring_the_bell_and_pair(gm, screens, r, 5, over=phones[CLASS[1]] if r == 1 else None)
        places = seating(gm, url, hall_id, r + 1)
        assert len({p["key"] for p in places.values()}) == 6, places
        for name, phone in phones.items():      # all of them within FOLLOW_MS of the pairing
            left = paired + FOLLOW_MS / 1000 - time.monotonic()
            assert_on_seat(phone, name, places[name], timeout=max(500, int(left * 1000)))
        print(f"round {r + 1}: the 11 pages followed within {time.monotonic() - paired:.1f} s")
        if r == 1:
            screens.shot(phones[CLASS[0]], "follow-to-round-2")
        expect(projector.get_by_test_id("hall-round")).to_contain_text(f"Ronda {r + 1} de 5")
    expect(first.locator("body")).to_contain_text("El docente quitó este dispositivo del juego.")


def test_a_student_resting_a_round_is_told_so_and_taken_to_the_next_board(teacher, screens):
    from playwright.sync_api import expect
    gm, url = teacher.gm, teacher.server.url
    # Three students, the odd one resting each round (the same HTTP as the console's form).
    answer = gm.context.request.post(f"{url}/console/halls", data={
        "kind": "hive", "name": "Grupo de tarde", "players": "\n".join(SMALL),
        "settings": {"odd": "bye"}}).json()
    assert answer["ok"], answer
    hall_id = answer["hall_id"]
    gm.goto(f"{url}/console/halls/{hall_id}?lang=es")
    code = gm.get_by_test_id("hall-door-code").inner_text().strip().replace("-", "")
    places = seating(gm, url, hall_id, 1)
    resting = next(n for n, p in places.items() if p.get("bye"))
    expect(gm.get_by_test_id("hall-bye")).to_contain_text(resting)

    phone = screens.page("resting", PHONE, mobile=True, locale="es")
    phone.goto(f"{url}/h/{code}")
    tap_name(phone, resting)
    phone.wait_for_url(re.compile(r"/seat$"))
    expect(phone.get_by_test_id("bye-title")).to_have_text("Ronda 1: descansan")
    expect(phone.get_by_test_id("bye-name")).to_have_text(resting)
    expect(phone.get_by_test_id("bye-text")).to_contain_text("cuenta como una victoria")
    clean(phone, "the bye's page")
    screens.shot(phone, "bye")

    paired = ring_the_bell_and_pair(gm, screens, 1, 3)
    places = seating(gm, url, hall_id, 2)
    assert not places[resting].get("bye"), places       # round robin: each rests once
    assert_on_seat(phone, resting, places[resting], timeout=FOLLOW_MS)
    print(f"the bye's page followed within {time.monotonic() - paired:.1f} s")
    screens.shot(phone, "bye-then-board")
