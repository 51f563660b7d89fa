"""Results that print and read (issue 13): a full default game (6 teams, 6 rounds) prints
as one A4 page in Chromium's PDF; every podium and chart text has a contrast of 4.5:1 (3:1
for lines and large text) for all six team colours; no "-0"; no axe-core violation.
Screenshots and the PDF: test-artifacts/results_print-*."""
from __future__ import annotations

import re

try:
    from playwright.sync_api import expect
except ImportError:         # the browser fixture skips, or fails under CI, and says why
    expect = None

from .layout import GM, axe, play_to_end

CONTRAST = """(sel) => {
  const rgb = (s) => (s.match(/[\\d.]+/g) || []).slice(0, 3).map(Number);
  const lum = (c) => { const v = c.map((x) => { x /= 255; return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); });
    return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const bg = (el) => { for (let e = el; e; e = e.parentElement) { const c = getComputedStyle(e).backgroundColor;
    if (c && !/rgba\\(.*, 0\\)$/.test(c) && c !== 'transparent') return rgb(c); } return [255, 255, 255]; };
  return Array.from(document.querySelectorAll(sel)).map((el) => [el.textContent.trim().slice(0, 30),
    ratio(rgb(getComputedStyle(el).color), bg(el))]);
}"""


def test_results_print_on_one_a4_page_and_read(room, server, artifacts):
    settings = {"teams": [{"name": f"Equipo de prueba número {n}", "members": 4} for n in range(1, 7)],
                "roster": [[f"Estudiante {t}.{m}" for m in range(1, 5)] for t in range(1, 7)]}
    game_id = room.create_via_http(settings, name="Partida completa por defecto")
    gm = GM(room, game_id)
    try:
        assert gm.state["view"]["rounds"] == 6
        play_to_end(gm)
    finally:
        gm.close()
    page = room.gm
    page.goto(f"{server.url}/console/{game_id}/results")
    expect(page.get_by_test_id("chart-scores").locator("svg")).to_have_count(1)
    expect(page.get_by_test_id("review-scores").locator("li")).to_have_count(6)   # the turn-by-turn review
    room.shot(page, "results-page")
    assert axe(page) == []
    # No "-0" anywhere; the podium's text readable for every team colour.
    assert not re.search(r"(^|[^\d])[-\u2212]0(?![,.\d])", page.inner_text("body")), "a -0 is shown"
    svg_text = page.locator("svg text").all_text_contents()
    assert not [s for s in svg_text if re.fullmatch(r"[-\u2212]0", (s or "").strip())], svg_text
    for n in range(1, 7):
        page.evaluate("(n) => document.querySelectorAll('.podium .step').forEach((s) => { s.className = s.className.replace(/\\bc\\d\\b/, 'c' + n); })", n)
        for text, ratio in page.evaluate(CONTRAST, ".podium .step > span"):
            assert ratio >= 4.5, (n, text, ratio)
    for text, ratio in page.evaluate(CONTRAST, ".chart-legend li, table.grid td"):
        assert ratio >= 4.5, (text, ratio)
    strokes = page.evaluate("() => Array.from(document.querySelectorAll('svg polyline, svg rect[stroke]')).map((e) => e.getAttribute('stroke') || e.getAttribute('fill'))")
    for color in set(strokes):
        assert color and color.startswith("#"), color
        if len(color) == 4:
            color = "#" + "".join(c * 2 for c in color[1:])
        r, g, b = (int(color[i:i + 2], 16) / 255 for i in (1, 3, 5))
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
        lum = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
        assert 1.05 / (lum + 0.05) >= 3, (color, 1.05 / (lum + 0.05))
    # The printable summary: one A4 page.
    page.reload()
    expect(page.get_by_test_id("chart-scores").locator("svg")).to_have_count(1)
    page.emulate_media(media="print")
    room.shot(page, "results-print")
    pdf = page.pdf(format="A4", print_background=True)
    page.emulate_media(media="screen")
    (artifacts / "results_print-summary.pdf").write_bytes(pdf)
    pages = len(re.findall(rb"/Type\s*/Page(?!s)", pdf))
    assert pages == 1, f"the summary prints on {pages} A4 pages"
