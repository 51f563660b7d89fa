"""A team types its answer while the game moves on (issue 36): every state that arrives
redraws the team's page, and the text being typed, the focus and the selection survive
each of them, on the one-line field (Quién lo dijo) and on the text area (Pregunta abierta).

The GM pauses and resumes the clock (each a new state for every device) while the tablet
types, selects and types over its selection; after each state the tablet's field is
checked as a person would see it: the same text, still focused, the same selection.
"""
from __future__ import annotations

import pytest

try:
    from playwright.sync_api import expect
except ImportError:         # the browser fixture skips, or fails under CI, and says why
    expect = None

SETTINGS = {"teams": [{"name": f"Equipo {n}", "members": 4} for n in range(1, 5)],
            "round_modes": [["simple"]], "deliberation_seconds": 300}
FIELD = "[data-testid=write-text]"


def mark(page):
    """Remember the state the page has drawn (a clock's state keeps its seq: compare objects)."""
    page.evaluate("() => { window.__drawn = window.Live.state; }")


def arrived(page):
    """Wait until a newer state than the one marked has been drawn."""
    page.wait_for_function("() => window.Live.state !== window.__drawn")


def field(page) -> dict:
    """What the person sees of the answer field: its text, whether it has the focus, the selection."""
    return page.evaluate("""(sel) => { const f = document.querySelector(sel);
        return {value: f.value, focused: document.activeElement === f,
                selection: [f.selectionStart, f.selectionEnd]}; }""", FIELD)


def next_state(gm, tablet, button: str):
    """The GM clicks ``button``; returns once the tablet has drawn the state it made."""
    mark(tablet)
    gm.get_by_test_id(button).click()
    arrived(tablet)


@pytest.mark.parametrize("qtype", ["quien", "abierta"])
def test_typed_text_focus_and_selection_survive_every_state(room, qtype):
    room.open_console(room.create_via_http(SETTINGS))
    room.join(2)
    gm, t2 = room.gm, room.teams[2]
    gm.get_by_test_id("declare-simple-2").click()
    gm.get_by_test_id("choose-type").select_option(qtype)
    gm.get_by_test_id("choose-send").click()
    gm.get_by_test_id("question-read").click()
    gm.get_by_test_id("timer-start").click()
    expect(gm.get_by_test_id("timer-pause")).to_be_visible()
    expect(t2.locator(FIELD)).to_be_editable()

    t2.locator(FIELD).click()
    t2.keyboard.type("Immanuel Kant")
    next_state(gm, t2, "timer-pause")
    assert field(t2) == {"value": "Immanuel Kant", "focused": True, "selection": [13, 13]}

    # A selection made before a state is still there after it, and typing replaces it.
    t2.evaluate("(sel) => document.querySelector(sel).setSelectionRange(0, 8)", FIELD)
    next_state(gm, t2, "timer-resume")
    assert field(t2) == {"value": "Immanuel Kant", "focused": True, "selection": [0, 8]}
    t2.keyboard.type("I.")
    assert field(t2) == {"value": "I. Kant", "focused": True, "selection": [2, 2]}

    # Typing key by key while the states land: no key lost, the caret where the keys go.
    t2.keyboard.press("End")
    for button, more in (("timer-pause", " (1724"), ("timer-resume", "-1804)")):
        mark(t2)
        gm.get_by_test_id(button).click()
        t2.keyboard.type(more, delay=40)
        arrived(t2)
    text = "I. Kant (1724-1804)"
    assert field(t2) == {"value": text, "focused": True, "selection": [len(text), len(text)]}
    expect(t2.get_by_test_id("write-status")).to_have_text("Borrador sin enviar")
    room.shot(t2, f"typing-{qtype}-while-states-arrive")

    # Sent, it counts, and the field keeps it.
    t2.get_by_test_id("write-send").click()
    expect(gm.get_by_test_id("written-live")).to_have_text(text)
    expect(t2.locator(FIELD)).to_have_value(text)
