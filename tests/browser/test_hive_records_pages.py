"""A Hive game's pages of issue 38, item 6 in Chromium: the console's Hive form (a bad
GameString refused saying which move and why, the fixed one making the game) and the
results page of a won game, at 390×844 and 1366×768: nothing past the screen's sides,
axe-core clean, the words a teacher reads."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .layout import axe
from .test_console_screens import SIZES, sideways

SHORT_WIN = ["wS1", "bG1 wS1\\", "wB1 -wS1", "bQ /bG1", "wS2 /wB1", "bQ wB1\\", "wQ /wS2",
             "bA1 bQ\\", "wQ wS2\\"]
WON = ";".join(["Base;WhiteWins;Black[5]", *SHORT_WIN])


def clean(page) -> None:
    assert sideways(page) == [], sideways(page)
    assert axe(page) == [], axe(page)


@pytest.mark.parametrize("size", SIZES)
def test_the_hive_form_and_a_won_games_results(room, size):
    viewport, touch = SIZES[size]
    page = room.console_page(f"hive-records-{size}", viewport, mobile=touch)
    url = room.server.url
    page.goto(url + "/console/new/hive")
    form = page.get_by_test_id("new-hive-form")
    form.get_by_test_id("new-hive-name").fill(f"Final de Hive ({size})")
    form.get_by_test_id("new-hive-white").fill("María Zambrano de los Estoicos")
    form.get_by_test_id("new-hive-black").fill("Hipatia de Alejandría")
    form.get_by_test_id("new-hive-pasted").fill("Base;InProgress;Black[1];wS1;bQ wS1-")
    form.get_by_test_id("new-hive-create").click()
    error = page.get_by_test_id("new-hive-error")
    expect(error).to_contain_text("La jugada 2 del GameString no se puede jugar")
    expect(error).not_to_contain_text("You can't")         # a Spanish page, in Spanish
    expect(page.get_by_test_id("new-hive-pasted")).to_be_focused()     # in view, on a phone
    room.shot(page, f"hive-form-refused-{size}")
    clean(page)
    page.get_by_test_id("new-hive-pasted").fill(WON)
    page.get_by_test_id("new-hive-create").click()
    page.wait_for_url(re.compile(r"/console/\d+$"))
    game_id = int(page.url.rsplit("/", 1)[1])
    page.goto(f"{url}/console/{game_id}/results")
    expect(page.get_by_test_id("result")).to_have_text(
        "Ganan las blancas (María Zambrano de los Estoicos) — reina rodeada")
    expect(page.get_by_test_id("player-black")).to_contain_text("Hipatia de Alejandría")
    expect(page.get_by_test_id("moves").locator("tbody tr")).to_have_count(5)
    expect(page.get_by_test_id("download-record")).to_be_visible()
    room.shot(page, f"hive-results-{size}")
    clean(page)
