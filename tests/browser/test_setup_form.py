"""The set-up form as a teacher fills it (issue 36: an ES module drawn with lit-html).

Team sizes proposed from a number of students keep the names already typed; teams are
added and removed within the game's bounds (sent by the server, not written in the
browser); the advanced settings follow the number of rounds with the game's default
schedule, one time fills every round, and a field being typed keeps its text, its focus
and its caret while the settings check answers. The game made has what the form showed.
"""
from __future__ import annotations

import re

try:
    from playwright.sync_api import expect
except ImportError:         # the browser fixture skips, or fails under CI, and says why
    expect = None


def teams_shown(gm) -> int:
    """How many team rows the form shows."""
    return gm.locator("[data-testid^=team-name-]").count()


def test_the_set_up_form_from_students_to_a_game(room):
    gm = room.gm
    expect(gm.get_by_test_id("settings-check")).to_contain_text("✓")
    gm.get_by_test_id("game-name").fill("Ética 2.º A")
    gm.get_by_test_id("team-name-1").fill("Sócrates")

    # 29 students: the server's sizes, the names typed kept; the game's bounds on the buttons.
    gm.get_by_test_id("students").fill("29")
    gm.get_by_test_id("propose").click()
    expect(gm.get_by_test_id("team-members-1")).not_to_have_value("4")
    count = teams_shown(gm)
    sizes = [int(gm.get_by_test_id(f"team-members-{i}").input_value()) for i in range(1, count + 1)]
    assert sum(sizes) == 29 and 4 <= count <= 6, sizes
    expect(gm.get_by_test_id("team-name-1")).to_have_value("Sócrates")
    expect(gm.get_by_test_id("game-name")).to_have_value("Ética 2.º A")
    while teams_shown(gm) < 6:
        gm.get_by_test_id("team-add").click()
    expect(gm.get_by_test_id("team-add")).to_be_disabled()
    while teams_shown(gm) > 4:
        gm.get_by_test_id(f"team-remove-{teams_shown(gm)}").click()
    expect(gm.get_by_test_id("team-remove-1")).to_be_disabled()
    expect(gm.get_by_test_id("team-add")).to_be_enabled()
    expect(gm.get_by_test_id("team-name-1")).to_have_value("Sócrates")

    # Three rounds: the game's default schedule of three; one time for every round.
    gm.locator("[data-testid=advanced] > summary").click()
    gm.get_by_test_id("rounds").fill("3")
    expect(gm.locator("table.sched tbody tr")).to_have_count(3)
    expect(gm.get_by_test_id("round-1-normal")).to_be_checked()
    expect(gm.get_by_test_id("round-2-normal")).not_to_be_checked()
    expect(gm.get_by_test_id("round-2-risky")).to_be_checked()
    expect(gm.get_by_test_id("round-3-individual")).to_be_checked()
    expect(gm.get_by_test_id("round-2-individual")).not_to_be_checked()
    gm.get_by_test_id("seconds-all").fill("45")
    expect(gm.get_by_test_id("round-3-seconds")).to_have_value("45")
    gm.get_by_test_id("round-2-simple").set_checked(False)

    # Typing while the check answers: the text, the focus and the caret stay.
    field = gm.get_by_test_id("points-consolation")
    field.click()
    gm.keyboard.press("End")
    with gm.expect_response(lambda response: "/api/check-settings" in response.url
                            and "0.52" in (response.request.post_data or "")):
        gm.keyboard.type("2", delay=120)          # the check of 0,52 answers meanwhile
    expect(field).to_have_value("0,52")
    assert gm.evaluate("() => [document.activeElement.dataset.testid, document.activeElement.selectionStart]") \
        == ["points-consolation", 4]
    expect(gm.get_by_test_id("settings-check")).to_contain_text("✓")
    # A number the page cannot read says so beside it, and nothing is sent with it.
    field.fill("0,5,2")
    expect(gm.get_by_test_id("points-consolation-error")).to_be_visible()
    expect(gm.get_by_test_id("settings-check")).to_contain_text(re.compile(r"no se entiende", re.I))
    field.fill("0,25")
    expect(gm.get_by_test_id("points-consolation-error")).to_be_hidden()
    expect(gm.get_by_test_id("settings-check")).to_contain_text("✓")

    gm.get_by_test_id("create-game").click()
    gm.wait_for_url(re.compile(r"/console/\d+$"))
    room.game_id = int(gm.url.rsplit("/", 1)[1])
    settings = room.record()["settings"]
    assert settings["rounds"] == 3 and settings["deliberation_seconds"] == 45, settings
    assert settings["round_modes"] == [["normal"], ["risky"], ["simple", "risky"]], settings
    assert settings.get("individual_rounds", [3]) == [3], settings
    assert settings["points"]["consolation"] == 0.25, settings
    assert [tm["name"] for tm in settings["teams"]] == ["Sócrates", "Equipo 2", "Equipo 3", "Equipo 4"]
    expect(gm.get_by_test_id("game-name")).to_have_text("Ética 2.º A")
