"""The form that makes a hall (/console/halls/new, static/js/hall_new.js) in the browser.

Each game brings its own settings, drawn from the bounds the server sends: a Hive
tournament's numbers start at their defaults and its odd-count choice is worded by the
catalog; la colmena's form has its solo seat instead, and going back to Hive draws Hive's
fields again at their defaults. A number the form cannot read («2,5» rounds) is said
under the form, naming the setting, and nothing is sent; read, the tournament is made
with what the form held, and the browser lands on the hall's page.
"""
from __future__ import annotations

import re

try:
    from playwright.sync_api import expect
except ImportError:         # the browser fixture skips, or fails under CI, and says why
    expect = None

from .layout import axe

PLAYERS = ["Ana", "Bruno", "Carla", "Diego", "Elena", "Facundo", "Gabriela"]
#: The teacher's laptop and a phone: (name, viewport, mobile).
VIEWPORTS = (("laptop", {"width": 1366, "height": 768}, False),
             ("phone", {"width": 390, "height": 844}, True))


def hive_setting(room, server, shot: str, viewport: dict, mobile: bool, setting: str,
                 values: list[str], default: str):
    """A console page on the tournament form, Hive chosen: the select of ``setting``,
    checked to hold ``values`` in that order with ``default`` chosen. (page, select)."""
    page = room.console_page(shot, viewport, mobile)
    page.goto(server.url + "/console/halls/new?lang=es")
    page.get_by_test_id("hall-kind-hive").check()
    chosen = page.get_by_test_id(f"hall-setting-{setting}")
    expect(chosen).to_have_value(default)
    assert [o.get_attribute("value") for o in chosen.locator("option").all()] == values
    return page, chosen


def test_a_games_own_settings_are_read_in_the_pages_language_before_the_hall_is_made(room, server):
    gm = room.gm
    gm.goto(server.url + "/console/halls/new?lang=es")
    form = gm.get_by_test_id("hall-form")
    gm.get_by_test_id("hall-kind-hive").check()
    expect(gm.get_by_test_id("hall-setting-round_robin_max")).to_have_value("6")
    expect(gm.get_by_test_id("hall-setting-swiss_rounds")).to_have_value("5")
    odd = gm.get_by_test_id("hall-setting-odd")
    expect(odd).to_have_value("bye")
    expect(odd.locator("option[value=bot]")).to_have_text("uno juega contra la computadora")
    expect(form.locator("label[for=hall-setting-swiss_rounds]")).to_have_text("Rondas del sistema suizo")
    expect(gm.get_by_test_id("hall-setting-solo")).to_have_count(0)

    # Another game: its own fields only; back to Hive: Hive's at their defaults again.
    gm.get_by_test_id("hall-setting-swiss_rounds").fill("3")
    gm.get_by_test_id("hall-kind-colmena").check()
    expect(gm.get_by_test_id("hall-setting-solo")).not_to_be_checked()
    expect(gm.get_by_test_id("hall-setting-swiss_rounds")).to_have_count(0)
    gm.get_by_test_id("hall-kind-hive").check()
    expect(gm.get_by_test_id("hall-setting-swiss_rounds")).to_have_value("5")
    assert axe(gm) == []

    # A number it cannot read is said, with the setting's name, and nothing is sent.
    gm.get_by_test_id("hall-name-input").fill("Torneo del viernes")
    gm.get_by_test_id("hall-players").fill("\n".join(PLAYERS))
    gm.get_by_test_id("hall-setting-swiss_rounds").fill("2,5")
    gm.get_by_test_id("hall-create").click()
    error = gm.get_by_test_id("hall-error")
    expect(error).to_be_visible()
    expect(error).to_contain_text("Rondas del sistema suizo")
    expect(error).to_contain_text("entero")
    assert re.search(r"/console/halls/new", gm.url)

    gm.get_by_test_id("hall-setting-swiss_rounds").fill("3")
    gm.get_by_test_id("hall-setting-round_robin_max").fill("4")
    odd.select_option("bot")
    gm.get_by_test_id("hall-create").click()
    gm.wait_for_url(re.compile(r"/console/halls/\d+$"))
    hall_id = int(gm.url.rsplit("/", 1)[1])
    hall = gm.context.request.get(f"{server.url}/console/halls/{hall_id}.json").json()["hall"]
    assert hall["name"] == "Torneo del viernes" and hall["kind"] == "hive"
    assert {k: hall["settings"][k] for k in ("swiss_rounds", "round_robin_max", "odd")} == {
        "swiss_rounds": 3, "round_robin_max": 4, "odd": "bot"}
    assert [p if isinstance(p, str) else p.get("name") for p in hall["players"]] == PLAYERS


def made_record(page, server, **chosen: str) -> dict:
    """Sofía's single game made on the open Hive form with its selects ``chosen`` (by
    their test ids' ends: bot, level, type); the game's record."""
    page.get_by_test_id("new-hive-white").fill("Sofía")
    for field, value in chosen.items():
        page.get_by_test_id(f"new-hive-{field}").select_option(value)
    page.get_by_test_id("new-hive-create").click()
    page.wait_for_url(re.compile(r"/console/\d+$"))
    game_id = int(page.url.rsplit("/", 1)[1])
    return page.request.get(f"{server.url}/console/{game_id}/record.json").json()


def test_the_teacher_chooses_the_computers_level_in_words(room, server):
    """Issue 46, item 3 (H-G7): the computer's strength is a level in words, weakest
    first, on the tournament's form and on a single game's, on a laptop and a phone:
    no field overflows, every option reads as the catalog words it, and a game made with
    «fuerte» plays the computer at that level."""
    levels = ["beginner", "casual", "club", "strong", "strongest"]
    for name, viewport, mobile in VIEWPORTS:
        page, level = hive_setting(room, server, f"levels-{name}", viewport, mobile,
                                   "bot_level", levels, "club")
        expect(level.locator("option[value=beginner]")).to_have_text(
            "principiante: se equivoca como quien empieza")
        expect(page.locator("label[for=hall-setting-bot_level]")).to_have_text(
            "Nivel de la computadora")
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= viewport["width"], wide
        room.screens.shot(page, f"hall-form-levels-{name}")
        assert axe(page) == []

        page.goto(server.url + "/console/new/hive?lang=es")
        chosen = page.get_by_test_id("new-hive-level")
        expect(chosen).to_have_value("club")
        expect(chosen.locator("option[value=strongest]")).to_have_text(
            "La más fuerte: lo mejor que puede en un segundo")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        room.screens.shot(page, f"hive-form-levels-{name}")
        assert axe(page) == []
    record = made_record(page, server, bot="2", level="strong")
    assert record["settings"]["bot_level"] == "strong"


def test_the_teacher_chooses_the_pieces_on_both_forms(room, server):
    """Issue 49 (H-S1.4): the expansion pieces are a choice in words, the base game first,
    on the tournament's form and on a single game's, on a laptop and a phone; the game
    made with «la cochinilla» is a Base+P game, and the tournament's games play the type
    chosen."""
    types = ["Base", "Base+M", "Base+L", "Base+P", "Base+ML", "Base+MP", "Base+LP", "Base+MLP"]
    for name, viewport, mobile in VIEWPORTS:
        page, chosen = hive_setting(room, server, f"pieces-{name}", viewport, mobile,
                                    "game_type", types, "Base")
        expect(chosen.locator("option[value='Base+MLP']")).to_have_text(
            "Con las tres: mosquito, mariquita y cochinilla")
        expect(page.locator("label[for=hall-setting-game_type]")).to_have_text("Las piezas")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        assert axe(page) == []

        page.goto(server.url + "/console/new/hive?lang=es")
        single = page.get_by_test_id("new-hive-type")
        expect(single).to_have_value("Base")
        expect(single.locator("option[value='Base+P']")).to_have_text("Con la cochinilla")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        room.screens.shot(page, f"hive-form-pieces-{name}")
        assert axe(page) == []
    record = made_record(page, server, type="Base+P")
    assert record["game"] == "Base+P;NotStarted;White[1]"

    page.goto(server.url + "/console/halls/new?lang=es")
    page.get_by_test_id("hall-kind-hive").check()
    page.get_by_test_id("hall-name-input").fill("Torneo con bichos")
    page.get_by_test_id("hall-players").fill("\n".join(PLAYERS[:4]))
    page.get_by_test_id("hall-setting-game_type").select_option("Base+MLP")
    page.get_by_test_id("hall-create").click()
    page.wait_for_url(re.compile(r"/console/halls/\d+$"))
    hall_id = int(page.url.rsplit("/", 1)[1])
    hall = page.request.get(f"{server.url}/console/halls/{hall_id}.json").json()["hall"]
    assert hall["settings"]["game_type"] == "Base+MLP"
