"""Small real files of the kinds a teacher renames to ``.csv`` by mistake (issue 34): a
Word document, an old Word document, a PDF, an image, an Excel workbook, LibreOffice
Writer and Calc documents. Each is built here, byte by byte, as its program writes it
(the parts a reader looks at: a ZIP's entries, an OLE2 header and directory, a PDF's
objects and cross-reference table, a PNG's chunks)."""
from __future__ import annotations

import io
import struct
import zipfile
import zlib

QUESTIONS = [("k1", "Kant", "vf", "Kant nació en Königsberg.", "Verdadero"),
             ("k2", "Kant", "quien", "¿Quién escribió la Crítica de la razón pura?", "Kant")]


def docx() -> bytes:
    """A Word document (.docx) holding the bank as a table."""
    cells = "".join("<w:tr>" + "".join(f"<w:tc><w:p><w:r><w:t>{value}</w:t></w:r></w:p></w:tc>"
                                       for value in row) + "</w:tr>" for row in QUESTIONS)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://'
            'schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" '
            'ContentType="application/xml"/><Override PartName="/word/document.xml" '
            'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.'
            'document.main+xml"/></Types>'))
        z.writestr("_rels/.rels", (
            '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.'
            'openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="'
            'http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
            'officeDocument" Target="word/document.xml"/></Relationships>'))
        z.writestr("word/document.xml", (
            '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.'
            'openxmlformats.org/wordprocessingml/2006/main"><w:body><w:tbl>' + cells +
            '</w:tbl></w:body></w:document>'))
    return out.getvalue()


def doc() -> bytes:
    """An old Word document (.doc): an OLE2 compound file whose directory names its
    ``WordDocument`` stream (header sector, one FAT sector, one directory sector)."""
    sector = 512
    header = bytearray(sector)
    header[:8] = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
    struct.pack_into("<HHHH", header, 24, 0x3E, 3, 0xFFFE, 9)     # minor, major, order, 2^9
    struct.pack_into("<H", header, 32, 6)                           # mini sector shift
    struct.pack_into("<III", header, 44, 1, 1, 0)                   # FAT sectors, dir start
    struct.pack_into("<I", header, 56, 4096)                        # mini stream cutoff
    struct.pack_into("<IIII", header, 60, 0xFFFFFFFE, 0, 0xFFFFFFFE, 0)
    struct.pack_into("<I", header, 76, 0)                           # FAT in sector 0
    for index in range(1, 109):
        struct.pack_into("<I", header, 76 + 4 * index, 0xFFFFFFFF)
    fat = bytearray(b"\xff" * sector)
    struct.pack_into("<II", fat, 0, 0xFFFFFFFD, 0xFFFFFFFE)         # FAT sector, directory
    directory = bytearray(sector)

    def entry(index: int, name: str, kind: int) -> None:
        encoded = (name + "\x00").encode("utf-16-le")
        at = index * 128
        directory[at:at + len(encoded)] = encoded
        struct.pack_into("<HBB", directory, at + 64, len(encoded), kind, 1)
        struct.pack_into("<III", directory, at + 68, 0xFFFFFFFF, 0xFFFFFFFF,
                         1 if index == 0 else 0xFFFFFFFF)
    entry(0, "Root Entry", 5)
    entry(1, "WordDocument", 2)
    entry(2, "1Table", 2)
    return bytes(header + fat + directory)


def pdf() -> bytes:
    """A one-page PDF with the questions as text."""
    lines = " ".join(f"({q[3]}) Tj T*" for q in QUESTIONS)
    stream = f"BT /F1 12 Tf 72 720 Td 14 TL {lines} ET".encode("latin-1", "replace")
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
               b"/Resources << /Font << /F1 5 0 R >> >> >>",
               b"<< /Length " + str(len(stream)).encode() + b" >>\nstream\n" + stream
               + b"\nendstream",
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{offset:010d} 00000 n \n".encode() for offset in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n" \
        .encode()
    return bytes(out)


def png(width: int = 2, height: int = 2) -> bytes:
    """A grey PNG of ``width`` × ``height`` pixels (8-bit greyscale)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(min(height, 64)))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0,
                                                             0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def xlsx() -> bytes:
    """An Excel workbook (.xlsx) with the bank's header and rows, as a teacher types it."""
    from openpyxl import Workbook
    book = Workbook()
    sheet = book.active
    sheet.append(["id", "author", "type", "text", "answer"])
    for row in QUESTIONS:
        sheet.append(list(row))
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _opendocument(mime: str, content: str) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        # The first entry, stored: what tells an OpenDocument's kind.
        z.writestr(zipfile.ZipInfo("mimetype"), mime, compress_type=zipfile.ZIP_STORED)
        z.writestr("META-INF/manifest.xml", (
            '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:'
            'oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry '
            f'manifest:full-path="/" manifest:media-type="{mime}"/></manifest:manifest>'),
            compress_type=zipfile.ZIP_DEFLATED)
        z.writestr("content.xml", content, compress_type=zipfile.ZIP_DEFLATED)
    return out.getvalue()


def odt() -> bytes:
    """A LibreOffice Writer document (.odt) with the questions as paragraphs."""
    paragraphs = "".join(f"<text:p>{q[3]}</text:p>" for q in QUESTIONS)
    return _opendocument("application/vnd.oasis.opendocument.text", (
        '<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:'
        'oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:'
        'opendocument:xmlns:text:1.0"><office:body><office:text>' + paragraphs +
        '</office:text></office:body></office:document-content>'))


def ods() -> bytes:
    """A LibreOffice Calc spreadsheet (.ods)."""
    return _opendocument("application/vnd.oasis.opendocument.spreadsheet", (
        '<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:'
        'oasis:names:tc:opendocument:xmlns:office:1.0"><office:body><office:spreadsheet/>'
        '</office:body></office:document-content>'))


#: kind → (the file's bytes, what the Spanish message calls it, what the English one does).
KINDS = {
    "docx": (docx, "Es un documento de Word (.docx)", "This is a Word document (.docx)"),
    "doc": (doc, "Es un documento de Word antiguo (.doc)", "This is an old Word document (.doc)"),
    "pdf": (pdf, "Es un documento PDF", "This is a PDF document"),
    "image": (png, "Es una imagen", "This is an image"),
    "xlsx": (xlsx, "Es un libro de Excel (.xlsx)", "This is an Excel workbook (.xlsx)"),
    "odt": (odt, "Es un documento de LibreOffice Writer (.odt)",
            "This is a LibreOffice Writer document (.odt)"),
    "ods": (ods, "Es una hoja de cálculo de LibreOffice Calc (.ods)",
            "This is a LibreOffice Calc spreadsheet (.ods)"),
}
