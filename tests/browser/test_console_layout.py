"""The GM console at classroom grade (issues 17 and 13): laptop, tablet and phone.

At 1366×768 (mouse), 820×1180 and 390×844 (touch) the GM plays a normal turn, a
simple and a risky challenge through the console's own buttons (tapped on the
handhelds), and at every step:

- the page is no wider than the screen (nothing scrolls sideways);
- the buttons of what the game waits for, Undo/Redo and (while the teams
  deliberate) the timer are on the first screen, with the page not scrolled,
  not covered by anything else and not overlapping each other;
- on the handhelds they are at least 44×44 px;
- a screenshot is saved as test-artifacts/console_layout-<size>-<step>.png.

axe-core (injected, never served) reports no violation of any impact in a few
of those states. A last test presses the keyboard shortcuts on the laptop.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

try:
    from playwright.sync_api import expect
except ImportError:         # the browser fixture skips, or fails under CI, and says why
    expect = None

from server import ROOT

from .layout import steady

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
SETTINGS = {"teams": [{"name": name, "members": 4} for name in
                      ("Los Sofistas", "Escuela de Atenas", "Círculo de Viena", "Las Estoicas")],
            "rounds": 2, "round_modes": [["normal", "simple", "risky"], ["normal", "simple", "risky"]],
            "individual_rounds": [2], "deliberation_seconds": 120}
SIZES = {
    "laptop": ({"width": 1366, "height": 768}, False),
    "tablet": ({"width": 820, "height": 1180}, True),
    "phone": ({"width": 390, "height": 844}, True),
}
TOUCH_MIN = 44

GEOMETRY = """() => {
  window.scrollTo(0, 0);
  const sel = '#dock-actions button, #dock-actions a, #dock-actions select, #tools button, #timer-buttons button';
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const boxes = Array.from(document.querySelectorAll(sel)).filter(shown).map((el) => {
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    return { id: el.dataset.testid || el.tagName, x: r.left, y: r.top, w: r.width, h: r.height,
             covered: !(hit && (hit === el || el.contains(hit))) };
  });
  const timer = document.getElementById('timer-display');
  const tr = timer.getBoundingClientRect();
  const vv = window.visualViewport || { offsetLeft: 0, offsetTop: 0, width: innerWidth, height: innerHeight, scale: 1 };
  return { scrollWidth: document.documentElement.scrollWidth, innerWidth: Math.min(window.innerWidth, vv.width),
           innerHeight: Math.min(window.innerHeight, vv.height), scrollY: window.scrollY + vv.offsetTop, boxes: boxes,
           vv: [vv.offsetLeft, vv.offsetTop, vv.width, vv.height, vv.scale, innerWidth, innerHeight],
           timer: shown(timer) ? { x: tr.left, y: tr.top, w: tr.width, h: tr.height } : null };
}"""


def console_geometry_problems(page, touch: bool, deliberating: bool) -> tuple[list[str], list[str]]:
    """What is wrong with the console's layout now; and the ids of the bar's controls."""
    g = page.evaluate(GEOMETRY)
    problems = []
    if g["vv"][:2] != [0, 0] or g["vv"][4] != 1:
        problems.append(f"the visual viewport is moved or zoomed: {g['vv']}")
    if g["scrollWidth"] > g["innerWidth"]:
        problems.append(f"page {g['scrollWidth']} px wide in a {g['innerWidth']} px screen")
    if g["scrollY"] != 0:
        problems.append(f"page scrolled to {g['scrollY']}")
    boxes = g["boxes"]
    if deliberating:
        if g["timer"] is None:
            problems.append("no timer while deliberating")
        else:
            boxes = boxes + [dict(g["timer"], id="timer-display", covered=False)]

    def inside(b):
        return b["x"] >= 0 and b["y"] >= 0 and b["x"] + b["w"] <= g["innerWidth"] + 0.5 \
            and b["y"] + b["h"] <= g["innerHeight"] + 0.5

    for b in boxes:
        if not inside(b):
            problems.append(f"{b['id']} outside the first screen: {b}")
        if b["covered"]:
            problems.append(f"{b['id']} covered by another element")
        if touch and b["id"] != "timer-display" and (b["w"] < TOUCH_MIN or b["h"] < TOUCH_MIN):
            problems.append(f"{b['id']} smaller than {TOUCH_MIN}×{TOUCH_MIN}: {b['w']:.0f}×{b['h']:.0f}")
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            if a["x"] < b["x"] + b["w"] - 0.5 and b["x"] < a["x"] + a["w"] - 0.5 \
                    and a["y"] < b["y"] + b["h"] - 0.5 and b["y"] < a["y"] + a["h"] - 0.5:
                problems.append(f"{a['id']} overlaps {b['id']}")
    return problems, [b["id"] for b in g["boxes"]]


def console_axe_violations(page) -> list[dict]:
    """axe-core's violations (any impact) on the page as it is now."""
    if not page.evaluate("() => !!window.axe"):
        page.add_script_tag(path=str(AXE))
    result = page.evaluate("() => axe.run(document, { resultTypes: ['violations'] })")
    return [{"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]][:5]}
            for v in result["violations"]]


class Console:
    """The console page at one size, played through its buttons."""

    def __init__(self, room, size: str):
        viewport, touch = SIZES[size]
        self.room, self.size, self.touch = room, size, touch
        state = room.gm.context.storage_state()
        self.page = room.screens.page(f"gm-{size}", viewport, mobile=touch, storage_state=state,
                                      bypass_csp=True)
        room.gm = self.page
        room.open_console(room.create_via_http(SETTINGS, name="Filosofía 3.º B"))
        self.step = 0

    def press(self, testid: str):
        button = self.page.get_by_test_id(testid)
        if self.touch:
            button.tap()
        else:
            button.click()

    def check(self, name: str, deliberating: bool = False, axe: bool = False) -> list[str]:
        """Assert the layout of this step, photograph it; the ids of the bar's controls."""
        page = self.page
        steady(page)                        # the bar's height settles (ResizeObserver)
        problems, ids = console_geometry_problems(page, self.touch, deliberating)
        self.step += 1
        self.room.shot(page, f"{self.size}-{self.step:02d}-{name}", full_page=False)
        assert not problems, (self.size, name, problems)
        if axe:
            violations = console_axe_violations(page)
            assert not violations, (self.size, name, violations)
        return ids

    def play_turn(self, label: str, declare: str, verdict: str, axe: bool = False):
        """One turn from the declaration to its end, checking every step."""
        page = self.page
        number = len(page.locator("[data-testid^=history-turn-]").all()) + 1
        ids = self.check(f"{label}-declare", axe=axe)
        assert declare in ids, ids
        self.press(declare)
        expect(page.get_by_test_id("choose-send")).to_be_visible()
        ids = self.check(f"{label}-choose")
        assert {"choose-send", "undo"} <= set(ids), ids
        self.press("choose-send")
        expect(page.get_by_test_id("question-read")).to_be_visible()
        ids = self.check(f"{label}-question", axe=axe)
        assert {"question-read", "undo"} <= set(ids), ids
        self.press("question-read")
        expect(page.get_by_test_id("timer-start")).to_be_visible()
        ids = self.check(f"{label}-deliberation", deliberating=True, axe=axe)
        assert {"verdict-full", "verdict-half", "verdict-wrong", "timer-start", "undo"} <= set(ids), ids
        self.press("timer-start")
        expect(page.get_by_test_id("timer-pause")).to_be_visible()
        self.check(f"{label}-timer-running", deliberating=True)
        self.press(verdict)
        for _ in range(4):                  # pick a card, judge the written answer, the argument
            page.wait_for_function("() => document.querySelector('#dock-actions button, #dock-actions a')")
            ids = self.check(f"{label}-after-{verdict}-{_}")
            nxt = next((i for i in ("pick-author", "written-true", "written-false", "argument-good")
                        if i in ids), None)
            if nxt is None:
                break
            self.press(nxt)
            expect(page.get_by_test_id(nxt)).to_have_count(0)
        assert "end-turn" in ids, ids
        self.press("end-turn")
        expect(page.get_by_test_id(f"history-turn-{number}")).to_be_attached()
        expect(page.get_by_test_id("toast-undo")).to_be_visible()


@pytest.mark.parametrize("size", list(SIZES))
def test_console_turns_fit_the_first_screen(room, size):
    c = Console(room, size)
    page = c.page
    expect(page.get_by_test_id("start-guide")).to_be_visible()
    expect(page.get_by_test_id("start-teams")).to_contain_text("0")
    room.join(1)
    expect(page.get_by_test_id("start-teams")).to_contain_text("1")
    if c.touch:                             # the header's links are in the menu
        expect(page.get_by_test_id("results-link")).to_be_hidden()
        c.press("menu-toggle")
        expect(page.get_by_test_id("results-link")).to_be_visible()
        c.check("menu-open", axe=True)
        c.press("menu-toggle")
        expect(page.get_by_test_id("results-link")).to_be_hidden()
    else:
        expect(page.get_by_test_id("results-link")).to_be_visible()
    c.play_turn("normal", "declare-normal", "verdict-full", axe=True)
    expect(page.get_by_test_id("start-guide")).to_be_hidden()
    c.play_turn("simple", "declare-simple-3", "verdict-half")
    c.play_turn("risky", "declare-risky-1", "verdict-wrong", axe=(size != "laptop"))


def test_console_stale_error_clears_and_toast_undoes(room):
    """A refusal's message goes when the next action succeeds; the toast's Deshacer undoes."""
    c = Console(room, "laptop")
    page = c.page
    # An action the rules refuse now (a verdict before any question): the server's refusal.
    page.evaluate("() => window.Live.do({do: 'verdict', result: 'full'})")
    expect(page.get_by_test_id("notice")).to_have_class(re.compile(r"\berror\b"))
    page.get_by_test_id("declare-normal").click()
    expect(page.get_by_test_id("notice")).not_to_have_class(re.compile(r"\berror\b"))
    expect(page.get_by_test_id("toast-undo")).to_be_visible()
    page.get_by_test_id("toast-undo").click()
    expect(page.get_by_test_id("declare-normal")).to_be_visible()
    expect(page.get_by_test_id("notice")).to_contain_text(re.compile(r"deshizo", re.I))
    # Scrolled down to the join codes, the action bar stays at the top of the window.
    page.get_by_test_id("declare-normal").click()
    page.get_by_test_id("joins").scroll_into_view_if_needed()
    steady(page)
    top = page.evaluate("() => [scrollY, document.getElementById('dock').getBoundingClientRect().top,"
                        " document.querySelector('[data-testid=undo]').getBoundingClientRect().bottom]")
    assert top[0] > 300 and 0 <= top[1] <= 2 and top[2] < 768, top
    c.room.shot(page, "laptop-scrolled-bar-stays", full_page=False)


def test_console_keyboard_shortcuts_on_the_laptop(room):
    c = Console(room, "laptop")
    page = c.page
    # The skip link leads to the action bar, and the focus is visible there.
    page.keyboard.press("Tab")
    expect(page.get_by_test_id("skip-link")).to_be_focused()
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    expect(page.get_by_test_id("declare-normal")).to_be_focused()
    focused = page.evaluate("() => document.activeElement.closest('#dock') !== null")
    assert focused
    assert page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle") != "none"
    c.room.shot(page, "laptop-skip-link-focus", full_page=False)
    page.keyboard.press("Enter")                         # declare normal, from the keyboard
    page.get_by_test_id("choose-send").click()
    expect(page.get_by_test_id("question-read")).to_be_visible()
    page.keyboard.press("q")                             # read the question
    expect(page.get_by_test_id("timer-start")).to_be_visible()
    page.keyboard.press("s")                             # start the timer
    expect(page.get_by_test_id("timer-pause")).to_be_visible()
    page.keyboard.press("s")                             # pause it
    expect(page.get_by_test_id("timer-resume")).to_be_visible()
    page.keyboard.press("1")                             # verdict: full
    expect(page.get_by_test_id("end-turn")).to_be_visible()
    page.keyboard.press("u")                             # undo the verdict
    expect(page.get_by_test_id("verdict-full")).to_be_visible()
    page.keyboard.press("r")                             # redo it
    expect(page.get_by_test_id("end-turn")).to_be_visible()
    page.keyboard.press("e")                             # end the turn
    expect(page.get_by_test_id("history-turn-1")).to_be_attached()


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_console_end_of_game_leads_to_the_results(room, size):
    """Ending the game puts "Ver los resultados" in the action bar, on the first screen."""
    c = Console(room, size)
    page = c.page
    end = page.get_by_test_id("end-game")
    end.scroll_into_view_if_needed()
    c.press("end-game")                                  # the confirmation is accepted
    results = page.get_by_test_id("see-results")
    expect(results).to_be_visible()
    assert results.get_attribute("href") == f"/console/{room.game_id}/results"
    ids = c.check("game-over", axe=True)
    assert "see-results" in ids, ids
    c.press("see-results")
    page.wait_for_url(re.compile(rf"/console/{room.game_id}/results$"))


def test_console_shows_the_expected_answer_on_the_projector_after_the_verdict(room):
    """R-V1 and issue 13: after the verdict the GM puts the expected answer up, and takes
    it down again; before the verdict the console does not offer it."""
    c = Console(room, "laptop")
    page = c.page
    room.open_projector()
    c.press("declare-normal")
    c.press("choose-send")
    c.press("question-read")
    expect(page.get_by_test_id("verdict-full")).to_be_visible()
    expect(page.get_by_test_id("show-answer")).to_have_count(0)
    c.press("verdict-full")
    c.press("show-answer")
    expect(room.projector.get_by_test_id("proj-answer")).to_be_visible()
    expect(page.get_by_test_id("show-answer")).to_have_class(re.compile(r"\bon\b"))
    c.room.shot(room.projector, "projector-shown-answer", full_page=False)
    c.press("show-answer")
    expect(room.projector.get_by_test_id("proj-answer")).to_have_count(0)
