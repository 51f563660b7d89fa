"""The question banks' pages in the browser: what their script (static/js/banks.js) does.

The teacher imports a small bank: the import form shows the new bank's name while the
target is a new bank, and the add / replace choice instead once an existing bank is
chosen. Deleting that bank asks first (the form's question) and then it is gone. On the
sample bank's page, picking the game that uses it opens its coverage by itself; a question
read on the console is one fewer in its author's and type's cell and in the totals at the
page's next refresh (every 10 seconds: the page's clock is run forward).
"""
from __future__ import annotations

import re

try:
    from playwright.sync_api import expect
except ImportError:         # the browser fixture skips, or fails under CI, and says why
    expect = None

GM_VIEWPORT = {"width": 1366, "height": 768}

SMALL_BANK = "\n".join([
    "id,author,type,text,answer",
    "1,Kant,vf,La razón pura es práctica.,Falso",
    "2,Kant,abierta,¿Qué es la Ilustración?,",
    "3,Hume,quien,«La razón es esclava de las pasiones.»,Hume",
])


def bank_id_of(page, name: str) -> int:
    """The id of the bank listed as `name` on the banks' page."""
    link = page.locator("[data-testid^=bank-link-]", has_text=name)
    return int(link.get_attribute("data-testid").rsplit("-", 1)[1])


def test_import_form_delete_and_a_games_coverage_following_the_console(room, server, tmp_path):
    gm = room.gm
    game_id = room.create_via_http({"teams": [{"name": f"Equipo {n}", "members": 4} for n in range(1, 5)]})
    banks = room.screens.page("banks", GM_VIEWPORT, storage_state=gm.context.storage_state())
    asked = []
    banks.on("dialog", lambda dialog: asked.append(dialog.message))   # the screens accept it

    # The import form: a new bank's name, or the add / replace choice for an existing one.
    banks.goto(server.url + "/console/banks?lang=es")
    sample = bank_id_of(banks, "Filosofía (muestra)")
    form = banks.get_by_test_id("import-form")
    expect(banks.get_by_test_id("import-name")).to_be_visible()
    expect(banks.get_by_test_id("import-mode-add")).to_be_hidden()
    banks.get_by_test_id("import-target").select_option(str(sample))
    expect(banks.get_by_test_id("import-name")).to_be_hidden()
    expect(banks.get_by_test_id("import-mode-add")).to_be_visible()
    banks.get_by_test_id("import-target").select_option("new")
    expect(banks.get_by_test_id("import-name")).to_be_visible()
    expect(form.locator("[data-import-existing]")).to_be_hidden()
    csv = tmp_path / "pequeño.csv"
    csv.write_text(SMALL_BANK, encoding="utf-8")
    banks.get_by_test_id("import-file").set_input_files(str(csv))
    banks.get_by_test_id("import-name").fill("Banco pequeño")
    banks.get_by_test_id("import-submit").click()
    banks.wait_for_load_state("load")

    # Deleting it asks the form's question first.
    banks.goto(server.url + "/console/banks?lang=es")
    small = bank_id_of(banks, "Banco pequeño")
    question = banks.get_by_test_id(f"bank-{small}").locator("form[data-confirm]").get_attribute("data-confirm")
    assert "Banco pequeño" in question
    banks.get_by_test_id(f"bank-delete-{small}").click()
    banks.wait_for_url(re.compile(r"done=bank_deleted"))
    assert asked == [question]
    expect(banks.get_by_test_id(f"bank-{small}")).to_have_count(0)

    # The sample bank's page: picking the game opens its coverage (no button pressed).
    banks.clock.install()
    banks.goto(f"{server.url}/console/banks/{sample}?lang=es")
    banks.get_by_test_id("game-select").select_option(str(game_id))
    banks.wait_for_url(re.compile(rf"game={game_id}"))
    table = banks.get_by_test_id("game-table")
    expect(table).to_be_visible()
    url = f"{server.url}/console/banks/game/{game_id}/coverage"
    before = gm.context.request.get(url).json()

    # A question read on the console: one fewer where it was, at the next refresh.
    room.open_console(game_id)
    gm.get_by_test_id("declare-normal").click()
    gm.get_by_test_id("choose-send").click()
    expect(gm.get_by_test_id("question-offer-text")).not_to_be_empty()
    gm.get_by_test_id("question-read").click()
    expect(gm.get_by_test_id("question-text")).not_to_be_empty()
    after = gm.context.request.get(url).json()
    changed = [(author, kind) for author, counts in after.items() for kind, n in counts.items()
               if n != before[author][kind]]
    assert len(changed) == 1, (before, after)
    author, kind = changed[0]
    cell = table.locator(f'td[data-author="{author}"][data-type="{kind}"]')
    expect(cell).to_have_text(str(before[author][kind]))
    banks.clock.run_for(10_500)
    expect(cell).to_have_text(str(after[author][kind]))
    expect(table.locator(f'td[data-author="{author}"][data-type="total"]')).to_have_text(
        str(sum(after[author].values())))
    expect(table.locator(f"tfoot td[data-type='{kind}']")).to_have_text(
        str(sum(counts[kind] for counts in after.values())))
    expect(table.locator("tfoot td[data-type='total']")).to_have_text(
        str(sum(sum(counts.values()) for counts in after.values())))
    assert not room.screens.script_errors(), room.screens.script_errors()
