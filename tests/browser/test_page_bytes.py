"""What each page costs a device on campus Wi-Fi: the bytes Chromium receives to show it
(the team, join, console, projector and login pages; the results, a class's, the banks'
and the new-hall pages of the console).

Each page is opened in a fresh context (empty cache) and measured once its
live content is on screen and the network is idle: the sum of the bodies of
every response (HTML, CSS, scripts, images), with and without
``/vendor/socket.io.min.js``, as the page reads them and as they crossed the
network (gzip-compressed). WebSocket frames are not
responses and are not counted. The figures are written to
``test-artifacts/page-bytes.json`` and printed (``-s``).
"""
from __future__ import annotations

import json

try:
    from playwright.sync_api import expect
except ImportError:         # the browser fixture skips, or fails under CI, and says why
    expect = None

SOCKET_IO = "/vendor/socket.io.min.js"
# The team page's budget: its own code is the same size as a module graph as it was as
# global scripts; what came with the modules is lit-html itself (docs/performance.md);
# then 4 KB more for the pen two phones share (who typed last, one's covered words kept and
# offered back, words not sent at time-up; issue 47); then half a kilobyte for the one way
# every game's page starts its screen (static/js/lib/start.js; issue 47); then 300 bytes for
# a field that says while the pen may still change hands (aria-busy; issue 47); then 300
# bytes for a tab that knows its own last send (words typed while the server was down are
# not taken for another device's; issue 47) and sends queued offline first.
TEAM_PAGE_BUDGET = 135_100
#: The bytes of the scripts each console page loaded as global scripts (live.js, charts.js
#: and its own; main at 25ababa). Such a page as modules stays within 10 % of what it would
#: weigh with them, whatever its HTML weighs today (docs/screens.md).
GLOBAL_SCRIPTS = {"results": 24_136, "class": 75_016, "banks": 3_515, "new hall": 25_094}
GM_VIEWPORT = {"width": 1440, "height": 900}
TABLET_VIEWPORT = {"width": 390, "height": 844}
PROJECTOR_VIEWPORT = {"width": 1600, "height": 900}


def measure(screens, name: str, viewport: dict, url: str, ready: str, cookies=None,
            mobile: bool = False) -> dict:
    page = screens.page("bytes-" + name, viewport, mobile=mobile)
    if cookies:
        page.context.add_cookies(cookies)
    bodies: list[tuple[str, int]] = []
    responses = []
    encodings: set[str] = set()

    def on_response(response):
        try:
            size = len(response.body())
        except Exception:        # noqa: BLE001 - a redirect has no body to read
            size = 0
        bodies.append((response.url, size))
        responses.append(response)
        encodings.add(response.headers.get("content-encoding", "identity"))
    page.on("response", on_response)
    page.goto(url)
    expect(page.get_by_test_id(ready).first).to_be_visible()
    page.wait_for_load_state("networkidle")
    page.remove_listener("response", on_response)
    total = sum(size for _, size in bodies)
    sio = sum(size for u, size in bodies if u.split("?")[0].endswith(SOCKET_IO))
    # What crossed the network: bodies as sent (compressed), without headers.
    wire = {r.url: r.request.sizes()["responseBodySize"] for r in responses}
    wire_total = sum(wire.values())
    wire_sio = sum(n for u, n in wire.items() if u.split("?")[0].endswith(SOCKET_IO))
    return {"total": total, "without_socket_io": total - sio, "socket_io": sio,
            "wire": wire_total, "wire_without_socket_io": wire_total - wire_sio,
            "responses": len(bodies), "content_encodings": sorted(encodings),
            "files": sorted(({"url": u.split("//", 1)[-1].split("/", 1)[-1], "bytes": s}
                             for u, s in bodies), key=lambda f: -f["bytes"])}


def class_url(room) -> str:
    """A class of 24 students with no game yet, made through the console: its page's address."""
    url = room.new_class("Filosofía 5.º B")
    listed = "\n".join(f"Estudiante {n}" for n in range(1, 25))
    answer = room.gm.context.request.post(url + "/students", data={"text": listed})
    assert answer.json()["ok"], answer.text()
    return url


def test_bytes_each_page_loads(room, server, artifacts):
    room.open_console(room.create_via_http({
        "teams": [{"name": f"Equipo {n}", "members": 4} for n in range(1, 5)]}))
    gm_cookies = room.gm.context.cookies()
    watch = room.gm.get_by_test_id("projector-link").get_attribute("href")
    screens = room.screens
    sizes = {
        "login": measure(screens, "login", GM_VIEWPORT, server.url + "/console/login",
                         "login-submit"),
        "join": measure(screens, "join", TABLET_VIEWPORT, server.url + "/join", "join-submit",
                        mobile=True),
        "team": measure(screens, "team", TABLET_VIEWPORT, f"{server.url}/j/{room.codes[1]}",
                        "my-special", mobile=True),
        "console": measure(screens, "console", GM_VIEWPORT,
                           f"{server.url}/console/{room.game_id}", "score-team-4",
                           cookies=gm_cookies),
        "projector": measure(screens, "projector", PROJECTOR_VIEWPORT, watch, "join-panel"),
        "results": measure(screens, "results", GM_VIEWPORT,
                           f"{server.url}/console/{room.game_id}/results", "results",
                           cookies=gm_cookies),
        "class": measure(screens, "class", GM_VIEWPORT, class_url(room), "league-empty",
                         cookies=gm_cookies),
        "banks": measure(screens, "banks", GM_VIEWPORT, server.url + "/console/banks", "banks",
                         cookies=gm_cookies),
        "new hall": measure(screens, "hall", GM_VIEWPORT, server.url + "/console/halls/new",
                            "hall-create", cookies=gm_cookies),
    }
    (artifacts / "page-bytes.json").write_text(json.dumps(sizes, indent=1))
    print("\npage        total bytes   without socket.io   on the wire   without   responses")
    for name, s in sizes.items():
        print(f"{name:10} {s['total']:12,} {s['without_socket_io']:18,} {s['wire']:13,} "
              f"{s['wire_without_socket_io']:9,} {s['responses']:11}")
    assert sizes["team"]["socket_io"] > 0, "the team page loads socket.io"
    assert sizes["login"]["socket_io"] == sizes["join"]["socket_io"] == 0
    assert sizes["team"]["total"] < TEAM_PAGE_BUDGET, sizes["team"]["files"]
    for name, before in GLOBAL_SCRIPTS.items():
        scripts = sum(f["bytes"] for f in sizes[name]["files"] if f["url"].endswith(".js"))
        assert sizes[name]["total"] < 1.1 * (sizes[name]["total"] - scripts + before), (
            name, sizes[name]["files"])
    # Compressed on the way: a lecture hall's tablets share one access point.
    for name in ("team", "console", "projector"):
        assert "gzip" in sizes[name]["content_encodings"], name
        assert sizes[name]["wire"] < sizes[name]["total"] / 2, (name, sizes[name])


# The Hive screens' budgets: what they weighed as global scripts on live.js, and 10 % more
# (docs/performance.md says what they weigh as modules); then the console's 3 KB more for
# the seating panel (who holds each colour, the requests, the table's screens) and the hall
# view's 7 KB more for the lecture's code, the seats' requests and each table's screen
# code (issue 45); then 3 KB more for both for the panel's and the requests' own styles
# (static/css/seating.css) and the hall view's larger class code, and the hall
# projector's 2 KB more for the door's QR code grown while the class comes in, and a single
# game's projector 4 KB more for its own code shown until play starts (issue 45); then
# 2 KB more for each screen and the hall's (a player's own hand first, the teacher's end refused
# without a reason, said in the form; issue 47); then 1 KB more for each for the one way
# every game's page starts its screen (static/js/lib/start.js, preloaded; issue 47); then
# 3 KB more for each screen for the three expansion pieces' drawings, names and rules, and
# the game types' names (issue 49); then both projectors 7 KB more for their own stylesheet
# (static/css/hiveprojector.css: la partida's dark theme and the whole screen, never more;
# the phones and consoles never load it), the hall's projector 3 KB more again and the hall
# view (which shares halls.js) 3 KB more for the current round's boards as tiles beside
# the standings, the other boards as lines, and the type fitted to the screen (issue 47);
# then the console 1 KB more for its own module (gm.js: the teacher's part moved out of
# screen.js, which every screen loads, issue 47) and the game type's line (issue 49); then a
# single game's projector 1 KB more for its move list that shows no move cut (issue 47);
# then both projectors 2 KB more: the door's QR code grown only while the hall's type
# stays at the back row's size (lib/door.js, which both load), the hall's standings over
# its lines in two columns for a large class with no board picked (issue 47).
HIVE_BUDGETS = {"phone": 148_000, "console": 161_500, "projector": 162_000,
                "hall": 200_000, "hall_projector": 175_000}


def test_bytes_each_hive_page_loads(make_room, artifacts, tmp_path):
    """The Hive game's phone, console and projector, and a tournament's hall view and
    projector: the same measure as the quiz's pages, held to their budgets."""
    from server import Server

    from .test_hive_screens import new_game
    server = Server(tmp_path).start()
    try:
        room = make_room(server)
        game_id, codes, watch = new_game(room, "Hive pesado")
        answer = room.gm.context.request.post(f"{server.url}/console/halls", data={
            "kind": "hive", "name": "Torneo pesado", "players": "Ana\nBea\nCarla\nDani\n",
            "settings": {}, "seed": 7}).json()
        hall = room.gm.context.request.get(f"{server.url}/console/halls/{answer['hall_id']}.json").json()
        gm_cookies = room.gm.context.cookies()
        screens = room.screens
        sizes = {
            "phone": measure(screens, "hive-phone", TABLET_VIEWPORT, f"{server.url}/j/{codes[1]}",
                             "hive-status", mobile=True),
            "console": measure(screens, "hive-console", GM_VIEWPORT, f"{server.url}/console/{game_id}",
                               "hive-join-code-1", cookies=gm_cookies),
            "projector": measure(screens, "hive-projector", PROJECTOR_VIEWPORT,
                                 f"{server.url}/projector/{watch}", "hive-status"),
            "hall": measure(screens, "hive-hall", GM_VIEWPORT,
                            f"{server.url}/console/halls/{answer['hall_id']}", "hall-standings",
                            cookies=gm_cookies),
            "hall_projector": measure(screens, "hive-hall-projector", PROJECTOR_VIEWPORT,
                                      f"{server.url}/halls/{hall['hall']['watch_code']}", "hall-pairings"),
        }
    finally:
        server.stop()
    (artifacts / "page-bytes-hive.json").write_text(json.dumps(sizes, indent=1))
    print("\nHive page   total bytes   without socket.io   on the wire   without   responses")
    for name, s in sizes.items():
        print(f"{name:14} {s['total']:9,} {s['without_socket_io']:18,} {s['wire']:13,} "
              f"{s['wire_without_socket_io']:9,} {s['responses']:11}")
    for name, budget in HIVE_BUDGETS.items():
        assert sizes[name]["total"] < budget, (name, sizes[name]["files"])
        assert "gzip" in sizes[name]["content_encodings"], name
