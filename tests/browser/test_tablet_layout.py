"""Tablets and phones a team understands (issue 13), and the pages before the game.

An 800 px tablet: the question at 24 px or more, the countdown at 48 px or more, the
page using the width, nothing outside the viewport's width; each card and challenge says
what it does and asks to confirm; after a verdict the team sees what it won or lost;
its own row marked in every ranking; a mistyped join code stays in the field with the
error beside it. axe-core finds no violation on the join, login, set-up and tablet pages.
Screenshots: test-artifacts/tablet_layout-*.png.
"""
from __future__ import annotations

import re

try:
    from playwright.sync_api import expect
except ImportError:         # the browser fixture skips, or fails under CI, and says why
    expect = None

from .layout import GM, axe, font, long_settings, steady

TABLET = {"width": 800, "height": 1280}
PHONE = {"width": 390, "height": 844}


def no_horizontal_scroll(page):
    sizes = page.evaluate("() => [document.documentElement.scrollWidth, innerWidth]")
    assert sizes[0] <= sizes[1], sizes


def check(room, page, name):
    steady(page)
    room.shot(page, name)
    no_horizontal_scroll(page)
    assert axe(page) == [], (name, axe(page))


def test_pages_before_the_game_have_no_axe_violation(room, server, screens):
    page = screens.page("visitor", PHONE, mobile=True)
    page.goto(server.url + "/join")
    check(room, page, "join")
    page.get_by_test_id("join-code").fill("abcd-efgh")
    page.get_by_test_id("join-submit").click()
    expect(page.get_by_test_id("join-error")).to_be_visible()
    expect(page.get_by_test_id("join-code")).to_have_value("ABCD-EFGH")
    check(room, page, "join-mistyped")
    page.goto(server.url + "/console/login")
    check(room, page, "login")
    room.gm.goto(server.url + "/console")
    expect(room.gm.get_by_test_id("game-cards")).to_be_visible()
    check(room, room.gm, "home")
    room.gm.goto(server.url + "/console/new/partida")
    expect(room.gm.get_by_test_id("create-game")).to_be_visible()
    check(room, room.gm, "setup")


def test_a_tablet_through_a_turn(room, server, screens):
    settings = long_settings(rounds=1)
    settings["roster"] = [[f"Estudiante {t}.{m}" for m in range(1, 5)] for t in range(1, 7)]
    game_id = room.create_via_http(settings, name="Tabletas")
    gm = GM(room, game_id)
    try:
        tablets = {}
        for n, viewport in ((1, TABLET), (3, TABLET), (2, PHONE)):
            page = screens.page(f"team{n}", viewport, mobile=True)
            page.goto(f"{server.url}/j/{gm.codes[n]}")
            page.wait_for_url(re.compile(r"/team$"))
            expect(page.get_by_test_id("team-role")).to_have_attribute("data-role", re.compile("host|adjunct"))
            tablets[n] = page
        t1, t3, t2 = tablets[1], tablets[3], tablets[2]
        expect(t1.get_by_test_id("team-members")).to_contain_text("Estudiante 1.1")
        expect(t1.locator("h1")).to_have_count(1)
        # The host's choices each say what they do; a challenge asks to confirm.
        expect(t1.get_by_test_id("team-actions")).to_contain_text("el equipo desafiado escribe")
        check(room, t1, "1-declare-800")
        check(room, t2, "1-wait-phone")
        asked = []
        t1.once("dialog", lambda d: (asked.append(d.message), d.accept()))
        t1.get_by_test_id("declare-simple-3").click()
        expect(t1.get_by_test_id("team-role")).to_contain_text("anfitrión")
        assert asked and "Desafío simple" in asked[0], asked
        # Seguro: one line of what it does, and a confirmation that can say no.
        expect(t1.locator(".special")).to_contain_text(re.compile("pifie"))
        asked.clear()
        t1.once("dialog", lambda d: asked.append(d.message))     # (the screens accept every dialog)
        t1.get_by_test_id("seguro").click()
        expect(t1.get_by_test_id("seguro")).to_have_count(0)
        assert asked and "Seguro" in asked[0] and "pifie" in asked[0], asked
        # The spokesperson is one of the team's members (the class list).
        speaker = t1.get_by_test_id("spokesperson-name")
        if speaker.count():
            assert speaker.evaluate("(el) => el.tagName") == "SELECT"
            assert "Estudiante 5.1" not in speaker.inner_text()
        gm.act("choose", author="Kant", type="vf")
        gm.act("question", id=gm.state["candidates"][0]["id"])
        gm.call("timer", {"op": "start"})
        expect(t3.get_by_test_id("question-text")).to_be_visible()
        expect(t2.get_by_test_id("team-waiting")).to_contain_text("proyector")      # nothing to do
        expect(t3.get_by_test_id("team-timer")).not_to_be_empty()
        assert font(t3, "[data-testid=question-text]") >= 24
        assert font(t3, "[data-testid=team-timer]") >= 48
        width = t3.locator(".tcols").bounding_box()["width"]
        assert width >= 0.9 * TABLET["width"] - 60, width
        check(room, t3, "2-write-800")
        # Verdicts: the host answers right; the written answer is right: each sees its result.
        gm.act("write", team=3, text="V")
        gm.act("verdict", result="full")
        gm.act("written", correct=True)
        for _ in range(4):
            owed = [e for e in gm.state["legal"] if e["do"] in ("pick", "argument")]
            if not owed:
                break
            if owed[0]["do"] == "pick":
                gm.act("pick", team=owed[0]["seats"][0], card="author")
            else:
                gm.act("argument", result="good")
        expect(t1.get_by_test_id("team-result-total")).to_contain_text("+")
        assert font(t1, "[data-testid=team-result-total]") >= 28
        expect(t1.locator("[data-testid=score-team-1].me")).to_have_count(1)
        check(room, t1, "3-result-800")
        check(room, t2, "3-result-phone")
        # The finale: the ranking, this team's line marked.
        from .layout import play_to_end, resolve
        resolve(gm)
        play_to_end(gm)
        expect(t2.get_by_test_id("team-role")).to_have_attribute("data-role", "over")
        expect(t2.locator("[data-testid^=rank-].me")).to_have_attribute("data-team", "2")
        expect(t2.locator("[data-testid^=rank-].me")).to_contain_text("(vosotros)")
        check(room, t2, "4-finale-phone")
        check(room, t1, "4-finale-800")
    finally:
        gm.close()
