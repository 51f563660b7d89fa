"""The project's own rule book: docs/reglas.md (Spanish) and docs/rules.md (English).

Every rule id the code, the messages, the pages and the tests use has an
anchor in both books (refusals link to ``/reglas#R-U2``); the two books have
the same anchors; the Spanish one addresses teams with "ustedes"; and the
running server serves both, to anyone, without a login.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from facilitator import create_app
from facilitator.extensions import database, store

ROOT = Path(__file__).resolve().parent.parent
BOOKS = {"es": ROOT / "docs" / "reglas.md", "en": ROOT / "docs" / "rules.md"}
#: Where rule ids are used: the package (its i18n catalogs included), pages, scripts, tests.
SOURCES = ("facilitator", "static", "templates", "tests")
RULE_ID = re.compile(r"\bR-[A-Z][0-9]+\b")
ANCHOR = re.compile(r'<a id="([^"]+)"></a>')
#: Peninsular second-person plural forms ("vosotros"); the game speaks Río de la Plata Spanish.
VOSOTROS = re.compile(r"\b(vosotros|vosotras|vuestr[oa]s?|sois|ten[eé]is|pod[eé]is|deb[eé]is|"
                      r"est[aá]is|hab[eé]is|quer[eé]is|elegid|escribid|preparad|os)\b",
                      re.IGNORECASE)
TEXT_SUFFIXES = {".py", ".json", ".js", ".css", ".html", ".md", ".txt", ".csv", ".xml", ".gift",
                 ".toml", ".cfg", ".ini", ".yml", ".yaml", ".sql", ".sh"}


def used_rule_ids() -> dict[str, list[str]]:
    """Each rule id in use and the files (relative to the repository) where it appears."""
    here = Path(__file__).resolve()
    found: dict[str, list[str]] = {}
    for top in SOURCES:
        for path in sorted((ROOT / top).rglob("*")):
            if (not path.is_file() or path.resolve() == here or path.suffix not in TEXT_SUFFIXES
                    or "__pycache__" in path.parts):
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            for rule in set(RULE_ID.findall(text)):
                found.setdefault(rule, []).append(str(path.relative_to(ROOT)))
    return found


def anchors(lang: str) -> set[str]:
    """The explicit anchors (``<a id="..."></a>``) of a rule book."""
    return set(ANCHOR.findall(BOOKS[lang].read_text(encoding="utf-8")))


def test_the_rule_ids_are_collected_from_the_code():
    used = used_rule_ids()
    # A sanity check of the scan itself: ids raised by the engine and named in the catalogs.
    assert {"R-T1", "R-U2", "R-U10", "R-K3", "R-G4"} <= set(used)
    assert any(f.startswith("facilitator/i18n/") for f in used["R-U10"])


@pytest.mark.parametrize("lang", sorted(BOOKS))
def test_every_rule_id_in_use_has_an_anchor_in_the_rule_book(lang):
    have = anchors(lang)
    missing = {rule: files for rule, files in used_rule_ids().items() if rule not in have}
    assert not missing, (f"{BOOKS[lang].relative_to(ROOT)} has no anchor for: " + "; ".join(
        f"{rule} (used in {', '.join(files[:3])}{', ...' if len(files) > 3 else ''})"
        for rule, files in sorted(missing.items())))


@pytest.mark.parametrize("lang", sorted(BOOKS))
def test_each_rule_is_its_own_linkable_entry(lang):
    lines = BOOKS[lang].read_text(encoding="utf-8").splitlines()
    for rule in sorted(r for r in anchors(lang) if RULE_ID.fullmatch(r)):
        entry = [line for line in lines if line.startswith(f'<a id="{rule}"></a>')]
        assert len(entry) == 1, f"{rule}: {len(entry)} anchors in {BOOKS[lang].name}"
        assert entry[0].startswith(f'<a id="{rule}"></a>**{rule}** '), entry[0][:80]


def test_both_books_have_the_same_anchors():
    spanish, english = anchors("es"), anchors("en")
    assert spanish == english, (f"only in reglas.md: {sorted(spanish - english)}; "
                                f"only in rules.md: {sorted(english - spanish)}")


def test_the_spanish_book_says_ustedes_never_vosotros():
    found = [(number, match.group(0))
             for number, line in enumerate(BOOKS["es"].read_text(encoding="utf-8").splitlines(), 1)
             for match in VOSOTROS.finditer(line)]
    assert not found, f"vosotros forms in docs/reglas.md (line, word): {found}"


def test_the_vosotros_check_matches_whole_words_only():
    assert VOSOTROS.search("Elegid vuestras cartas")
    assert VOSOTROS.search("os toca")
    assert not VOSOTROS.search("los otros equipos, nosotros, ustedes, «Sócrates»")


# -- the rule book served by the running server ------------------------------------------

@pytest.fixture
def client(tmp_path):
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path}/r.db", "TESTING": True,
                      "GM_PASSWORD": "x", "ASYNC_MODE": "threading"})
    store.forget()
    yield app.test_client()
    store.forget()
    database.engine.dispose()


@pytest.mark.parametrize("path, lang, heading, other", [
    ("/reglas", "es", "Reglas de la partida", "/rules"),
    ("/rules", "en", "Rules of la partida", "/reglas"),
])
def test_the_rule_book_is_served_to_anyone(client, path, lang, heading, other):
    response = client.get(path)          # no login: the rule book is public
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    assert f'<html lang="{lang}">' in page
    assert f"<h1>{heading}</h1>" in page
    assert 'id="R-U2"' in page and 'id="R-G1"' in page and 'id="format"' in page
    assert "<table>" in page                       # the tables are rendered
    assert f'href="{other}"' in page               # the other language's book
    assert "/console/login" not in page


def test_the_page_language_is_the_address_not_the_cookie(client):
    client.set_cookie("lang", "en")
    page = client.get("/reglas").get_data(as_text=True)
    assert '<html lang="es">' in page and "Reglas de la partida" in page
