"""Browser tests: a real server, Debian's Chromium driven by Playwright, and the pages.

A ``Room`` is one game on screens: the GM console (logged in through the
login form; the game made through the set-up form, or posted with the
console's session and then opened), up to four team tablets
(each joined by opening its join link ``/j/<code>``, read off the console's
join panel) and the projector (the console's ``projector-link``).

Chromium is Debian's ``/usr/bin/chromium``, never a downloaded browser. Where
it is missing the tests skip and say why; under CI (``CI=true``) they fail.
Screenshots go to ``test-artifacts/`` at the repository root.
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from server import GM_PASSWORD, ROOT, Server

CHROMIUM = os.environ.get("FACILITATOR_TEST_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
ARTIFACTS = ROOT / "test-artifacts"
GM_VIEWPORT = {"width": 1440, "height": 900}
TABLET_VIEWPORT = {"width": 390, "height": 844}
PROJECTOR_VIEWPORT = {"width": 1600, "height": 900}
TIMEOUT_MS = 10_000

# Console lines a page may print without being broken: a socket that cannot
# reach a server that is down (the resilience tests stop it on purpose).
NETWORK_NOISE = re.compile(r"ERR_CONNECTION_REFUSED|ERR_INTERNET_DISCONNECTED|ERR_CONNECTION_RESET|"
                           r"WebSocket connection to .* failed|Failed to load resource")


def _missing(message: str):
    if os.environ.get("CI") == "true":
        pytest.fail(f"{message}; under CI the browser tests must run", pytrace=False)
    pytest.skip(message)


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    """Keep each phase's report on the item, so fixtures can tell a failed test."""
    outcome = yield
    report = outcome.get_result()
    setattr(item, "rep_" + report.when, report)


@pytest.fixture(scope="session")
def playwright_api():
    """The Playwright sync API (skips or fails, see the module's docstring, if absent)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as error:
        _missing(f"Playwright is not installed ({error})")
    with sync_playwright() as api:
        yield api


@pytest.fixture(scope="session")
def browser(playwright_api):
    """Debian's Chromium, headless."""
    if not Path(CHROMIUM).exists():
        _missing(f"Chromium is not at {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import expect
    expect.set_options(timeout=TIMEOUT_MS)
    launched = playwright_api.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                              headless=True)
    yield launched
    launched.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """The folder screenshots go to (git-ignored)."""
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    """One server process for the browser tests, on a SQLite file of its own."""
    srv = Server(tmp_path_factory.mktemp("browser-instance")).start()
    yield srv
    srv.stop()


GM_SESSIONS: dict[str, dict] = {}     # server → the logged-in console's storage state


class Screens:
    """The pages a test opened, their errors, and screenshots with descriptive names."""

    def __init__(self, browser, artifacts: Path, prefix: str):
        self.browser = browser
        self.artifacts = artifacts
        self.prefix = prefix
        self.contexts = []
        self.pages: dict[str, object] = {}
        self.errors: list[tuple[str, str, str]] = []
        self.frames: dict[str, list[str]] = {}
        self.shots: list[str] = []

    def page(self, name: str, viewport: dict, mobile: bool = False, locale: str = "es-ES",
             storage_state: dict | None = None, **context_options):
        """A new page in a context of its own (own cookies, own localStorage).

        ``context_options``: more options of the browser context (``bypass_csp=True`` lets a
        test inject axe-core with ``page.add_script_tag``)."""
        context = self.browser.new_context(viewport=viewport, locale=locale, is_mobile=mobile,
                                           has_touch=mobile, device_scale_factor=1,
                                           storage_state=storage_state, **context_options)
        context.set_default_timeout(TIMEOUT_MS)
        self.contexts.append(context)
        page = context.new_page()
        self.pages[name] = page
        self.frames[name] = []
        page.on("pageerror", lambda error: self.errors.append((name, "pageerror", str(error))))
        page.on("console", lambda msg: self.errors.append((name, msg.type, msg.text))
                if msg.type == "error" else None)
        page.on("dialog", lambda dialog: dialog.accept())
        # Every Socket.IO frame this page receives: what the server sent this screen.
        page.on("websocket", lambda ws: ws.on(
            "framereceived", lambda payload: self.frames[name].append(
                payload if isinstance(payload, str) else payload.decode("utf-8", "replace"))))
        return page

    def shot(self, page, name: str, full_page: bool = True) -> Path:
        """Save a screenshot as test-artifacts/<prefix>-<name>.png."""
        path = self.artifacts / f"{self.prefix}-{name}.png"
        page.screenshot(path=str(path), full_page=full_page, animations="disabled")
        self.shots.append(path.name)
        return path

    def received(self, name: str, since: int = 0) -> list[str]:
        """Every string value in the Socket.IO messages page ``name`` received (from frame
        ``since`` on), decoded from JSON, so that escapes do not hide a text."""
        found = []
        for frame in self.frames[name][since:]:
            start = min((i for i in (frame.find("["), frame.find("{")) if i >= 0), default=-1)
            try:
                data = json.loads(frame[start:]) if start >= 0 else frame
            except ValueError:
                data = frame
            stack = [data]
            while stack:
                item = stack.pop()
                if isinstance(item, str):
                    found.append(item)
                elif isinstance(item, dict):
                    stack.extend(item.keys())
                    stack.extend(item.values())
                elif isinstance(item, list):
                    stack.extend(item)
        return found

    def script_errors(self) -> list:
        """Uncaught exceptions and console errors, except a down server's network noise."""
        return [e for e in self.errors if not NETWORK_NOISE.search(e[2])]

    def close(self, failed: bool):
        if failed:
            for name, page in self.pages.items():
                try:
                    self.shot(page, "FAILED-" + name)
                except Exception:       # noqa: BLE001 - a closed page has nothing to show
                    pass
        for context in self.contexts:
            try:
                context.close()
            except Exception:           # noqa: BLE001 - the browser may already be gone
                pass


@pytest.fixture
def screens(request, browser, artifacts):
    """Pages for this test, closed after it; on a failure every page is photographed."""
    prefix = request.module.__name__.rsplit(".", 1)[-1].removeprefix("test_")
    s = Screens(browser, artifacts, prefix)
    yield s
    failed = getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed
    s.close(failed)
    if not failed:
        assert s.script_errors() == [], "the pages printed errors"


def codes_of(page) -> dict[int, str]:
    """The join codes on the console's join panel: {team: 'ABCDEFGH'}."""
    found = {}
    for element in page.locator("[data-testid^=join-code-]").all():
        team = int(element.get_attribute("data-testid").rsplit("-", 1)[1])
        found[team] = element.inner_text().strip().replace("-", "")
    return found


class Room:
    """One game on screens: GM console, team tablets and projector."""

    def __init__(self, server: Server, screens: Screens):
        self.server = server
        self.screens = screens
        self.gm = None
        self.teams: dict[int, object] = {}
        self.projector = None
        self.game_id: int | None = None
        self.codes: dict[int, str] = {}

    # ---- the GM ---------------------------------------------------------------
    def login(self):
        """Log in with the GM password through the login form, then open la partida's
        set-up form from its card on the console's home.

        The form is used once per server; later consoles on the same server reuse
        that session's cookie (the server allows 10 logins a minute from one address).
        """
        from playwright.sync_api import expect
        key = f"{self.server.url} {self.server.instance}"
        known = GM_SESSIONS.get(key)
        gm = self.gm = self.screens.page("gm", GM_VIEWPORT, storage_state=known)
        if known:
            gm.goto(self.server.url + "/console")
        else:
            gm.goto(self.server.url + "/console/login")
            gm.get_by_test_id("login-secret").fill(GM_PASSWORD)
            gm.get_by_test_id("login-submit").click()
            gm.wait_for_url(re.compile(r"/console/?$"))
            GM_SESSIONS[key] = gm.context.storage_state()
        # The home offers the games side by side; la partida's card opens its set-up form.
        gm.get_by_test_id("new-partida-link").click()
        gm.wait_for_url(re.compile(r"/console/new/partida$"))
        expect(gm.get_by_test_id("create-game")).to_be_visible()
        return gm

    def console_page(self, name: str, viewport: dict, mobile: bool = False):
        """Another page logged in as this console, in a context of its own (``mobile``:
        touch), where axe-core can be injected."""
        return self.screens.page(name, viewport, mobile=mobile,
                                 storage_state=self.gm.context.storage_state(), bypass_csp=True)

    def new_class(self, name: str) -> str:
        """Create a class through the console's classes page: the address of its page."""
        gm = self.gm
        gm.goto(self.server.url + "/console/classes?lang=es")
        gm.get_by_test_id("class-new-name").fill(name)
        gm.get_by_test_id("class-create").click()
        gm.wait_for_url(re.compile(r"/console/classes/\d+$"))
        return gm.url

    def create_with_form(self, name: str = "Partida de prueba", rounds: int | None = None,
                         seconds: int | None = None, schedule: dict | None = None,
                         individual: dict | None = None):
        """Fill the set-up form (defaults, or a few fields changed) and create the game.

        ``schedule``: {round: [modes]} ticks exactly those modes of that round;
        ``individual``: {round: bool}.
        """
        from playwright.sync_api import expect
        gm = self.gm
        expect(gm.get_by_test_id("settings-check")).to_contain_text("✓")
        gm.get_by_test_id("game-name").fill(name)
        if rounds is not None or seconds is not None or schedule or individual:
            if gm.get_by_test_id("advanced").get_attribute("open") is None:
                gm.locator("[data-testid=advanced] > summary").click()
            if rounds is not None:
                gm.get_by_test_id("rounds").fill(str(rounds))
            if seconds is not None:
                gm.get_by_test_id("seconds-all").fill(str(seconds))
            for number, modes in (schedule or {}).items():
                for mode in ("normal", "simple", "risky"):
                    gm.get_by_test_id(f"round-{number}-{mode}").set_checked(mode in modes)
            for number, on in (individual or {}).items():
                gm.get_by_test_id(f"round-{number}-individual").set_checked(on)
            expect(gm.get_by_test_id("settings-check")).to_contain_text("✓")
        gm.get_by_test_id("create-game").click()
        gm.wait_for_url(re.compile(r"/console/\d+$"))
        self._on_console()
        return self.game_id

    def open_console(self, game_id: int):
        """Open the console page of a game made elsewhere (``create_via_http``)."""
        self.gm.goto(f"{self.server.url}/console/{game_id}")
        self._on_console()
        return self.game_id

    def _on_console(self):
        from playwright.sync_api import expect
        self.game_id = int(self.gm.url.rsplit("/", 1)[1])
        expect(self.gm.get_by_test_id("waiting")).to_be_visible()
        self.codes = codes_of(self.gm)

    def create_via_http(self, settings: dict, name: str = "Prueba") -> int:
        """Create a game as ``server.create_game`` does, with the console's own session."""
        response = self.gm.context.request.post(f"{self.server.url}/console/games",
                                                data={"name": name, "settings": settings})
        data = response.json()
        assert data["ok"], data
        return data["game_id"]

    def record(self) -> dict:
        """The game's partida/1 record, as the GM downloads it."""
        response = self.gm.context.request.get(f"{self.server.url}/console/{self.game_id}/record.json")
        assert response.ok, response.status
        return json.loads(response.text())

    # ---- the teams and the projector ---------------------------------------------
    def join(self, *teams: int, prepare=None):
        """Each team opens its join link on a phone-sized page of its own.

        ``prepare(page)`` runs before the page opens (to route its WebSocket, say).
        """
        from playwright.sync_api import expect
        for n in teams or sorted(self.codes):
            page = self.screens.page(f"team{n}", TABLET_VIEWPORT, mobile=True)
            if prepare:
                prepare(page)
            page.goto(f"{self.server.url}/j/{self.codes[n]}")
            page.wait_for_url(re.compile(r"/team$"))
            expect(page.get_by_test_id("team-role")).to_have_attribute(
                "data-role", re.compile(r"host|challenged|adjunct|over"))
            self.teams[n] = page
            expect(self.gm.get_by_test_id(f"devices-{n}")).not_to_have_text("0")
        return self.teams

    def open_projector(self):
        """Open the console's projector link on a wide screen."""
        from playwright.sync_api import expect
        href = self.gm.get_by_test_id("projector-link").get_attribute("href")
        assert href.startswith(self.server.url + "/projector/"), href
        self.projector = self.screens.page("projector", PROJECTOR_VIEWPORT)
        self.projector.goto(href)
        expect(self.projector.get_by_test_id("round")).not_to_be_empty()
        return self.projector

    def shot(self, page, name: str, full_page: bool = True):
        return self.screens.shot(page, name, full_page)


@pytest.fixture
def make_room(screens):
    """make_room(server): a logged-in GM console on ``server``; the test makes its game."""
    def make(on: Server) -> Room:
        r = Room(on, screens)
        r.login()
        return r
    return make


@pytest.fixture
def room(make_room, server):
    """A logged-in GM console on the shared server; the test makes its game."""
    return make_room(server)
