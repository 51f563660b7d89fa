"""The rule book, readable from the running server: /reglas (Spanish) and /rules (English).

A classroom may have no internet and an installed package has no checkout, so
the pages render the project's own ``docs/reglas.md`` and ``docs/rules.md``
(found through ``data_path``). Rule ids shown on the other pages link here
(``/reglas#<rule id>``). The rule book is public: no login.
"""
from __future__ import annotations

from functools import lru_cache

from flask import Blueprint, abort, g, render_template
from markupsafe import Markup

from ..resources import data_path

bp = Blueprint("rulebook", __name__)

#: The rule book of each language: its file in docs/ and its address.
BOOKS = {"es": ("reglas.md", "/reglas"), "en": ("rules.md", "/rules")}


@lru_cache(maxsize=8)
def _render(path: str, mtime: float) -> tuple[str, str]:
    """The HTML of a rule book and its first heading (cached per file version)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    from markdown_it import MarkdownIt     # with the first rule book shown, not at start-up
    # html=True: the file is our own, and its rules are anchored with <a id="<rule id>"></a>.
    md = MarkdownIt("commonmark", {"html": True}).enable("table")
    title = next((line.lstrip("#").strip() for line in text.splitlines()
                  if line.startswith("# ")), "")
    return md.render(text), title


def _page(lang: str):
    name, _ = BOOKS[lang]
    path = data_path("docs") / name
    try:
        html, title = _render(str(path), path.stat().st_mtime)
    except OSError:
        abort(404)
    g.lang = lang                      # the page's language is its address, not the cookie
    other = "en" if lang == "es" else "es"
    return render_template("rulebook.html", book=Markup(html), title=title,
                           other_book_url=BOOKS[other][1])


@bp.route("/reglas")
def reglas():
    """The rule book in Spanish."""
    return _page("es")


@bp.route("/rules")
def rules():
    """The rule book in English."""
    return _page("en")
