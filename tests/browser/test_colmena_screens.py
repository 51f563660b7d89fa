"""La colmena's screens of one table in Chromium (issue 37, items 4 and 7): a whole game of
two players with the shipped deck and a fixed seed, played by clicks on the two phones
(390×844) and the table's shared tablet (800×1280), each move the first the view lists
(`playable`); the teacher's console (1366×768) and the projector (1280×720, 1920×1080)
follow. The final breakdown on the tablet is checked against scoring.py on the final
state, computed here from the table's record; a refused placement is explained in one
line with its rule's summary, a hand card that can go nowhere says why beside it (in the
page's Spanish, its icons by name); keyboard play; each screen measured (no sideways
scroll, targets 44 px on phones, the whole board inside its frame on the tablet and the
projector, every card's words inside its cell and the type no smaller than a floor with
the 42 cards of the end) and checked by axe-core; screenshots go to
test-artifacts/colmena_screens-*.png.
"""
from __future__ import annotations

import re

import pytest

from facilitator.games.colmena import KIND
from facilitator.games.colmena.scoring import message_of, score
from facilitator.i18n import catalog
from .layout import axe, steady
from server import Server

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 800, "height": 1280}
CONSOLE = {"width": 1366, "height": 768}
PROJECTORS = ({"width": 1280, "height": 720}, {"width": 1920, "height": 1080})
#: The hall's seed: the same table, the same deal, every run.
SEED = 11
WORDS = catalog("es-ES")
#: The smallest type (px) of a card on the projector's board, by the projector's height,
#: when the board holds 40 cards or more: read from the back row.
PROJECTOR_TYPE = {720: 10, 1080: 14}


@pytest.fixture
def colmena_server(tmp_path):
    server = Server(tmp_path, env={"FACILITATOR_SOCKET_RATE_SCALE": "50"}).start()
    yield server
    server.stop()


def new_table(server: Server, http, names: list[str]) -> tuple[int, dict, str]:
    """One table of two made as the teacher makes a hall: its id, its codes, its watch."""
    made = http.post(server.url + "/console/halls",
                     json={"kind": "colmena", "players": "\n".join(names), "seed": SEED},
                     timeout=10).json()
    assert made["ok"], made
    games = http.get(f"{server.url}/console/halls/{made['hall_id']}.json", timeout=10).json()["games"]
    assert len(games) == 1
    game_id = games[0]["game_id"]
    codes = http.get(f"{server.url}/api/games/{game_id}/codes", timeout=10).json()
    return game_id, {c["team"]: c["code"] for c in codes["teams"]}, codes["watch"]


def state(page, seq: int = -1) -> dict:
    """The last state the page drew, once it is at ``seq`` at least."""
    page.wait_for_function("(s) => !!window.ColmenaScreen && !!window.ColmenaScreen.state"
                           " && window.ColmenaScreen.state.seq >= s", arg=seq)
    return page.evaluate("() => window.ColmenaScreen.state")


#: What a board drawn whole reads once a resize is over: the window, its frame's size and
#: the type fitted to it (the screen fits it again when the frame's size changes).
BOARD_FITTED = """() => {
  const frame = document.querySelector('.cc-frame.fit');
  const grid = frame && frame.querySelector('.cc-grid');
  return [innerWidth, innerHeight, frame ? [frame.clientWidth, frame.clientHeight] : null,
          grid ? grid.style.fontSize : null];
}"""


def number(text: str) -> int:
    return int(text.strip().replace("\u2212", "-").replace("+", ""))


def small_targets(page) -> list:
    """The buttons, links and fields of the screen under 44 px (the ones drawn)."""
    return page.evaluate("""() => [...document.querySelectorAll('#screen button, #screen a, #screen select, #screen summary')]
      .map((el) => [el.getAttribute('data-testid') || el.textContent.trim().slice(0, 30), el.getBoundingClientRect()])
      .filter(([, r]) => r.width > 0 && (r.width < 44 || r.height < 44))
      .map(([name, r]) => [name, Math.round(r.width), Math.round(r.height)])""")


def board_fits(page) -> dict:
    """Where the board's frame is and whether every card lies inside it, unscrolled."""
    return page.evaluate("""() => {
      const frame = document.querySelector('[data-testid=colmena-board-frame]');
      const f = frame.getBoundingClientRect();
      const out = [...frame.querySelectorAll('.cc-cell')].filter((el) => {
        const r = el.getBoundingClientRect();
        return r.left < f.left - 1 || r.right > f.right + 1 || r.top < f.top - 1 || r.bottom > f.bottom + 1;
      }).length;
      const name = frame.querySelector('.cc-card .cc-name');
      const d = document.documentElement;
      return { frame: [f.left, f.top, f.right, f.bottom], outside: out, w: innerWidth, h: innerHeight,
               sw: d.scrollWidth, sh: d.scrollHeight, scrolls: frame.scrollHeight > frame.clientHeight + 1
                 || frame.scrollWidth > frame.clientWidth + 1,
               cards: frame.querySelectorAll('.cc-card').length,
               font: name ? parseFloat(getComputedStyle(name).fontSize) : null,
               cell: name ? name.closest('.cc-cell').getBoundingClientRect().width : null };
    }""")


def card_texts(page) -> dict:
    """Every card on the board whose words do not fit (a face, a name, an icon's name, a
    count overflowing its box), and the smallest type of any of those words (px)."""
    return page.evaluate("""() => {
      const over = (el) => el.scrollWidth > el.clientWidth + 0.5 || el.scrollHeight > el.clientHeight + 0.5;
      const bad = [];
      let least = Infinity;
      for (const face of document.querySelectorAll('[data-testid=colmena-board] .cc-card .cc-face')) {
        const card = face.closest('.cc-card').dataset.card;
        if (over(face)) bad.push([card, 'face', face.scrollWidth, face.clientWidth, face.scrollHeight, face.clientHeight]);
        const box = face.getBoundingClientRect();
        for (const el of face.querySelectorAll('.cc-name, .cc-icon, .cc-icon-name, .cc-done, .cc-times')) {
          const r = el.getBoundingClientRect();
          if (over(el) || r.left < box.left - .5 || r.right > box.right + .5 || r.top < box.top - .5 || r.bottom > box.bottom + .5)
            bad.push([card, el.className, el.textContent]);
          least = Math.min(least, parseFloat(getComputedStyle(el).fontSize));
        }
      }
      return { bad, least };
    }""")


def assert_whole_board(page, what: str, no_scroll: bool = False) -> dict:
    g = board_fits(page)
    left, top, right, bottom = g["frame"]
    assert left >= 0 and right <= g["w"] and top >= 0 and bottom <= g["h"], (what, g)
    assert g["outside"] == 0 and not g["scrolls"], (what, g)
    assert g["sw"] <= g["w"], (what, "sideways scroll", g)
    if no_scroll:
        assert g["sh"] <= g["h"], (what, "the page scrolls", g)
    words = card_texts(page)
    assert words["bad"] == [], (what, "words cut", words["bad"])
    g["least"] = words["least"]
    print(what, "cards", g["cards"], "cell width", g["cell"], "name font", g["font"],
          "smallest type", words["least"])
    return g


def blocked_sentence(stuck: dict) -> str:
    """Why a hand card can go nowhere, as the Spanish (Spain) page writes it: the catalog's
    sentence for the view's reason, with the icons' names (a list joined by «o»)."""
    names = [icon["name"]["es"] for icon in stuck.get("icons", [])]
    icons = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " o " + names[-1] if names else ""
    icon = stuck["icon"]["name"]["es"] if "icon" in stuck else ""
    return WORDS["colmena.blocked." + stuck["reason"]].format(icon=icon, icons=icons)


def click_and_wait(page, testid: str, watch, seq: int) -> int:
    """Click ``testid`` on ``page``; the seq the table's screen ``watch`` reaches after it."""
    page.get_by_test_id(testid).click()
    return state(watch, seq + 1)["seq"]


def names_whole(page, what: str) -> None:
    """Every card's name on a zoomed board written whole: nothing past its box (scroll
    sizes against client sizes, the name's own and its card face's), its lines within its
    card, its type at least 12 px."""
    found = page.evaluate("""() => {
      const frame = document.querySelector('.cc-frame.zoomed');
      if (!frame) return { zoomed: false };
      const out = [];
      for (const name of frame.querySelectorAll('.cc-card .cc-name')) {
        const face = name.closest('.cc-face'), cell = name.closest('.cc-cell');
        const n = name.getBoundingClientRect(), f = face.getBoundingClientRect(), c = cell.getBoundingClientRect();
        const size = parseFloat(getComputedStyle(name).fontSize);
        if (name.scrollWidth > name.clientWidth + 0.5 || name.scrollHeight > name.clientHeight + 0.5
            || face.scrollWidth > face.clientWidth + 0.5 || face.scrollHeight > face.clientHeight + 0.5
            || n.bottom > f.bottom + 0.5 || n.right > f.right + 0.5 || f.bottom > c.bottom + 0.5 || size < 12) {
          out.push([name.textContent, size, name.scrollWidth, name.clientWidth, name.scrollHeight, name.clientHeight,
                    face.scrollHeight, face.clientHeight]);
        }
      }
      return { zoomed: true, cut: out, names: frame.querySelectorAll('.cc-card .cc-name').length };
    }""")
    assert found["zoomed"] and found["names"] and found["cut"] == [], (what, found)


def test_a_whole_game_of_two_through_two_phones_and_the_tablet(colmena_server, make_room, screens):
    from playwright.sync_api import expect
    server = colmena_server
    room = make_room(server)
    http = server.gm_session()
    game_id, codes, watch = new_table(server, http, ["Ana Díaz", "Bea Gil"])

    table = screens.page("table", TABLET, mobile=True)
    table.goto(f"{server.url}/j/{codes[-1]}")      # the screen code, from the teacher's console
    phones = {}
    for seat in (1, 2):
        phones[seat] = screens.page(f"phone{seat}", PHONE, mobile=True)
        phones[seat].goto(f"{server.url}/j/{codes[seat]}")
    projector = screens.page("projector", PROJECTORS[0])
    projector.goto(f"{server.url}/projector/{watch}")
    first = state(table)
    expect(table.get_by_test_id("colmena-status")).to_have_text(WORDS["colmena.status.first_task_nobody"])
    expect(projector.get_by_test_id("colmena-status")).to_have_text(WORDS["colmena.status.first_task_nobody"])
    for seat, phone in phones.items():
        mine = state(phone)["view"]
        expect(phone.get_by_test_id("colmena-hand").locator("li")).to_have_count(len(mine["hand"]))
        # A phone shows its own hand only: no card of the other hand is on its page.
        other = {c["id"] for c in state(phones[3 - seat])["view"]["hand"]}
        drawn = set(phone.locator("[data-testid^=colmena-hand-]").evaluate_all(
            "(els) => els.map((el) => el.dataset.testid.slice('colmena-hand-'.length))"))
        assert not drawn & other, (seat, drawn & other)
    screens.shot(phones[1], "phone-390x844-deal")
    assert small_targets(phones[1]) == []
    assert axe(phones[1]) == [], "phone at the deal"
    screens.shot(table, "tablet-800x1280-deal")
    assert axe(table) == [], "tablet at the deal"

    seq = first["seq"]
    seen = {"refused": False, "blocked": False, "keyboard": False, "penalty": False,
            "extra": False, "communicate": False, "zoom": False}
    for _ in range(600):
        view = state(table, seq)["view"]
        if view["over"]:
            break
        awaiting = view["awaiting"]
        step, seat = awaiting["step"], awaiting["seat"]
        if step == "first_task" and seat is None:
            # The table names who starts (the first holding a task); that phone places it.
            seq = click_and_wait(table, f"colmena-starter-{awaiting['players'][0]}", table, seq)
            continue
        phone = phones[seat]
        mine = state(phone, seq)["view"]
        if step == "first_task":
            expect(phone.get_by_test_id("colmena-status")).to_have_class(re.compile(r"\bmine\b"))
            phone.get_by_test_id(f"colmena-hand-{mine['playable'][0]['card']}").click()
            seq = click_and_wait(phone, "colmena-cell-0_0", table, seq)
            continue
        if step == "keep":
            seq = click_and_wait(phone, f"colmena-keep-{mine['choosing'][0]['id']}", table, seq)
            continue
        if step == "place":
            x, y = mine["playable"][0]["cells"][0]
            expect(phone.get_by_test_id("colmena-forced")).to_be_visible()
            seq = click_and_wait(phone, f"colmena-cell-{x}_{y}", table, seq)
            continue
        legal = {entry["do"] for entry in mine["legal"]}
        offered = next((entry["options"]["players"] for entry in state(table, seq)["legal"]
                        if entry["do"] == "penalty"), [])
        if step == "action" and offered:
            # The tablet offers the talking penalty for the players with cards in hand
            # only: an empty hand has nothing to discard (issue 47, C-H2).
            for player in (1, 2):
                expect(table.get_by_test_id(f"colmena-penalty-{player}")).to_have_count(
                    1 if state(phones[player], seq)["view"]["hand"] else 0)
        if not seen["penalty"] and view["turn"] >= 3 and step == "action" and offered:
            # The table's tablet applies the talking penalty (asked first) to a player with
            # cards in hand: the whole hand goes, as many are drawn. The teacher undoes it
            # from the console, so the game goes on as it would have without it.
            target = 3 - seat if 3 - seat in offered else seat
            before = {c["id"] for c in state(phones[target], seq)["view"]["hand"]}
            table.get_by_test_id(f"colmena-penalty-{target}").click()
            expect(table.get_by_test_id("colmena-confirm-yes")).to_be_visible()
            seq = click_and_wait(table, "colmena-confirm-yes", table, seq)
            after = {c["id"] for c in state(phones[target], seq)["view"]["hand"]}
            assert len(after) == len(before) and not after & before, (before, after)
            room.gm.goto(f"{server.url}/console/{game_id}")
            state(room.gm, seq)
            seq = click_and_wait(room.gm, "colmena-undo", table, seq)
            assert {c["id"] for c in state(phones[target], seq)["view"]["hand"]} == before
            seen["penalty"] = True
            continue
        blocked = mine.get("blocked") or []
        if blocked and not seen["blocked"]:
            # A card that can go nowhere says why beside it, in the page's Spanish, with the
            # icons by name; selected, the refusal line says it too; the rule's id in the
            # tooltip only.
            stuck = blocked[0]
            why = blocked_sentence(stuck)
            beside = phone.get_by_test_id(f"colmena-blocked-{stuck['card']}")
            expect(beside).to_be_visible()
            expect(beside).to_have_text(f"{WORDS['colmena.cannot_play']}: {why}")
            assert stuck["rule"] == beside.get_attribute("title")
            beside.scroll_into_view_if_needed()
            screens.shot(phone, "phone-390x844-blocked", full_page=False)
            phone.get_by_test_id(f"colmena-hand-{stuck['card']}").click()
            explain = phone.get_by_test_id("colmena-explain")
            expect(explain).to_have_text(WORDS["colmena.refused"].format(why=why))
            assert explain.get_attribute("title").startswith(stuck["rule"] + " — ")
            assert stuck["rule"] not in explain.inner_text()
            phone.get_by_test_id(f"colmena-hand-{stuck['card']}").click()    # unselected
            seen["blocked"] = True
        # The other two actions once each: communicate (with a question), extra resources.
        if step == "action" and view["turn"] >= 4 and "communicate" in legal and not seen["communicate"]:
            # Offered with no card picked (issue 47): the card to discard is chosen beside it.
            expect(phone.get_by_test_id("colmena-communicate")).to_be_visible()
            given = mine["hand"][-1]["id"]
            phone.get_by_test_id("colmena-give").select_option(given)
            phone.get_by_test_id("colmena-ask").select_option(index=1)
            seq = click_and_wait(phone, "colmena-communicate", table, seq)
            assert state(table, seq)["view"]["discard"][-1]["id"] == given
            expect(table.get_by_test_id("colmena-question")).to_contain_text("?")
            seen["communicate"] = True
            continue
        if step == "action" and view["turn"] >= 6 and "extra" in legal and not seen["extra"]:
            seq = click_and_wait(phone, "colmena-extra", table, seq)
            seen["extra"] = True
            continue
        if mine["playable"]:
            play = mine["playable"][0]
            hand_card = phone.get_by_test_id(f"colmena-hand-{play['card']}")
            if not seen["refused"]:
                # An unlit cell is sent anyway and refused by the server, in one line.
                hand_card.click()
                expect(hand_card).to_have_attribute("aria-pressed", "true")
                lit = {f"{x}_{y}" for x, y in play["cells"]}
                unlit = [el for el in phone.locator(".cc-target:not(.lit) button").all()
                         if el.get_attribute("data-testid")[len("colmena-cell-"):] not in lit]
                screens.shot(phones[seat], "phone-390x844-selected", full_page=False)
                assert small_targets(phone) == []
                assert axe(phone) == [], "phone with a card selected"
                unlit[0].click()
                explain = phone.get_by_test_id("colmena-explain")
                expect(explain).to_be_visible()
                rule = explain.get_attribute("title").split(" ")[0]
                assert re.fullmatch(r"C-[A-Z]\d+", rule), rule
                expect(explain).to_have_text(WORDS["colmena.refused"].format(why=WORDS["colmena.rule." + rule]))
                assert state(table)["seq"] == seq            # nothing changed
                seen["refused"] = True
            if not seen["keyboard"]:
                # The keyboard: Tab to the card, Enter to select, arrows to a lit cell, Enter.
                if hand_card.get_attribute("aria-pressed") != "true":
                    hand_card.focus()
                    phone.keyboard.press("Enter")
                expect(hand_card).to_have_attribute("aria-pressed", "true")
                # The arrows go from cell to cell: from the top left one, right then down.
                focused = "() => document.activeElement && document.activeElement.dataset.testid"
                phone.locator(".cc-target button").first.focus()
                start = phone.evaluate(focused)
                phone.keyboard.press("ArrowRight")
                right = phone.evaluate(focused)
                phone.keyboard.press("ArrowDown")
                down = phone.evaluate(focused)
                assert start != right != down and down.startswith("colmena-cell-"), (start, right, down)
                x, y = play["cells"][0]
                phone.get_by_test_id(f"colmena-cell-{x}_{y}").focus()
                phone.keyboard.press("Enter")
                seq = state(table, seq + 1)["seq"]
                seen["keyboard"] = True
                continue
            if hand_card.get_attribute("aria-pressed") != "true":
                hand_card.click()
            x, y = play["cells"][0]
            seq = click_and_wait(phone, f"colmena-cell-{x}_{y}", table, seq)
            continue
        if not seen["zoom"] and len(view["board"]) >= 12:
            # A phone's board: zoom in, out, and the whole board; then back. At each zoom
            # every card's whole name is written in its cell, at 12 px or more.
            frame = phone.get_by_test_id("colmena-board")
            before = frame.evaluate("(el) => el.getBoundingClientRect().width")
            names_whole(phone, "zoom 110")
            phone.get_by_test_id("colmena-zoom-in").click()
            assert frame.evaluate("(el) => el.getBoundingClientRect().width") > before
            names_whole(phone, "zoom 140")
            phone.get_by_test_id("colmena-zoom-in").click()
            names_whole(phone, "zoom 170")
            screens.shot(phone, "phone-390x844-zoom-170", full_page=False)
            for _ in range(3):
                phone.get_by_test_id("colmena-zoom-out").click()
            names_whole(phone, "zoom 80")
            screens.shot(phone, "phone-390x844-zoom-80", full_page=False)
            phone.get_by_test_id("colmena-fit").click()
            screens.shot(phone, "phone-390x844-whole-board", full_page=False)
            phone.get_by_test_id("colmena-zoom-in").click()
            seen["zoom"] = True
        seq = click_and_wait(phone, "colmena-end-turn", table, seq)
    else:
        raise AssertionError("the game did not end")
    assert all(seen.values()), seen

    # The end: the tablet's breakdown is scoring.py's on the final state, by hand here.
    final = state(table, seq)["view"]
    record = http.get(f"{server.url}/console/{game_id}/record.json", timeout=10).json()
    match = KIND.replay(record)
    expected = score(match.state, match.deck)
    assert match.state.over and expected["total"] == final["score"]["total"]
    assert len(match.state.board) == len(final["board"])
    shown = {name: number(table.get_by_test_id(f"colmena-{name}").inner_text())
             for name in ("total", "completed-points", "bonus-points", "open-points",
                          "wrong-points", "hand-points")}
    assert shown == {"total": expected["total"], "completed-points": expected["completed_points"],
                     "bonus-points": expected["bonus_points"], "open-points": expected["open_points"],
                     "wrong-points": expected["completed_wrongly_points"],
                     "hand-points": expected["hand_points"]}, (shown, expected)
    expect(table.get_by_test_id("colmena-result")).to_have_text(message_of(expected["tier"])["es-ES"])
    expect(table.get_by_test_id("colmena-completed-list").locator("li")).to_have_count(len(expected["completed"]))
    for page in (phones[1], phones[2], projector):
        expect(page.get_by_test_id("colmena-result")).to_have_text(message_of(expected["tier"])["es-ES"])
    expect(table.get_by_test_id("colmena-board").locator(".cc-card")).to_have_count(len(final["board"]))

    # The screens at the end: measured, checked by axe, photographed.
    g = assert_whole_board(table, "tablet 800x1280")
    assert g["cards"] == len(final["board"]) and g["least"] >= 10, g
    screens.shot(table, "tablet-800x1280-over", full_page=False)
    screens.shot(table, "tablet-800x1280-over-full")
    assert axe(table) == [], "tablet at the end"
    for seat, phone in phones.items():
        assert phone.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
        assert small_targets(phone) == [], seat
        assert axe(phone) == [], f"phone {seat} at the end"
    screens.shot(phones[1], "phone-390x844-over")
    for size in PROJECTORS:
        projector.set_viewport_size(size)
        projector.wait_for_function("(w) => innerWidth === w.width && innerHeight === w.height", arg=size)
        steady(projector, BOARD_FITTED)     # the board's frame resized and its type fitted again
        g = assert_whole_board(projector, f"projector {size}", no_scroll=True)
        assert g["cards"] == len(final["board"]) >= 40, g
        assert g["least"] >= PROJECTOR_TYPE[size["height"]], (size, g)
        screens.shot(projector, f"projector-{size['width']}x{size['height']}-over", full_page=False)
        assert axe(projector) == [], f"projector {size}"
    # The tablet reloaded in the other languages: the result in neutral Spanish (ustedes)
    # and in English, the total written the same.
    for lang in ("es", "en"):
        table.goto(f"{server.url}/team?lang={lang}")
        expect(table.get_by_test_id("colmena-result")).to_have_text(message_of(expected["tier"])[lang])
        assert number(table.get_by_test_id("colmena-total").inner_text()) == expected["total"]
        expect(table.get_by_test_id("colmena-status")).to_contain_text(
            catalog(lang)["colmena.status.over"].split(":")[0])
    screens.shot(table, "tablet-800x1280-over-en", full_page=False)
    gm = room.gm
    gm.set_viewport_size(CONSOLE)
    gm.goto(f"{server.url}/console/{game_id}")
    expect(gm.get_by_test_id("colmena-result")).to_have_text(message_of(expected["tier"])["es-ES"])
    expect(gm.get_by_test_id("colmena-undo")).to_be_visible()
    screens.shot(gm, "console-1366x768-over", full_page=False)
    assert axe(gm) == [], "console at the end"


def test_the_teachers_console_plays_for_the_active_player_and_undoes(colmena_server, make_room, screens):
    """The console (1366×768) sees every hand and acts for whoever must act: it names who
    starts, places the first task, keeps a card, ends the turn, undoes; the phone of the
    player follows, the projector (1366×768 too) shows no hand."""
    from playwright.sync_api import expect
    server = colmena_server
    room = make_room(server)
    http = server.gm_session()
    game_id, codes, watch = new_table(server, http, ["Carla Ruiz", "Dani Sanz"])
    gm = room.gm
    gm.set_viewport_size(CONSOLE)
    gm.goto(f"{server.url}/console/{game_id}")
    phone = screens.page("phone", PHONE, mobile=True)
    phone.goto(f"{server.url}/j/{codes[1]}")
    projector = screens.page("projector", CONSOLE)
    projector.goto(f"{server.url}/projector/{watch}")
    s = state(gm)
    view = s["view"]
    for seat in (1, 2):
        expect(gm.get_by_test_id(f"colmena-gm-hand-{seat}").locator(".cc-face")).to_have_count(
            len(view["hands"][str(seat)]))
    # The table's codes with their QR codes, and the projector's link.
    expect(gm.get_by_test_id("colmena-join-code-1")).to_have_text(codes[1])
    expect(gm.get_by_test_id("colmena-code-0").locator("img")).to_have_attribute("src", f"/qr/{codes[0]}.svg")
    assert gm.get_by_test_id("colmena-projector-link").get_attribute("href") == f"/projector/{watch}"
    holder = view["awaiting"]["players"][0]
    seq = click_and_wait(gm, f"colmena-starter-{holder}", gm, s["seq"])
    task = view["hands"][str(holder)]
    task = next(c["id"] for c in task if c["kind"] == "task")
    gm.get_by_test_id(f"colmena-gm-hand-{holder}").get_by_test_id(f"colmena-hand-{task}").click()
    seq = click_and_wait(gm, "colmena-cell-0_0", gm, seq)
    expect(phone.get_by_test_id("colmena-board").locator(".cc-card")).to_have_count(1)
    view = state(gm, seq)["view"]
    assert view["awaiting"]["step"] == "keep"
    seq = click_and_wait(gm, f"colmena-keep-{view['choosing'][0]['id']}", gm, seq)
    screens.shot(gm, "console-1366x768-playing", full_page=False)
    assert axe(gm) == [], "console playing"
    # The projector: the public view only; no card of any hand on its page.
    hands = {c["id"] for hand in state(gm, seq)["view"]["hands"].values() for c in hand}
    state(projector, seq)
    on_projector = set(projector.locator("[data-card]").evaluate_all("(els) => els.map((el) => el.dataset.card)"))
    assert not on_projector & hands
    assert projector.evaluate("() => document.documentElement.scrollWidth <= innerWidth")
    screens.shot(projector, "projector-1366x768-playing", full_page=False)
    assert axe(projector) == [], "projector 1366x768"
    seq = click_and_wait(gm, "colmena-undo", gm, seq)
    assert state(gm, seq)["view"]["awaiting"]["step"] == "keep"
    # The teacher's undo is said on every screen (issue 47, C-Z8), in a line that goes.
    for page in (gm, phone, projector):
        expect(page.get_by_test_id("colmena-told")).to_have_text(
            re.compile(r"El docente (deshizo|ha deshecho) la última jugada"))
    screens.shot(phone, "phone-told-undo", full_page=False)
    seq = click_and_wait(gm, "colmena-redo", gm, seq)
    expect(phone.get_by_test_id("colmena-told")).to_have_text(re.compile(r"(volvió|ha vuelto) a hacer"))
    expect(phone.get_by_test_id("colmena-told")).to_have_count(0, timeout=10_000)
    gm.get_by_test_id("colmena-end-game").click()
    expect(gm.get_by_test_id("colmena-confirm-yes")).to_be_visible()
    gm.get_by_test_id("colmena-confirm-no").click()
    expect(gm.get_by_test_id("colmena-confirm-yes")).to_have_count(0)
    gm.get_by_test_id("colmena-end-game").click()
    seq = click_and_wait(gm, "colmena-confirm-yes", gm, seq)
    expect(gm.get_by_test_id("colmena-status")).to_have_text(re.compile(r"docente"))
    expect(phone.get_by_test_id("colmena-result")).to_be_visible()
    assert axe(phone) == [], "phone, ended by the teacher"
    # A lost phone: the teacher's console lists each seat's devices; «Quitar», confirmed,
    # frees the seat (its hand waits for the next phone to join with the table's code).
    device = gm.locator('[data-testid^="colmena-device-1-"]')
    expect(device).to_have_count(1)
    device.get_by_role("button").click()
    expect(gm.get_by_test_id("colmena-confirm-yes")).to_be_visible()
    assert axe(gm) == [], "console, asking to remove a device"
    gm.get_by_test_id("colmena-confirm-yes").click()
    expect(device).to_have_count(0)
    expect(gm.get_by_test_id("colmena-confirm-yes")).to_have_count(0)


def first_screen(page) -> dict:
    """Where the board's frame and the hand lie on a phone, scrolled to the top: the part
    of the frame inside the first screen, and the hand's first card."""
    page.evaluate("() => window.scrollTo(0, 0)")
    return page.evaluate("""() => {
      const frame = document.querySelector('[data-testid=colmena-board-frame]').getBoundingClientRect();
      const hand = document.querySelector('[data-testid=colmena-hand] li');
      const h = hand ? hand.getBoundingClientRect() : null;
      return { top: frame.top, bottom: frame.bottom, height: frame.height, h: innerHeight,
               shown: Math.max(0, Math.min(frame.bottom, innerHeight) - Math.max(frame.top, 0)),
               hand: h ? [h.top, h.bottom] : null };
    }""")


def test_on_a_players_turn_the_board_is_on_the_phones_first_screen(colmena_server, make_room, screens):
    """Issue 47: on a player's turn the phone (390×844) shows the board on its first
    screen, whole, with the hand below it (its first row on the first screen too), at each
    step of the turn: the two drawn to keep one, the action, a card selected."""
    from playwright.sync_api import expect
    server = colmena_server
    make_room(server)
    http = server.gm_session()
    _game_id, codes, _watch = new_table(server, http, ["Ana Díaz", "Bea Gil"])
    table = screens.page("table", TABLET, mobile=True)
    table.goto(f"{server.url}/j/{codes[-1]}")
    phones = {}
    for seat in (1, 2):
        phones[seat] = screens.page(f"phone{seat}", PHONE, mobile=True)
        phones[seat].goto(f"{server.url}/j/{codes[seat]}")
    s = state(table)
    starter = s["view"]["awaiting"]["players"][0]
    seq = click_and_wait(table, f"colmena-starter-{starter}", table, s["seq"])
    phone = phones[starter]
    task = state(phone, seq)["view"]["playable"][0]["card"]
    phone.get_by_test_id(f"colmena-hand-{task}").click()
    seq = click_and_wait(phone, "colmena-cell-0_0", table, seq)

    def judged(phone, what):
        expect(phone.get_by_test_id("colmena-status")).to_have_class(re.compile(r"\bmine\b"))
        g = first_screen(phone)
        shot = screens.shot(phone, f"phone-390x844-turn-{what}", full_page=False)
        print(what, g, shot)
        assert g["top"] >= 0 and g["bottom"] <= g["h"] and g["height"] >= 0.38 * g["h"], (what, g)
        assert g["hand"] and g["hand"][0] >= g["bottom"] and g["hand"][0] < g["h"], (what, g)
        assert small_targets(phone) == [], what
        cut = phone.evaluate("""() => [...document.querySelectorAll('[data-testid=colmena-hand] .cc-name, .cc-choose .cc-name')]
          .filter((el) => el.scrollWidth > el.clientWidth + 0.5 || el.scrollHeight > el.clientHeight + 0.5)
          .map((el) => el.textContent)""")
        assert cut == [], (what, "card names cut", cut)
        assert axe(phone) == [], what
        return g

    view = state(table, seq)["view"]
    phone = phones[view["awaiting"]["seat"]]
    mine = state(phone, seq)["view"]
    assert view["awaiting"]["step"] == "keep"
    judged(phone, "keep")
    expect(phone.get_by_test_id(f"colmena-keep-{mine['choosing'][0]['id']}")).to_be_visible()
    seq = click_and_wait(phone, f"colmena-keep-{mine['choosing'][0]['id']}", table, seq)
    mine = state(phone, seq)["view"]
    assert mine["awaiting"]["step"] == "action"
    judged(phone, "action")
    if mine["playable"]:
        play = mine["playable"][0]
        phone.get_by_test_id(f"colmena-hand-{play['card']}").click()
        x, y = play["cells"][0]
        expect(phone.get_by_test_id(f"colmena-cell-{x}_{y}")).to_be_visible()
        judged(phone, "selected")
