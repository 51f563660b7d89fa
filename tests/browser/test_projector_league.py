"""A class game's league on the projector (issue 15), at 1280x720 and 1920x1080.

The GM's console toggles it before the first action (in the start guide) and after the
finale (in the action bar). Without names allowed the projector shows today's teams with
their members' league points; with names, the first ten students. Big type, everything
inside the viewport, nothing overlapping, no word broken inside, no axe-core violation.
The console suggests who has spoken least as spokesperson (one click fills the name).
Screenshots: test-artifacts/projector_league-*.png.
"""
from __future__ import annotations

try:
    from playwright.sync_api import expect
except ImportError:         # the browser fixture skips, or fails under CI, and says why
    expect = None

from .layout import FITTED, GM, LONG_NAMES, assert_fits, axe, font, steady

VIEWPORTS = {"720p": {"width": 1280, "height": 720}, "1080p": {"width": 1920, "height": 1080}}
STUDENTS = ["Maximiliana de los Ángeles Fernández-Villaverde", "Zoraida Quintanilla", "Eustaquio Berenguer",
            "Filomena Arrieta", "Casimiro Landáburu", "Rosendo Villalpando", "Leocadia Zubizarreta",
            "Pancracio Echeverría", "Gumersinda Olazábal", "Anacleto Urquiza", "Brígida Montenegro",
            "Florentino Arizmendi", "Eulalia Goicoechea", "Segismundo Larrañaga"]
ONE_ROUND = {"rounds": 1, "round_modes": [["normal"]], "individual_rounds": [],
             "teams": [{"name": n} for n in LONG_NAMES[:4]]}
APART = [".pname", ".pround", ".ptool", ".pleaguehead", ".pleaguetable", ".pleaguemore", ".pfoot"]
CHECKED = [".phead", ".pleaguehead", ".pleaguetable tr", ".pleaguetable td", ".pleaguemore", ".pfoot"]


def post(room, path: str, body) -> dict:
    answer = room.gm.context.request.post(room.server.url + path, data=body)
    data = answer.json()
    assert answer.ok and data["ok"], (path, answer.status, data)
    return data


def new_game(room, class_id: int) -> tuple[int, list[list[str]]]:
    """A game from the class (everyone present, four fresh teams); its roster names."""
    klass = room.gm.context.request.get(f"{room.server.url}/console/classes/{class_id}.json").json()
    names = {s["id"]: s["name"] for s in klass["class"]["students"]}
    lineup = post(room, f"/console/classes/{class_id}/deal",
                  {"present": list(names), "mode": "fresh", "teams": 4})["lineup"]
    game_id = post(room, f"/console/classes/{class_id}/games",
                   {"name": "Filosofía 1.º B", "settings": ONE_ROUND, "lineup": lineup})["game_id"]
    return game_id, [[names[s] for s in team] for team in lineup]


def open_projectors(room, watch: str, tag: str) -> dict:
    pages = {}
    for name, viewport in VIEWPORTS.items():
        page = room.screens.page(f"projector-{tag}-{name}", viewport)
        page.goto(f"{room.server.url}/projector/{watch}")
        expect(page.get_by_test_id("round")).not_to_be_empty()
        pages[name] = page
    return pages


def check(room, pages, state: str, rows: int):
    for name, page in pages.items():
        expect(page.get_by_test_id("league")).to_be_visible()
        expect(page.locator("[data-testid^=league-row-]")).to_have_count(rows)
        expect(page.get_by_test_id("final")).to_be_hidden()
        expect(page.get_by_test_id("join-panel")).to_be_hidden()
        steady(page, FITTED)
        room.shot(page, f"{state}-{name}", full_page=False)
        assert_fits(page, CHECKED, APART)
        # No cell's text spills out of it (a name too long ends in "…" inside its cell).
        spilled = page.evaluate("""() => Array.from(document.querySelectorAll(
            '.pleaguetable th, .pleaguetable td, .pleaguetable .lname')).filter((el) =>
            el.scrollWidth > el.clientWidth + 1 && !el.classList.contains('lname')
            || el.classList.contains('lname') && getComputedStyle(el).textOverflow !== 'ellipsis')
            .map((el) => el.textContent)""")
        assert spilled == [], (state, name, spilled)
        # Big type: a row's names at least 2 % of the screen's width (~26 px at 1280, ~38 at 1920).
        width = page.viewport_size["width"]
        assert font(page, ".pleaguetable td.who") >= 0.02 * width, (state, name)
        assert font(page, ".pleaguehead h2") >= 0.03 * width, (state, name)
        violations = axe(page)
        assert violations == [], (state, name, violations)


#: Each host's verdict: ranks 1, 2, 3 and 3 (a shared rank) at the end.
VERDICTS = {1: "full", 2: "half", 3: "wrong", 4: "wrong"}


def finish(gm: GM):
    """The 1-round game to its end from the GM's own socket."""
    while not gm.state["view"]["over"]:
        host = gm.state["view"]["turn"]["host"]
        if not gm.state["view"]["turn"]["mode"]:
            gm.act("declare", mode="normal")
        choice = next(e for e in gm.state["legal"] if e["do"] == "choose")["options"]["choices"][0]
        gm.act("choose", author=choice["author"], type=choice["type"])
        gm.act("question", id=gm.state["candidates"][0]["id"])
        gm.act("verdict", result=VERDICTS[host])
        for entry in [e for e in gm.state["legal"] if e["do"] == "pick"]:
            gm.act("pick", team=entry["seats"][0], card="author")
        if any(e["do"] == "end_turn" for e in gm.state["legal"]):
            gm.act("end_turn")


def test_the_league_on_the_projector_before_the_game_after_the_finale_and_with_names(room, server):
    class_id = post(room, "/console/classes", {"name": "Filosofía 1.º B"})["id"]
    post(room, f"/console/classes/{class_id}/students", {"text": "\n".join(STUDENTS)})

    # Game 1, names kept off the projector (the class's default).
    game_id, roster = new_game(room, class_id)
    gm = GM(room, game_id)
    try:
        console = room.gm
        room.open_console(game_id)
        pages = open_projectors(room, gm.watch, "teams")
        toggle = console.get_by_test_id("league-toggle")
        expect(toggle).to_have_attribute("aria-pressed", "false")
        expect(console.get_by_test_id("start-guide")).to_contain_text("Mostrar la liga en el proyector")
        toggle.click()
        expect(console.get_by_test_id("league-toggle")).to_have_attribute("aria-pressed", "true")
        for page in pages.values():
            expect(page.get_by_test_id("league-sub")).to_contain_text("Aún no hay partidas terminadas")
            expect(page.get_by_test_id("league-row-1")).to_contain_text(LONG_NAMES[0])
        check(room, pages, "1-before-the-game-teams", rows=4)
        room.shot(console, "1-console-toggle", full_page=False)
        # The codes key still brings up the join panel over it, and back.
        page = pages["1080p"]
        page.keyboard.press("c")
        expect(page.get_by_test_id("join-panel")).to_be_visible()
        expect(page.get_by_test_id("league")).to_be_hidden()
        page.keyboard.press("c")
        expect(page.get_by_test_id("league")).to_be_visible()

        # The first action takes it down; the console suggests who could speak.
        gm.act("declare", mode="normal")
        for page in pages.values():
            expect(page.get_by_test_id("league")).to_be_hidden()
            expect(page.get_by_test_id("stage")).to_be_visible()
        expect(console.get_by_test_id("league-toggle")).to_have_count(0)
        suggest = console.get_by_test_id("suggest-spokesperson-1")
        expect(suggest).to_have_text(f"Sugerido: {roster[0][0]} (aún no ha hablado)")
        # Issue 34: a choice of the team's roster (and "—"), not a typed name.
        expect(console.locator("select[data-testid=spokesperson-1] option")).to_have_count(
            len(roster[0]) + 1)
        suggest.click()
        expect(console.get_by_test_id("spokesperson-1")).to_have_value(roster[0][0])
        room.shot(console, "2-console-suggestion", full_page=False)
        console.get_by_test_id("spokesperson-1-send").click()
        expect(console.get_by_test_id("suggest-spokesperson-1")).to_have_text(
            f"Sugerido: {roster[0][1]} (aún no ha hablado)")

        # The finale, then the league again from the action bar: today's points added up.
        finish(gm)
        for page in pages.values():
            expect(page.get_by_test_id("podium")).to_be_visible()
        console.get_by_test_id("league-toggle").click()
        expect(console.get_by_test_id("league-toggle")).to_have_attribute("aria-pressed", "true")
        for page in pages.values():
            expect(page.get_by_test_id("league-sub")).to_contain_text("1 partida terminada")
        check(room, pages, "3-after-the-finale-teams", rows=4)
        room.shot(console, "3-console-finale-toggle", full_page=False)
        console.get_by_test_id("league-toggle").click()
        for page in pages.values():
            expect(page.get_by_test_id("podium")).to_be_visible()
            expect(page.get_by_test_id("league")).to_be_hidden()
        # No student's name ever reached these projectors.
        for page_name in [n for n in room.screens.frames if n.startswith("projector-teams")]:
            seen = " ".join(room.screens.received(page_name))
            assert not [s for s in STUDENTS if s in seen or s.split()[0] in seen], page_name
    finally:
        gm.close()

    # Game 2, names allowed: the first ten students, "and 4 more".
    post(room, f"/console/classes/{class_id}", {"projector_names": True})
    game_id, roster = new_game(room, class_id)
    gm = GM(room, game_id)
    try:
        pages = open_projectors(room, gm.watch, "students")
        post(room, f"/console/{game_id}/league", {"shown": True})
        for page in pages.values():
            expect(page.get_by_test_id("league-more")).to_have_text("y 4 más en la liga")
        check(room, pages, "4-before-the-game-students", rows=10)
    finally:
        gm.close()
