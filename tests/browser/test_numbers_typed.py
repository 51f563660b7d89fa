"""Every number a teacher types is read in the page's language, never guessed (issue 34).

"Corregir un puntaje" on the console: `0,5`, `-0,5` and `1.5` are stored as 0.5, -0.5
and 1.5 in a Spanish console; `05` and `abc` are refused with a sentence beside the
field and nothing reaches the record. The correction says what it will do before it
is sent, needs a reason (R-P3), and the fields are empty once it is sent, so a second
click cannot apply it again. In English `0,5` is refused (a thousands comma there).
The set-up form reads its numbers the same way.
"""
from __future__ import annotations

import re

from playwright.sync_api import expect

from .layout import axe, long_settings

SETTINGS = long_settings(rounds=1)


def adjustments(room) -> list[tuple[int, float, str]]:
    """The adjust actions of the game's record: (team, points, reason)."""
    return [(a["team"], a["points"], a["reason"]) for a in room.record()["actions"]
            if a["do"] == "adjust"]


def test_a_score_correction_reads_the_decimal_comma_and_refuses_what_it_cannot_read(room):
    room.open_console(room.create_via_http(SETTINGS))
    gm = room.gm
    points, reason = gm.get_by_test_id("adjust-points"), gm.get_by_test_id("adjust-reason")
    send, preview = gm.get_by_test_id("adjust-send"), gm.get_by_test_id("adjust-preview")
    gm.get_by_test_id("adjust-team").select_option("2")

    # Nothing typed yet: the button waits, the line says how to write the points.
    expect(send).to_be_disabled()
    expect(preview).to_contain_text("0,5")

    # 0,5 with a reason: the line says what will be applied before it is.
    points.fill("0,5")
    expect(preview).to_contain_text("necesita un motivo")     # no reason yet: R-P3
    expect(send).to_be_disabled()
    reason.fill("Respuesta del turno 2 mal juzgada")
    expect(preview).to_have_text(re.compile(r"Se aplicará: .*2.* pasa de 0 a 0,5 puntos \(\+0,5\)\."))
    expect(send).to_be_enabled()
    room.shot(gm, "adjust-preview-0,5")
    send.click()
    expect(gm.get_by_test_id("score-team-2")).to_have_text("0,5")
    # Cleared once sent: a second click has nothing to apply.
    expect(points).to_have_value("")
    expect(reason).to_have_value("")
    expect(send).to_be_disabled()
    send.click(force=True)
    assert adjustments(room) == [(2, 0.5, "Respuesta del turno 2 mal juzgada")]

    for typed, stored in (("-0,5", -0.5), ("1.5", 1.5), ("\u22122", -2)):
        points.fill(typed)
        reason.fill(f"corrección {typed}")
        expect(send).to_be_enabled()
        send.click()
        expect(points).to_have_value("")
    # The field clears as the correction goes: the score shown is the server's answer.
    expect(gm.get_by_test_id("score-team-2")).to_have_text("\u22120,5")
    assert [p for _, p, _ in adjustments(room)] == [0.5, -0.5, 1.5, -2]

    # What cannot be read is refused beside the field, never reinterpreted.
    for typed, said in (("05", "¿0,5 o 5?"), ("abc", "no es un número"), ("1.000,5", "no es un número"),
                        ("0", "no cambia nada")):
        points.fill(typed)
        reason.fill("no debe aplicarse")
        expect(preview).to_contain_text(said)
        expect(points).to_have_attribute("aria-invalid", "true")
        expect(send).to_be_disabled()
        points.press("Enter")
        reason.press("Enter")
    room.shot(gm, "adjust-refused-0")
    assert len(adjustments(room)) == 4
    assert axe(gm) == []


def test_an_english_console_takes_the_point_and_refuses_the_comma(room):
    room.open_console(room.create_via_http(SETTINGS))
    gm = room.gm
    gm.goto(gm.url + "?lang=en")
    points, reason = gm.get_by_test_id("adjust-points"), gm.get_by_test_id("adjust-reason")
    points.fill("0,5")
    reason.fill("ambiguous")
    expect(gm.get_by_test_id("adjust-preview")).to_contain_text("Decimals take a point")
    expect(gm.get_by_test_id("adjust-send")).to_be_disabled()
    points.fill("0.5")
    expect(gm.get_by_test_id("adjust-preview")).to_contain_text("(+0.5)")
    gm.get_by_test_id("adjust-send").click()
    expect(points).to_have_value("")
    # The field clears as the correction goes; the score is the server's answer.
    expect(gm.get_by_test_id("score-team-1")).to_have_text("0.5")
    assert adjustments(room) == [(1, 0.5, "ambiguous")]


def test_the_set_up_form_reads_its_numbers_and_sends_nothing_it_cannot_read(room):
    gm = room.gm
    expect(gm.get_by_test_id("settings-check")).to_contain_text("✓")
    gm.locator("[data-testid=advanced] > summary").click()
    gm.get_by_test_id("points-consolation").fill("0,75")
    gm.get_by_test_id("points-pifie").fill("-1")
    gm.get_by_test_id("rounds").fill("2,5")
    expect(gm.get_by_test_id("rounds-error")).to_contain_text("número entero")
    expect(gm.get_by_test_id("settings-check")).to_contain_text("no se entiende")
    room.shot(gm, "setup-rounds-unreadable")
    gm.get_by_test_id("create-game").click()
    expect(gm.get_by_test_id("create-error")).to_contain_text(re.compile(r"no se (envió|ha enviado) nada"))
    assert re.search(r"/console/new/partida$", gm.url)          # still the form: nothing made

    gm.get_by_test_id("rounds").fill("2")
    expect(gm.get_by_test_id("rounds-error")).to_be_hidden()
    expect(gm.get_by_test_id("settings-check")).to_contain_text("✓")
    gm.get_by_test_id("create-game").click()
    gm.wait_for_url(re.compile(r"/console/\d+$"))
    room._on_console()
    settings = room.record()["settings"]
    assert settings["rounds"] == 2
    assert settings["points"]["consolation"] == 0.75 and settings["points"]["pifie"] == -1
