"""Languages of the interface: neutral Latin American Spanish by default, the Spanish of
Spain and English offered.

``es`` speaks to the teams with «ustedes», ``es-ES`` with «vosotros», and the teacher's
screens of both use impersonal wording; ``glossary.json`` fixes one term per thing in
each (tests/test_i18n.py holds the catalogs to it).

Every string a screen shows comes from a catalog (``es.json``, ``es-ES.json``, ``en.json``):
Jinja templates call ``t("key")`` and the pages' scripts get the same catalog,
so no string is hard-coded in one language. A key missing from a catalog falls
back to Spanish, then to the key itself, so a gap shows up but never breaks a page.
"""
from __future__ import annotations

import json
from datetime import datetime
from functools import lru_cache
from pathlib import Path

LANGUAGES = ("es", "es-ES", "en")
DEFAULT_LANGUAGE = "es"
_HERE = Path(__file__).parent


@lru_cache(maxsize=None)
def catalog(lang: str) -> dict[str, str]:
    """The catalog of ``lang`` merged over Spanish (the complete one)."""
    def load(code: str) -> dict[str, str]:
        # es.json, plus one file per part of the interface: banks.es.json, results.es.json...
        # ("*.es.json" does not match banks.es-ES.json)
        merged: dict[str, str] = {}
        for path in [_HERE / f"{code}.json", *sorted(_HERE.glob(f"*.{code}.json"))]:
            if path.exists():
                merged.update(json.loads(path.read_text(encoding="utf-8")))
        return merged
    merged = load(DEFAULT_LANGUAGE)
    if lang != DEFAULT_LANGUAGE:
        merged = {**merged, **load(lang)}
    return merged


def translate(lang: str, key: str, **params: object) -> str:
    """The text of ``key`` in ``lang``, with ``{name}`` placeholders filled."""
    text = catalog(lang if lang in LANGUAGES else DEFAULT_LANGUAGE).get(key, key)
    return text.format(**params) if params else text


def game_name(lang: str, kind: str | None) -> str:
    """What the pages call a game of ``kind``: its catalog's ``<kind>.name`` («La colmena»),
    else the kind's own name (a game plugged in without a catalog); without a kind, the
    product's name (``app.name``, «El facilitador»)."""
    if not kind:
        return translate(lang, "app.name")
    return catalog(lang if lang in LANGUAGES else DEFAULT_LANGUAGE).get(f"{kind}.name", kind)


def pick_language(requested: str | None, cookie: str | None, accept: str | None,
                  game: str | None = None) -> str:
    """The language for a request: ``?lang=``, then the device's cookie, then the game's
    default (set by the teacher for every tablet of that game), then the browser, then
    neutral Spanish."""
    for choice in (requested, cookie, game):
        if choice in LANGUAGES:
            return choice
    if accept:
        for part in accept.split(","):
            code = part.split(";")[0].strip().lower()
            if code == "es-es":
                return "es-ES"
            if code[:2] in LANGUAGES:
                return code[:2]
    return DEFAULT_LANGUAGE


_MONTHS = {
    "es": ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto",
           "septiembre", "octubre", "noviembre", "diciembre"),
    "en": ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December"),
}


def format_date(moment: datetime | str | None, lang: str, time: bool = False) -> str:
    """A date as the language writes it: «30 de noviembre de 2026» (both Spanish),
    «30 November 2026»; with ``time``, «…, 14:05». Takes a datetime or an ISO string."""
    if moment is None or moment == "":
        return ""
    if isinstance(moment, str):
        try:
            moment = datetime.fromisoformat(moment)
        except ValueError:
            return moment
    if lang == "en":
        text = f"{moment.day} {_MONTHS['en'][moment.month - 1]} {moment.year}"
    else:
        text = f"{moment.day} de {_MONTHS['es'][moment.month - 1]} de {moment.year}"
    return f"{text}, {moment:%H:%M}" if time else text


def ordinal(number: int, lang: str) -> str:
    """A place in the ranking: «1.º» in Spanish, «1st» in English."""
    if lang != "en":
        return f"{number}.º"
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"
