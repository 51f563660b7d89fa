"""Text helpers shared by the bank readers: decoding bytes, comparing names,
making ids, and turning HTML into the plain text the game shows."""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from html.parser import HTMLParser

# Physical lines as a text editor counts them; the CSV reader (newline="")
# and the GIFT reader split the same way, so line numbers agree.
LINE_BREAK = re.compile(r"\r\n|\r|\n")
_LINE_BREAK_BYTES = re.compile(rb"\r\n|\r|\n")


def fold(value: str) -> str:
    """Case-, accent- and spacing-insensitive form of a name typed by a person.

    >>> fold("  Respuesta   Esperada ")
    'respuesta esperada'
    >>> fold("Quién")
    'quien'
    """
    decomposed = unicodedata.normalize("NFKD", value)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


def same_text_key(value: str) -> str:
    """The form used to spot duplicate questions: case and spacing do not count.

    Accents do count: "el" and "él" can make two different questions.
    """
    return " ".join(unicodedata.normalize("NFC", value).casefold().split())


def slugify(value: str) -> str:
    """A lower-case ASCII id made of letters, digits and dashes.

    >>> slugify("Kant: ¿Qué es la Ilustración?")
    'kant-que-es-la-ilustracion'
    """
    return re.sub(r"[^a-z0-9]+", "-", fold(value)).strip("-")


def clean(value: str) -> str:
    """A field as stored: NFC, one kind of line break, no surrounding blanks.

    NFC matters because some spreadsheets (macOS) write decomposed accents;
    two spellings of "Sócrates" must be the same author.
    """
    return LINE_BREAK.sub("\n", unicodedata.normalize("NFC", value)).strip()


@dataclass
class Decoded:
    """A file's bytes as text, and which physical lines could not be decoded."""

    text: str
    encoding: str
    bad_lines: list[int] = field(default_factory=list)


def _decodes(raw: bytes, encoding: str) -> bool:
    try:
        raw.decode(encoding)
    except UnicodeDecodeError:
        return False
    return True


def decode(data: bytes) -> Decoded:
    """Decode a bank file: UTF-8 (with or without BOM), else Windows-1252.

    Spreadsheets in Spanish locales still save "CSV" as Windows-1252, so a
    file that is not UTF-8 but decodes cleanly as cp1252 is read as cp1252
    (a superset of Latin-1 for every printable character). A file where some
    lines are UTF-8 and others are not (two files pasted together) is read as
    UTF-8 and the undecodable lines are listed in ``bad_lines`` so that the
    reader reports them, each with its line number. The BOM, if any, is
    removed.
    """
    # Excel's "Unicode text" is UTF-16 with a BOM; cheap to accept.
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return Decoded(data.decode("utf-16"), "utf-16")
        except UnicodeDecodeError:
            pass
    try:
        return Decoded(data.decode("utf-8-sig"), "utf-8")
    except UnicodeDecodeError:
        pass
    raw_lines = _LINE_BREAK_BYTES.split(data)
    looks_utf8 = data.startswith(b"\xef\xbb\xbf") or any(
        not raw.isascii() and _decodes(raw, "utf-8") for raw in raw_lines)
    encoding = "utf-8" if looks_utf8 else "cp1252"
    bad = [n for n, raw in enumerate(raw_lines, start=1) if not _decodes(raw, encoding)]
    text = data.decode(encoding, errors="replace")
    if text.startswith("\ufeff"):
        text = text[1:]
    return Decoded(text, encoding, bad)


def bad_line_message(decoded: Decoded, line: int, lang: str = "en") -> str:
    """Why ``line`` of a badly encoded file could not be read, and what to do."""
    from .messages import message
    key = "encoding.bad_utf8" if decoded.encoding == "utf-8" else "encoding.bad_any"
    return message(lang, key, line=line)


# Tags after which the text goes on a new line; everything else is inline.
_BLOCK_TAGS = frozenset({
    "p", "div", "br", "li", "ul", "ol", "tr", "table", "blockquote", "pre",
    "h1", "h2", "h3", "h4", "h5", "h6", "hr", "section", "article",
})


class _TextExtractor(HTMLParser):
    """Collects the visible text of an HTML fragment."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)  # unescapes &amp; &aacute; ...
        self.parts: list[str] = []
        self._hidden = 0  # inside <script> or <style>: not visible text

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in ("script", "style"):
            self._hidden += 1
        elif tag in _BLOCK_TAGS:
            self.parts.append("\n")

    def handle_startendtag(self, tag: str, attrs) -> None:
        if tag in _BLOCK_TAGS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._hidden = max(0, self._hidden - 1)
        elif tag in _BLOCK_TAGS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.parts.append(data)


def html_to_text(html: str) -> str:
    """The plain text of an HTML fragment: tags dropped, entities unescaped.

    Paragraphs and line breaks become single line breaks; other runs of white
    space become one space, as a browser would show them.

    >>> html_to_text("<p>S&oacute;crates <b>no</b> escribi&oacute;</p><p>nada</p>")
    'Sócrates no escribió\\nnada'
    """
    extractor = _TextExtractor()
    extractor.feed(html)
    extractor.close()
    text = "".join(extractor.parts).replace("\xa0", " ")
    lines = (" ".join(line.split()) for line in text.split("\n"))
    return clean("\n".join(line for line in lines if line))


def plain_text(value: str) -> str:
    """Non-HTML text as stored: each line trimmed, blank lines dropped."""
    lines = (line.strip() for line in LINE_BREAK.split(value))
    return clean("\n".join(line for line in lines if line))
