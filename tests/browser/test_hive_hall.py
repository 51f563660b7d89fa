"""A Hive class tournament on screen (issue 38, item 4): the teacher's hall view (the
round's pairings with their codes and states, the standings, the boards picked for the
projector, the next round once every board is over) and the hall's projector (pairings,
standings and the picked boards live, drawn by board.js), with a phone playing a move on
a board and the teacher ending boards from their consoles. Screens at 1366×768 (the
console), 1280×720 and 1920×1080 (the projector), axe-clean; screenshots in
test-artifacts/hive_hall-*.png. The projector (issue 47): the whole screen and never more,
la partida's dark theme, the current round's boards only, the standings whole and large;
the teacher's phone (390×844): the pairings within its width."""
from __future__ import annotations

from .layout import axe, font, steady
from .test_hive_screens import (CONSOLE, PHONE, PROJECTOR_MEASURES, PROJECTORS, check_projector, hive_server,  # noqa: F401  (the fixture)
                                 partida_background)


#: What a hall's projector must never cut: the standings' cells, the tiles and their lines.
STANDINGS_AND_TILES = ("[data-testid=hall-standings] th, [data-testid=hall-standings] td, .hive-mini, "
                       ".hive-mini-title, .hive-mini-state, .hive-hall-list li")


def end_board(gm, url: str, game_id: int, result: str, reason: str):
    """The teacher ends one board from its console, with a result and a reason."""
    from playwright.sync_api import expect
    gm.goto(f"{url}/console/{game_id}")
    gm.get_by_test_id("hive-end-result").select_option(result)
    gm.get_by_test_id("hive-end-reason").fill(reason)
    gm.get_by_test_id("hive-end-submit").click()
    expect(gm.get_by_test_id("hive-status")).to_contain_text(reason)


def test_a_tournament_round_on_the_teacher_s_view_and_the_projector(hive_server, make_room, screens):
    from playwright.sync_api import expect
    room = make_room(hive_server)
    gm = room.gm
    gm.set_viewport_size(CONSOLE)
    url = hive_server.url
    answer = gm.context.request.post(f"{url}/console/halls", data={
        "kind": "hive", "name": "Torneo del martes", "players": "Ana\nBea\nCarla\nDani\n",
        "settings": {}, "seed": 7}).json()
    assert answer["ok"], answer
    hall_id = answer["hall_id"]
    games = gm.context.request.get(f"{url}/console/halls/{hall_id}.json").json()["games"]
    assert [g["key"] for g in games] == ["1.1", "1.2"]
    gm.goto(f"{url}/console/halls/{hall_id}")
    expect(gm.get_by_test_id("hall-round")).to_contain_text("Ronda 1 de 3")
    expect(gm.get_by_test_id("hall-pairings").locator("tbody tr")).to_have_count(2)
    expect(gm.get_by_test_id("hall-board-code-1.1")).to_have_text(games[0]["table_code"])
    expect(gm.get_by_test_id("hall-next-round")).to_be_disabled()
    expect(gm.get_by_test_id("hall-why-not")).to_contain_text("la ronda sigue")

    # Both boards on the projector.
    gm.get_by_test_id("hall-pick-1.1").check()
    gm.get_by_test_id("hall-pick-1.2").check()
    gm.get_by_test_id("hall-show").click()
    expect(gm.get_by_test_id("hall-said")).to_contain_text("2")
    watch = gm.get_by_test_id("hall-projector-link").get_attribute("href")
    projector = screens.page("projector", PROJECTORS[0])
    projector.goto(watch)
    expect(projector.locator("[data-testid^=hall-live-]")).to_have_count(2)
    # Nothing to rank before the first result: no standings on the projector yet.
    expect(projector.get_by_test_id("hall-standings")).to_have_count(0)

    # White of board 1.1 takes its seat on a phone and plays; the projector's board follows.
    phone = screens.page("white", PHONE, mobile=True)
    phone.goto(f"{url}/j/{games[0]['table_code']}")
    phone.get_by_test_id("choose-seat-1").click()
    phone.get_by_test_id("hive-hand-white-A").click()
    phone.locator(".hive-svg [data-move]").first.click()
    expect(phone.get_by_test_id("hive-moves").locator("li")).to_have_count(1)
    expect(projector.get_by_test_id("hall-1-1-cell-0_0")).to_have_attribute("data-piece", "wA1")
    expect(projector.get_by_test_id("hall-state-1.1")).to_contain_text("negras")
    expect(gm.get_by_test_id("hall-state-1.1")).to_contain_text("1")
    dark = partida_background(room)
    for viewport in PROJECTORS:
        check_projector(projector, viewport, dark, STANDINGS_AND_TILES)
        screens.shot(projector, f"projector-{viewport['width']}x{viewport['height']}", full_page=False)
    found = axe(gm)
    assert found == [], ("hall view", found)
    screens.shot(gm, "teacher-1366x768")

    # The teacher ends both boards (a forfeit, a draw); the next round opens and is paired.
    end_board(gm, url, games[0]["game_id"], "white", "abandono")
    end_board(gm, url, games[1]["game_id"], "draw", "acuerdo en clase")
    gm.goto(f"{url}/console/halls/{hall_id}")
    expect(gm.get_by_test_id("hall-state-1.1")).to_contain_text("abandono")
    expect(projector.get_by_test_id("hall-state-1.2")).to_contain_text("Tablas")
    expect(projector.get_by_test_id("hall-standings").locator("tbody tr")).to_have_count(4)
    first = gm.get_by_test_id("hall-standings").locator("tbody tr").first
    expect(first.locator("td").nth(0)).to_have_text("1.º")
    expect(first.locator("td").nth(2)).to_have_text("1")            # the forfeit's winner
    expect(gm.get_by_test_id("hall-standings").locator("tbody tr td:nth-child(3)")).to_contain_text(
        ["1", "0,5", "0,5", "0"])                                   # halves the page's way
    gm.get_by_test_id("hall-next-round").click()
    expect(gm.get_by_test_id("hall-round")).to_contain_text("Ronda 2 de 3")
    expect(projector.get_by_test_id("hall-round")).to_contain_text("Ronda 2 de 3")
    expect(gm.get_by_test_id("hall-state-2.1")).to_contain_text("sin jugadas")
    screens.shot(gm, "teacher-round-2")


ROUND_2_MOVES = ["wA1", "bA1 wA1-", "wQ -wA1", "bQ bA1-"]


EIGHT = ["Ana Belén Fernández", "Bautista Quiroga", "Carla Domínguez", "Daniela Ibarra",
         "Esteban Martínez", "Florencia Salgado", "Gonzalo Etchegaray", "Horacio Villanueva"]
#: Sixteen players, a large class: the eight and eight more with names as long.
SIXTEEN = EIGHT + ["Ignacio Benavídez", "Julieta Arrieta", "Karina Olmedo", "Lautaro Sepúlveda",
                   "Mercedes Irigoyen", "Nicolás Larrañaga", "Octavio Zubizarreta", "Paula Echeverría"]


def hall_in_round_2(hive_server, room, players=EIGHT, picks=("2.1", "2.2", "2.3")):
    """A hall of ``players`` in round 2: round 1 ended from the consoles, boards 2.1 and 2.2
    under way, 2.3 and 2.4 over, the rest not begun, ``picks`` picked for the projector.
    Its id and watch link."""
    from playwright.sync_api import expect

    from .layout import GM
    gm = room.gm
    url = hive_server.url
    answer = gm.context.request.post(f"{url}/console/halls", data={
        "kind": "hive", "name": "Torneo de la tarde", "seed": 3, "settings": {},
        "players": "\n".join(players) + "\n"}).json()
    assert answer["ok"], answer
    hall_id = answer["hall_id"]

    def ended(games, results):
        for g, result in zip(games, results):
            teacher = GM(room, g["game_id"])
            try:
                teacher.act("end", result=result, reason="abandono")
            finally:
                teacher.close()

    games = gm.context.request.get(f"{url}/console/halls/{hall_id}.json").json()["games"]
    ended(games, ["white", "black", "draw", "white"] * (len(games) // 4 + 1))
    gm.goto(f"{url}/console/halls/{hall_id}")
    gm.get_by_test_id("hall-next-round").click()
    expect(gm.get_by_test_id("hall-round")).to_contain_text("Ronda 2")
    games = [g for g in gm.context.request.get(f"{url}/console/halls/{hall_id}.json").json()["games"]
             if g["key"].startswith("2.")]
    for g, count in zip(games[:2], (4, 3)):
        teacher = GM(room, g["game_id"])
        try:
            for move in ROUND_2_MOVES[:count]:
                teacher.act("move", move=move)
        finally:
            teacher.close()
    ended(games[2:4], ["black", "draw"])
    for key in picks:
        gm.get_by_test_id(f"hall-pick-{key}").check()
    gm.get_by_test_id("hall-show").click()
    expect(gm.get_by_test_id("hall-said")).to_contain_text(str(len(picks)))
    return hall_id, gm.get_by_test_id("hall-projector-link").get_attribute("href")


def test_the_hall_projector_and_the_teacher_s_phone_in_round_2(hive_server, make_room, screens):
    """Issue 47: eight players in round 2 on the projector (1280×720, 1920×1080): the whole
    screen and never more, la partida's dark theme, the standings whole and large, the
    pieces' names read from the back; on the teacher's phone (390×844) the pairings fit."""
    from playwright.sync_api import expect
    room = make_room(hive_server)
    room.gm.set_viewport_size(CONSOLE)
    hall_id, watch = hall_in_round_2(hive_server, room)
    projector = screens.page("projector", PROJECTORS[0])
    projector.goto(watch)
    expect(projector.locator("[data-testid^=hall-live-]")).to_have_count(3)
    # Only the current round's boards: the picked ones as tiles, the fourth as a line.
    expect(projector.get_by_test_id("hall-pairings").locator("li")).to_have_count(1)
    dark = partida_background(room)
    for viewport in PROJECTORS:
        found = check_projector(projector, viewport, dark, STANDINGS_AND_TILES)
        assert len(found["letters"]) == 7, found["letters"]           # 2.1's four, 2.2's three
        if viewport["height"] == 720:
            for cell in ("td.c-name", "td.c-points", "td.c-buchholz"):
                assert font(projector, f"[data-testid=hall-standings] {cell}") >= 28, cell
            assert font(projector, ".hive-mini-title .hive-side") >= 20
        screens.shot(projector, f"round-2-{viewport['width']}x{viewport['height']}", full_page=False)

    # The teacher's phone: the pairings' every cell within the screen's width.
    phone = screens.page("teacher-phone", PHONE, mobile=True,
                         storage_state=room.gm.context.storage_state())
    phone.goto(f"{hive_server.url}/console/halls/{hall_id}")
    expect(phone.get_by_test_id("hall-pairings").locator("tbody tr")).to_have_count(4)
    steady(phone)
    found = phone.evaluate("""() => ({ sw: document.scrollingElement.scrollWidth, w: innerWidth,
      out: Array.from(document.querySelectorAll('[data-testid=hall-pairings] *')).map((el) => [el.textContent.slice(0, 30),
        el.getBoundingClientRect().right]).filter((x) => x[1] > innerWidth + 0.5) })""")
    assert found["sw"] <= found["w"] and found["out"] == [], found
    axe_found = axe(phone)
    assert axe_found == [], ("teacher's phone", axe_found)
    screens.shot(phone, "teacher-phone-390x844")


def test_sixteen_players_in_round_2_with_four_boards_on_the_projector(hive_server, make_room, screens):
    """Issue 47: a large class (sixteen players) in round 2 with four boards picked, at
    1280×720 and 1920×1080: no scroll, nothing cut, the standings' place, name, points and
    Buchholz at least 28 px at 720 lines (42 at 1080), every board a board, axe-clean."""
    from playwright.sync_api import expect
    room = make_room(hive_server)
    room.gm.set_viewport_size(CONSOLE)
    _hall_id, watch = hall_in_round_2(hive_server, room, SIXTEEN, ("2.1", "2.2", "2.3", "2.4"))
    projector = screens.page("projector", PROJECTORS[0])
    projector.goto(watch)
    expect(projector.locator("[data-testid^=hall-live-]")).to_have_count(4)
    expect(projector.get_by_test_id("hall-standings").locator("tbody tr")).to_have_count(16)
    expect(projector.get_by_test_id("hall-pairings").locator("li")).to_have_count(4)
    dark = partida_background(room)
    for viewport in PROJECTORS:
        found = check_projector(projector, viewport, dark, STANDINGS_AND_TILES)
        assert len(found["letters"]) == 7, found["letters"]           # 2.1's four, 2.2's three
        least = 28 * viewport["height"] / 720
        sizes = projector.evaluate("""() => Array.from(document.querySelectorAll(
          '[data-testid=hall-standings] td'), (el) => parseFloat(getComputedStyle(el).fontSize))""")
        assert len(sizes) == 16 * 4 and min(sizes) >= least, (viewport, min(sizes))
        # Every picked board stays a board (the band layout's row over the standings): at
        # least a fourteenth of the screen's height, its pieces' names 12 px (check_projector).
        heights = projector.evaluate("""() => Array.from(document.querySelectorAll('.hive-mini-board'),
          (el) => el.getBoundingClientRect().height)""")
        assert len(heights) == 4 and min(heights) >= viewport["height"] / 14, (viewport, heights)
        # The other boards' lines beside the standings: each board by its number, short
        # enough to read (its players are in the standings and on the tiles).
        lines = font(projector, ".hive-hall-list li")
        assert lines >= 15, (viewport, lines)           # 12 px before the names went
        expect(projector.get_by_test_id("hall-pairing-2.5").locator("[aria-hidden=true]")).to_have_text("Tablero 5")
        screens.shot(projector, f"sixteen-{viewport['width']}x{viewport['height']}", full_page=False)


def test_each_round_as_the_class_comes_in_on_the_projector(hive_server, make_room, screens):
    """Issue 47: a round before any of its boards has begun, no board picked, the door's QR
    code grown for the class coming in, with eleven and sixteen players, at 1280×720 and
    1920×1080: nothing scrolls or is cut; in round 1 no standings (nothing to rank yet),
    each board's line at least 28 px at 720 lines; in round 2 the standings at 28 px too.
    The QR code grows only as far as that allows. Axe-clean."""
    from playwright.sync_api import expect

    from .layout import GM
    room = make_room(hive_server)
    url = hive_server.url
    dark = partida_background(room)

    def measured(projector, viewport, name):
        projector.set_viewport_size(viewport)
        steady(projector)
        found = projector.evaluate(PROJECTOR_MEASURES, STANDINGS_AND_TILES)
        sizes = projector.evaluate("""() => ({
          standings: Array.from(document.querySelectorAll('[data-testid=hall-standings] td'),
            (el) => parseFloat(getComputedStyle(el).fontSize)),
          lines: Array.from(document.querySelectorAll('.hive-hall-list li'),
            (el) => parseFloat(getComputedStyle(el).fontSize)),
          qr: document.querySelector('[data-testid=door-qr]').getBoundingClientRect().height})""")
        screens.shot(projector, f"{name}-{viewport['width']}x{viewport['height']}", full_page=False)
        assert found["sh"] <= found["h"] and found["sw"] <= found["w"], (name, viewport, found)
        assert found["cut"] == [], (name, viewport, found["cut"])
        assert found["background"] == dark
        assert sizes["qr"] >= 0.135 * viewport["height"] - 0.5, (name, viewport, sizes["qr"])
        assert axe(projector) == [], name
        return sizes

    for players in (SIXTEEN[:11], SIXTEEN):
        answer = room.gm.context.request.post(f"{url}/console/halls", data={
            "kind": "hive", "name": "Torneo de la tarde", "seed": 3, "settings": {},
            "players": "\n".join(players) + "\n"}).json()
        assert answer["ok"], answer
        hall_id = answer["hall_id"]
        room.gm.goto(f"{url}/console/halls/{hall_id}")
        watch = room.gm.get_by_test_id("hall-projector-link").get_attribute("href")
        projector = screens.page(f"coming-in-{len(players)}", PROJECTORS[0])
        projector.goto(watch)
        boards = len(players) // 2
        expect(projector.get_by_test_id("hall-pairings").locator("li")).to_have_count(boards)
        expect(projector.locator("body.door-open")).to_have_count(1)
        expect(projector.get_by_test_id("hall-standings")).to_have_count(0)
        for viewport in PROJECTORS:
            sizes = measured(projector, viewport, f"round-1-{len(players)}")
            assert min(sizes["lines"]) >= 28 * viewport["height"] / 720 - 0.1, (viewport, sizes)
        # Round 1 ended from the consoles, round 2 made, none of its boards begun (the
        # door's code small again: the class is in).
        games = room.gm.context.request.get(f"{url}/console/halls/{hall_id}.json").json()["games"]
        for g, result in zip(games, ["white", "black", "draw"] * len(games)):
            teacher = GM(room, g["game_id"])
            try:
                teacher.act("end", result=result, reason="abandono")
            finally:
                teacher.close()
        room.gm.goto(f"{url}/console/halls/{hall_id}")
        room.gm.get_by_test_id("hall-next-round").click()
        expect(room.gm.get_by_test_id("hall-round")).to_contain_text("Ronda 2")
        expect(projector.get_by_test_id("hall-standings").locator("tbody tr")).to_have_count(len(players))
        for viewport in PROJECTORS:
            sizes = measured(projector, viewport, f"round-2-{len(players)}")
            least = 28 * viewport["height"] / 720 - 0.1
            assert min(sizes["standings"]) >= least, (len(players), viewport, sizes)
            # Eleven: the lines beside the standings at 28 px too. Sixteen: the standings
            # in two tables over the lines, the lines in two columns in what is left.
            if len(players) == 11:
                assert min(sizes["lines"]) >= least, (viewport, sizes)
            else:
                assert projector.locator(".hh-main").get_attribute("data-layout") == "stack"
                assert min(sizes["lines"]) >= 16 * viewport["height"] / 720 - 0.5, (viewport, sizes)
