"""Formatted question text: Moodle's text formats turned into safe HTML.

Moodle keeps every text with a format, and renders each one its own way
(``lib/weblib.php`` ``format_text``):

- ``html`` (``FORMAT_HTML``): HTML as written. The default of Moodle XML when
  ``<questiontext>`` has no ``format`` attribute (issue 14).
- ``moodle`` (``FORMAT_MOODLE``, ``moodle_auto_format``): the GIFT default.
  Text where simple HTML tags and entities are allowed and rendered, and
  where line breaks are kept (a blank line makes a paragraph).
- ``markdown`` (``FORMAT_MARKDOWN``): Markdown (read here with markdown-it-py).
- ``plain`` (``FORMAT_PLAIN``, ``plain_text``): everything is text, "<b>"
  included: nothing is rendered.

Whatever the format, the HTML kept goes through an allow-list sanitiser
(:mod:`nh3`): paragraphs, line breaks, emphasis, sub/superscript, lists,
code, quotes and images; no script, no event attribute, no link, no remote
resource. An image must be in the file itself (Moodle XML's
``@@PLUGINFILE@@/name`` with a base64 ``<file>``): its ``src`` becomes
``image:NAME`` (the bank's image of that name); an image the file only
names (``src="switch.jpg"``) or fetches from the internet is dropped and
reported, so that the question is not used without it.

    >>> rich = render("x<sup>2</sup> &amp; <i>y</i>", "moodle")
    >>> rich.html, rich.text
    ('<p>x<sup>2</sup> &amp; <i>y</i></p>', 'x2 & y')
    >>> render("<b>no</b>", "plain").html
    ''
"""
from __future__ import annotations

import html as html_module
import re
from dataclasses import dataclass
from functools import cache
from html.parser import HTMLParser
from urllib.parse import unquote

from .text import html_to_text, plain_text

#: The formats of Moodle, by the names GIFT's ``[...]`` and Moodle XML's
#: ``format="..."`` give them.
FORMAT_NAMES: dict[str, str] = {
    "html": "html", "moodle": "moodle", "moodle_auto_format": "moodle",
    "markdown": "markdown", "plain": "plain", "plain_text": "plain", "text": "plain",
}

#: Elements the formatted text may hold.
ALLOWED_TAGS = frozenset({"p", "br", "em", "i", "strong", "b", "u", "sub", "sup", "ul", "ol",
                          "li", "code", "pre", "blockquote", "span", "img"})
ALLOWED_ATTRIBUTES = {"img": {"src", "alt", "width", "height"}}
#: The one URL scheme an ``<img src>`` may have: ``image:NAME``, an image of the bank.
IMAGE_SCHEME = "image:"
PLUGINFILE = "@@PLUGINFILE@@/"

# Tags that carry no formatting by themselves: HTML made only of them says no
# more than the plain text, so none is kept.
_PLAIN_TAGS = re.compile(r"</?(p|br)\s*/?>", re.IGNORECASE)
_TAG = re.compile(r"<[a-zA-Z/]")


@cache
def _markdown():
    # Loaded on the first bank with Markdown, not when the server starts: a restarted
    # server's classroom does not wait for it (bench/startup.py).
    from markdown_it import MarkdownIt
    return MarkdownIt("commonmark", {"html": True, "breaks": False})


@dataclass(frozen=True)
class Rich:
    """A text in both forms: ``text`` (plain, what every other use reads) and
    ``html`` (sanitised; empty when it would say no more than ``text``).

    ``images`` are the names of the file's images it shows (``image:NAME``);
    ``missing`` the images it names that the file does not hold, and
    ``remote`` those it would fetch from another site: a question with any
    of those cannot be used.
    """

    text: str
    html: str = ""
    images: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    remote: tuple[str, ...] = ()


class _ImageSources(HTMLParser):
    """The ``src`` of every ``<img>`` of a fragment, and each one's alt text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.sources: list[tuple[str, str]] = []

    def handle_starttag(self, tag, attrs) -> None:
        if tag == "img":
            values = dict(attrs)
            self.sources.append(((values.get("src") or "").strip(), values.get("alt") or ""))

    handle_startendtag = handle_starttag


def image_name(src: str) -> str | None:
    """The file's image name ``src`` names (``@@PLUGINFILE@@/a%20b.png`` → ``a b.png``;
    ``image:a b.png`` → ``a b.png``), or None."""
    if src.startswith(PLUGINFILE):
        return unquote(src[len(PLUGINFILE):]).split("?", 1)[0].strip("/") or None
    if src.startswith(IMAGE_SCHEME):
        return unquote(src[len(IMAGE_SCHEME):]) or None
    return None


def sanitise(fragment: str, available=None) -> Rich:
    """Sanitise an HTML fragment (allow-list: :data:`ALLOWED_TAGS`).

    ``available`` are the names of the images the file holds (None: every
    image named ``@@PLUGINFILE@@/...`` or ``image:...`` is taken as held, as
    when the images are checked later); a dict maps each file name to the
    name the bank keeps it under. Images outside the file are dropped
    and listed in ``missing`` (a file name) or ``remote`` (a URL).
    """
    finder = _ImageSources()
    finder.feed(fragment)
    finder.close()
    shown, missing, remote = [], [], []
    for src, _alt in finder.sources:
        name = image_name(src)
        if name is not None and (available is None or name in available):
            shown.append(available[name] if isinstance(available, dict) else name)
        elif name is not None:
            missing.append(name)
        elif re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:|^//", src):
            remote.append(src)
        else:
            missing.append(unquote(src) or "?")

    def keep(tag: str, attribute: str, value: str) -> str | None:
        if tag == "img" and attribute == "src":
            name = image_name(value)
            if name is None or (available is not None and name not in available):
                return None
            return IMAGE_SCHEME + (available[name] if isinstance(available, dict) else name)
        if attribute in ("width", "height"):
            return value if value.isdigit() and 0 < int(value) <= 4000 else None
        return value

    import nh3       # as _markdown: loaded with the first bank that has formatted text
    cleaned = nh3.clean(fragment, tags=set(ALLOWED_TAGS), attributes=ALLOWED_ATTRIBUTES,
                        url_schemes={"image"}, attribute_filter=keep, link_rel=None,
                        strip_comments=True).strip()
    # An <img> whose source was dropped shows nothing: its alt text stays in ``text``.
    cleaned = re.sub(r"<img(?![^>]*\ssrc=)[^>]*>", "", cleaned)
    text = html_to_text(cleaned)
    if not text and finder.sources:
        # A question that is only an image: its alt text stands for it.
        text = " ".join(alt.strip() for _src, alt in finder.sources if alt.strip())
    formatted = _TAG.search(_PLAIN_TAGS.sub("", cleaned)) is not None
    return Rich(text, cleaned if formatted else "", tuple(dict.fromkeys(shown)),
                tuple(dict.fromkeys(missing)), tuple(dict.fromkeys(remote)))


def _moodle_auto(text: str) -> str:
    """Moodle's ``text_to_html`` for ``FORMAT_MOODLE``: HTML tags and entities kept,
    a blank line a new paragraph, a line break a ``<br>``."""
    paragraphs = [part for part in re.split(r"\n\s*\n", text.strip()) if part.strip()]
    return "".join("<p>" + "<br>".join(line.strip() for line in part.split("\n")) + "</p>"
                   for part in paragraphs)


def render(raw: str, text_format: str, available=None) -> Rich:
    """``raw`` written in Moodle format ``text_format`` (a name of
    :data:`FORMAT_NAMES`; unknown: HTML) as a :class:`Rich` text."""
    kind = FORMAT_NAMES.get((text_format or "html").lower(), "html")
    if kind == "plain":
        return Rich(plain_text(raw))
    if kind == "markdown":
        fragment = _markdown().render(raw)
    elif kind == "moodle":
        fragment = _moodle_auto(raw)
    else:
        fragment = raw
    return sanitise(fragment, available)


def escape_html(text: str) -> str:
    """Plain text as HTML: escaped, its line breaks kept."""
    return "<br>".join(html_module.escape(line, quote=False) for line in text.split("\n"))
