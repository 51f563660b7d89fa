"""Hive on screen (issue 38, items 5 and 7): short games played through the SVG board,
on one tablet shared by the pair (800×1280) and on two phones (390×844), with the
teacher's console (1366×768) and the projector (1280×720, 1920×1080) following.

A tap (or Enter) on a piece lights the cells the engine lists for it and a tap on one of
them plays it; a piece with nowhere to go says why in one line; the move list, whose turn
it is, the take-back by agreement, the draw by agreement and the teacher's forfeit are read
off the pages as a player reads them. Each screen is measured (the board inside the
viewport, no sideways scroll, 44 px targets on phones) and checked by axe-core;
screenshots go to test-artifacts/hive_screens-*.png.
"""
from __future__ import annotations

import re

import pytest
from .layout import axe, font, steady

from server import Server

TABLET = {"width": 800, "height": 1280}
PHONE = {"width": 390, "height": 844}
CONSOLE = {"width": 1366, "height": 768}
PROJECTORS = ({"width": 1280, "height": 720}, {"width": 1920, "height": 1080})


@pytest.fixture
def hive_server(tmp_path):
    server = Server(tmp_path, env={"FACILITATOR_SOCKET_RATE_SCALE": "50"}).start()
    yield server
    server.stop()


def new_game(room, name: str, settings: dict | None = None) -> tuple[int, dict, str]:
    """A Hive game made as the console makes it (kind hive): its id, codes and watch code."""
    answer = room.gm.context.request.post(f"{room.server.url}/console/games",
                                          data={"kind": "hive", "name": name,
                                                "settings": settings or {}}).json()
    assert answer["ok"], answer
    codes = room.gm.context.request.get(
        f"{room.server.url}/api/games/{answer['game_id']}/codes").json()
    return answer["game_id"], {c["team"]: c["code"] for c in codes["teams"]}, codes["watch"]


def teacher_plays(room, game_id: int, played) -> None:
    """The teacher plays ``played`` on the game from the console's own client."""
    from .layout import GM
    teacher = GM(room, game_id)
    try:
        for move in played:
            teacher.act("move", move=move)
    finally:
        teacher.close()


def moves(page) -> list[str]:
    """The move list as the page writes it: "blancas: wG1" → "wG1"."""
    items = page.get_by_test_id("hive-moves").locator("li").all_inner_texts()
    return [item.split(": ", 1)[1] for item in items]


def play(page, hand: str | None = None, cell: str | None = None, index: int = 0) -> str:
    """Pick a piece (``hand``: "white-G", a piece in hand; ``cell``: "q_r", one on the
    board), then tap the ``index``-th lit cell; returns the move it played."""
    from playwright.sync_api import expect
    count = page.locator("[data-testid=hive-moves] li").count()
    picked = page.get_by_test_id(f"hive-hand-{hand}" if hand else f"hive-cell-{cell}")
    picked.click()
    expect(picked).to_have_attribute("aria-pressed", "true")
    target = page.locator(".hive-svg [data-move], .hive-stack.lit").nth(index)
    move = target.get_attribute("data-move") or target.get_attribute("aria-label")
    target.click()
    expect(page.locator("[data-testid=hive-moves] li")).to_have_count(count + 1)
    return move


def check_phone_geometry(page):
    """The board inside the viewport, nothing sideways, every target at least 44 px."""
    found = page.evaluate("""() => {
      const d = document.documentElement;
      const svg = document.querySelector('.hive-svg').getBoundingClientRect();
      const small = [];
      for (const el of document.querySelectorAll('#screen button, .hive-svg [role=button]')) {
        const r = el.getBoundingClientRect();
        if (r.width > 0 && (r.width < 44 || r.height < 44)) small.push([el.getAttribute('data-testid') || el.textContent, r.width, r.height]);
      }
      return { sw: d.scrollWidth, w: innerWidth, svg: [svg.left, svg.right, svg.top, svg.bottom], small: small };
    }""")
    assert found["sw"] <= found["w"], f"sideways scroll: {found}"
    left, right, top, bottom = found["svg"]
    assert left >= 0 and right <= found["w"] and bottom - top <= PHONE["height"], found
    assert found["small"] == [], f"targets under 44 px: {found['small']}"


def axe_clean(page, what: str):
    found = axe(page)
    assert found == [], (what, found)


def test_a_pair_plays_on_one_shared_tablet_and_agrees_a_draw(hive_server, make_room, screens):
    from playwright.sync_api import expect
    room = make_room(hive_server)
    _game_id, codes, watch = new_game(room, "Hive en la mesa")
    table = screens.page("table", TABLET, mobile=True)
    table.goto(f"{hive_server.url}/j/{codes[-1]}")   # the table's screen code (C-Q2, H-G8)
    status = table.get_by_test_id("hive-status")
    expect(status).to_contain_text("blancas")
    assert "White" not in status.inner_text()            # a default name is its colour (H-W4)
    expect(table.get_by_test_id("hive-game-type")).to_have_count(0)   # the base game names no pieces
    projector = screens.page("projector", PROJECTORS[0])
    projector.goto(f"{hive_server.url}/projector/{watch}")
    expect(projector.get_by_test_id("hive-status")).to_contain_text("blancas")
    # Before play the projector shows the game's own code (a phone picks its colour
    # there; issue 45), never the tablet's screen code; it goes once play starts.
    expect(projector.get_by_test_id("door-code")).to_have_text(codes[0][:4] + "-" + codes[0][4:])
    assert codes[-1] not in projector.content()
    screens.shot(projector, "projector-before-play", full_page=False)

    # A piece that cannot go anywhere says why, in one line, with the rule's summary
    # (H-W1); the rule's id only in the tooltip (H-W3).
    table.get_by_test_id("hive-hand-white-Q").click()
    explain = table.get_by_test_id("hive-explain")
    expect(explain).to_contain_text("primer turno")
    assert "H-P1.5" in explain.get_attribute("title")     # the rule's id in the tooltip only
    assert "H-P1.5" not in explain.inner_text()
    assert play(table, hand="white-G") == "wG1"
    expect(explain).to_be_hidden()
    expect(status).to_contain_text("negras")
    black = play(table, hand="black-B", index=2)
    assert moves(table) == ["wG1", black]
    # The keyboard: the next piece in hand, then a lit cell, both with Enter.
    table.get_by_test_id("hive-hand-white-A").focus()
    table.keyboard.press("Enter")
    lit = table.locator(".hive-svg [data-move]").first
    white = lit.get_attribute("data-move")
    lit.focus()
    table.keyboard.press("Enter")
    expect(table.locator("[data-testid=hive-moves] li")).to_have_count(3)
    assert moves(table) == ["wG1", black, white]
    # The last move is marked on the board; each piece carries its name in notation and
    # says its insect and colour in words (H-W2).
    assert table.locator(".hive-stack.last text.letter").text_content() == white.split()[0]
    assert "blanca" in table.locator(".hive-stack.last").get_attribute("aria-label")
    expect(table.locator(".hive-stack.last")).to_have_attribute("data-piece", white.split()[0])
    expect(projector.get_by_test_id("hive-moves").locator("li")).to_have_count(3)
    expect(projector.get_by_test_id("door")).to_be_hidden()
    screens.shot(table, "table-800x1280")
    axe_clean(table, "table 800x1280")

    # A draw by agreement: one side offers, the other accepts (the pair shares the screen).
    table.get_by_test_id("hive-offer-draw").click()
    expect(table.get_by_test_id("hive-draw-offered")).to_be_visible()
    table.get_by_test_id("hive-accept-draw").click()
    expect(status).to_have_text(re.compile(r"Tablas — por acuerdo"))
    expect(projector.get_by_test_id("hive-status")).to_have_text(re.compile(r"Tablas — por acuerdo"))
    assert table.locator(".hive-svg [role=button]").count() == 0       # nothing more to play
    dark = partida_background(room)
    for viewport in PROJECTORS:
        check_projector(projector, viewport, dark, ".hive-hand, .hive-status, .hive-who, .hive-svg")
        screens.shot(projector, f"projector-{viewport['width']}x{viewport['height']}", full_page=False)


def test_two_phones_take_a_move_back_by_agreement_and_the_teacher_ends_it(hive_server, make_room, screens):
    from playwright.sync_api import expect
    room = make_room(hive_server)
    game_id, codes, _watch = new_game(room, "Hive en dos teléfonos")
    white = screens.page("white", PHONE, mobile=True)
    black = screens.page("black", PHONE, mobile=True)
    white.goto(f"{hive_server.url}/j/{codes[1]}")
    black.goto(f"{hive_server.url}/j/{codes[2]}")
    expect(white.get_by_test_id("hive-status")).to_have_class(re.compile(r"\bmine\b"))
    expect(black.get_by_test_id("hive-status")).to_contain_text("esperar")
    # Black's phone offers nothing to pick while White is to move.
    expect(black.locator("button.hive-hand-piece")).to_have_count(0)
    check_phone_geometry(white)
    axe_clean(white, "white's phone 390x844")

    assert play(white, hand="white-S") == "wS1"
    expect(black.get_by_test_id("hive-moves").locator("li")).to_have_text(["blancas: wS1"])
    # Each phone lists its own player's hand first (issue 47).
    for phone, own in ((black, "black"), (white, "white")):
        expect(phone.locator(".hive-hands > section").first).to_have_attribute(
            "data-testid", f"hive-hand-{own}")
    first = play(black, hand="black-S")
    screens.shot(black, "black-phone-after-move")
    # Black takes it back by agreement: Black asks, White accepts on the other phone.
    expect(black.get_by_test_id("hive-ask-undo")).to_have_text("Pedir deshacer la última jugada")
    black.get_by_test_id("hive-ask-undo").click()
    expect(white.get_by_test_id("hive-undo-asked")).to_contain_text("negras")
    # The one who asked reads it as theirs, waiting for the other side.
    expect(black.get_by_test_id("hive-undo-asked")).to_contain_text(
        re.compile(r"(Pediste|Has pedido) deshacer la última jugada: falta la respuesta de las blancas"))
    white.get_by_test_id("hive-accept-undo").click()
    expect(black.get_by_test_id("hive-moves").locator("li")).to_have_count(1)
    expect(black.get_by_test_id("hive-status")).to_have_class(re.compile(r"\bmine\b"))
    second = play(black, hand="black-G")
    assert moves(white) == ["wS1", second] and first
    white.get_by_test_id("hive-hand-white-A").click()      # a lit cell, then measured
    expect(white.locator(".hive-svg [data-move]").first).to_be_visible()
    check_phone_geometry(white)
    screens.shot(white, "white-phone-picked")
    # The zoom buttons and the fit button: the board changes scale and comes back (H-W5).
    layer = white.locator(".hive-svg .layer")
    before = layer.get_attribute("transform")
    white.get_by_test_id("hive-zoom-in").click()
    zoomed = layer.get_attribute("transform")
    assert zoomed != before
    white.get_by_test_id("hive-fit").click()
    assert white.locator(".hive-svg .layer").get_attribute("transform") != zoomed
    assert white.evaluate("""() => {
      const frame = document.querySelector('.hive-svg').getBoundingClientRect();
      return Array.from(document.querySelectorAll('.hive-svg .hive-stack, .hive-svg .hive-dest')).every((el) => {
        const r = el.getBoundingClientRect();
        return r.left >= frame.left - 1 && r.right <= frame.right + 1 && r.top >= frame.top - 1 && r.bottom <= frame.bottom + 1;
      });
    }"""), "the fit leaves every cell in the frame"

    # The teacher's console: the codes with their QR codes, and a forfeit with its reason.
    gm = room.gm
    gm.set_viewport_size(CONSOLE)
    gm.goto(f"{hive_server.url}/console/{game_id}")
    expect(gm.get_by_test_id("hive-join-code-1")).to_have_text(codes[1])
    qr = gm.get_by_test_id("hive-code-0").locator("img")
    expect(qr).to_have_attribute("src", f"/qr/{codes[0]}.svg")
    assert gm.context.request.get(f"{hive_server.url}/qr/{codes[0]}.svg").ok
    expect(gm.get_by_test_id("hive-moves").locator("li")).to_have_count(2)
    # The wheel zooms the board where the pointer is, a drag pans it.
    board = gm.locator(".hive-svg")
    box = board.bounding_box()
    shown = gm.locator(".hive-svg .layer").get_attribute("transform")
    gm.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    gm.mouse.wheel(0, -300)
    expect(gm.locator(".hive-svg .layer")).not_to_have_attribute("transform", shown)
    wheeled = gm.locator(".hive-svg .layer").get_attribute("transform")
    gm.mouse.down()
    gm.mouse.move(box["x"] + box["width"] / 2 + 60, box["y"] + box["height"] / 2 + 40, steps=5)
    gm.mouse.up()
    expect(gm.locator(".hive-svg .layer")).not_to_have_attribute("transform", wheeled)
    assert gm.locator("[data-testid=hive-moves] li").count() == 2       # a drag plays nothing
    axe_clean(gm, "console 1366x768")
    screens.shot(gm, "console-1366x768")
    gm.get_by_test_id("hive-end-result").select_option("black")
    # Without a reason, the end is not sent: the form says what is missing (issue 47).
    gm.get_by_test_id("hive-end-submit").click()
    expect(gm.get_by_test_id("hive-end-missing")).to_have_text(
        re.compile(r"Falta el motivo: escr"))
    expect(gm.get_by_test_id("hive-status")).not_to_have_text(re.compile(r"Ganan"))
    # The teacher types the reason while a move arrives: the text, the focus and the caret stay.
    reason = gm.get_by_test_id("hive-end-reason")
    reason.click()
    reason.press_sequentially("abanXdono")
    reason.evaluate("(el) => el.setSelectionRange(4, 5)")          # the stray "X" selected
    white.locator(".hive-svg [data-move]").first.click()
    expect(gm.get_by_test_id("hive-moves").locator("li")).to_have_count(3)
    assert reason.evaluate("(el) => [el.value, document.activeElement === el, el.selectionStart, el.selectionEnd]") \
        == ["abanXdono", True, 4, 5]
    gm.keyboard.press("Delete")
    expect(reason).to_have_value("abandono")
    expect(gm.get_by_test_id("hive-end-result")).to_have_value("black")
    gm.get_by_test_id("hive-end-submit").click()
    for page in (white, black, gm):
        expect(page.get_by_test_id("hive-status")).to_have_text(
            re.compile(r"Ganan las negras .* el docente terminó la partida: abandono"))
    screens.shot(white, "white-phone-over")
    axe_clean(black, "black's phone 390x844, over")


def test_a_side_with_no_move_sees_only_pass(hive_server, make_room, screens):
    """H-V1.4: Mzinga's Dumbot-guest recording played up to Black's first pass (by the
    teacher's own Socket.IO client), then Black's phone: Pass and no piece to pick."""
    import sys
    from pathlib import Path

    from playwright.sync_api import expect
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games" / "hive"))
    from hive_cases import read_pgn, recordings
    _tags, played = read_pgn(next(p for p in recordings() if "guest" in p.name))
    before = played[:played.index("pass")]
    room = make_room(hive_server)
    game_id, codes, _watch = new_game(room, "Hive sin jugada")
    teacher_plays(room, game_id, before)
    black = screens.page("black", PHONE, mobile=True)
    black.goto(f"{hive_server.url}/j/{codes[2]}")
    expect(black.get_by_test_id("hive-status")).to_contain_text("pasar")
    expect(black.locator("button.hive-hand-piece")).to_have_count(0)
    check_phone_geometry(black)
    screens.shot(black, "black-must-pass")
    black.get_by_test_id("hive-pass").click()
    expect(black.get_by_test_id("hive-moves").locator("li").last).to_have_text("negras: pass")
    expect(black.get_by_test_id("hive-pass")).to_have_count(0)


def test_the_expansion_pieces_on_a_phone(hive_server, make_room, screens):
    """H-S1.4, H-M1.11, H-M1.12: a Base+MLP game on White's phone: the hands show and name
    the mosquito, the ladybug and the pillbug; the Pillbug is drawn and named on the board;
    Black's spider beside it is picked and moved over it (a Black piece, moved by White's
    Pillbug); then on Black's phone that spider, held this turn, says why."""
    from .layout import GM
    from playwright.sync_api import expect
    room = make_room(hive_server)
    game_id, codes, _watch = new_game(room, "Hive con expansiones", {"game_type": "Base+MLP"})
    teacher = GM(room, game_id)
    try:
        for move in ["wP", "bS1 wP-", "wQ -wP", "bQ bS1/", "wG1 -wQ", "bQ \\bS1"]:
            teacher.act("move", move=move)
    finally:
        teacher.close()
    white = screens.page("white", PHONE, mobile=True)
    white.goto(f"{hive_server.url}/j/{codes[1]}")
    # Issue 49: the screen names the game's pieces beyond the base game's, in words.
    expect(white.get_by_test_id("hive-game-type")).to_have_text("Con las tres: mosquito, mariquita y cochinilla")
    for kind, words in (("M", "Mosquitos"), ("L", "Mariquitas"), ("P", "Cochinillas")):
        expect(white.get_by_test_id(f"hive-hand-white-{kind}")).to_contain_text(words.rstrip("s").lower()[:5])
    expect(white.get_by_test_id("hive-hand-black-L").locator("svg .spot")).to_have_count(4)
    pillbug = white.get_by_test_id("hive-cell-0_0")
    expect(pillbug).to_have_attribute("aria-label", re.compile(r"^wP, cochinilla blanca"))
    assert white.locator("[data-testid=hive-cell-0_0] .glyph path").count() == 2
    check_phone_geometry(white)
    axe_clean(white, "white phone, Base+MLP")
    screens.shot(white, "expansions-white")
    spider = white.get_by_test_id("hive-cell-1_0")
    spider.click()
    expect(spider).to_have_attribute("aria-pressed", "true")
    lit = white.locator(".hive-svg [data-move]")
    expect(lit).to_have_count(3)
    assert sorted(lit.evaluate_all("els => els.map(e => e.dataset.move)")) == [
        "bS1 -bQ", "bS1 wP\\", "bS1 wQ\\"]
    white.locator('.hive-svg [data-move="bS1 wQ\\\\"]').click()
    expect(white.get_by_test_id("hive-moves").locator("li").last).to_have_text("blancas: bS1 wQ\\")
    black = screens.page("black", PHONE, mobile=True)
    black.goto(f"{hive_server.url}/j/{codes[2]}")
    held = black.get_by_test_id("hive-cell--1_1")
    held.click()
    explain = black.get_by_test_id("hive-explain")
    expect(explain).to_contain_text("no se mueve en este")
    assert "H-M1.12" in explain.get_attribute("title")
    check_phone_geometry(black)
    screens.shot(black, "expansions-black-held")


#: The projector's measures (issue 47), read off the page: the page's scroll, the body's
#: background, the smallest piece name on a board as drawn (its font times the SVG's scale),
#: and each box of ``cut`` whose content overflows it.
PROJECTOR_MEASURES = """(cut) => {
  const LABEL_MARGIN = 2;
  const d = document.scrollingElement;
  const letters = Array.from(document.querySelectorAll('.hive-svg text.letter')).map((el) =>
    el.getScreenCTM().a * parseFloat(getComputedStyle(el).fontSize));
  const over = [];
  for (const el of document.querySelectorAll(cut)) {
    if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1) {
      over.push([el.className || el.tagName, (el.innerText || '').slice(0, 40), el.scrollWidth, el.clientWidth,
                 el.scrollHeight, el.clientHeight]);
    }
    const r = el.getBoundingClientRect();
    if (r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5) over.push([(el.innerText || '').slice(0, 40), 'outside', r.right, r.bottom]);
  }
  // Each piece's name inside its hexagon, LABEL_MARGIN board units from every edge: the
  // corners of the label's box tested against the six sides of its tile.
  const touching = [];
  for (const el of document.querySelectorAll('.hive-svg .hive-stack text.letter')) {
    const b = el.getBBox();
    const tile = el.parentNode.querySelector('polygon.tile');
    const p = tile.points.getItem(0);
    const r = Math.hypot(p.x, p.y);
    const room = ([x, y]) => Math.min(r * Math.sqrt(3) / 2 - Math.abs(x),
                                      (r - Math.abs(y) - Math.abs(x) / Math.sqrt(3)) * Math.sqrt(3) / 2);
    const least = Math.min(...[[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height],
                               [b.x + b.width, b.y + b.height]].map(room));
    if (least < LABEL_MARGIN) touching.push([el.textContent, +least.toFixed(2)]);
  }
  return { sh: d.scrollHeight, sw: d.scrollWidth, h: innerHeight, w: innerWidth, letters: letters, touching: touching,
           background: getComputedStyle(document.body).backgroundColor, cut: over };
}"""


def partida_background(room) -> str:
    """The body's background on la partida's projector: the dark theme Hive's projectors share."""
    from .layout import long_settings
    game_id = room.create_via_http(long_settings(), name="Partida de referencia")
    watch = room.gm.context.request.get(f"{room.server.url}/api/games/{game_id}/codes").json()["watch"]
    page = room.screens.page("partida-projector", PROJECTORS[0])
    page.goto(f"{room.server.url}/projector/{watch}")
    return page.evaluate("() => getComputedStyle(document.body).backgroundColor")


def check_projector(page, viewport: dict, dark: str, cut: str) -> dict:
    """Nothing scrolls either way, nothing in ``cut`` is cut, the dark theme, axe-clean;
    at 720p every piece's name on a board at least 12 px; every piece's name inside its
    hexagon, two board units from each edge. Returns the measures."""
    page.set_viewport_size(viewport)
    steady(page)
    found = page.evaluate(PROJECTOR_MEASURES, cut)
    assert found["sh"] <= found["h"] and found["sw"] <= found["w"], (viewport, found)
    assert found["cut"] == [], (viewport, found["cut"])
    assert found["background"] == dark, found["background"]
    if viewport["height"] == 720:
        assert found["letters"] and min(found["letters"]) >= 12, found["letters"]
    assert found["touching"] == [], ("labels too near their hexagon's edge", viewport, found["touching"])
    axe_clean(page, f"projector {viewport}")
    return found


def test_a_single_game_s_projector_mid_play(hive_server, make_room, screens):
    """Issue 47: one game's projector mid-play at 1280×720 and 1920×1080: the whole screen
    and never more, la partida's dark theme, names and pieces read from the back."""
    from playwright.sync_api import expect
    room = make_room(hive_server)
    game_id, _codes, watch = new_game(room, "Hive en el proyector")
    teacher_plays(room, game_id, ["wA1", "bA1 wA1-", "wQ -wA1", "bQ bA1-", "wG1 /wQ", "bS1 bQ/", "wB1 \\wQ"])
    projector = screens.page("projector", PROJECTORS[0])
    projector.goto(f"{hive_server.url}/projector/{watch}")
    expect(projector.get_by_test_id("hive-moves").locator("li")).to_have_count(7)
    dark = partida_background(room)
    for viewport in PROJECTORS:
        check_projector(projector, viewport, dark, ".hive-hand, .hive-status, .hive-who, .hive-svg")
        if viewport["height"] == 720:
            # Who plays which colour and whose turn, read from the back row.
            assert font(projector, ".hive-who .hive-side") >= 28
            assert font(projector, "[data-testid=hive-status]") >= 24
        screens.shot(projector, f"mid-play-{viewport['width']}x{viewport['height']}", full_page=False)


def long_game(plies: int, seed: int) -> list[str]:
    """A legal game of ``plies`` moves, none ending it: the engine's own moves picked at
    random (seeded), ants and spiders preferred so that the hive sprawls."""
    import random

    from facilitator.games.hive.board import Board
    from facilitator.games.hive.notation import canonical
    from facilitator.games.hive.pieces import KIND
    rng = random.Random(seed)
    board, texts = Board(), []
    while len(texts) < plies:
        options = [m for m in board.valid_moves() if m[0] >= 0]
        rng.shuffle(options)
        options.sort(key=lambda m: KIND[m[0]] not in "AS")
        for move in options:
            text = canonical(board, move)
            board.push(move, text)
            if not board.over:
                texts.append(text)
                break
            board.pop()
        else:
            raise AssertionError("no move keeps the game going")
    return texts


#: The share of the board's frame the pieces span (their tiles' box over the frame's box,
#: the larger of the two ratios) and the tiles (and the last move's origin) drawn past the
#: frame's edge.
BOARD_SPAN = """() => {
  const frame = document.querySelector('.hive-svg').getBoundingClientRect();
  const tiles = Array.from(document.querySelectorAll('.hive-svg .hive-stack .tile'), (el) => el.getBoundingClientRect());
  const x0 = Math.min(...tiles.map((b) => b.left)), x1 = Math.max(...tiles.map((b) => b.right));
  const y0 = Math.min(...tiles.map((b) => b.top)), y1 = Math.max(...tiles.map((b) => b.bottom));
  const drawn = tiles.concat(Array.from(document.querySelectorAll('.hive-svg .hive-from'), (el) => el.getBoundingClientRect()));
  const out = drawn.filter((b) => b.left < frame.left - 0.5 || b.right > frame.right + 0.5
    || b.top < frame.top - 0.5 || b.bottom > frame.bottom + 0.5).length;
  return { span: Math.max((x1 - x0) / frame.width, (y1 - y0) / frame.height), out: out, tiles: tiles.length };
}"""


@pytest.mark.parametrize("plies", [3, 36])
def test_a_single_game_s_projector_with_few_pieces_and_with_many(hive_server, make_room, screens, plies):
    """Issue 47: a game's projector at its start (three pieces) and late (36 plies): the
    board fills its room (a few pieces grow past the phones' zoom limit, to span at least
    half the frame) and the whole hive is in sight (no tile, nor the last move's origin,
    past the frame's edge: nobody pans a projector), every piece's name at least 12 px at
    720 lines; the move list under its heading, its latest move whole on the screen."""
    from playwright.sync_api import expect
    room = make_room(hive_server)
    game_id, _codes, watch = new_game(room, f"Hive: {plies} jugadas")
    played = long_game(plies, seed=11)
    teacher_plays(room, game_id, played)
    projector = screens.page("projector", PROJECTORS[0])
    projector.goto(f"{hive_server.url}/projector/{watch}")
    expect(projector.get_by_test_id("hive-moves").locator("li")).to_have_count(plies)
    dark = partida_background(room)
    for viewport in PROJECTORS:
        check_projector(projector, viewport, dark, ".hive-hand, .hive-status, .hive-who, .hive-svg, .hive-moves-box")
        # The move list keeps its latest move in sight, whole, inside the screen.
        last = projector.get_by_test_id("hive-moves").locator("li").last.bounding_box()
        box = projector.locator(".hive-moves-box").bounding_box()
        first = projector.get_by_test_id("hive-moves").locator("li").first.bounding_box()
        head = projector.locator(".hive-moves-head").bounding_box()
        if plies < 10:      # a short list right under its heading
            assert first["y"] - (head["y"] + head["height"]) < 20, (viewport, head, first)
        assert box["y"] + box["height"] <= viewport["height"] and last["y"] >= box["y"] - 0.5 \
            and last["y"] + last["height"] <= box["y"] + box["height"] + 0.5, (viewport, last, box)
        # Every move shown is whole: one that slid partly above the list is not shown.
        cut = projector.evaluate("""() => { const ol = document.querySelector('.hive-moves');
            const r = ol.getBoundingClientRect();
            return [...ol.children].filter((li) => getComputedStyle(li).visibility !== 'hidden')
              .map((li) => li.getBoundingClientRect())
              .filter((b) => b.top < r.top - 0.5 || b.bottom > r.bottom + 0.5).length; }""")
        assert cut == 0, (viewport, cut)
        board = projector.evaluate(BOARD_SPAN)
        assert board["out"] == 0, (viewport, board)
        assert board["span"] >= 0.5, (viewport, board)
        screens.shot(projector, f"{plies}-plies-{viewport['width']}x{viewport['height']}", full_page=False)
