"""One pen per team (R-U11, issue 34): a team's written answer has one writer at a time.

Team 2 writes its anticipation from three screens: a phone, a doubled tab of that phone
and a second phone. What one types shows on the others, read-only, with who holds the
pen; "Escribir desde aquí" goes on from that text; only a sent text counts and every
screen of the team says which one, before and after the time is up; a draft typed but
never sent does not become the answer at time-up; a draft typed offline is not sent on
return when another device sent meanwhile, and the phone says so.
"""
from __future__ import annotations

import json

import re

from playwright.sync_api import expect

from .layout import GM, axe

PHONE = {"width": 390, "height": 844}
SETTINGS = {"teams": [{"name": f"Equipo {n}", "members": 4} for n in range(1, 5)], "rounds": 1,
            "round_modes": [["simple", "risky"]], "deliberation_seconds": 300}


def writes(room) -> list[str]:
    return [a["text"] for a in room.record()["actions"] if a["do"] == "write"]


def open_team(screens, server, code: str, name: str):
    page = screens.page(name, PHONE, mobile=True)
    page.goto(f"{server.url}/j/{code}")
    page.wait_for_url(re.compile(r"/team$"))
    return page


def doubled_tab(screens, page, name: str):
    """A second tab of the same browser (same cookie, same device token)."""
    tab = page.context.new_page()
    screens.pages[name] = tab
    screens.frames[name] = []
    tab.on("pageerror", lambda error: screens.errors.append((name, "pageerror", str(error))))
    tab.goto(page.url)
    return tab


def test_two_devices_of_a_team_share_one_pen_and_say_what_counts(room, server, screens):
    game_id = room.create_via_http(SETTINGS, name="Lapicera")
    room.game_id = game_id
    gm = GM(room, game_id)
    try:
        a = open_team(screens, server, gm.codes[2], "team2-a")
        b = doubled_tab(screens, a, "team2-a-tab")
        c = open_team(screens, server, gm.codes[2], "team2-c")
        gm.act("declare", mode="simple", target=2)
        gm.act("choose", author="Kant", type="quien")
        gm.act("question", id=gm.state["candidates"][0]["id"])
        gm.call("timer", {"op": "start"})
        for page in (a, b, c):
            expect(page.get_by_test_id("write-text")).to_be_editable()
            expect(page.get_by_test_id("write-counts")).to_contain_text("solo cuenta lo que se envía")

        # A types: the doubled tab and the other phone see it, read-only, and why.
        a.get_by_test_id("write-text").press_sequentially("Kan")
        for page in (b, c):
            expect(page.get_by_test_id("write-pen")).to_contain_text("Otro dispositivo del equipo")
            expect(page.get_by_test_id("write-text")).to_have_value("Kan")
            expect(page.get_by_test_id("write-text")).not_to_be_editable()
            expect(page.get_by_test_id("write-send")).to_have_count(0)
        room.shot(c, "1-phone-c-sees-a-typing")

        # B takes the pen and goes on from A's text: nothing typed is lost.
        b.get_by_test_id("write-take").click()
        expect(b.get_by_test_id("write-text")).to_be_editable()
        expect(b.get_by_test_id("write-text")).to_have_value("Kan")
        b.get_by_test_id("write-text").press_sequentially("t")
        for page in (a, c):
            expect(page.get_by_test_id("write-text")).to_have_value("Kant")
            expect(page.get_by_test_id("write-pen")).to_be_visible()
        b.get_by_test_id("write-send").click()
        for page in (a, b, c):
            expect(page.get_by_test_id("write-counts")).to_have_text("Cuenta para el equipo: «Kant»")
        assert writes(room) == ["Kant"]
        room.shot(a, "2-phone-a-kant-counts")

        # C goes offline, takes the pen and types; meanwhile A sends another answer. Back
        # online, C's draft is kept on C, not sent, and C says so.
        c.context.set_offline(True)
        expect(c.get_by_test_id("offline")).to_be_visible()
        c.get_by_test_id("write-take").click()
        c.get_by_test_id("write-text").fill("Platón")
        a.get_by_test_id("write-take").click()
        a.get_by_test_id("write-text").fill("Immanuel Kant")
        a.get_by_test_id("write-send").click()
        expect(a.get_by_test_id("write-counts")).to_have_text("Cuenta para el equipo: «Immanuel Kant»")
        c.context.set_offline(False)
        expect(c.get_by_test_id("offline")).to_be_hidden(timeout=15_000)
        expect(c.get_by_test_id("write-conflict")).to_contain_text(re.compile(r"«Platón» no se (envió|ha enviado)"))
        expect(c.get_by_test_id("write-counts")).to_have_text("Cuenta para el equipo: «Immanuel Kant»")
        room.shot(c, "3-phone-c-offline-draft-kept")
        assert writes(room) == ["Kant", "Immanuel Kant"]

        # A types a new draft and does not send it: at time-up the sent text counts, and
        # every screen of the team keeps saying which.
        a.get_by_test_id("write-text").fill("Immanuel Kant y Hegel")
        expect(a.get_by_test_id("write-status")).to_have_text("Borrador sin enviar")
        expect(b.get_by_test_id("write-text")).to_have_value("Immanuel Kant y Hegel")
        gm.act("time_up")
        for page in (a, b, c):
            expect(page.get_by_test_id("team-timer")).to_have_text("¡Tiempo!")
            expect(page.get_by_test_id("write-text")).to_have_count(0)
            expect(page.get_by_test_id("write-counts")).to_have_text("Cuenta para el equipo: «Immanuel Kant»")
        # A's words never sent: A says they did not count.
        expect(a.get_by_test_id("write-late")).to_contain_text("«Immanuel Kant y Hegel»")
        room.shot(a, "4-phone-a-time-up")
        assert axe(a) == []
        gm.act("verdict", result="full")
        for page in (a, c):
            expect(page.get_by_test_id("written-reveal")).to_contain_text("Immanuel Kant")
            expect(page.get_by_test_id("written-reveal")).not_to_contain_text("Hegel")
        assert writes(room) == ["Kant", "Immanuel Kant"]
    finally:
        gm.close()


def test_two_phones_typing_at_once_lose_no_word(room, server, screens):
    """Issue 47, item 4 (R-U11): two phones of a team type in alternation, letter by
    letter. Afterwards exactly one holds the pen (the one whose text the server relayed
    last); the other shows that text read-only, and its own words beside it, offered
    back; taking them back hands the pen over, and the first phone then shows its own
    words. Neither phone's words are gone from both screens at any point."""
    game_id = room.create_via_http(SETTINGS, name="Dos a la vez")
    room.game_id = game_id
    gm = GM(room, game_id)
    try:
        a = open_team(screens, server, gm.codes[2], "team2-a")
        c = open_team(screens, server, gm.codes[2], "team2-c")
        gm.act("declare", mode="simple", target=2)
        gm.act("choose", author="Kant", type="abierta")
        gm.act("question", id=gm.state["candidates"][0]["id"])
        fields = {page: page.get_by_test_id("write-text") for page in (a, c)}
        for field in fields.values():
            expect(field).to_be_editable()
        typed = {a: "", c: ""}
        for letters in zip("AAAAAA", "BBBBBB"):
            for page, letter in zip((a, c), letters):
                if fields[page].is_editable():
                    fields[page].press("End")
                    fields[page].type(letter)
                    typed[page] += letter

        def settled() -> bool:
            # Every draft of both phones answered (a field is aria-busy until then), one
            # phone holding the pen and the other showing its text.
            if any(fields[page].get_attribute("aria-busy") != "false" for page in (a, c)):
                return False
            editable = [page for page in (a, c) if fields[page].is_editable()]
            return (len(editable) == 1 and fields[a].input_value() == fields[c].input_value())
        deadline = __import__("time").monotonic() + 15
        while not settled() and __import__("time").monotonic() < deadline:
            a.wait_for_timeout(100)
        assert settled(), [(fields[page].is_editable(), fields[page].input_value(), typed[page],
                            fields[page].get_attribute("aria-busy"),
                            page.get_by_test_id("write-pen").count()) for page in (a, c)]
        holder = next(page for page in (a, c) if fields[page].is_editable())
        other = c if holder is a else a
        held_text = fields[holder].input_value()
        expect(fields[other]).to_have_value(held_text)
        expect(other.get_by_test_id("write-pen")).to_be_visible()
        # What the other phone took of the letters pressed on it: on a slow machine a letter
        # pressed as its field turned read-only is not typed, and it may have lost the pen
        # before its first letter (then it has no words of its own to keep).
        own = json.loads(other.evaluate(
            "Object.entries(sessionStorage).find(([k]) => k.startsWith('facilitator:draft:'))"
            "?.[1] || 'null'") or "null")
        own = own["text"] if own else ""
        assert set(own) <= set(typed[other]) and len(own) <= len(typed[other]), (own, typed)
        kept = other.get_by_test_id("write-kept")
        if own and own not in held_text:
            expect(kept).to_contain_text(own)          # its own words, still shown
        room.shot(other, "5-two-at-once-kept")
        assert axe(other) == []

        # The other phone takes its own words back: the pen moves, nothing is lost.
        if other.get_by_test_id("write-mine").count():
            other.get_by_test_id("write-mine").click()
            expect(fields[other]).to_be_editable()
            expect(fields[holder]).not_to_be_editable()
            expect(fields[holder]).to_have_value(fields[other].input_value())
            expect(holder.get_by_test_id("write-kept")).to_contain_text(held_text)
            room.shot(holder, "6-words-handed-back")
        else:       # no words of its own to take back: it goes on from the holder's text
            other.get_by_test_id("write-take").click()
            expect(fields[other]).to_be_editable()
            expect(fields[other]).to_have_value(held_text)
        other.get_by_test_id("write-send").click()
        expect(holder.get_by_test_id("write-counts")).to_contain_text(
            fields[other].input_value())
    finally:
        gm.close()
