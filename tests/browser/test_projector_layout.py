"""The projector at classroom grade (issue 13): 6 teams with 30-character names, a
280-character written answer revealed with its awards, at 1280x720 and 1920x1080.

Everything inside the viewport, nothing overlapping, no word broken inside, the question
the largest text after the countdown, awards as sentences, the join codes reachable during
the game, the expected answer shown by the GM (and kept across a reload, never sent to the
teams), and no axe-core violation. Screenshots: test-artifacts/projector_layout-*.png.
"""
from __future__ import annotations

import pytest

try:
    from playwright.sync_api import expect
except ImportError:         # the browser fixture skips, or fails under CI, and says why
    expect = None

from .layout import GM, WRITTEN_280, assert_fits, axe, choose_any, font, long_settings

VIEWPORTS = {"720p": {"width": 1280, "height": 720}, "1080p": {"width": 1920, "height": 1080}}
APART = [".pname", ".pround", ".porder", ".ptool", ".pturn > *", ".preveal > *", ".pclock", "tr[data-testid^=score-team]",
         ".pfoot"]
CHECKED = APART + [".countdown", ".pscores td", ".tname", ".pquestion"]


def open_projectors(room, gm: GM):
    pages = {}
    for name, viewport in VIEWPORTS.items():
        page = room.screens.page(f"projector-{name}", viewport)
        page.goto(f"{room.server.url}/projector/{gm.watch}")
        expect(page.get_by_test_id("round")).not_to_be_empty()
        pages[name] = page
    return pages


def check(room, pages, state: str, apart=APART, checked=CHECKED):
    for name, page in pages.items():
        page.wait_for_timeout(250)
        room.shot(page, f"{state}-{name}", full_page=False)
        assert_fits(page, checked, apart)
        violations = axe(page)
        assert violations == [], (state, name, violations)


def test_projector_lobby_question_reveal_and_finale_fit_the_screen(room, server):
    game_id = room.create_via_http(long_settings(rounds=1), name="Filosofía 4.º B — la partida del jueves")
    gm = GM(room, game_id)
    try:
        pages = open_projectors(room, gm)
        # The lobby: the join panel, every code, the sound button asking to be switched on.
        for page in pages.values():
            expect(page.get_by_test_id("join-panel")).to_be_visible()
            expect(page.locator("h1")).to_have_count(1)
            expect(page.locator("body")).to_have_class("projector joining sound-ask")
        check(room, pages, "1-lobby", apart=[".pname", ".pjoincard", ".pjoinurl", ".pfoot"],
              checked=[".phead", ".pjoincard", ".pjoinurl", ".pcode", ".pfoot"])

        # A simple challenge of team 1 to team 2, team 2 plays Desvío to team 3.
        gm.act("declare", mode="simple", target=2)
        gm.act("desvio", team=2, target=3)
        assert choose_any(gm, ("abierta",)), gm.state["legal"]
        candidates = gm.state["candidates"]
        question = max(candidates, key=lambda q: len(q["text"]))
        gm.act("question", id=question["id"])
        gm.call("timer", {"op": "start"})
        for page in pages.values():
            expect(page.get_by_test_id("proj-question")).to_be_visible()
            expect(page.get_by_test_id("proj-roles")).to_contain_text("Desvío: el desafío pasa del equipo 2 al equipo 3")
            expect(page.get_by_test_id("countdown")).to_have_class("countdown running")
        check(room, pages, "2-question")
        for page in pages.values():
            q, clock = font(page, ".pquestion"), font(page, ".countdown")
            others = page.evaluate("""() => Array.from(document.querySelectorAll('.proj *')).filter((el) =>
                el.offsetParent && !el.closest('.pquestion, .pclock') && el.childNodes.length &&
                Array.from(el.childNodes).some((n) => n.nodeType === 3 && n.data.trim()))
                .map((el) => parseFloat(getComputedStyle(el).fontSize))""")
            assert clock > q > max(others), (clock, q, max(others))
            assert q >= 0.025 * page.viewport_size["width"], q       # it scales with the screen

        # The secondary team (3, after the Desvío) writes 280 characters; the verdicts; awards.
        gm.act("write", team=3, text=WRITTEN_280)
        gm.act("verdict", result="wrong")
        gm.act("written", correct=True)
        for _ in range(3):          # any card still owed: the author (R-R picks)
            owed = [e for e in gm.state["legal"] if e["do"] in ("pick", "argument")]
            if not owed:
                break
            entry = owed[0]
            if entry["do"] == "pick":
                gm.act("pick", team=entry["teams"][0], card="author")
            else:
                gm.act("argument", result="good")
        # The GM shows the expected answer: only on the projector, kept across a reload.
        frames_before = {n: len(room.screens.frames.get(n, [])) for n in room.screens.frames}
        assert gm.call("show_answer", {"show": True})["ok"]
        assert gm.call("show_answer", {"show": "yes"})["ok"] is False
        for page in pages.values():
            expect(page.get_by_test_id("proj-written")).to_contain_text(WRITTEN_280[:40])
            expect(page.get_by_test_id("proj-answer")).to_be_visible()
            expect(page.get_by_test_id("proj-awards").locator("li").first).to_contain_text("(")
        awards = pages["720p"].get_by_test_id("proj-awards").inner_text()
        assert "pifie (\u22120,5)" in awards and "gana la carta «" in awards and "[" not in awards, awards
        pages["1080p"].reload()
        expect(pages["1080p"].get_by_test_id("proj-answer")).to_be_visible()
        check(room, pages, "3-reveal")
        del frames_before

        # The codes key: the join panel over the stage, during the game.
        page = pages["1080p"]
        page.keyboard.press("c")
        expect(page.get_by_test_id("join-panel")).to_be_visible()
        expect(page.get_by_test_id("join-code-1")).to_be_visible()
        room.shot(page, "4-codes-during-game-1080p", full_page=False)
        page.get_by_test_id("codes-toggle").click()
        expect(page.get_by_test_id("join-panel")).to_be_hidden()

        # The turn ends: the answer goes away.
        gm.act("end_turn")
        for page in pages.values():
            expect(page.get_by_test_id("proj-answer")).to_have_count(0)
        # The rest of the round from the console alone, to the finale.
        while not gm.state["view"]["over"]:
            gm.act("declare", mode="normal")
            assert choose_any(gm, ("vf", "quien", "abierta")), gm.state["legal"]
            gm.act("question", id=gm.state["candidates"][0]["id"])
            gm.act("verdict", result="full")
            while any(e["do"] == "pick" for e in gm.state["legal"]):
                entry = next(e for e in gm.state["legal"] if e["do"] == "pick")
                gm.act("pick", team=entry["teams"][0], card="author")
            gm.act("end_turn")
        for page in pages.values():
            expect(page.get_by_test_id("podium")).to_be_visible()
        check(room, pages, "5-finale", apart=[".pname", ".pround", ".podium", ".pranking li", ".pchart", ".pfoot"],
              checked=[".phead", ".podium", ".pranking li", ".pchart", ".pfoot"])
    finally:
        gm.close()


@pytest.mark.parametrize("show", [True])
def test_show_answer_is_the_gms_only(room, server, show):
    """A projector or a team cannot show the answer; before the verdict the GM cannot either."""
    game_id = room.create_via_http(long_settings(rounds=1), name="Respuesta")
    gm = GM(room, game_id)
    try:
        refused = gm.call("show_answer", {"show": show})
        assert refused["ok"] is False, refused
        assert gm.state.get("answer_shown") is False
    finally:
        gm.close()
