"""Issue 34 in the browser: who is who, and the pages a wrong step lands on.

1. The set-up form's pasted class list names its repeated names; the game deals the
   second «Ana García» as «Ana García (2)», and the console's spokesperson field is a
   choice of the team's roster (a name always points to one student), as is the tablet's.
2. The class page names the students a paste repeats, with a way to tell them apart, and
   the Moodle panel names who its file leaves out and why.
3. A wrong address, the tokens page (expiry, revoke all) and the login page's words.

Each at 1366×768 and 390×844: nothing wider than the screen, axe-core reports no
violation. Screenshots: test-artifacts/names_and_pages-*.png.
"""
from __future__ import annotations

import re

try:
    from playwright.sync_api import expect
except ImportError:         # the browser fixture skips, or fails under CI, and says why
    expect = None

from .layout import axe, geometry

SIZES = {"laptop": ({"width": 1366, "height": 768}, False),
         "phone": ({"width": 390, "height": 844}, True)}
SIXTEEN = ["Ana García", "Bruno Díaz", "Carla Núñez", "Diego Paz", "Elena Sosa", "Fede Ruiz",
           "Gala Vidal", "Hugo Luna", "Inés Romero", "Juan Cruz", "Lía Mora", "ana  garcía",
           "Mateo Gil", "Nora Vega", "Olga Ríos", "Pablo Sanz"]


def fits(page) -> None:
    g = geometry(page, ["button", "select", "input", "a.button", "h1", "h2", "p", "li"])
    assert g["sw"] <= g["w"], f"the page scrolls sideways: {g['sw']} px in {g['w']}"
    assert g["broken"] == [], f"words broken inside: {g['broken']}"


def test_a_pasted_class_list_with_a_repeated_name_and_the_roster_to_choose_from(room, screens):
    gm = room.gm
    gm.locator("details.rosterbox > summary").click()
    gm.get_by_test_id("roster-text").fill("\n".join(SIXTEEN))
    repeated = gm.get_by_test_id("roster-duplicates")
    expect(repeated).to_be_visible()
    expect(repeated).to_contain_text("Nombres repetidos: «Ana García»")
    expect(repeated).to_contain_text("el segundo se llama «Ana García (2)»")
    repeated.scroll_into_view_if_needed()
    screens.shot(gm, "setup-duplicates", full_page=False)
    gm.get_by_test_id("deal").click()
    expect(gm.locator("[data-testid^=team-roster-]").filter(has_text="ana garcía (2)")).to_have_count(1)
    room.create_with_form("Homónimos")
    console = gm
    roster = room.record()["settings"]["roster"]
    team = next(n for n, names in enumerate(roster, start=1) if "ana garcía (2)" in names)
    choice = console.locator(f"select[data-testid=spokesperson-{team}]")
    expect(choice).to_be_visible()
    expect(choice.locator("option")).to_have_count(len(roster[team - 1]) + 1)
    choice.select_option("ana garcía (2)")
    console.get_by_test_id(f"spokesperson-{team}-send").click()
    expect(console.get_by_test_id("people").locator(".current", has_text="ana garcía (2)")) \
        .to_have_count(1)
    assert room.record()["actions"][-1] == {"do": "spokesperson", "team": team,
                                            "name": "ana garcía (2)"}
    console.get_by_test_id("people").scroll_into_view_if_needed()
    screens.shot(console, "console-people-laptop", full_page=False)

    state = console.context.storage_state()
    phone = screens.page("console-phone", SIZES["phone"][0], mobile=True, storage_state=state)
    phone.goto(console.url)
    expect(phone.locator(f"select[data-testid=spokesperson-{team}]")).to_be_attached()
    phone.get_by_test_id("people").scroll_into_view_if_needed()
    g = geometry(phone, ["#people select", "#people button"])
    assert g["sw"] <= g["w"], f"the console scrolls sideways: {g['sw']} px in {g['w']}"
    box = phone.locator(f"select[data-testid=spokesperson-{team}]").bounding_box()
    assert box["height"] >= 44 - 0.5 and box["x"] + box["width"] <= 390, box
    screens.shot(phone, "console-people-phone", full_page=False)

    # The tablet of that team: its speaker field is a choice of the same names.
    [tablet] = room.join(team).values()
    speaker = tablet.locator("select[data-testid=spokesperson-name]")
    expect(speaker.locator("option")).to_have_count(len(roster[team - 1]) + 1)
    expect(speaker.locator("option", has_text="ana garcía (2)")).to_have_count(1)


def test_the_class_page_names_repeated_students_and_who_moodle_leaves_out(room, screens,
                                                                           server):
    gm = room.gm
    class_url = room.new_class("Homónimos 4.º A")
    lines = [f"{name}; {name.split()[0].lower()}{n}@escuela.edu" for n, name in
             enumerate(SIXTEEN[:11])]
    lines += ["Ana García", "Mateo Gil; =mateo@escuela.edu"]
    gm.get_by_test_id("paste-text").fill("\n".join(lines))
    gm.get_by_test_id("paste-send").click()
    note = gm.get_by_test_id("paste-duplicates")
    expect(note).to_be_visible()
    expect(note.get_by_test_id("duplicate-names")).to_have_text("«Ana García» (líneas 1, 12 de lo pegado)")
    expect(note).to_contain_text("agregarles con «Editar» el segundo apellido o una inicial")
    expect(note).to_contain_text("«Ana García (2)»")
    note.scroll_into_view_if_needed()
    screens.shot(gm, "class-paste-duplicates", full_page=False)
    gm.get_by_test_id("add-name").fill("bruno díaz")
    gm.get_by_test_id("add-student").click()
    expect(gm.get_by_test_id("add-duplicates")).to_contain_text(
        "«bruno díaz» (ya había 1 con ese nombre en la clase)")

    # A game, begun, so that the Moodle file has its rows: who it leaves out, and why.
    gm.get_by_test_id("deal").click()
    expect(gm.get_by_test_id("lineup")).to_be_visible()
    gm.get_by_test_id("create-game").click()
    gm.wait_for_url(re.compile(r"/console/\d+$"))
    game_id = int(gm.url.rsplit("/", 1)[1])
    answer = gm.context.request.get(f"{server.url}/api/games/{game_id}/codes")
    assert answer.ok
    from .layout import GM
    client = GM(room, game_id)
    try:
        client.act("declare", mode="normal")
    finally:
        client.close()
    state = gm.context.storage_state()
    for size, (viewport, touch) in SIZES.items():
        page = screens.page(f"class-{size}", viewport, mobile=touch, storage_state=state)
        page.goto(class_url)
        missing = page.get_by_test_id("moodle-missing")
        expect(missing).to_be_visible()
        expect(missing.get_by_test_id("moodle-left-out").locator("li")).to_have_text([
            "Ana García: sin correo electrónico",
            "Mateo Gil: su correo electrónico empieza por «=», que una hoja de cálculo tomaría "
            "por una fórmula",
            "bruno díaz: sin correo electrónico"])
        page.get_by_test_id("moodle-identifier").select_option("id_number")
        expect(missing.get_by_test_id("moodle-left-out").locator("li")).to_have_count(14)
        page.get_by_test_id("moodle-identifier").select_option("email")
        expect(missing.get_by_test_id("moodle-left-out").locator("li")).to_have_count(3)
        fits(page)
        assert axe(page) == []
        missing.scroll_into_view_if_needed()
        screens.shot(page, f"moodle-{size}", full_page=False)
    gm.goto(class_url)
    gm.get_by_test_id("class-delete").click()
    gm.wait_for_url(re.compile(r"/console/classes/?$"))


def test_a_wrong_address_the_tokens_page_and_the_login_page(room, screens, server):
    state = room.gm.context.storage_state()
    for size, (viewport, touch) in SIZES.items():
        page = screens.page(f"pages-{size}", viewport, mobile=touch, storage_state=state)
        page.goto(server.url + "/projector/NOPE-NOPE-NOPE?lang=es")      # the device remembers it
        expect(page.get_by_test_id("error-title")).to_have_text("No se encontró esta página")
        expect(page.get_by_test_id("to-home")).to_be_visible()
        fits(page)
        assert axe(page) == []
        screens.shot(page, f"not-found-{size}")
        page.goto(server.url + "/console/no-such-page")
        expect(page.get_by_test_id("to-console")).to_have_text("Ir a la consola")
        page.get_by_test_id("to-console").click()
        page.wait_for_url(re.compile(r"/console/?$"))

        page.goto(server.url + "/console/tokens")
        page.get_by_test_id("token-label").fill(f"Moodle ({size})")
        page.get_by_test_id("token-days").select_option("1")
        page.get_by_test_id("token-submit").click()
        expect(page.get_by_test_id("new-token")).to_be_visible()
        page.goto(server.url + "/console/tokens")
        expect(page.get_by_test_id("tokens")).to_contain_text(f"Moodle ({size})")
        expect(page.get_by_test_id("tokens-revoke-all")).to_be_visible()
        fits(page)
        assert axe(page) == []
        screens.shot(page, f"tokens-{size}")
        page.get_by_test_id("tokens-revoke-all").click()          # the confirmation is accepted
        expect(page.get_by_test_id("tokens-done")).to_contain_text("Tokens revocados:")
        expect(page.get_by_test_id("tokens-empty")).to_be_visible()

        login = screens.page(f"login-{size}", viewport, mobile=touch)
        login.goto(server.url + "/console/login?lang=es")
        expect(login.locator("label[for=secret]")).to_have_text("Clave de la consola")
        expect(login.get_by_test_id("login-hint")).to_contain_text("facilitator password")
        fits(login)
        assert axe(login) == []
        screens.shot(login, f"login-{size}")
