"""Languages of the interface: Spanish by default, English offered.

Every string a screen shows comes from a catalog (``es.json``, ``en.json``):
Jinja templates call ``t("key")`` and the pages' scripts get the same catalog,
so no string is hard-coded in one language. A key missing from a catalog falls
back to Spanish, then to the key itself, so a gap shows up but never breaks a page.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

LANGUAGES = ("es", "en")
DEFAULT_LANGUAGE = "es"
_HERE = Path(__file__).parent


@lru_cache(maxsize=None)
def catalog(lang: str) -> dict[str, str]:
    """The catalog of ``lang`` merged over Spanish (the complete one)."""
    def load(code: str) -> dict[str, str]:
        # es.json, plus one file per part of the interface: banks.es.json, results.es.json...
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


def pick_language(requested: str | None, cookie: str | None, accept: str | None) -> str:
    """The language for a request: ``?lang=``, then the cookie, then the browser, then Spanish."""
    for choice in (requested, cookie):
        if choice in LANGUAGES:
            return choice
    if accept:
        for part in accept.split(","):
            code = part.split(";")[0].strip().lower()[:2]
            if code in LANGUAGES:
                return code
    return DEFAULT_LANGUAGE
