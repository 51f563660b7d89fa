"""The console's home and the pages' names in Chromium (issue 45, item 1): the three games
side by side at 1366×768 and stacked on a 390×844 phone, each card's buttons leading to
its game's form; the join page's neutral words on a phone; a colmena hall's header naming
la colmena. Nothing past the screen's sides, axe-core clean; screenshots
test-artifacts/<test>-home-<size>.png, -join-phone.png, -colmena-hall.png."""
from __future__ import annotations

import re

import pytest

try:
    from playwright.sync_api import expect
except ImportError:         # the browser fixture skips, or fails under CI, and says why
    expect = None

from .layout import axe
from .test_console_screens import SIZES, sideways

GAMES = ("partida", "colmena", "hive")


def boxes(page) -> list[dict]:
    return [page.get_by_test_id(f"game-card-{name}").bounding_box() for name in GAMES]


@pytest.mark.parametrize("size", SIZES)
def test_the_home_offers_the_three_games_side_by_side(room, size):
    viewport, touch = SIZES[size]
    page = room.console_page(f"home-{size}", viewport, mobile=touch)
    page.goto(room.server.url + "/console/?lang=es")
    expect(page.get_by_test_id("brand")).to_have_text("El facilitador")
    expect(page.get_by_test_id("game-card-partida").get_by_role("heading")).to_have_text("La partida")
    expect(page.get_by_test_id("game-card-colmena").get_by_role("heading")).to_have_text("La colmena")
    expect(page.get_by_test_id("game-card-hive").get_by_role("heading")).to_have_text("Hive")
    cards = boxes(page)
    if size == "laptop":            # one row, left to right, on the first screen
        assert all(abs(b["y"] - cards[0]["y"]) < 1 for b in cards), cards
        assert all(a["x"] + a["width"] < b["x"] for a, b in zip(cards, cards[1:])), cards
        assert all(b["y"] + b["height"] <= viewport["height"] for b in cards), cards
    else:                           # one above the other, each the screen's width
        assert all(abs(b["x"] - cards[0]["x"]) < 1 for b in cards), cards
        assert all(a["y"] + a["height"] < b["y"] for a, b in zip(cards, cards[1:])), cards
        assert all(b["width"] > viewport["width"] * 0.85 for b in cards), cards
    # The list of games stays, below the cards (empty, or the games other tests made).
    games = page.locator("#past-title")
    expect(games).to_be_visible()
    assert games.bounding_box()["y"] > cards[-1]["y"]
    room.shot(page, f"home-{size}", full_page=False)
    assert sideways(page) == [], sideways(page)
    assert axe(page) == [], axe(page)

    # Each card's buttons lead to its game's form.
    page.get_by_test_id("new-hive-link").click()
    page.wait_for_url(re.compile(r"/console/new/hive$"))
    expect(page.get_by_test_id("brand")).to_have_text("Hive")
    expect(page.get_by_test_id("new-hive-form")).to_be_visible()
    assert axe(page) == [], axe(page)
    page.go_back()
    page.get_by_test_id("new-colmena-link").click()
    expect(page.get_by_test_id("new-colmena-form")).to_be_visible()
    expect(page.get_by_test_id("brand")).to_have_text("La colmena")
    assert axe(page) == [], axe(page)
    page.go_back()
    page.get_by_test_id("hall-colmena-link").click()
    page.wait_for_url(re.compile(r"/console/halls/new\?kind=colmena$"))
    expect(page.get_by_test_id("hall-kind-colmena")).to_be_checked()
    page.go_back()
    page.get_by_test_id("hall-hive-link").click()
    expect(page.get_by_test_id("hall-kind-hive")).to_be_checked()
    page.go_back()
    page.get_by_test_id("new-partida-link").click()
    page.wait_for_url(re.compile(r"/console/new/partida$"))
    expect(page.get_by_test_id("brand")).to_have_text("La partida")
    expect(page.get_by_test_id("create-game")).to_be_visible()


def test_the_join_page_and_a_colmena_hall_name_what_they_are(room, server):
    phone = room.screens.page("join-phone", SIZES["phone"][0], mobile=True, bypass_csp=True)
    phone.goto(server.url + "/join?lang=es")
    expect(phone.get_by_role("heading", level=1)).to_have_text("Unirse")
    expect(phone.get_by_text("el código que muestra el proyector")).to_be_visible()
    expect(phone.get_by_test_id("brand")).to_have_text("El facilitador")
    room.shot(phone, "join-phone", full_page=False)
    assert sideways(phone) == [], sideways(phone)
    assert axe(phone) == [], axe(phone)

    gm = room.gm
    made = gm.context.request.post(f"{server.url}/console/halls", data={
        "kind": "colmena", "name": "Martes 3.º B", "players": "Ana\nBea\nCarla\nDani\nEva\n",
        "settings": {}, "seed": 7}).json()
    assert made["ok"], made
    gm.set_viewport_size(SIZES["laptop"][0])
    gm.goto(f"{server.url}/console/halls/{made['hall_id']}?lang=es")
    expect(gm.get_by_test_id("brand")).to_have_text("La colmena")
    room.shot(gm, "colmena-hall", full_page=False)
    gm.goto(f"{server.url}/console/?lang=es")
    expect(gm.get_by_test_id(f"hall-{made['hall_id']}")).to_be_visible()   # listed on the home
