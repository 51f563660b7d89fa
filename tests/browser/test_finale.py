"""The end of a game on every screen: podium, shared ranks, charts, the results page."""
from __future__ import annotations

try:
    from playwright.sync_api import expect
except ImportError:         # the browser fixture skips, or fails under CI, and says why
    expect = None

from facilitator.games.partida import replay


def gm_turn(gm, verdict: str, pick: str | None = None):
    """One normal turn played from the console alone (a class without tablets)."""
    gm.get_by_test_id("declare-normal").click()
    gm.get_by_test_id("choose-send").click()
    gm.get_by_test_id("question-read").click()
    gm.get_by_test_id(f"verdict-{verdict}").click()
    if pick:
        gm.get_by_test_id(f"pick-{pick}").click()
    gm.get_by_test_id("end-turn").click()


def test_podium_shared_ranks_and_charts_on_every_screen(room, server):
    gm = room.gm
    room.create_with_form(name="Final de prueba", rounds=1)
    room.join(1, 2, 3, 4)
    projector = room.open_projector()

    # Teams 1 and 2 answer fully (2 cards each: level on every criterion of R-P4),
    # team 3 half (one card), team 4 wrong (a pifie): ranks 1, 1, 3, 4.
    gm_turn(gm, "full")
    gm_turn(gm, "full")
    gm_turn(gm, "half", pick="author")
    gm_turn(gm, "wrong")

    expected = replay(room.record()).standings()
    assert [(r["team"], r["rank"]) for r in expected] == [(1, 1), (2, 1), (3, 3), (4, 4)]

    # The projector: podium (two first places side by side), ranking and chart.
    expect(projector.get_by_test_id("podium")).to_be_visible()
    expect(projector.get_by_test_id("stage")).to_be_hidden()
    for place, row in enumerate(expected, start=1):
        item = projector.get_by_test_id(f"rank-{place}")
        expect(item).to_have_attribute("data-team", str(row["team"]))
        expect(item).to_have_attribute("data-rank", str(row["rank"]))
        expect(item.locator(".prank")).to_have_text(f"{row['rank']}.º")
    for place in (1, 2, 3):
        step = projector.get_by_test_id(f"podium-{place}")
        expect(step).to_have_attribute("data-team", str(expected[place - 1]["team"]))
        expect(step.locator(".block")).to_have_text(str(expected[place - 1]["rank"]))
    expect(projector.get_by_test_id("podium-1")).to_have_class("step p1")
    expect(projector.get_by_test_id("podium-2")).to_have_class("step p1")
    expect(projector.get_by_test_id("podium-3")).to_have_class("step p3")
    chart = projector.get_by_test_id("final-chart")
    expect(chart).to_be_visible()
    expect(chart.locator("svg")).to_have_count(1)
    expect(chart.locator("svg polyline, svg path").first).to_be_attached()
    # Read from the back row (issue 47): each line's end, a team and its score, is drawn
    # at 24 px or more, and the axis' numbers at 20 px or more.
    sizes = chart.evaluate("""(box) => Array.from(box.querySelectorAll('svg text')).map((el) => ({
        bold: el.getAttribute('font-weight') === 'bold', h: el.getBoundingClientRect().height }))""")
    assert min(s["h"] for s in sizes if s["bold"]) >= 24, sizes
    assert min(s["h"] for s in sizes) >= 20, sizes
    room.shot(projector, "projector-podium", full_page=False)

    # The console: the ranking table with the shared rank.
    for place, row in enumerate(expected, start=1):
        line = gm.get_by_test_id(f"rank-{place}")
        expect(line).to_have_attribute("data-team", str(row["team"]))
        expect(line).to_have_attribute("data-rank", str(row["rank"]))
    expect(gm.get_by_test_id("round")).to_have_text("Partida terminada")
    room.shot(gm, "console-ranking")

    # Every tablet: the final ranking, its own line marked.
    for n, tablet in room.teams.items():
        expect(tablet.get_by_test_id("team-role")).to_have_attribute("data-role", "over")
        for place, row in enumerate(expected, start=1):
            line = tablet.get_by_test_id(f"rank-{place}")
            expect(line).to_have_attribute("data-team", str(row["team"]))
            expect(line).to_contain_text(f"{row['rank']}.")
        expect(tablet.locator("[data-testid^=rank-].me")).to_have_attribute("data-team", str(n))
    room.shot(room.teams[2], "tablet2-ranking")

    # The results page: standings, podium and the two charts.
    gm.goto(f"{server.url}/console/{room.game_id}/results")
    expect(gm.get_by_test_id("results")).to_be_visible()
    spanish = (gm.locator("html").get_attribute("lang") or "").startswith("es")
    for row in expected:
        line = gm.get_by_test_id(f"standing-{row['team']}")
        expect(line.locator("td").first).to_have_text(str(row["rank"]))
        score = str(row["score"]).replace(".", ",") if spanish else str(row["score"])
        score = score.replace("-", "\u2212")          # a real minus sign
        expect(gm.get_by_test_id(f"score-{row['team']}")).to_have_text(score)
    podium = gm.get_by_test_id("podium")
    expect(podium).to_be_visible()
    expect(podium.locator("[data-testid^=podium-]")).to_have_count(3)
    expect(podium.get_by_test_id("podium-1")).to_contain_text("1.º")
    expect(podium.get_by_test_id("podium-2")).to_contain_text("1.º")
    expect(podium.get_by_test_id("podium-3")).to_contain_text("3.º")
    for chart_id in ("chart-scores", "chart-cards"):
        expect(gm.get_by_test_id(chart_id).locator("svg")).to_have_count(1)
        expect(gm.get_by_test_id(chart_id)).to_be_visible()
    room.shot(gm, "results-page")
