"""The interface's languages (issues 13 and 16): complete catalogs for es, es-ES and en,
the glossary's one term per thing, the address forms of each variant of Spanish, and
the language a page speaks (its link, the device's cookie, the game's default)."""
from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path

import pytest

from facilitator.extensions import store
from facilitator.i18n import LANGUAGES, catalog, format_date, pick_language

I18N = Path(__file__).resolve().parents[1] / "facilitator" / "i18n"
GLOSSARY = json.loads((I18N / "glossary.json").read_text(encoding="utf-8"))
#: es.json, banks.es.json, results.es.json, colmenahall.es.json...: every catalog file
#: ("*es.json" does not match es-ES.json)
PARTS = tuple(sorted({path.name[:-len("es.json")] for path in I18N.glob("*es.json")}))


def part(prefix: str, lang: str) -> dict[str, str]:
    return json.loads((I18N / f"{prefix}{lang}.json").read_text(encoding="utf-8"))


def values(lang: str) -> dict[str, str]:
    """Every key of a language, from all its catalog files."""
    merged: dict[str, str] = {}
    for prefix in PARTS:
        merged.update(part(prefix, lang))
    return merged


def student_facing(key: str) -> bool:
    students = GLOSSARY["audiences"]["students"]
    return key.startswith(tuple(students["prefixes"])) or key in students["keys"]


def offending(lang: str, pattern: str, keys=None, skip=()) -> list[tuple[str, str]]:
    rx = re.compile(pattern)
    return [(k, v) for k, v in values(lang).items()
            if (keys is None or keys(k)) and k not in skip and rx.search(v)]


# -- the catalogs -----------------------------------------------------------------------

def test_the_languages_are_the_three_variants():
    assert LANGUAGES == ("es", "es-ES", "en")
    assert set(GLOSSARY["variants"]) == set(LANGUAGES)


@pytest.mark.parametrize("prefix", PARTS)
@pytest.mark.parametrize("lang", ["es-ES", "en"])
def test_every_catalog_has_every_key_and_no_other(prefix, lang):
    reference, other = part(prefix, "es"), part(prefix, lang)
    assert sorted(reference.keys() - other.keys()) == [], f"missing from {prefix}{lang}.json"
    assert sorted(other.keys() - reference.keys()) == [], f"extra keys in {prefix}{lang}.json"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_value_is_empty_and_placeholders_match(lang):
    es = values("es")
    for key, text in values(lang).items():
        assert isinstance(text, str) and text.strip(), key
        assert set(re.findall(r"\{(\w+)\}", text)) == set(re.findall(r"\{(\w+)\}", es[key])), key


def test_every_key_is_either_for_students_or_for_the_teacher():
    teacher = tuple(GLOSSARY["audiences"]["teacher"]["prefixes"])
    unplaced = [k for k in values("es") if not student_facing(k) and not k.startswith(teacher)]
    assert unplaced == []


# -- address forms: ustedes (es), vosotros (es-ES), no tú or vos ------------------------

FORMS = GLOSSARY["address_forms"]


def test_the_address_form_checks_match_whole_words_only():
    vosotros, ustedes = re.compile(FORMS["vosotros"]), re.compile(FORMS["ustedes"])
    assert vosotros.search("Os toca: elegid autor") and vosotros.search("¿Jugáis Desvío?")
    assert vosotros.search("Vuestras cartas") and vosotros.search("Sois el equipo anfitrión")
    assert not vosotros.search("los otros equipos, nosotros, ustedes, seis, «Sócrates», países")
    assert ustedes.search("Ustedes son el equipo anfitrión") and ustedes.search("Les toca: elijan")
    assert not ustedes.search("los demás equipos eligen; el docente les da la palabra")


def test_spanish_speaks_to_teams_with_ustedes():
    assert offending("es", FORMS["vosotros"], student_facing) == []
    # and the teams are indeed addressed: the check is not vacuous
    assert values("es")["team.role.host"].startswith("Ustedes")


def test_spanish_of_spain_speaks_to_teams_with_vosotros():
    assert offending("es-ES", FORMS["ustedes"], student_facing) == []
    assert re.search(FORMS["vosotros"], values("es-ES")["team.wait.you_choose"])


@pytest.mark.parametrize("lang", ["es", "es-ES"])
def test_no_tu_or_vos_forms_in_spanish(lang):
    assert offending(lang, FORMS["tu_vos"]) == []


# -- the glossary: one term per thing ---------------------------------------------------

@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_forbidden_alternative_of_a_glossary_term(lang):
    tooltips = set(GLOSSARY["tooltip_keys"])
    found = {}
    for term in GLOSSARY["terms"]:
        assert {"id", "es", "es-ES", "en", "forbidden"} <= term.keys(), term
        for pattern in term["forbidden"].get(lang, []):
            hits = offending(lang, pattern, skip=tooltips if term.get("tooltip_only") else ())
            if hits:
                found[(term["id"], pattern)] = hits
    assert found == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_verdicts_are_capitalised(lang):
    keys = next(t for t in GLOSSARY["terms"] if t["id"] == "verdict")["capitalised_keys"]
    assert all(values(lang)[k][0].isupper() for k in keys)
    if lang != "en":
        assert [values(lang)[f"verdict.{v}"] for v in ("full", "half", "wrong")] == \
            ["Completa", "Media", "Incorrecta"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_rule_ids_format_names_or_bare_ordinals_outside_tooltips(lang):
    typo = GLOSSARY["typography"]
    tooltips = set(GLOSSARY["tooltip_keys"])
    for name in ("rule_id", "format_name", "ordinal_without_point"):
        assert offending(lang, typo[name], skip=tooltips) == [], name


def test_the_spain_variant_names_the_spokesperson_portavoz_too():
    assert "portavoz" in values("es-ES")["people.spokesperson"]
    assert values("es")["people.spokesperson"] == "Vocero"


# -- picking the language ------------------------------------------------------------------

@pytest.mark.parametrize("requested, cookie, game, accept, expected", [
    (None, None, None, None, "es"),
    ("es-ES", None, None, None, "es-ES"),
    ("en", "es-ES", "es", None, "en"),
    (None, "en", "es-ES", None, "en"),              # the device's choice wins over the game's
    (None, None, "es-ES", "en-GB,en;q=0.9", "es-ES"),  # the game's default over the browser's
    (None, None, None, "es-ES,es;q=0.9", "es-ES"),
    (None, None, None, "es-AR,es;q=0.9", "es"),
    (None, None, None, "en-US", "en"),
    ("xx", "yy", "zz", "fr", "es"),
])
def test_pick_language(requested, cookie, game, accept, expected):
    assert pick_language(requested, cookie, accept, game) == expected


def test_the_spain_catalog_falls_back_to_neutral_spanish_for_nothing():
    assert catalog("es-ES")["team.role.host"] == "Sois el equipo anfitrión"
    assert catalog("es")["team.role.host"] == "Ustedes son el equipo anfitrión"


@pytest.mark.parametrize("lang, expected", [
    ("es", "30 de noviembre de 2026"), ("es-ES", "30 de noviembre de 2026"),
    ("en", "30 November 2026"),
])
def test_dates_are_written_out(lang, expected):
    moment = datetime(2026, 11, 30, 14, 5)
    assert format_date(moment, lang) == expected
    assert format_date(moment, lang, time=True) == expected + ", 14:05"
    assert format_date("2026-11-30T14:05:00", lang) == expected


# -- the pages ------------------------------------------------------------------------------

SETTINGS = {"teams": [{"name": f"Equipo {n}", "members": 4} for n in range(1, 5)]}


def html_lang(response) -> str:
    return re.search(r'<html lang="([^"]+)">', response.get_data(as_text=True)).group(1)


@pytest.mark.parametrize("lang, phrase", [
    ("es", "Revisen las letras"), ("es-ES", "Revisad las letras"), ("en", "Check the letters"),
])
def test_the_join_page_switches_language(app, lang, phrase):
    client = app.test_client()
    page = client.get(f"/join?lang={lang}")
    assert html_lang(page) == lang
    text = page.get_data(as_text=True)
    assert "lang-switch" in text and "lang-variant" in text
    # the choice sticks (cookie) and shows in the messages
    wrong = client.post("/join", data={"code": "ZZZZ-ZZZZ"})
    assert html_lang(wrong) == lang and phrase in wrong.get_data(as_text=True)


def test_the_join_page_offers_the_other_languages(app):
    text = app.test_client().get("/join?lang=es").get_data(as_text=True)
    assert 'hreflang="en"' in text and 'hreflang="es-ES"' in text
    text = app.test_client().get("/join?lang=es-ES").get_data(as_text=True)
    assert 'hreflang="en"' in text and 'hreflang="es"' in text
    text = app.test_client().get("/join?lang=en").get_data(as_text=True)
    assert 'hreflang="es"' in text and 'hreflang="es-ES"' in text
    assert ">Español de España</a>" in text


def _game_with(app, settings) -> tuple[int, object]:
    from facilitator.services.games import create_from_setup as create_game_from_setup
    with app.test_request_context():
        game_id = create_game_from_setup({"name": "Filosofía 1.º B", "settings": settings})
    return game_id, store.row(game_id)


def _team_client(app, row):
    from facilitator.web.links import team_links
    with app.test_request_context():
        code = team_links(row)[0]["join_code"]
    client = app.test_client()
    assert client.get(f"/j/{code.replace('-', '')}").status_code == 302
    return client


def test_a_game_in_spanish_of_spain_makes_its_team_page_and_projector_speak_it(app):
    game_id, row = _game_with(app, {**SETTINGS, "language": "es-ES"})
    assert row.settings["language"] == "es-ES"
    team = _team_client(app, row)
    page = team.get("/team")
    assert html_lang(page) == "es-ES"
    assert "Vuestras cartas" in page.get_data(as_text=True)     # the scripts' catalog
    projector = app.test_client().get(f"/projector/{row.watch_code}")
    assert html_lang(projector) == "es-ES"
    assert "Escanead el código y elegid vuestro equipo" in projector.get_data(as_text=True)
    # A device's own choice wins over the game's default.
    team.set_cookie("lang", "en")
    page = team.get("/team")
    assert html_lang(page) == "en" and "Your cards" in page.get_data(as_text=True)
    assert html_lang(team.get("/team?lang=es")) == "es"


def test_without_a_language_a_game_speaks_neutral_spanish(app):
    _, row = _game_with(app, SETTINGS)
    page = _team_client(app, row).get("/team", headers={"Accept-Language": "en-US"})
    # no cookie and no game default: the browser's language
    assert html_lang(page) == "en"
    page = _team_client(app, row).get("/team")
    assert html_lang(page) == "es" and "Sus cartas" in page.get_data(as_text=True)


@pytest.mark.parametrize("language", ["es-AR", "", 3, None])
def test_a_game_language_must_be_one_of_the_three(app, language):
    from facilitator.games.partida import Refusal
    with pytest.raises(Refusal) as refusal:
        _game_with(app, {**SETTINGS, "language": language})
    assert refusal.value.rule == "format"


def test_the_set_up_form_offers_the_game_language(gm):
    text = gm.get("/console/new/partida").get_data(as_text=True)
    assert '"languages"' in text and "setup.language" in text


def test_console_dates_are_written_out(app, gm):
    _game_with(app, SETTINGS)
    text = gm.get("/console?lang=es").get_data(as_text=True)
    assert re.search(r"\d{1,2} de (enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|"
                     r"octubre|noviembre|diciembre) de \d{4}", text)
    assert not re.search(r"\d{4}-\d\d-\d\d", text)
