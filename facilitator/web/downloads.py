"""Downloads named in the page's words, accents kept: «Torneo de Lógica.xlsx», not
«Torneo-de-L-gica.xlsx»."""
from __future__ import annotations

import re
import unicodedata
from urllib.parse import quote

#: What no file system keeps in a name (and what would end the header's quoted name).
_REFUSED = re.compile(r'[\\/:*?"<>|\x00-\x1f\x7f]+')


def file_stem(text: str, fallback: str = "descarga", most: int = 80) -> str:
    """``text`` as the stem of a file name: its words and accents kept, spaces and what
    no system keeps in a name made dashes; ``fallback`` when nothing is left."""
    stem = re.sub(r"[\s-]+", "-", _REFUSED.sub("-", unicodedata.normalize("NFC", text)))
    return stem.strip("-.")[:most].strip("-.") or fallback


def attachment(name: str) -> str:
    """The ``Content-Disposition`` of a download called ``name``: ``filename*`` in UTF-8
    (RFC 6266, what every current browser reads) and, for any other program, an ASCII
    ``filename`` with the accents taken off."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    ascii_name = re.sub(r"[^\w.-]+", "-", ascii_name).strip("-") or "download"
    return f"attachment; filename=\"{ascii_name}\"; filename*=UTF-8''{quote(name, safe='')}"
