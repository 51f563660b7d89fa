"""Names sorted as the page's language sorts them (students, teams, authors).

Python compares strings by code point: "Martina" comes before "María" (``í`` is past
``t``) and "Ñuñoa" after "Zapata". A Spanish list is ordered as a dictionary orders it:
accents and case do not count (María, Mariana, Martina), and ``ñ`` is a letter of its own
right after ``n`` (Nuño, Núñez, Ñandú, Obregón). English folds ``ñ`` to ``n``. Standard
library only: Unicode's decomposition (NFD) drops the accents, and the tilde of ``ñ`` is
kept as a letter after every other ``n``.

    >>> sorted(["Martina", "María", "Ñandú", "Nuño", "Obregón"], key=name_key)
    ['María', 'Martina', 'Nuño', 'Ñandú', 'Obregón']
"""
from __future__ import annotations

import unicodedata

#: What ``ñ`` becomes in a Spanish key: ``n`` and then a character past every other.
_ENYE = "n\U0010ffff"


def _primary(name: str, lang: str) -> str:
    spanish = not (lang or "es").lower().startswith("en")
    out = []
    for char in unicodedata.normalize("NFD", " ".join(name.split()).casefold()):
        if unicodedata.combining(char):
            if spanish and char == "\u0303" and out and out[-1] == "n":
                out[-1] = _ENYE          # ñ: a letter of its own, after n
            continue
        out.append(char)
    return "".join(out)


def name_key(name: str, lang: str = "es") -> tuple[str, str, str]:
    """The sort key of a person's (or a team's, an author's) name in ``lang``: the letters
    without accents or case (``ñ`` after ``n`` in Spanish), then the accented form, then
    the name as written, so equal keys never depend on the order given."""
    return (_primary(name, lang), unicodedata.normalize("NFC", name.casefold()), name)


def sorted_names(names, lang: str = "es") -> list[str]:
    """``names`` sorted by :func:`name_key`."""
    return sorted(names, key=lambda name: name_key(name, lang))
