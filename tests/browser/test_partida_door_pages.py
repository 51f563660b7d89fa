"""La partida's front door on screen (issue 45): the projector's one code for the room,
with who is in each team, read from the back row at 1280x720 and 1920x1080; the phone's
list of names at 390x844 and on a tablet at 800x1280; the console's code card at 1366x768
and on a phone. Everything inside the viewport, nothing overlapping, the code the largest
text, no axe-core violation. Screenshots: test-artifacts/partida_door-*.png."""
from __future__ import annotations

import re

import pytest

try:
    from playwright.sync_api import expect
except ImportError:         # the browser fixture skips, or fails under CI, and says why
    expect = None

from .layout import FITTED, LONG_NAMES, assert_fits, axe, blank, font, steady

PROJECTORS = {"720p": {"width": 1280, "height": 720}, "1080p": {"width": 1920, "height": 1080}}
PHONE = {"width": 390, "height": 844}
TABLET = {"width": 800, "height": 1280}
LAPTOP = {"width": 1366, "height": 768}
#: Four students a team, with long names (the class list pasted with the game).
ROSTER = [[f"{first} {last}" for first in ("María José", "Juan Sebastián", "Ana Lucía", "Francisco Javier")[:4 - (n % 2)]]
          for n, last in enumerate(("Fernández de Córdoba", "Villanueva Echeverría", "Santamaría Ruiz",
                                    "Altamirano Quiroga", "Domínguez Larrañaga", "Bustamante Olivares"))]


def make_game(room, teams: int) -> int:
    settings = {"teams": [{"name": n[:30], "members": 4} for n in LONG_NAMES[:teams]],
                "rounds": 1, "round_modes": [["normal"]], "individual_rounds": []}
    response = room.gm.context.request.post(f"{room.server.url}/console/games", data={
        "name": "Filosofía 4.º B — la partida del jueves", "settings": settings,
        "roster": ROSTER[:teams]})
    assert response.json()["ok"], response.json()
    return response.json()["game_id"]


@pytest.mark.parametrize("teams", [4, 6])
def test_the_projector_shows_one_code_and_who_is_in_each_team(room, teams):
    game_id = make_game(room, teams)
    room.open_console(game_id)
    href = room.gm.get_by_test_id("projector-link").get_attribute("href")
    code = room.gm.get_by_test_id("door-code").inner_text()
    for name, viewport in PROJECTORS.items():
        page = room.screens.page(f"projector-{teams}-{name}", viewport)
        page.goto(href)
        expect(page.get_by_test_id("join-panel")).to_be_visible()
        expect(page.get_by_test_id("door-code")).to_have_text(code)
        for n in range(1, teams + 1):
            expect(page.get_by_test_id(f"members-{n}").locator("li")).to_have_text(ROSTER[n - 1])
            expect(page.get_by_test_id(f"joined-{n}")).to_have_text("Esperando al equipo…")
        steady(page, FITTED)
        room.shot(page, f"projector-{teams}-{name}", full_page=False)
        assert_fits(page, [".phead", ".pdoorcard", ".pjoincard", ".pmembers", ".pjoinurl", ".pcode", ".pfoot"],
                    [".pname", ".pdoorcard", ".pjoincard", ".pjoinurl", ".pfoot"])
        assert font(page, ".pdoorcode") >= 0.025 * viewport["width"]
        assert font(page, ".pmembers") >= 14
        size = page.get_by_test_id("door").locator("img").bounding_box()
        assert size["height"] >= 0.4 * viewport["height"], size      # scanned from the back row
        assert blank(page)["largest"] <= 1 / 3
        assert axe(page) == [], name


def test_a_phone_picks_its_name_and_the_console_shows_the_games_code(room):
    game_id = make_game(room, 6)
    room.open_console(game_id)
    gm = room.gm
    gm.set_viewport_size(LAPTOP)
    card = gm.get_by_test_id("door")
    card.scroll_into_view_if_needed()
    expect(card).to_contain_text("Código de la partida")
    room.shot(gm, "console-1366", full_page=False)
    assert axe(gm) == []
    code = gm.get_by_test_id("door-code").inner_text().replace("-", "")
    for label, viewport in (("phone", PHONE), ("tablet", TABLET)):
        page = room.screens.page(f"door-{label}", viewport, mobile=True)
        page.goto(f"{room.server.url}/j/{code}")
        page.wait_for_url(re.compile(r"/team$"))
        expect(page.get_by_test_id("door-title")).to_have_text("¿Quiénes sois?")
        expect(page.locator("#door-people li")).to_have_count(sum(len(t) for t in ROSTER))
        room.shot(page, f"names-{label}")
        # A long list scrolls down, never sideways.
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        assert axe(page) == [], label
        heights = page.locator("#door-people button").evaluate_all("(els) => els.map((e) => e.offsetHeight)")
        assert min(heights) >= 44, heights
    # The filter narrows the list as they type; the tap takes the phone to its team.
    page.get_by_test_id("door-filter").fill("villanueva")
    expect(page.locator("#door-people li:visible")).to_have_count(len(ROSTER[1]))
    page.locator("#door-people li:visible button").first.click()
    page.wait_for_url(re.compile(r"/team$"))
    expect(page.get_by_test_id("team-name")).to_have_text(LONG_NAMES[1][:30])
    expect(gm.get_by_test_id("devices-2")).to_have_text("1")
    # A new game code: the card shows it at once; the phone stays in its team.
    asked = []
    gm.on("dialog", lambda dialog: asked.append(dialog.message))      # the screens accept it
    gm.get_by_test_id("rotate-door-code").click()
    expect(gm.get_by_test_id("door-code")).not_to_have_text(code[:4] + "-" + code[4:])
    assert asked and "código del proyector dejará de valer" in asked[0], asked
    gm.set_viewport_size(PHONE)
    card.scroll_into_view_if_needed()
    room.shot(gm, "console-phone", full_page=False)
    wide = gm.evaluate(  # every box that reaches past the phone's width
        """() => Array.from(document.querySelectorAll('body *')).filter((e) => { const r = e.getBoundingClientRect(); return r.right > innerWidth + 1 && r.width > 0; }).slice(0, 8).map((e) => e.tagName + '.' + e.className + '#' + (e.dataset.testid || '') + ' ' + Math.round(e.getBoundingClientRect().right))""")
    assert wide == []           # the console scrolls down on a phone, never sideways
