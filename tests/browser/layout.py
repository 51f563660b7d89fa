"""Helpers of the layout tests (issue 13): a game driven by the GM's own Socket.IO client,
the geometry of a page (inside the viewport, no overlap, no broken word, font sizes), the
blank share of a screen (issue 34) and axe-core's verdict (injected from node_modules,
never served)."""
from __future__ import annotations

import base64
import time

from server import ROOT, Client

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"

#: Six teams whose names are 30 characters long (R-T1: at most 6 teams).
LONG_NAMES = ["María Zambrano y los Estoicos", "Hipatia de Alejandría Unidas", "Los Sofistas del Ágora Antigua",
              "Simone de Beauvoir Existencial", "Escuela de Fráncfort Crítica 5", "Círculo de Viena Positivista 6"]
WRITTEN_280 = ("La anticipación de este equipo sostiene que el conocimiento verdadero no nace de los sentidos "
               "sino de la razón que ordena la experiencia, y que por eso Kant habla de juicios sintéticos "
               "a priori: universales y necesarios, pero que amplían lo que sabemos del mundo sin salir de él.")[:280]


def long_settings(rounds: int = 1, modes=("normal", "simple", "risky")) -> dict:
    return {"teams": [{"name": n[:30], "members": 4} for n in LONG_NAMES],
            "rounds": rounds, "round_modes": [list(modes)] * rounds, "deliberation_seconds": 90}


class GM:
    """The GM's Socket.IO client, with the console's own session cookie."""

    def __init__(self, room, game_id: int):
        self.room = room
        self.game_id = game_id
        cookies = room.gm.context.cookies()
        cookie = "; ".join(f"{c['name']}={c['value']}" for c in cookies)
        self.client = Client(room.server, {"role": "gm", "game": game_id}, cookies=cookie).connect()
        req = room.gm.context.request
        data = req.get(f"{room.server.url}/api/games/{game_id}/codes").json()
        self.codes = {t["team"]: t["code"] for t in data["teams"]}
        self.watch = data["watch"]

    @property
    def state(self) -> dict:
        return self.client.last

    def act(self, do: str, **fields) -> int:
        for _ in range(40):             # the flood limit (docs/deploy.md): wait and send again
            ack = self.client.act({"do": do, **fields})
            if ack.get("error") != "rate":
                break
            time.sleep(0.25)
        assert ack.get("ok"), (do, fields, ack)
        self.client.wait_seq(ack["seq"])
        return ack["seq"]

    def call(self, event: str, payload) -> dict:
        return self.client.call(event, payload)

    def close(self):
        self.client.close()


def geometry(page, selectors: list[str]) -> dict:
    """Boxes of every visible element matching ``selectors``, scroll sizes, and the words
    drawn on two lines (a word broken inside) in those elements."""
    return page.evaluate("""(sels) => {
      const vis = (el) => { const r = el.getBoundingClientRect(); const cs = getComputedStyle(el);
        return r.width > 0 && r.height > 0 && cs.visibility !== 'hidden'; };
      const boxes = [];
      for (const s of sels) for (const el of document.querySelectorAll(s)) if (vis(el)) {
        const r = el.getBoundingClientRect();
        boxes.push({ sel: s, text: (el.innerText || '').slice(0, 40), x: r.left, y: r.top, r: r.right, b: r.bottom,
                     font: parseFloat(getComputedStyle(el).fontSize) });
      }
      const broken = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      while (walker.nextNode()) {
        const node = walker.currentNode;
        const el = node.parentElement;
        if (!el || !vis(el) || el.closest('.sr-only, script, [hidden]')) continue;
        const re = /\\S+/g; let m;
        while ((m = re.exec(node.data))) {
          const range = document.createRange();
          range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
          const rects = Array.from(range.getClientRects()).filter((q) => q.width > 0);
          const tops = new Set(rects.map((q) => Math.round(q.top)));
          if (tops.size > 1) broken.push(m[0]);
        }
      }
      const d = document.documentElement;
      return { boxes, broken, sw: d.scrollWidth, sh: d.scrollHeight, w: innerWidth, h: innerHeight };
    }""", selectors)


def assert_fits(page, selectors: list[str], apart: list[str]) -> dict:
    """Every box of ``selectors`` inside the viewport, no scroll, no broken word; the boxes of
    ``apart`` (element groups that must never cover each other) do not overlap."""
    g = geometry(page, selectors)
    assert g["sw"] <= g["w"] and g["sh"] <= g["h"], f"the page scrolls: {g['sw']}x{g['sh']} in {g['w']}x{g['h']}"
    for b in g["boxes"]:
        assert b["x"] >= -0.5 and b["y"] >= -0.5 and b["r"] <= g["w"] + 0.5 and b["b"] <= g["h"] + 0.5, \
            f"outside the viewport: {b}"
    assert g["broken"] == [], f"words broken inside: {g['broken']}"
    boxes = [b for b in g["boxes"] if b["sel"] in apart]
    for i, a in enumerate(boxes):
        for c in boxes[i + 1:]:
            if a["sel"] == c["sel"] and a["sel"].endswith("*"):
                continue
            overlap_x = min(a["r"], c["r"]) - max(a["x"], c["x"])
            overlap_y = min(a["b"], c["b"]) - max(a["y"], c["y"])
            assert overlap_x <= 1 or overlap_y <= 1, f"overlap: {a} and {c}"
    return g


def font(page, selector: str) -> float:
    """The font size of the first element matching ``selector`` (again if it was redrawn)."""
    for _ in range(10):
        size = page.locator(selector).first.evaluate(
            "(el) => el.isConnected ? parseFloat(getComputedStyle(el).fontSize) : null")
        if size == size and size is not None:       # not NaN, not detached
            return size
        page.wait_for_timeout(100)
    return float("nan")


def blank(page, cols: int = 40, rows: int = 24) -> dict:
    """How much of the screen shows nothing: a screenshot cut into ``cols`` x ``rows`` cells,
    a cell blank when under 1 % of its pixels differ from the body's background colour.

    Returns the blank share of the screen, the largest rectangle of blank cells (its share
    of the screen and its box in CSS pixels) and the grid itself (rows of "." blank, "#" not),
    to print when an assertion fails."""
    png = base64.b64encode(page.screenshot(animations="disabled")).decode()
    # The pixels are read in the page itself (a canvas), so the tests need no image library.
    cells = page.evaluate("""async ([png, cols, rows]) => {
      const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
      const bmp = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const canvas = new OffscreenCanvas(bmp.width, bmp.height);
      const cx = canvas.getContext('2d');
      cx.drawImage(bmp, 0, 0);
      const px = cx.getImageData(0, 0, bmp.width, bmp.height).data;
      const bg = getComputedStyle(document.body).backgroundColor.match(/\\d+/g).map(Number);
      const out = [];
      for (let r = 0; r < rows; r++) {
        const y0 = Math.floor(r * bmp.height / rows), y1 = Math.floor((r + 1) * bmp.height / rows);
        let line = '';
        for (let c = 0; c < cols; c++) {
          const x0 = Math.floor(c * bmp.width / cols), x1 = Math.floor((c + 1) * bmp.width / cols);
          let ink = 0;
          for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) {
            const i = (y * bmp.width + x) * 4;
            if (Math.abs(px[i] - bg[0]) + Math.abs(px[i + 1] - bg[1]) + Math.abs(px[i + 2] - bg[2]) > 12) ink++;
          }
          line += ink < 0.01 * (y1 - y0) * (x1 - x0) ? '.' : '#';
        }
        out.push(line);
      }
      return out;
    }""", [png, cols, rows])
    # The largest all-blank rectangle: for each row, the blank run above every column is a
    # histogram, and the largest rectangle under a histogram is found with a stack.
    best, box = 0, None
    heights = [0] * cols
    for r, line in enumerate(cells):
        heights = [h + 1 if ch == "." else 0 for h, ch in zip(heights, line)]
        stack: list[int] = []
        for c in range(cols + 1):
            h = heights[c] if c < cols else 0
            while stack and heights[stack[-1]] >= h:
                top = heights[stack.pop()]
                left = stack[-1] + 1 if stack else 0
                if top * (c - left) > best:
                    best, box = top * (c - left), (left, r - top + 1, c, r + 1)
            stack.append(c)
    w, h = page.viewport_size["width"], page.viewport_size["height"]
    rect = None if box is None else {"x": box[0] * w / cols, "y": box[1] * h / rows,
                                     "r": box[2] * w / cols, "b": box[3] * h / rows}
    return {"share": sum(line.count(".") for line in cells) / (cols * rows),
            "largest": best / (cols * rows), "rect": rect, "cells": cells}


def axe(page, exclude: list[str] | None = None) -> list:
    """axe-core's violations on ``page`` (any impact), as (id, impact, targets)."""
    if not page.evaluate("() => !!window.axe"):
        # The pages' CSP (script-src 'self') refuses add_script_tag's inline script, and
        # axe is never served: its source is evaluated through DevTools, which CSP does not bind.
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;0")
    result = page.evaluate("""async (exclude) => {
      const r = await axe.run({ exclude: exclude.map((s) => [s]) }, { resultTypes: ['violations'] });
      return r.violations.map((v) => [v.id, v.impact, v.nodes.map((n) => n.target.join(' ')).slice(0, 5)]);
    }""", exclude or [])
    return result


#: A page's layout as a reading for ``steady``: where the console's action bar is and how
#: tall, where the page is scrolled and how tall it is.
LAYOUT = """() => {
  const dock = document.getElementById('dock');
  const d = dock ? dock.getBoundingClientRect() : { top: 0, height: 0 };
  return [d.top, d.height, scrollY, document.documentElement.scrollHeight, innerHeight];
}"""


#: A projector's layout as a reading for ``steady``: the page's size and every element's box
#: (the screens fit their type to the screen over a few frames).
FITTED = """() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight,
  ...Array.from(document.querySelectorAll('body *'), (el) => {
    const b = el.getBoundingClientRect();
    return [Math.round(b.left), Math.round(b.top), Math.round(b.width), Math.round(b.height)];
  })]"""


def steady(page, reading: str = LAYOUT, frames: int = 6, timeout_ms: int = 5000):
    """Wait until ``reading`` (the source of a JavaScript function of no arguments) gives
    the same value for ``frames`` animation frames in a row, and return that value: a
    layout that has settled (a bar grown by a message, the page following it, a
    transition over), judged by the page's own state rather than by a fixed time."""
    script = f"""async () => {{
      const read = {reading};
      const end = performance.now() + {timeout_ms};
      let last = JSON.stringify(read()), same = 0;
      while (same < {frames} && performance.now() < end) {{
        await new Promise((done) => requestAnimationFrame(() => done()));
        const now = JSON.stringify(read());
        same = now === last ? same + 1 : 0;
        last = now;
      }}
      return JSON.parse(last);
    }}"""
    for _ in range(5):
        try:
            return page.evaluate(script)
        except Exception as error:              # noqa: BLE001 - only a page gone is retried
            if "context was destroyed" not in str(error):
                raise
            # The page went on to another (a form sent): judge the new one once loaded.
            page.wait_for_load_state("load")
    return page.evaluate(script)


AUTHORS = ("Kant", "Marx", "Nietzsche", "Platón", "Aristóteles", "Descartes", "Hume", "Arendt",
           "John Stuart Mill", "Simone de Beauvoir")


def choose_any(gm: GM, types) -> bool:
    """The GM chooses the first author and type with a question left (R-Q2)."""
    for a in AUTHORS:
        for ty in types:
            ack = gm.client.act({"do": "choose", "author": a, "type": ty})
            while ack.get("error") == "rate":
                time.sleep(0.25)
                ack = gm.client.act({"do": "choose", "author": a, "type": ty})
            if ack.get("ok"):
                gm.client.wait_seq(ack["seq"])
                return True
    return False


def resolve(gm: GM) -> None:
    """Whatever step 8 still owes (a pick, the written verdict, an argument), then the end."""
    for _ in range(12):
        dos = {e["do"]: e for e in gm.state["legal"]}
        if "pick" in dos:
            gm.act("pick", team=dos["pick"]["seats"][0], card="author")
        elif "written" in dos:
            gm.act("written", correct=True)
        elif "argument" in dos:
            gm.act("argument", result="good")
        elif "end_turn" in dos:
            gm.act("end_turn")
            return
        else:
            raise AssertionError(sorted(dos))
    raise AssertionError("the turn does not end")


def play_to_end(gm: GM, verdicts=("full", "half", "wrong")) -> None:
    """Turns from the GM's client alone until the game is over: a normal turn where the
    round allows it, else a simple challenge; verdicts in turn."""
    k = 0
    while not gm.state["view"]["over"]:
        modes = next(e for e in gm.state["legal"] if e["do"] == "declare")["options"]["modes"]
        if "normal" in modes:
            gm.act("declare", mode="normal")
        else:
            mode = "simple" if modes.get("simple") else "risky"
            gm.act("declare", mode=mode, target=modes[mode][0])
        assert choose_any(gm, ("vf", "quien", "abierta")), gm.state["legal"]
        gm.act("question", id=gm.state["candidates"][0]["id"])
        secondary = gm.state["view"]["turn"].get("secondary")
        if secondary:
            gm.act("write", team=secondary, text="V")
        gm.act("verdict", result=verdicts[k % len(verdicts)])
        k += 1
        resolve(gm)
