"""Files that are not question banks, recognised by their bytes whatever their name.

A teacher renames a Word document, a spreadsheet, a PDF or an image to ``.csv`` and
uploads it: read as text it looks like a GIFT file full of undecodable lines. Before any
reader runs, :func:`document_kind` names what the file is from its first bytes (a ZIP's
list of entries tells a ``.docx`` from an ``.xlsx`` or an ``.odt``; an OLE2 file's
directory names its ``WordDocument`` or ``Workbook`` stream), so the report can say what
it is and how to make a bank of it, and nothing is offered to import.

Nothing is decompressed but an OpenDocument's ``mimetype`` entry (stored, a few dozen
bytes), and only the ZIP's central directory is read.
"""
from __future__ import annotations

import io
import zipfile

from .images import sniff

#: An OLE2 compound file (Office 97-2003: .doc, .xls, .ppt).
OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
#: The streams that name an OLE2 file's program (UTF-16 names in its directory).
OLE2_STREAMS = (("doc", "WordDocument"), ("xls", "Workbook"), ("xls", "Book"),
                ("ppt", "PowerPoint Document"))
#: OpenDocument kinds by their ``mimetype`` entry.
OPENDOCUMENT = {"application/vnd.oasis.opendocument.text": "odt",
                "application/vnd.oasis.opendocument.spreadsheet": "ods",
                "application/vnd.oasis.opendocument.presentation": "odp"}
#: Office Open XML kinds by the folder their parts live in.
OFFICE_OPEN_XML = (("word/", "docx"), ("xl/", "xlsx"), ("ppt/", "pptx"))
#: The kinds :func:`document_kind` names (the messages' keys are ``document.<kind>``).
KINDS = ("docx", "doc", "xlsx", "xls", "pptx", "ppt", "odt", "ods", "odp", "pdf", "rtf",
         "zip", "image", "binary")
#: What each kind is for the way out its message gives (``document.how.<group>``).
GROUPS = {"docx": "text", "doc": "text", "odt": "text", "rtf": "text", "pdf": "text",
          "pptx": "text", "ppt": "text", "odp": "text", "xlsx": "sheet", "xls": "sheet",
          "ods": "sheet", "image": "image", "zip": "zip", "binary": "binary"}
#: How much of a file's start is looked at for NUL bytes (a text file has none).
SAMPLE = 4096


def document_kind(data: bytes) -> str | None:
    """What ``data`` is when it is not a text file a bank could be (one of :data:`KINDS`),
    or None for text.

    >>> document_kind(b"%PDF-1.7 ..."), document_kind(b"id,author,type,text,answer")
    ('pdf', None)
    """
    if data.startswith(b"PK\x03\x04") or data.startswith(b"PK\x05\x06"):
        return _zip_kind(data)
    if data.startswith(OLE2):
        for kind, stream in OLE2_STREAMS:
            if stream.encode("utf-16-le") in data:
                return kind
        return "doc"
    if data.startswith(b"%PDF-"):
        return "pdf"
    if data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"{\\rtf"):
        return "rtf"
    bitmap = data.startswith(b"BM") and data[6:10] == b"\x00\x00\x00\x00"
    if sniff(data) is not None or bitmap or data.startswith((b"II*\x00", b"MM\x00*")) \
            or data[4:12] in (b"ftypheic", b"ftypheix", b"ftypavif", b"ftypmif1"):
        return "image"
    sample = data[:SAMPLE]
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return None          # UTF-16 text with a BOM: half its bytes are NUL
    if sample and sample.count(0) * 10 >= len(sample):      # a tenth: not a stray NUL
        return "binary"
    return None


def document_message(kind: str, lang: str | None) -> str:
    """What the file is and how to make a question bank of it, in ``lang``."""
    from .messages import message
    return message(lang, "document.refused", what=message(lang, f"document.{kind}"),
                   how=message(lang, f"document.how.{GROUPS[kind]}"))


def _zip_kind(data: bytes) -> str:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        names = archive.namelist()
        if "mimetype" in names:
            info = archive.getinfo("mimetype")
            if info.file_size <= 200:
                kind = OPENDOCUMENT.get(archive.read("mimetype").decode("ascii", "replace")
                                        .strip())
                if kind:
                    return kind
    except (zipfile.BadZipFile, OSError, ValueError, NotImplementedError, RuntimeError):
        return "zip"
    for folder, kind in OFFICE_OPEN_XML:
        if any(name.startswith(folder) for name in names):
            return kind
    return "zip"
