"""Every tablet line agrees with the state it is drawn from (issue 34).

Four phones play a two-round game with custom points through every step of the rule
book's action table: declare, Desvío, Elijo, Seguro, choose, question, write, time_up,
verdict, pick, written, argument, end_turn, spokesperson, representative, an exchange
request and the end. At each step every phone is checked against its own team view:
the banner names the team's real role (the Elijo team chooses, it does not "watch the
others"), the forms offered are exactly the team's legal entries, the waiting line
never says "deliberation" before the clock starts or next to "¡Tiempo!", nobody with a
part in the turn is sent to the projector, a team owed a pick is not told it won
nothing, and award sentences use this game's points. Back, forward and reload all land
on the team's page.
"""
from __future__ import annotations

import re

from playwright.sync_api import expect

from .layout import GM, axe, steady

PHONE = {"width": 390, "height": 844}
POINTS = {"card": 2, "consolation": 1, "pifie": -1, "risky_bonus": 3}
SETTINGS = {"teams": [{"name": f"Equipo {n}", "members": 4} for n in range(1, 5)], "rounds": 2,
            "round_modes": [["normal"], ["simple", "risky"]], "deliberation_seconds": 300,
            "points": POINTS, "exchange_cost": 2}

#: Each legal action of a team and the test id of the form that offers it on the phone.
FORMS = {"declare": "declare-", "desvio": "desvio-", "seguro": "seguro", "elijo": "elijo",
         "choose": "choose-send", "write": "write-text'], [data-testid='write-true", "pick": "pick-author",
         "request_exchange": "exchange-request", "spokesperson": "spokesperson-name",
         "representative": "representative-name"}
ROLE_TEXT = {"host": "anfitrión", "challenged": "desafiado", "chooser": "Elegís autor",
             "adjunct": "juegan los demás", "over": "terminado"}


def state_of(page) -> dict:
    return page.evaluate("() => window.Live.state")


def role_of(view: dict, me: int) -> str:
    turn = view["turn"]
    if view["over"]:
        return "over"
    if turn["host"] == me:
        return "host"
    if turn["target"] == me:
        return "challenged"
    if turn["elijo_by"] == me:
        return "chooser"
    return "adjunct"


def form_present(page, action: str) -> bool:
    prefix = FORMS[action]
    selector = (f"[data-testid^='{prefix}']" if prefix.endswith("-")
                else f"[data-testid='{prefix}']")
    return page.locator(selector + " >> visible=true").count() > 0


def check(phones: dict, seq: int, label: str, room=None) -> None:
    """Every phone, once it shows ``seq``: banner, forms and lines against its view."""
    for me, page in phones.items():
        page.wait_for_function("(seq) => window.Live.state && window.Live.state.seq >= seq", arg=seq)
        steady(page)                        # drawn: the page's layout has settled
        state = state_of(page)
        view, legal = state["view"], {e["do"] for e in state["legal"]}
        turn = view["turn"]
        role = role_of(view, me)
        banner = page.get_by_test_id("team-role")
        expect(banner).to_have_attribute("data-role", role)
        expect(banner).to_contain_text(ROLE_TEXT[role])
        if turn["primary"] == me and not view["over"]:
            expect(banner).to_contain_text("respondéis")
        if turn["secondary"] == me and not view["over"]:
            expect(banner).to_contain_text("escribís")
        for action in FORMS:
            if action == "write" and "write" in legal and page.get_by_test_id("write-take").count():
                continue                                      # another device holds the pen
            assert form_present(page, action) == (action in legal), (label, me, action, sorted(legal))
        waiting = page.get_by_test_id("team-waiting")
        said = waiting.inner_text() if waiting.count() else ""
        in_turn = (role != "adjunct" or turn["primary"] == me or turn["secondary"] == me
                   or bool(legal - {"spokesperson", "representative"}))
        if in_turn:
            assert "proyector" not in said, (label, me, said)
        timer = state["timer"]["state"]
        clock = page.get_by_test_id("team-timer")
        if timer == "idle" or (clock.count() and "Tiempo" in clock.inner_text()) or turn["locked"]:
            assert "Deliberación" not in said, (label, me, timer, said)
        result = page.get_by_test_id("team-result-total")
        if result.count() and turn["step"]["name"] == "pick" and turn["step"]["team"] == me:
            assert "ni perdieron" not in result.inner_text() and "Elegid" in result.inner_text()
        for n, what, points in turn["awards"]:
            assert points == (POINTS["card"] if ":" in what else POINTS[what]), (what, points)
    if room is not None:
        for me, page in phones.items():
            room.shot(page, f"{label}-team{me}")


def test_every_tablet_state_agrees_with_the_team_view(room, server, screens):
    game_id = room.create_via_http(SETTINGS, name="Estados")
    gm = GM(room, game_id)
    try:
        phones = {}
        for n in range(1, 5):
            page = screens.page(f"team{n}", PHONE, mobile=True)
            page.goto(f"{server.url}/j/{gm.codes[n]}")
            page.wait_for_url(re.compile(r"/team$"))
            phones[n] = page
        t1, t2, t3, t4 = (phones[n] for n in range(1, 5))
        check(phones, 0, "01-declare", room)

        # ---- round 1, normal turns ------------------------------------------------------
        # Turn 1: team 1 declares and chooses on its phone; full; +2 for each card.
        t1.get_by_test_id("declare-normal").click()
        gm.client.wait_seq(1)
        check(phones, 1, "02-choose")
        t1.get_by_test_id("choose-author").select_option("Kant")
        t1.get_by_test_id("choose-type").select_option("vf")
        t1.get_by_test_id("choose-send").click()
        gm.client.wait_seq(2)
        check(phones, 2, "03-question")
        seq = gm.act("question", id=gm.state["candidates"][0]["id"])
        check(phones, seq, "04-read-clock-idle", room)
        gm.call("timer", {"op": "start"})
        expect(t2.get_by_test_id("team-waiting")).to_contain_text("Deliberación")
        check(phones, seq, "05-deliberate")
        seq = gm.act("time_up")
        expect(t2.get_by_test_id("team-timer")).to_have_text("¡Tiempo!")
        check(phones, seq, "06-time-up", room)
        seq = gm.act("verdict", result="full")
        expect(t1.get_by_test_id("team-result-total")).to_contain_text("+4")
        expect(t3.get_by_test_id("team-now")).to_contain_text("(+2)")
        check(phones, seq, "07-full", room)
        seq = gm.act("end_turn")
        check(phones, seq, "08-next-host")

        # Turn 2: team 2 plays Seguro, then half: it is asked to pick, not told it won nothing.
        t2.get_by_test_id("declare-normal").click()
        t2.get_by_test_id("seguro").click()
        expect(t2.get_by_test_id("team-played")).to_contain_text("Seguro")
        gm.client.wait_seq(2 + seq)
        check(phones, seq + 2, "09-seguro", room)
        gm.act("choose", author="Kant", type="quien")
        gm.act("question", id=gm.state["candidates"][0]["id"])
        seq = gm.act("verdict", result="half")
        expect(t2.get_by_test_id("team-result-total")).to_contain_text("Elegid")
        check(phones, seq, "10-half-pick", room)
        t2.get_by_test_id("pick-author").click()
        expect(t2.get_by_test_id("team-result-total")).to_contain_text("+2")
        seq = gm.client.last["seq"]
        check(phones, seq, "11-picked")
        seq = gm.act("end_turn")

        # Turn 3: team 3, wrong: a pifie of -1. Turn 4: team 4, a spokesperson, full.
        t3.get_by_test_id("declare-normal").click()
        gm.client.wait_seq(seq + 1)
        gm.act("choose", author="Marx", type="vf")
        gm.act("question", id=gm.state["candidates"][0]["id"])
        seq = gm.act("verdict", result="wrong")
        expect(t3.get_by_test_id("team-result-total")).to_contain_text("\u22121")
        expect(t1.get_by_test_id("team-now")).to_contain_text("(\u22121)")
        check(phones, seq, "12-pifie", room)
        seq = gm.act("end_turn")
        t4.get_by_test_id("declare-normal").click()
        gm.client.wait_seq(seq + 1)
        gm.act("choose", author="Marx", type="quien")
        gm.act("question", id=gm.state["candidates"][0]["id"])
        seq = gm.act("verdict", result="full")
        seq = gm.act("end_turn")
        check(phones, seq, "13-round-2")

        # ---- round 2 (4, 3, 2, 1): a simple challenge, a Desvío, an Elijo -------------------
        # Team 1 holds 2 cards: it asks for an exchange (cost 2) between turns.
        t1.get_by_test_id("exchange-card-0").click()
        t1.get_by_test_id("exchange-card-1").click()
        t1.get_by_test_id("exchange-request").click()
        expect(t1.get_by_test_id("exchange-pending")).to_be_visible()
        seq = gm.act("exchange", team=1, give=t1.evaluate(
            "() => window.Live.state.exchange_requests[0].give"), take="desvio")
        check(phones, seq, "14-exchanged")
        t4.get_by_test_id("declare-simple-1").click()
        gm.client.wait_seq(seq + 1)
        check(phones, seq + 1, "15-challenged", room)
        t1.get_by_test_id("desvio-2").click()
        gm.client.wait_seq(seq + 2)
        check(phones, seq + 2, "16-desvio", room)
        t3.get_by_test_id("elijo").click()
        gm.client.wait_seq(seq + 3)
        expect(t3.get_by_test_id("team-role")).to_contain_text("Elegís autor")
        check(phones, seq + 3, "17-elijo-chooses", room)
        t3.get_by_test_id("choose-author").select_option("Hume")
        t3.get_by_test_id("choose-type").select_option("quien")
        t3.get_by_test_id("choose-send").click()
        gm.client.wait_seq(seq + 4)
        t2.get_by_test_id("representative-name").fill("Ana")
        t2.get_by_test_id("representative-send").click()
        gm.client.wait_seq(seq + 5)
        seq = gm.act("question", id=gm.state["candidates"][0]["id"])
        expect(t2.get_by_test_id("team-waiting")).to_contain_text("el reloj empieza")
        check(phones, seq, "18-write-before-clock", room)
        t2.get_by_test_id("write-text").fill("Hume")
        t2.get_by_test_id("write-send").click()
        expect(t2.get_by_test_id("write-counts")).to_contain_text("«Hume»")
        gm.call("timer", {"op": "start"})
        seq = gm.act("time_up")
        check(phones, seq, "19-write-time-up", room)
        seq = gm.act("verdict", result="half")
        check(phones, seq, "20-half-primary-picks", room)
        t4.get_by_test_id("pick-type").click()
        gm.client.wait_seq(seq + 1)
        seq = gm.act("written", correct=True)
        check(phones, seq, "21-argument", room)
        seq = gm.act("argument", result="good")
        expect(t2.get_by_test_id("team-result-total")).to_contain_text("+2")
        check(phones, seq, "22-argued", room)
        seq = gm.act("end_turn")

        # The rest of the round from the console; the end.
        for _host in (3, 2, 1):
            modes = next(e for e in gm.state["legal"] if e["do"] == "declare")["options"]["modes"]
            mode = "simple" if modes.get("simple") else "risky"
            gm.act("declare", mode=mode, target=modes[mode][0])
            gm.act("choose", author="Kant", type="abierta")
            gm.act("question", id=gm.state["candidates"][0]["id"])
            gm.act("verdict", result="wrong")
            gm.act("written", correct=False)
            seq = gm.act("end_turn")
        check(phones, seq, "23-over", room)
        for page in phones.values():
            assert axe(page) == []

        # Back, forward and reload all land on the team's page.
        phone = screens.page("joiner", PHONE, mobile=True)
        phone.goto(server.url + "/join")
        phone.get_by_test_id("join-code").fill(gm.codes[3])
        phone.get_by_test_id("join-submit").click()
        phone.wait_for_url(re.compile(r"/team$"))
        phone.go_back()
        expect(phone).to_have_url(re.compile(r"/team$"))
        expect(phone.get_by_test_id("team-name")).to_have_text("Equipo 3")
        phone.go_forward()
        expect(phone).to_have_url(re.compile(r"/team$"))
        phone.reload()
        expect(phone).to_have_url(re.compile(r"/team$"))
        expect(phone.get_by_test_id("team-role")).to_have_attribute("data-role", "over")
        phone.goto(server.url + "/join?other")
        expect(phone.get_by_test_id("join-code")).to_be_visible()
    finally:
        gm.close()
