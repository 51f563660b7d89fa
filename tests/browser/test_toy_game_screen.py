"""The toy counter of tests/counter_game.py on a real browser page (issue 35): a game
plugged in from outside the package brings its own screen script, and the seat's page
draws the view the server sends."""
from __future__ import annotations

import re

import pytest

from server import Server
from test_toy_game import TOY, create_toy


@pytest.fixture
def toy_server(tmp_path):
    server = Server(tmp_path, env=TOY).start()
    yield server
    server.stop()


def test_a_toy_game_s_seat_plays_in_the_browser(toy_server, screens):
    from playwright.sync_api import expect
    _http, _game_id, codes = create_toy(toy_server, target=3)
    page = screens.page("counter-seat-1", {"width": 390, "height": 844}, mobile=True)
    page.goto(f"{toy_server.url}/j/{codes[1]}")
    page.wait_for_url(re.compile(r"/team$"))
    expect(page.get_by_test_id("count")).to_have_text("0")
    expect(page.get_by_test_id("turn")).to_contain_text("jugador 1")
    page.get_by_test_id("add-2").click()
    expect(page.get_by_test_id("count")).to_have_text("2")
    expect(page.get_by_test_id("wait")).to_be_visible()       # the other player's turn
    screens.shot(page, "counter-seat-after-add")
