"""Real-life trouble on the pages: a connection that drops, a reload, the other language.

What cuts a socket.io WebSocket in Chromium, as measured here:
- SIGKILL of the server: the TCP connection closes, every page shows its
  offline banner at once and reconnects by itself when the server is back.
- ``context.set_offline(True)``: Chromium fires the window's ``offline``
  event, on which the socket.io client closes its transport itself: the
  banner shows at once and the server sees the device leave. Chromium's
  offline emulation alone does not close an open WebSocket (frames just stop;
  without the event the client notices only after the ping timeout, ~30 s).
"""
from __future__ import annotations

import re
import time

try:
    from playwright.sync_api import expect
except ImportError:         # the browser fixture skips, or fails under CI, and says why
    expect = None

from server import Server

SETTINGS = {"teams": [{"name": f"Equipo {n}", "members": 4} for n in range(1, 5)],
            "round_modes": [["simple"]], "deliberation_seconds": 120}
BACK_ONLINE_MS = 20_000


def to_deliberation(room, target: int = 2, qtype: str = "quien"):
    """The GM, acting for team 1, challenges ``target``, chooses, reads and starts the timer."""
    gm = room.gm
    gm.get_by_test_id(f"declare-simple-{target}").click()
    gm.get_by_test_id("choose-type").select_option(qtype)
    gm.get_by_test_id("choose-send").click()
    gm.get_by_test_id("question-read").click()
    gm.get_by_test_id("timer-start").click()
    expect(gm.get_by_test_id("timer-pause")).to_be_visible()


def wait_until(page, condition, what, seconds: float = 5):
    """Let Playwright deliver events (the WebSocket route's) until ``condition()`` holds."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        page.wait_for_timeout(50)


def write_and_send(tablet, text: str):
    tablet.get_by_test_id("write-text").fill(text)
    tablet.get_by_test_id("write-send").click()


def kant_written_by_team_2(room):
    """A new game at deliberation where team 2's tablet has sent "Kant"; (tablet, console)."""
    room.open_console(room.create_via_http(SETTINGS))
    room.join(2)
    t2, gm = room.teams[2], room.gm
    to_deliberation(room)
    write_and_send(t2, "Kant")
    expect(gm.get_by_test_id("written-live")).to_have_text("Kant")
    return t2, gm


def kant_write_id(message) -> str | None:
    """The Socket.IO packet id of the page's ``write`` of «Kant», or None for any other
    message (the drafts the page shares as it types hold «Kant» too)."""
    sent = re.match(r'42(\d+)\["act",', message) if isinstance(message, str) else None
    return sent.group(1) if sent and '"do":"write"' in message and '"text":"Kant"' in message else None


def kant_sent_through(room, route, arm):
    """A new game at deliberation whose team 2's tablet talks through the WebSocket
    ``route``; ``arm()`` runs just before the tablet sends «Kant», which the console then
    shows; (tablet, console)."""
    room.open_console(room.create_via_http(SETTINGS))
    room.join(2, prepare=lambda page: page.route_web_socket(re.compile(r"/socket\.io/"), route))
    t2, gm = room.teams[2], room.gm
    to_deliberation(room)
    arm()
    write_and_send(t2, "Kant")
    expect(gm.get_by_test_id("written-live")).to_have_text("Kant")
    return t2, gm


def test_server_killed_mid_deliberation_draft_kept_and_sent_on_return(make_room, tmp_path):
    srv = Server(tmp_path).start()
    try:
        room = make_room(srv)
        t2, gm = kant_written_by_team_2(room)

        srv.kill()
        expect(t2.get_by_test_id("offline")).to_be_visible()
        expect(gm.get_by_test_id("offline")).to_be_visible()
        draft = "Immanuel Kant, escrito sin conexión"
        t2.get_by_test_id("write-text").fill(draft)
        expect(t2.get_by_test_id("write-status")).to_have_text("Borrador sin enviar")
        room.shot(t2, "server-down-tablet2-offline-draft")
        expect(t2.get_by_test_id("offline")).to_be_visible()        # still down: nothing sent

        srv.start()
        expect(t2.get_by_test_id("offline")).to_be_hidden(timeout=BACK_ONLINE_MS)
        expect(gm.get_by_test_id("offline")).to_be_hidden(timeout=BACK_ONLINE_MS)
        expect(gm.get_by_test_id("written-live")).to_have_text(draft)
        expect(t2.get_by_test_id("write-status")).to_contain_text(f"«{draft}»")
        expect(t2.get_by_test_id("write-text")).to_have_value(draft)
        expect(gm.get_by_test_id("timer-pause")).to_be_visible()   # the clock ran on
        room.shot(gm, "server-back-console-written-live")
        writes = [a["text"] for a in room.record()["actions"] if a["do"] == "write"]
        assert writes == ["Kant", draft]
    finally:
        srv.stop()


def test_a_draft_typed_after_a_send_whose_answer_died_with_the_server_is_sent_on_return(
        make_room, tmp_path):
    """The server applies the tablet's «Kant», then dies before the tablet hears of it (no
    ack, no state): the words typed while it is down are this tab's own going on from its
    own send, not a clash with another device. On return they are sent, and count."""
    quiet = {"after_kant": False, "dropped": 0}

    def route(ws):
        upstream = ws.connect_to_server()
        heard = {"kant": False}              # this connection's own: a new one hears again

        def from_server(message):
            if heard["kant"] and quiet["after_kant"]:
                quiet["dropped"] += 1
                return
            ws.send(message)

        def from_page(message):
            if kant_write_id(message):
                heard["kant"] = True
            upstream.send(message)
        upstream.on_message(from_server)
        ws.on_message(from_page)

    srv = Server(tmp_path).start()
    try:
        room = make_room(srv)
        t2, gm = kant_sent_through(room, route, lambda: quiet.update(after_kant=True))
        wait_until(t2, lambda: quiet["dropped"] >= 1, quiet)

        srv.kill()
        quiet["after_kant"] = False
        expect(t2.get_by_test_id("offline")).to_be_visible()
        draft = "Immanuel Kant, escrito sin conexión"
        t2.get_by_test_id("write-text").fill(draft)
        srv.start()
        expect(t2.get_by_test_id("offline")).to_be_hidden(timeout=BACK_ONLINE_MS)
        expect(gm.get_by_test_id("written-live")).to_have_text(draft)
        expect(t2.get_by_test_id("write-status")).to_contain_text(f"«{draft}»")
        expect(t2.get_by_test_id("write-conflict")).to_have_count(0)
        room.shot(t2, "server-back-own-send-unheard-draft-sent")
        writes = [a["text"] for a in room.record()["actions"] if a["do"] == "write"]
        assert writes == ["Kant", draft]
    finally:
        srv.stop()


def test_a_send_made_offline_goes_out_before_the_words_typed_after_it(room):
    """Offline, the tablet sends «Kant» (queued) and goes on typing: back online, «Kant»
    goes out first and the words typed after it last, so they are what counts."""
    room.open_console(room.create_via_http(SETTINGS))
    room.join(2)
    t2, gm = room.teams[2], room.gm
    to_deliberation(room)
    t2.context.set_offline(True)
    expect(t2.get_by_test_id("offline")).to_be_visible()
    write_and_send(t2, "Kant")
    t2.get_by_test_id("write-text").fill("Immanuel Kant")
    expect(t2.get_by_test_id("write-status")).to_have_text("Borrador sin enviar")
    t2.context.set_offline(False)
    expect(t2.get_by_test_id("offline")).to_be_hidden(timeout=BACK_ONLINE_MS)
    expect(gm.get_by_test_id("written-live")).to_have_text("Immanuel Kant")
    expect(t2.get_by_test_id("write-status")).to_contain_text("«Immanuel Kant»")
    writes = [a["text"] for a in room.record()["actions"] if a["do"] == "write"]
    assert writes == ["Kant", "Immanuel Kant"]


def test_device_offline_sends_its_draft_back_online_unless_time_is_up(room):
    t2, gm = kant_written_by_team_2(room)

    # Offline while there is time: the draft waits on the device and goes out on return.
    t2.context.set_offline(True)
    expect(t2.get_by_test_id("offline")).to_be_visible()
    expect(gm.get_by_test_id("devices-2")).to_have_text("0")
    t2.get_by_test_id("write-text").fill("Immanuel Kant")
    expect(t2.get_by_test_id("write-status")).to_have_text("Borrador sin enviar")
    room.shot(t2, "tablet2-offline-banner")
    t2.context.set_offline(False)
    expect(t2.get_by_test_id("offline")).to_be_hidden(timeout=BACK_ONLINE_MS)
    expect(gm.get_by_test_id("written-live")).to_have_text("Immanuel Kant")
    expect(t2.get_by_test_id("write-status")).to_contain_text("«Immanuel Kant»")
    expect(gm.get_by_test_id("devices-2")).to_have_text("1")

    # Offline when the time runs out: the late draft is not sent.
    t2.context.set_offline(True)
    expect(t2.get_by_test_id("offline")).to_be_visible()
    t2.get_by_test_id("write-text").fill("Un borrador tardío")
    gm.get_by_test_id("time-up").click()
    expect(gm.get_by_test_id("question-panel")).to_contain_text("cerrada")
    t2.context.set_offline(False)
    expect(t2.get_by_test_id("offline")).to_be_hidden(timeout=BACK_ONLINE_MS)
    expect(t2.get_by_test_id("team-timer")).to_have_text("¡Tiempo!")
    expect(t2.get_by_test_id("write-text")).to_have_count(0)
    expect(gm.get_by_test_id("written-live")).to_have_text("Immanuel Kant")
    expect(t2.get_by_test_id("notice")).to_be_hidden()
    writes = [a["text"] for a in room.record()["actions"] if a["do"] == "write"]
    assert writes == ["Kant", "Immanuel Kant"]


def test_reload_keeps_the_device_in_its_team_with_the_current_state(room):
    room.open_console(room.create_via_http(SETTINGS))
    room.join(2)
    t2, gm = room.teams[2], room.gm
    to_deliberation(room)
    question = gm.get_by_test_id("question-text").text_content()
    t2.get_by_test_id("write-text").fill("Un borrador sin enviar")
    asked = []
    t2.on("request", lambda r: asked.append(r.url) if re.search(r"/j/|/join", r.url) else None)

    t2.reload()
    expect(t2).to_have_url(re.compile(r"/team$"))
    expect(t2.get_by_test_id("team-name")).to_have_text("Equipo 2")
    expect(t2.get_by_test_id("team-role")).to_have_attribute("data-role", "challenged")
    expect(t2.get_by_test_id("question-text")).to_have_text(question)
    expect(t2.get_by_test_id("write-text")).to_have_value("Un borrador sin enviar")
    expect(t2.get_by_test_id("join-code")).to_have_count(0)
    assert asked == [], "the reloaded page asked for a join code"
    # The draft kept across the reload went out by itself, and one device is counted.
    expect(gm.get_by_test_id("written-live")).to_have_text("Un borrador sin enviar")
    expect(gm.get_by_test_id("devices-2")).to_have_text("1")
    room.shot(t2, "tablet2-after-reload")


def test_language_switch_on_console_and_tablet(room):
    room.open_console(room.create_via_http(SETTINGS))
    room.join(1)
    gm, t1 = room.gm, room.teams[1]
    timer_title = gm.locator(".timerbox h2")
    expect(timer_title).to_have_text("Reloj")
    expect(gm.get_by_test_id("waiting")).to_contain_text("declara el modo del turno")

    gm.get_by_test_id("lang-switch").click()
    expect(gm.locator("html")).to_have_attribute("lang", "en")
    expect(timer_title).to_have_text("Clock")
    expect(gm.get_by_test_id("actions").locator("h2")).to_have_text("Actions")
    expect(gm.get_by_test_id("waiting")).to_contain_text("declares the turn's mode")
    expect(gm.get_by_test_id("lang-switch")).to_have_text("Español")
    room.shot(gm, "console-in-english")

    gm.get_by_test_id("lang-switch").click()
    expect(gm.locator("html")).to_have_attribute("lang", "es")
    expect(timer_title).to_have_text("Reloj")
    expect(gm.get_by_test_id("waiting")).to_contain_text("declara el modo del turno")
    expect(gm.get_by_test_id("lang-switch")).to_have_text("English")

    t1.get_by_test_id("lang-switch").click()
    expect(t1.get_by_test_id("team-mine").locator("h2")).to_have_text("Your cards")
    expect(t1.get_by_test_id("team-name")).to_have_text("Equipo 1")
    t1.get_by_test_id("lang-switch").click()
    expect(t1.get_by_test_id("team-mine").locator("h2")).to_have_text("Sus cartas")


def test_a_late_acknowledgement_does_not_undo_a_newer_draft(room):
    """The server applies a write but its acknowledgement is lost; the page sends it again
    with the same id (applied once) and the late acknowledgement comes after the team has
    typed more: the newer draft stays in the box, unsent, and can still be sent."""
    # Only the write's own packets count: the drafts the page shares as it types (also
    # «Kant») come and go with the load, and their acks are not the one to lose.
    lost = {"armed": False, "dropped": 0, "sent_kant": 0, "acks_after": 0, "ids": set()}

    def route(ws):
        upstream = ws.connect_to_server()

        def from_server(message):
            ack = re.match(r"43(\d+)\[", message) if isinstance(message, str) else None
            if ack and ack.group(1) in lost["ids"]:           # the write's acknowledgement
                if lost["armed"]:
                    lost["armed"] = False
                    lost["dropped"] += 1
                    return
                lost["acks_after"] += 1
            ws.send(message)

        def from_page(message):
            sent = kant_write_id(message)
            if sent:
                lost["sent_kant"] += 1
                lost["ids"].add(sent)
            upstream.send(message)
        upstream.on_message(from_server)
        ws.on_message(from_page)

    t2, gm = kant_sent_through(room, route, lambda: lost.update(armed=True))
    wait_until(t2, lambda: lost["dropped"] == 1, lost)
    t2.get_by_test_id("write-text").fill("Immanuel Kant")
    expect(t2.get_by_test_id("write-status")).to_have_text("Borrador sin enviar")
    # The page sends "Kant" again after its 6 s wait; the server acknowledges it once more.
    wait_until(t2, lambda: lost["sent_kant"] >= 2 and lost["acks_after"] >= 1, lost, 15)
    # A new state after that acknowledgement (the GM names a spokesperson) redraws the box.
    gm.get_by_test_id("spokesperson-2").fill("Ana")
    gm.get_by_test_id("spokesperson-2-send").click()
    expect(t2.get_by_test_id("team-speaker")).to_contain_text("Ana")
    expect(t2.get_by_test_id("write-text")).to_have_value("Immanuel Kant")
    expect(t2.get_by_test_id("write-status")).to_have_text("Borrador sin enviar")
    t2.get_by_test_id("write-send").click()
    expect(gm.get_by_test_id("written-live")).to_have_text("Immanuel Kant")



def test_websocket_first_and_long_polling_where_websockets_are_blocked(room):
    """Tablets connect WebSocket first (one request; with several server processes any
    one may take it). A tablet behind a proxy that refuses WebSockets falls back to
    long-polling and plays all the same."""
    from browser.conftest import TABLET_VIEWPORT
    from tcp_proxy import TcpProxy
    room.open_console(room.create_via_http(SETTINGS))
    room.join(1)
    with TcpProxy(room.server.port) as proxy:
        proxy.refuse_websockets()
        t2 = room.screens.page("team2", TABLET_VIEWPORT, mobile=True)
        t2.goto(f"{proxy.url}/j/{room.codes[2]}")
        t2.wait_for_url(re.compile(r"/team$"))
        room.teams[2] = t2
        t1, gm = room.teams[1], room.gm
        expect(gm.get_by_test_id("devices-2")).not_to_have_text("0")
        transport = "() => window.Live.socket.io.engine.transport.name"
        polls = ("() => performance.getEntriesByType('resource')"
                 ".filter(e => e.name.includes('transport=polling')).length")
        for page in (t1, gm):           # straight to a WebSocket: not one polling request
            assert page.evaluate(transport) == "websocket" and page.evaluate(polls) == 0
        assert t2.evaluate(transport) == "polling" and proxy.websockets_refused >= 1
        to_deliberation(room)
        write_and_send(t2, "Kant")
        expect(gm.get_by_test_id("written-live")).to_have_text("Kant")
        expect(t2.get_by_test_id("write-status")).to_contain_text("«Kant»")
