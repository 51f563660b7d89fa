"""The GM console's screens on a laptop (1366×768) and a phone (390×844) (issue 34).

What a teacher trying the product on a fresh clone noticed, each asserted with the
geometry a user sees:

- at 390×844 no console page scrolls sideways and no element reaches past the screen's
  edges: the login, the games list with its set-up form, a game's page in every step of
  a turn and once it is over, the banks pages, the classes pages, the API tokens page and
  the results page; axe-core reports no violation on any of them;
- a game's link opened while logged out leads, after the login, to that game (a ``next``
  that is not a path of this server lands on /console/);
- after "Leer esta pregunta" the question and its expected answer are on screen, not under
  the action bar;
- the scoreboard's devices column fits its panel, with six teams of long names;
- the written answer being judged is on screen beside its verdict buttons;
- the "Hecho" confirmation never covers a button other than its own.

Screenshots: test-artifacts/console_screens-*.png.
"""
from __future__ import annotations

import re

import pytest

try:
    from playwright.sync_api import expect
except ImportError:         # the browser fixture skips, or fails under CI, and says why
    expect = None

from server import GM_PASSWORD

from .layout import GM, WRITTEN_280, axe, choose_any, long_settings, resolve, steady

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
SIZES = {"laptop": (LAPTOP, False), "phone": (PHONE, True)}

#: Every visible element past the screen's left or right edge, and the page's widths.
#: An element inside a box that scrolls sideways counts too: the teacher would have to
#: pan that box to read it.
SIDEWAYS = """() => {
  const W = document.documentElement.clientWidth;
  const out = [];
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (getComputedStyle(el).visibility === 'hidden' || el.closest('.sr-only')) continue;
    if (r.left < -0.5 || r.right > W + 0.5) {
      out.push((el.dataset.testid || el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
        + (typeof el.className === 'string' && el.className ? '.' + el.className.trim().split(/\\s+/).join('.') : ''))
        + ' ' + Math.round(r.left) + '…' + Math.round(r.right));
    }
  }
  return { sw: document.documentElement.scrollWidth, bw: document.body.scrollWidth, w: W, iw: innerWidth, out: out };
}"""

#: The boxes (viewport coordinates) of the elements matching each selector that are shown.
BOXES = """(sels) => {
  const out = {};
  for (const [name, sel] of Object.entries(sels)) {
    out[name] = Array.from(document.querySelectorAll(sel)).filter((el) => el.getClientRects().length
      && getComputedStyle(el).visibility !== 'hidden').map((el) => {
        const r = el.getBoundingClientRect();
        return { id: el.dataset.testid || el.tagName.toLowerCase(), x: r.left, y: r.top, r: r.right, b: r.bottom };
      });
  }
  out.vw = document.documentElement.clientWidth;
  out.vh = innerHeight;
  return out;
}"""


def sideways(page) -> list[str]:
    """What reaches past the screen's sides on ``page`` now (empty when nothing does)."""
    g = page.evaluate(SIDEWAYS)
    problems = []
    if g["sw"] > g["iw"] or g["w"] > g["iw"]:
        problems.append(f"the page is {g['sw']} px wide in a {g['iw']} px screen")
    return problems + [f"past the screen's side: {x}" for x in g["out"][:15]]


def boxes(page, **selectors) -> dict:
    """``{name: [box, ...]}`` of the shown elements of each selector, and ``vw``/``vh``."""
    return page.evaluate(BOXES, selectors)


def intersect(a: dict, b: dict) -> bool:
    """Whether two boxes overlap by more than a pixel both ways."""
    return min(a["r"], b["r"]) - max(a["x"], b["x"]) > 1 and min(a["b"], b["b"]) - max(a["y"], b["y"]) > 1


def inside(box: dict, g: dict) -> bool:
    """Whether a box lies within the viewport."""
    return box["x"] >= -0.5 and box["y"] >= -0.5 and box["r"] <= g["vw"] + 0.5 and box["b"] <= g["vh"] + 0.5


class Phone:
    """The logged-in console in a phone-sized page of its own."""

    def __init__(self, room, size: str = "phone"):
        viewport, touch = SIZES[size]
        self.room, self.size, self.touch = room, size, touch
        self.page = room.screens.page(f"gm-{size}", viewport, mobile=touch,
                                      storage_state=room.gm.context.storage_state(), bypass_csp=True)
        self.problems: list = []

    def press(self, testid: str):
        button = self.page.get_by_test_id(testid)
        if self.touch:
            button.tap()
        else:
            button.click()

    def check(self, name: str, axe_too: bool = True, exclude: list[str] | None = None):
        """Nothing past the screen's sides, axe-core clean; a screenshot of the whole page."""
        page = self.page
        steady(page)                          # the action bar's height settles (ResizeObserver)
        self.room.shot(page, f"{self.size}-{name}", full_page=True)
        problems = sideways(page)
        if problems:
            self.problems.append((name, page.url, problems))
        if axe_too:
            violations = axe(page, exclude)
            if violations:
                self.problems.append((name, page.url, violations))

    def visit(self, path: str, name: str, **kw):
        self.page.goto(self.room.server.url + path)
        self.page.wait_for_load_state("load")
        self.check(name, **kw)


def bank_csv_with_an_error() -> str:
    rows = ["id,author,type,text,answer,notes"]
    for n in range(1, 9):
        kind = "vff" if n == 5 else ("vf", "quien", "abierta")[n % 3]
        rows.append(f"p{n},Kant,{kind},Una pregunta bastante larga sobre la Crítica de la razón pura número {n},"
                    f"Respuesta esperada {n},")
    return "\n".join(rows) + "\n"


def test_every_console_page_fits_a_phone(room, screens, server, tmp_path):
    """At 390×844: the login, games, a game in every step of a turn and over, banks,
    classes, tokens and results: nothing past the screen's sides, axe-core clean."""
    phone = Phone(room)
    page = phone.page
    url = server.url

    # The login, in a context of its own (logged out).
    out = screens.page("logged-out", PHONE, mobile=True, bypass_csp=True)
    out.goto(url + "/console/login")
    room.shot(out, "phone-login")
    assert not sideways(out), sideways(out)
    assert not axe(out), axe(out)

    # A class with students, and a game of six long-named teams: one turn played, one
    # adjustment, an API token: every list has something in it.
    game_id = room.create_via_http(long_settings(rounds=2), name="Filosofía 3.º B — turno tarde de los jueves")
    gm = GM(room, game_id)
    try:
        gm.act("declare", mode="risky", target=3)
        assert choose_any(gm, ("abierta", "quien", "vf"))
        gm.act("question", id=gm.state["candidates"][0]["id"])
        gm.act("write", team=gm.state["view"]["turn"]["secondary"], text=WRITTEN_280)
        gm.act("verdict", result="half")
        resolve(gm)
        gm.act("adjust", team=2, points=0.5, reason="Reclamo aceptado: la respuesta era correcta en parte")
    finally:
        gm.close()

    phone.visit("/console/", "games")
    phone.visit("/console/new/partida", "games-new")
    page.locator("[data-testid=advanced] > summary").click()
    phone.check("games-advanced")

    # The game, every step of a turn through its buttons.
    phone.visit(f"/console/{game_id}", "game-declare")
    phone.press("menu-toggle")
    phone.check("game-menu")
    phone.press("menu-toggle")
    phone.press("declare-risky-4")
    expect(page.get_by_test_id("choose-send")).to_be_visible()
    phone.check("game-choose")
    phone.press("choose-send")
    expect(page.get_by_test_id("question-read")).to_be_visible()
    phone.check("game-question")
    phone.press("question-read")
    expect(page.get_by_test_id("timer-start")).to_be_visible()
    phone.check("game-deliberation")
    page.get_by_test_id("write-text").fill(WRITTEN_280)
    phone.press("write-send")
    expect(page.get_by_test_id("written-live")).to_contain_text(WRITTEN_280[:40])
    phone.press("timer-start")
    expect(page.get_by_test_id("timer-pause")).to_be_visible()
    phone.check("game-timer")
    phone.press("verdict-half")
    nexts = ("pick-author", "written-true", "argument-good", "end-turn")
    for step in range(4):
        page.wait_for_function("(ids) => ids.some((i) => document.querySelector(`[data-testid=${i}]`))", arg=list(nexts))
        nxt = next((i for i in nexts if page.get_by_test_id(i).count()), None)
        assert nxt, "no next step"
        phone.check(f"game-after-verdict-{step}-{nxt}")
        phone.press(nxt)
        if nxt == "end-turn":
            break
        expect(page.get_by_test_id(nxt)).to_have_count(0)
    expect(page.get_by_test_id("history-turn-2")).to_be_attached()
    phone.check("game-next-turn")
    page.get_by_test_id("end-game").scroll_into_view_if_needed()
    phone.press("end-game")
    expect(page.get_by_test_id("see-results")).to_be_visible()
    phone.check("game-over")
    phone.visit(f"/console/{game_id}/results", "results")

    # The banks: the list, one bank, its question forms, an import with an error.
    phone.visit("/console/banks", "banks")
    phone.visit("/console/banks/1", "bank")
    phone.visit("/console/banks/1?q=Kant", "bank-search")
    phone.visit(f"/console/banks/1?game={game_id}", "bank-game")
    phone.visit("/console/banks/1/questions/new", "bank-question-new")
    phone.visit("/console/banks/1/questions/edit?id=fil-platon-vf-1", "bank-question-edit")
    csv = tmp_path / "banco.csv"
    csv.write_text(bank_csv_with_an_error(), encoding="utf-8")
    page.goto(url + "/console/banks")
    page.get_by_test_id("import-file").set_input_files(str(csv))
    page.get_by_test_id("import-name").fill("Kant con un error")
    with page.expect_navigation():             # the form's answer is a page of its own
        phone.press("import-preview")
    page.wait_for_load_state("load")
    phone.check("bank-import-preview")
    page.goto(url + "/console/banks")
    page.get_by_test_id("import-file").set_input_files(str(csv))
    with page.expect_navigation():             # the form's answer is a page of its own
        phone.press("import-submit")
    page.wait_for_load_state("load")
    phone.check("bank-import-error")

    # The classes: the list, a class with its students pasted.
    phone.visit("/console/classes", "classes")
    page.get_by_test_id("class-new-name").fill("Filosofía 5.º B — turno tarde")
    phone.press("class-create")
    page.wait_for_url(re.compile(r"/console/classes/\d+$"))
    expect(page.get_by_test_id("paste-text")).to_be_visible()
    page.get_by_test_id("paste-text").fill("\n".join(
        f"Estudiante Número{n} Apellidolargo\tnumero{n}.apellidolargo@escuela.edu.ar\t{40100200 + n}"
        for n in range(1, 15)))
    phone.press("paste-send")
    expect(page.get_by_test_id("paste-result")).to_be_visible()
    phone.check("class")
    phone.visit("/console/classes", "classes-one")

    # The API tokens, with one created.
    phone.visit("/console/tokens", "tokens-none")
    page.get_by_test_id("token-label").fill("Moodle del departamento de Filosofía")
    phone.press("token-submit")
    expect(page.get_by_test_id("new-token")).to_be_visible()
    phone.check("tokens")
    assert not phone.problems, "\n".join(map(str, phone.problems))


def join_devices(server, codes: dict[int, str], per_team: dict[int, int]) -> list:
    """Connect ``per_team[n]`` devices to team ``n``, each as a phone that scanned its code."""
    import requests

    from server import Client
    clients = []
    for team, count in per_team.items():
        for _ in range(count):
            with requests.Session() as device:
                response = device.get(f"{server.url}/j/{codes[team]}", allow_redirects=False, timeout=10)
                assert response.status_code == 302, response.status_code
                token = device.cookies["team_token"]
            clients.append(Client(server, {"role": "team", "token": token}).connect())
    return clients


#: The scoreboard's geometry: its panel, its table, and each row's devices cell.
SCOREBOARD = """() => {
  const panel = document.getElementById('scores');
  const table = panel.querySelector('table.scores');
  const box = (el) => { const r = el.getBoundingClientRect(); return { x: r.left, y: r.top, r: r.right, b: r.bottom }; };
  const cs = getComputedStyle(panel);
  const p = box(panel);
  const inner = { x: p.x + parseFloat(cs.borderLeftWidth), r: p.r - parseFloat(cs.borderRightWidth) };
  return { vw: document.documentElement.clientWidth, panel: p, inner: inner, table: box(table),
           scroll: [panel.scrollWidth, panel.clientWidth],
           cells: Array.from(table.querySelectorAll('tbody td.devices')).map((td) => Object.assign(box(td), {
             kids: Array.from(td.querySelectorAll('button, code, [data-testid^=devices-]')).map(box) })) };
}"""


@pytest.mark.parametrize("size", list(SIZES))
def test_the_scoreboard_devices_column_fits(room, server, size):
    """Six teams of long names, each with a phone or two: the devices column, its counts,
    device ids and "Quitar" buttons are inside the scoreboard's panel and the screen,
    and the panel does not scroll sideways."""
    game_id = room.create_via_http(long_settings(rounds=2), name="Filosofía 3.º B")
    gm = GM(room, game_id)
    clients = join_devices(server, gm.codes, {1: 2, 2: 1, 3: 1, 4: 2, 5: 1, 6: 1})
    try:
        console = Phone(room, size)
        page = console.page
        page.goto(f"{server.url}/console/{game_id}")
        for n in range(1, 7):
            expect(page.get_by_test_id(f"devices-{n}")).not_to_have_text("0")
        expect(page.locator("[data-testid^=device-remove-]")).to_have_count(8)
        page.get_by_test_id("scores").scroll_into_view_if_needed()
        steady(page)
        room.shot(page, f"{size}-scoreboard-devices", full_page=False)
        g = page.evaluate(SCOREBOARD)
        assert g["scroll"][0] <= g["scroll"][1], f"the scoreboard scrolls sideways: {g['scroll']}"
        assert g["table"]["r"] <= g["inner"]["r"] + 0.5, (g["table"], g["inner"])
        assert len(g["cells"]) == 6
        for cell in g["cells"]:
            for b in [cell, *cell["kids"]]:
                assert b["x"] >= g["inner"]["x"] - 0.5 and b["r"] <= g["inner"]["r"] + 0.5, ("outside the panel", b, g["inner"])
                assert b["r"] <= min(g["table"]["r"], g["vw"]) + 0.5, ("outside the table or the screen", b, g)
        assert not sideways(page), sideways(page)
    finally:
        for client in clients:
            client.close()
        gm.close()


def test_a_game_link_opened_logged_out_comes_back_after_the_login(room, screens, server):
    """The teacher opens a game's link while logged out: the login, then that game. A
    ``next`` pointing off this server is refused: the login lands on /console/."""
    game_id = room.create_via_http(long_settings(rounds=2), name="Filosofía 3.º B")
    for size, (viewport, touch) in SIZES.items():
        page = screens.page(f"out-{size}", viewport, mobile=touch)
        page.goto(f"{server.url}/console/{game_id}")
        page.wait_for_url(re.compile(r"/console/login\?next="))
        room.shot(page, f"{size}-login-asked-for-a-game", full_page=False)
        page.get_by_test_id("login-secret").fill(GM_PASSWORD)
        page.get_by_test_id("login-submit").click()
        page.wait_for_url(re.compile(rf"/console/{game_id}$"))
        expect(page.get_by_test_id("game-name")).to_have_text("Filosofía 3.º B")
        expect(page.get_by_test_id("waiting")).to_be_visible()

    # An open redirect: another host, in two spellings.
    for attempt in ("https://evil.example/console/1", "//evil.example/console/1"):
        page = screens.page("open-redirect", PHONE, mobile=True)
        page.goto(f"{server.url}/console/login?next={attempt}")
        page.get_by_test_id("login-secret").fill(GM_PASSWORD)
        page.get_by_test_id("login-submit").click()
        page.wait_for_url(re.compile(r"/console/?$"))
        assert page.url.startswith(server.url + "/console"), page.url
        expect(page.get_by_test_id("game-cards")).to_be_visible()


#: The boxes the GM needs on screen after "Leer esta pregunta", and the action bar's.
READ = {"text": "#question [data-testid=question-text]", "answer": "#question [data-testid=question-answer]",
        "answer_box": "#question .answer", "dock": "#dock"}


def assert_clear_of_the_bar(g: dict, names, what: str):
    """Each box of ``names`` inside the viewport and clear of the action bar."""
    dock = g["dock"][0]
    for name in names:
        assert g[name], (what, name, "not shown")
        for b in g[name]:
            assert inside(b, g), (what, name, "outside the screen", b, g["vw"], g["vh"])
            assert not intersect(b, dock), (what, name, "under the action bar", b, dock)


def declare_and_choose(console, mode: str = "declare-risky-4"):
    """Declare (a risky challenge: a secondary team writes) and choose through the buttons."""
    page = console.page
    console.press(mode)
    expect(page.get_by_test_id("choose-send")).to_be_visible()
    console.press("choose-send")
    expect(page.get_by_test_id("question-read")).to_be_visible()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_question_read_is_in_view_with_the_action_bar(room, server, size):
    """After "Leer esta pregunta" the question's text and its expected answer are on
    screen together with the action bar, not under it (a long question and answer)."""
    game_id = room.create_via_http(long_settings(rounds=2), name="Filosofía 3.º B")
    console = Phone(room, size)
    page = console.page
    page.goto(f"{server.url}/console/{game_id}")
    declare_and_choose(console)
    console.press("question-read")
    expect(page.get_by_test_id("timer-start")).to_be_visible()
    expect(page.get_by_test_id("toast-undo")).to_be_visible()
    steady(page)                              # the bar's height settles, the page with it
    room.shot(page, f"{size}-question-read", full_page=False)
    g = boxes(page, **READ)
    assert_clear_of_the_bar(g, ("text", "answer", "answer_box"), "after reading")
    # Still so once the clock runs (the bar's buttons change).
    console.press("timer-start")
    expect(page.get_by_test_id("timer-pause")).to_be_visible()
    steady(page)
    assert_clear_of_the_bar(boxes(page, **READ), ("text", "answer", "answer_box"), "timer running")


@pytest.mark.parametrize("size", list(SIZES))
def test_the_written_answer_judged_is_beside_its_buttons(room, server, size):
    """Judging the secondary team's written answer: the text and the Correcta/Incorrecta
    buttons are on screen at once, nothing covering them."""
    game_id = room.create_via_http(long_settings(rounds=2), name="Filosofía 3.º B")
    console = Phone(room, size)
    page = console.page
    page.goto(f"{server.url}/console/{game_id}")
    declare_and_choose(console)
    console.press("question-read")
    page.get_by_test_id("write-text").fill(WRITTEN_280)
    console.press("write-send")
    expect(page.get_by_test_id("written-live")).to_contain_text(WRITTEN_280[:40])
    console.press("verdict-half")                 # half: a card picked, then the written answer judged
    console.press("pick-author")
    expect(page.get_by_test_id("written-true")).to_be_visible()
    steady(page)
    room.shot(page, f"{size}-written-judging", full_page=False)
    expect(page.get_by_test_id("written-judged")).to_have_text(WRITTEN_280)
    g = page.evaluate("""() => {
      const box = (el) => { const r = el.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 20));
        return { x: r.left, y: r.top, r: r.right, b: r.bottom, covered: !(hit && (hit === el || el.contains(hit))) }; };
      const q = (id) => document.querySelector(`[data-testid=${id}]`);
      const judged = q('written-judged');
      return { vw: document.documentElement.clientWidth, vh: innerHeight, whole: judged.scrollHeight <= judged.clientHeight + 1,
               text: box(judged), yes: box(q('written-true')), no: box(q('written-false')) };
    }""")
    for name in ("text", "yes", "no"):
        assert inside(g[name], g), (name, g)
        assert not g[name]["covered"], (name, "covered", g)
    assert g["whole"], "the written answer is cut: it scrolls inside its box"
    # Right above its buttons: nothing between the text and them.
    assert 0 <= g["yes"]["y"] - g["text"]["b"] < 40, g
    console.press("written-true")
    expect(page.get_by_test_id("written-judged")).to_have_count(0)


#: The message's box, the action bar's, and every shown button but the message's own: where
#: it is, and what its centre shows (the button itself; the message over it; the bar over it).
TOAST = """() => {
  const notice = document.getElementById('notice');
  const dock = document.getElementById('dock');
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const box = (el) => { const r = el.getBoundingClientRect(); return { id: el.dataset.testid || el.textContent.trim().slice(0, 20),
    x: r.left, y: r.top, r: r.right, b: r.bottom }; };
  const buttons = Array.from(document.querySelectorAll('button, a.button, select'))
    .filter((el) => shown(el) && !notice.contains(el)).map((el) => {
      const b = box(el);
      const hit = document.elementFromPoint((b.x + b.r) / 2, (b.y + b.b) / 2);
      b.inBar = dock.contains(el);
      b.front = !!(hit && (hit === el || el.contains(hit)));
      b.underMessage = !!(hit && notice.contains(hit));
      b.underBar = !!(hit && !b.front && !b.underMessage && dock.contains(hit));
      return b;
    });
  const undo = document.querySelector('[data-testid=toast-undo]');
  const u = undo && shown(undo) ? box(undo) : null;
  const own = Array.from(notice.querySelectorAll('button, a')).filter(shown).map((el) =>
    Object.assign(box(el), { fits: el.scrollWidth <= el.clientWidth + 1 }));
  const hit = u ? document.elementFromPoint((u.x + u.r) / 2, (u.y + u.b) / 2) : null;
  return { vw: document.documentElement.clientWidth, vh: innerHeight, shown: shown(notice) && !notice.hidden,
           toast: box(notice), dock: box(dock), undo: u, undoReachable: !!(hit && undo.contains(hit)), buttons: buttons, own: own };
}"""


def toast_covers(g: dict) -> list[dict]:
    """The buttons the message covers: the action bar's own that it meets. The message is a
    part of the bar (asserted beside this): a button of the page it meets is one the page
    was scrolled under the bar, the bar's to hide with or without the message; that the
    page moves with the bar's edge as the message comes and goes, so that what was shown
    stays shown, the test checks on its own."""
    return [b for b in g["buttons"] if b["inBar"] and intersect(b, g["toast"])]


def assert_toast_in_the_bar(g: dict, where):
    """The message shown, inside the screen and the action bar, its Deshacer reachable,
    covering no button."""
    assert g["shown"] and inside(g["toast"], g), (where, g["toast"])
    d, m = g["dock"], g["toast"]
    assert d["x"] - 0.5 <= m["x"] and m["r"] <= d["r"] + 0.5 and d["y"] - 0.5 <= m["y"] and m["b"] <= d["b"] + 0.5, \
        (where, "the message is not in the action bar", m, d)
    assert g["undoReachable"], (where, "Deshacer is covered", g["undo"])
    own = g["own"]
    for i, a in enumerate(own):                   # its own buttons: inside it, apart
        assert m["x"] - 0.5 <= a["x"] and a["r"] <= m["r"] + 0.5, (where, "outside the message", a, m)
        assert a["fits"], (where, "a button of the message is narrower than its text", a)
        assert not any(intersect(a, b) for b in own[i + 1:]), (where, "the message's buttons overlap", own)
    covered = toast_covers(g)
    assert not covered, (where, "the message covers", covered, m)


def toast_settles_in_the_bar(page, where, tries: int = 15):
    """``assert_toast_in_the_bar`` once the page has settled: the bar grows by the message's
    line and the page beside it follows on the next frames, which a loaded machine can
    delay past a fixed wait; the last look decides."""
    for _ in range(tries - 1):
        try:
            assert_toast_in_the_bar(page.evaluate(TOAST), where)
            return
        except AssertionError:
            steady(page)
    assert_toast_in_the_bar(page.evaluate(TOAST), where)


@pytest.mark.parametrize("size", list(SIZES))
def test_the_done_toast_covers_no_button(room, server, size):
    """After each action of a turn, pressed with the page at its top and scrolled half way,
    the "Hecho" confirmation is on screen, inside the action bar, with its Deshacer
    reachable; it meets no button of the bar and covers none of the page. When it appears
    the bar grows by its line, and the page beside the bar moves with the bar's edge, so
    what was shown there is still shown."""
    game_id = room.create_via_http(long_settings(rounds=2), name="Filosofía 3.º B")
    console = Phone(room, size)
    page = console.page
    page.goto(f"{server.url}/console/{game_id}")
    steps = [("declare-risky-4", "choose-send"), ("choose-send", "question-read"), ("question-read", "timer-start"),
             ("verdict-wrong", "written-true"), ("written-true", "argument-good"), ("argument-good", "end-turn"),
             ("end-turn", "declare-normal")]
    for pressed, then in steps:
        if pressed == "verdict-wrong":
            page.get_by_test_id("write-text").fill("Kant")
            console.press("write-send")
            expect(page.get_by_test_id("written-live")).to_have_text("Kant")
        for scrolled in (False, True):
            if scrolled:                          # again, from half way down the page
                page.get_by_test_id("toast-undo").click()
                expect(page.get_by_test_id(pressed)).to_be_visible()
                page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight / 2)")
                steady(page)
            console.press(pressed)
            expect(page.get_by_test_id(then)).to_be_visible()
            expect(page.get_by_test_id("toast-undo")).to_be_visible()
            steady(page)
            room.shot(page, f"{size}-toast-after-{pressed}{'-scrolled' if scrolled else ''}", full_page=False)
            toast_settles_in_the_bar(page, (pressed, "scrolled" if scrolled else "top"))
        page.evaluate("() => window.scrollTo(0, 0)")
    page.get_by_test_id("toast-undo").click()     # Deshacer still works from there
    expect(page.get_by_test_id("end-turn")).to_be_visible()

    # The page beside the bar keeps its place when the message appears and goes. The
    # teacher scrolls (a wheel's turn: the question just read is no longer kept in view).
    page.evaluate("() => { window.dispatchEvent(new WheelEvent('wheel'));"
                  " window.scrollTo(0, document.documentElement.scrollHeight / 2); }")
    steady(page)
    edge = """() => {
      const d = document.getElementById('dock').getBoundingClientRect();
      const atBottom = getComputedStyle(document.getElementById('dock')).position === 'fixed';
      const y = atBottom ? d.top - 6 : d.bottom + 6;
      let el = document.elementFromPoint(innerWidth / 2, y);
      if (!window.__edge) window.__edge = el;
      const r = window.__edge.getBoundingClientRect();
      return { gap: atBottom ? d.top - r.top : r.top - d.bottom, dock: d.height, shown: !document.getElementById('notice').hidden };
    }"""
    page.evaluate("() => { window.__edge = null; document.getElementById('notice').hidden = true; }")
    steady(page)
    before = page.evaluate(edge)
    page.evaluate("() => Live.toast('Hecho: una prueba del lugar del mensaje', 2500)")
    expect(page.get_by_test_id("notice")).to_be_visible()
    steady(page)
    during = page.evaluate(edge)
    room.shot(page, f"{size}-toast-page-keeps-its-place", full_page=False)
    assert during["shown"], (before, during)
    assert abs(during["gap"] - before["gap"]) <= 1, ("the page beside the bar moved under it", before, during)
    expect(page.get_by_test_id("notice")).to_be_hidden(timeout=10_000)   # the message goes
    steady(page)                                  # the page follows the bar back
    after = page.evaluate(edge)
    assert not after["shown"] and abs(after["gap"] - before["gap"]) <= 1, (before, after)


@pytest.mark.parametrize("size", list(SIZES))
def test_a_refusal_is_shown_in_the_bar_and_covers_no_button(room, server, size):
    """A refused action's message (a verdict before any question) is in the action bar:
    on screen, covering no button; the next accepted action replaces it."""
    game_id = room.create_via_http(long_settings(rounds=2), name="Filosofía 3.º B")
    console = Phone(room, size)
    page = console.page
    page.goto(f"{server.url}/console/{game_id}")
    expect(page.get_by_test_id("declare-normal")).to_be_visible()
    page.evaluate("() => Live.do({ do: 'verdict', result: 'full' })")
    notice = page.get_by_test_id("notice")
    expect(notice).to_have_class(re.compile(r"\berror\b"))
    steady(page)
    room.shot(page, f"{size}-refusal-in-the-bar", full_page=False)
    g = page.evaluate(TOAST)
    d, m = g["dock"], g["toast"]
    assert g["shown"] and inside(m, g), m
    assert d["x"] - 0.5 <= m["x"] and m["r"] <= d["r"] + 0.5 and d["y"] - 0.5 <= m["y"] and m["b"] <= d["b"] + 0.5, (m, d)
    assert not toast_covers(g), toast_covers(g)
    console.press("declare-normal")
    expect(notice).not_to_have_class(re.compile(r"\berror\b"))
    expect(page.get_by_test_id("toast-undo")).to_be_visible()
