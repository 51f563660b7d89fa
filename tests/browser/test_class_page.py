"""A class's page in the browser (issue 15): from an empty list to a game made from
today's attendance, then the page itself at laptop and phone sizes.

The teacher creates a class on /console/classes, pastes a list of 14 students with one
more line that cannot be read (its message names the line), marks a student as having left
(no longer in today's attendance), edits a name inline, deals the 13 present students
into teams, moves one student (a move that breaks R-T2/R-T3 shows a warning, moving
back clears it), renames a team and creates the game: the browser lands on the game's
console. Nothing is played.

Then the class page at 1366×768 (mouse) and 390×844 (touch), with the option to keep
the last game's teams now offered and those teams dealt: nothing is wider than the
screen or overlaps another control, no word is broken inside, and axe-core (injected,
never served) reports no violation. Last, the league's scheme saved as the class's,
the Moodle export's link, a new name, and the class deleted with its game.
Screenshots: test-artifacts/class_page-*.png.
"""
from __future__ import annotations

import re

try:
    from playwright.sync_api import expect
except ImportError:         # the browser fixture skips, or fails under CI, and says why
    expect = None

from .layout import axe, geometry

SIZES = {
    "laptop": ({"width": 1366, "height": 768}, False),
    "phone": ({"width": 390, "height": 844}, True),
}
NAMES = ["Ana García", "Bruno Díaz", "Carla Núñez", "Diego Fernández", "Elena Sosa", "Facundo Ruiz",
         "Gabriela Paz", "Hernán López", "Inés Romero", "Julián Castro", "Karina Benítez",
         "Lucas Medina", "Martina Acosta", "Nicolás Herrera"]
#: Line 9 of the pasted text (after a header line) has more than a name, an e-mail and an ID
#: number: the server names it and adds the others.
BAD_LINE = 9
CONTROLS = [".card", "h1", "h2", "h3", "button", "select", "input", "textarea", "a.button", ".jumps a",
            ".topbar a", ".scroll", ".lineup .team", "label"]
APART = ["button", "select", "a.button", ".jumps a", ".topbar a"]
TOUCH_MIN = 44


def class_list() -> str:
    lines = [f"{name}\t{name.split()[0].lower()}@escuela.edu.ar\t{40100200 + i}" for i, name in enumerate(NAMES)]
    lines.insert(BAD_LINE - 2, "Renglón roto; roto@escuela.edu.ar; 123; 456")
    return "\n".join(["Nombre\tCorreo\tDNI", *lines])


def student_ids(page) -> list[int]:
    rows = page.locator("[data-testid^=student-row-]")
    return [int(r.get_attribute("data-testid").rsplit("-", 1)[1]) for r in rows.all()]


def lineup(page) -> list[list[int]]:
    """The dealt teams as the page shows them: student ids per team."""
    teams = []
    for box in page.locator("[data-testid^=team-]").filter(has=page.locator("ul.members")).all():
        teams.append([int(s.get_attribute("data-testid").rsplit("-", 1)[1])
                      for s in box.locator("[data-testid^=move-]").all()])
    return teams


def each_shows_its_team(page):
    """Every student's "move to" list shows the team the student is in (the one moved and
    the students listed after it in its old team alike)."""
    for n, team in enumerate(lineup(page), start=1):
        for student in team:
            expect(page.get_by_test_id(f"move-{student}")).to_have_value(str(n))


def test_a_class_from_its_list_to_a_new_game_and_its_page_at_two_sizes(room, screens, server):
    gm = room.gm
    gm.goto(server.url + "/console/classes?lang=es")
    expect(gm.get_by_test_id("classes-link")).to_have_attribute("aria-current", "page")
    gm.get_by_test_id("class-new-name").fill("Filosofía 5.º B")
    gm.get_by_test_id("class-create").click()
    gm.wait_for_url(re.compile(r"/console/classes/\d+$"))
    class_url = gm.url
    class_id = int(class_url.rsplit("/", 1)[1])
    expect(gm.get_by_test_id("class-name")).to_have_text("Filosofía 5.º B")
    expect(gm.get_by_test_id("students-empty")).to_be_visible()

    # The list, pasted: 14 students read, line 9 refused and named (and left to correct).
    gm.get_by_test_id("paste-text").fill(class_list())
    gm.get_by_test_id("paste-send").click()
    expect(gm.get_by_test_id("paste-result")).to_have_text("Se agregaron 14 estudiantes.")
    expect(gm.get_by_test_id("paste-errors")).to_contain_text(
        f"Línea {BAD_LINE}: hay algo más que un nombre, un correo y un número de ID")
    expect(gm.get_by_test_id("paste-errors")).to_contain_text("Renglón roto")
    expect(gm.get_by_test_id("paste-text")).to_have_value("Renglón roto; roto@escuela.edu.ar; 123; 456")
    expect(gm.locator("[data-testid^=student-row-]")).to_have_count(14)
    expect(gm.get_by_test_id("student-count")).to_have_text("14 estudiantes en la lista")
    ids = student_ids(gm)
    screens.shot(gm, "pasted")

    # One student left the class: still listed, no longer in today's attendance.
    gone = ids[3]
    gm.get_by_test_id(f"student-left-{gone}").check()
    expect(gm.get_by_test_id(f"student-row-{gone}")).to_have_class(re.compile(r"\bgone\b"))
    expect(gm.get_by_test_id("student-count")).to_have_text("13 estudiantes en la lista · 1 dejó la clase")
    expect(gm.get_by_test_id(f"attend-{gone}")).to_have_count(0)
    expect(gm.get_by_test_id("attend-count")).to_have_text("13 presentes")

    # One added by hand, then removed (the confirmation is accepted).
    gm.get_by_test_id("add-name").fill("Ñandú Prueba")
    gm.get_by_test_id("add-email").fill("no-es-un-correo")
    gm.get_by_test_id("add-student").click()
    expect(gm.get_by_test_id("add-error")).to_contain_text("«no-es-un-correo» no es una dirección de correo")
    gm.get_by_test_id("add-email").fill("")
    gm.get_by_test_id("add-student").click()
    expect(gm.get_by_test_id("attend-count")).to_have_text("14 presentes")
    added = student_ids(gm)[-1]
    expect(gm.get_by_test_id(f"student-row-{added}")).to_contain_text("Ñandú Prueba")
    gm.get_by_test_id(f"student-remove-{added}").click()
    expect(gm.get_by_test_id(f"student-row-{added}")).to_have_count(0)
    expect(gm.get_by_test_id("attend-count")).to_have_text("13 presentes")

    # A name corrected inline.
    gm.get_by_test_id(f"student-edit-{ids[0]}").click()
    gm.get_by_test_id(f"student-edit-name-{ids[0]}").fill("Ana María García")
    gm.get_by_test_id(f"student-save-{ids[0]}").click()
    expect(gm.get_by_test_id(f"student-row-{ids[0]}")).to_contain_text("Ana María García")

    # Deal the 13 present students: 4 teams (4, 3, 3, 3); the questions panel counts turns.
    expect(gm.get_by_test_id("deal-mode-keep")).to_have_count(0)
    gm.get_by_test_id("attend-none").click()
    gm.get_by_test_id("deal").click()
    expect(gm.get_by_test_id("deal-error")).to_contain_text("Con 0 presentes no se pueden formar de 4 a 6 equipos")
    gm.get_by_test_id("attend-all").click()
    expect(gm.get_by_test_id("attend-count")).to_have_text("13 presentes")
    gm.get_by_test_id("deal").click()
    expect(gm.get_by_test_id("lineup")).to_be_visible()
    expect(gm.get_by_test_id("deal-error")).to_be_hidden()
    teams = lineup(gm)
    assert sorted(map(len, teams)) == [3, 3, 3, 4] and gone not in sum(teams, [])
    expect(gm.get_by_test_id("lineup-warning")).to_be_hidden()
    expect(gm.get_by_test_id("questions-table")).to_be_visible()
    expect(gm.get_by_test_id("questions-summary")).to_contain_text("24 turnos (6 rondas × 4 equipos)")
    expect(gm.get_by_test_id("runs-short")).to_have_count(0)

    # A move that leaves a team of 2 is warned about (R-T2, R-T3); moving back clears it.
    small = next(i for i, team in enumerate(teams) if len(team) == 3)
    other = next(i for i in range(4) if i != small)
    student = teams[small][0]
    gm.get_by_test_id(f"move-{student}").select_option(str(other + 1))
    warning = gm.get_by_test_id("lineup-warning")
    expect(warning).to_be_visible()
    expect(warning).to_contain_text("Así la partida no puede empezar")
    expect(warning).to_contain_text("tiene 2 integrantes")
    expect(warning.locator("a.rule[href$='#R-T3']")).to_have_count(1)
    each_shows_its_team(gm)
    gm.get_by_test_id("create-game").click()           # the server refuses it too, next to the button
    expect(gm.get_by_test_id("create-error").locator("a.rule")).to_have_attribute("href", re.compile(r"#R-T[23]$"))
    gm.get_by_test_id(f"move-{student}").select_option(str(small + 1))
    expect(warning).to_be_hidden()

    # The move the teacher wants: one of the four of the big team to a team of three.
    big = next(i for i, team in enumerate(teams) if len(team) == 4)
    mover = teams[big][-1]
    gm.get_by_test_id(f"move-{mover}").select_option(str(small + 1))
    expect(gm.get_by_test_id(f"team-count-{small + 1}")).to_have_text("4 integrantes")
    expect(warning).to_be_hidden()
    moved = lineup(gm)
    assert mover in moved[small] and mover not in moved[big]
    each_shows_its_team(gm)
    gm.get_by_test_id("team-name-1").fill("Los Sofistas")
    gm.get_by_test_id("rounds").fill("3")
    expect(gm.get_by_test_id("questions-summary")).to_contain_text("12 turnos (3 rondas × 4 equipos)")
    screens.shot(gm, "dealt")

    gm.get_by_test_id("create-game").click()
    gm.wait_for_url(re.compile(r"/console/\d+$"))
    game_id = int(gm.url.rsplit("/", 1)[1])
    expect(gm.get_by_test_id("waiting")).to_be_visible()
    expect(gm.locator("body")).to_contain_text("Los Sofistas")

    # The class page at two sizes, with the last game's teams kept.
    state = gm.context.storage_state()
    for size, (viewport, touch) in SIZES.items():
        page = screens.page(f"class-{size}", viewport, mobile=touch, storage_state=state)
        page.goto(class_url)
        expect(page.get_by_test_id("questions-table")).to_be_visible()
        expect(page.get_by_test_id("league-empty")).to_be_visible()
        expect(page.get_by_test_id("participation-empty")).to_be_visible()
        expect(page.get_by_test_id("class-games").locator("li")).to_have_count(1)
        page.get_by_test_id("deal-mode-keep").check()
        page.get_by_test_id("deal").click()
        expect(page.get_by_test_id("deal-note")).to_contain_text("Se mantuvieron los equipos")
        expect(page.get_by_test_id("team-name-1")).to_have_value("Los Sofistas")
        assert_page_fits(page, touch)
        assert axe(page) == []
        screens.shot(page, size)
        page.evaluate("window.scrollTo(0, 0)")
        screens.shot(page, size + "-top", full_page=False)
        page.locator("#new-game").scroll_into_view_if_needed()
        screens.shot(page, size + "-new-game", full_page=False)

    # The league's scheme saved as the class's, the Moodle link, a new name.
    page = screens.pages["class-laptop"]
    page.get_by_test_id("league-scheme").select_option("team_score")
    expect(page.get_by_test_id("scheme-explain")).to_contain_text("puntaje final de su equipo")
    page.get_by_test_id("league-scheme-save").click()
    expect(page.get_by_test_id("league-scheme-default")).to_be_visible()
    expect(page.get_by_test_id("export-league")).to_have_attribute("href", re.compile(r"league\.csv\?scheme=team_score$"))
    page.get_by_test_id("moodle-identifier").select_option("id_number")
    page.get_by_test_id("moodle-measure-spoke").check()
    link = page.get_by_test_id("export-moodle")
    expect(link).to_have_attribute("href", re.compile(r"moodle\.csv\?identifier=id_number&measures=league_points,spoke&"))
    moodle = page.request.get(server.url + link.get_attribute("href"))
    assert moodle.ok and moodle.text().splitlines()[0].startswith("ID number,"), moodle.text()[:200]
    page.get_by_test_id("class-rename").fill("Filosofía 5.º B (tarde)")
    page.get_by_test_id("class-rename-save").click()
    expect(page.get_by_test_id("settings-status")).to_have_text("Guardado.")
    expect(page.get_by_test_id("class-name")).to_have_text("Filosofía 5.º B (tarde)")

    # The list of classes shows it, with its students and games.
    page = screens.pages["class-phone"]
    page.goto(server.url + "/console/classes")
    # (Other tests of the session's server may have left classes of their own.)
    expect(page.get_by_test_id(f"class-link-{class_id}")).to_have_text("Filosofía 5.º B (tarde)")
    expect(page.get_by_test_id(f"class-{class_id}")).to_contain_text("13 estudiantes · 1 partida")
    assert_page_fits(page, True)
    assert axe(page) == []
    screens.shot(page, "list-phone")

    # Deleting the class (confirmed) deletes it and its game.
    gm.goto(class_url)
    asked = []
    gm.on("dialog", lambda dialog: asked.append(dialog.message))   # the screens accept it
    gm.get_by_test_id("class-delete").click()
    gm.wait_for_url(re.compile(r"/console/classes/?$"))
    assert len(asked) == 1 and "Filosofía 5.º B" in asked[0], asked
    expect(gm.get_by_test_id(f"class-{class_id}")).to_have_count(0)
    assert gm.request.get(f"{server.url}/console/{game_id}").status == 404


def assert_page_fits(page, touch: bool) -> None:
    """Nothing wider than the screen or outside it sideways, no controls overlapping, no
    word broken inside; on a handheld, buttons and fields at least 44 px high."""
    g = geometry(page, CONTROLS)
    assert g["sw"] <= g["w"], f"the page scrolls sideways: {g['sw']} px in {g['w']}"
    for b in g["boxes"]:
        assert b["x"] >= -0.5 and b["r"] <= g["w"] + 0.5, f"outside the screen: {b}"
    assert g["broken"] == [], f"words broken inside: {g['broken']}"
    boxes = [b for b in g["boxes"] if b["sel"] in APART]
    for i, a in enumerate(boxes):
        for c in boxes[i + 1:]:
            if (a["x"], a["y"], a["r"], a["b"]) == (c["x"], c["y"], c["r"], c["b"]):
                continue                  # the same element matched by two selectors
            overlap_x = min(a["r"], c["r"]) - max(a["x"], c["x"])
            overlap_y = min(a["b"], c["b"]) - max(a["y"], c["y"])
            assert overlap_x <= 1 or overlap_y <= 1, f"overlap: {a} and {c}"
    if touch:
        small = [b for b in g["boxes"] if b["sel"] in ("button", "select", "a.button")
                 and b["b"] - b["y"] < TOUCH_MIN - 0.5]
        assert small == [], f"smaller than {TOUCH_MIN} px: {small[:5]}"
