"""Images embedded in a bank file (Moodle XML's ``<file encoding="base64">``).

Only raster images are kept, recognised by their first bytes (never by the
name): PNG, JPEG, GIF and WebP. SVG is refused (it can hold scripts). An
image may have at most :data:`MAX_IMAGE_BYTES`, a bank at most
:data:`MAX_BANK_IMAGE_BYTES` of images, and an image at most
:data:`MAX_IMAGE_SIDE` pixels a side and :data:`MAX_IMAGE_PIXELS` in all: a few
compressed bytes can unpack into a picture that no tablet can show (a 40000×40000
PNG of 194 KB unpacks to 6.4 GB). The pixel size is read from the header
(PNG's IHDR, JPEG's SOF marker, GIF's logical screen, WebP's VP8/VP8L/VP8X
chunk); an image whose size cannot be read is refused. Each kept image is named after its
content (``<sha256>.png``), so two questions that both call their image
"image.png" (Moodle's name for a pasted image) keep both.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import struct
from dataclasses import dataclass

#: Largest image, in bytes (decoded).
MAX_IMAGE_BYTES = 1024 * 1024
#: Largest total of a bank's images, in bytes.
MAX_BANK_IMAGE_BYTES = 20 * 1024 * 1024
#: Largest side of an image, in pixels: more than a projector at 4K shows.
MAX_IMAGE_SIDE = 4096
#: Most pixels of an image (16 megapixels: 64 MB once a tablet unpacks it).
MAX_IMAGE_PIXELS = 16_000_000
#: The accepted image types: MIME type → extension.
IMAGE_TYPES = {"image/png": "png", "image/jpeg": "jpg", "image/gif": "gif",
               "image/webp": "webp"}


def sniff(data: bytes) -> str | None:
    """The MIME type of an image from its first bytes, or None when it is not a
    PNG, JPEG, GIF or WebP.

    >>> sniff(b"\\x89PNG\\r\\n\\x1a\\n...."), sniff(b"<svg xmlns=...")
    ('image/png', None)
    """
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data.startswith((b"GIF87a", b"GIF89a")):
        return "image/gif"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None


def image_size(mime: str, data: bytes) -> tuple[int, int] | None:
    """The width and height in pixels an image's header gives, or None when the header
    cannot be read (a damaged or truncated file).

    >>> image_size("image/gif", b"GIF89a\\x10\\x00\\x20\\x00")
    (16, 32)
    """
    try:
        if mime == "image/png":
            if data[12:16] != b"IHDR":
                return None
            return struct.unpack(">II", data[16:24])
        if mime == "image/gif":
            return struct.unpack("<HH", data[6:10])
        if mime == "image/webp":
            return _webp_size(data)
        if mime == "image/jpeg":
            return _jpeg_size(data)
    except struct.error:
        return None
    return None


def _webp_size(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8 ":             # lossy: a key frame's start code, then 14-bit sizes
        if data[23:26] != b"\x9d\x01\x2a":
            return None
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L":             # lossless: a signature byte, then 14 bits each, less one
        if data[20:21] != b"\x2f":
            return None
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X":             # extended: the canvas, 24 bits each, less one
        return (int.from_bytes(data[24:27], "little") + 1,
                int.from_bytes(data[27:30], "little") + 1)
    return None


#: JPEG's start-of-frame markers (baseline, progressive, lossless...; not DHT, JPG, DAC).
_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    at = 2
    while at + 4 <= len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker == 0xFF:              # fill byte
            at += 1
            continue
        if marker in (0x01, *range(0xD0, 0xD8)):     # markers without a length
            at += 2
            continue
        length = struct.unpack(">H", data[at + 2:at + 4])[0]
        if marker in _SOF:
            height, width = struct.unpack(">HH", data[at + 5:at + 9])
            return width, height
        if length < 2:
            return None
        at += 2 + length
    return None


@dataclass(frozen=True)
class Refused:
    """Why an image is left out: ``reason`` (``size``, ``type``, ``base64``, ``pixels``,
    ``damaged``) and, for ``pixels``, the image's ``width`` and ``height``."""

    reason: str
    width: int = 0
    height: int = 0


def decode_image(encoded: str) -> tuple[str, bytes] | Refused:
    """A base64 image as ``(mime, bytes)``, or why it is refused (:class:`Refused`)."""
    compact = "".join(encoded.split())
    if len(compact) > (MAX_IMAGE_BYTES * 4) // 3 + 8:
        return Refused("size")
    try:
        data = base64.b64decode(compact, validate=True)
    except (binascii.Error, ValueError):
        return Refused("base64")
    if len(data) > MAX_IMAGE_BYTES:
        return Refused("size")
    mime = sniff(data)
    if mime is None:
        return Refused("type")
    size = image_size(mime, data)
    if size is None:
        return Refused("damaged")
    width, height = size
    if (not width or not height or max(width, height) > MAX_IMAGE_SIDE
            or width * height > MAX_IMAGE_PIXELS):
        return Refused("pixels", width, height)
    return mime, data


def image_key(mime: str, data: bytes) -> str:
    """The name a bank keeps an image under: its content's hash and extension."""
    return f"{hashlib.sha256(data).hexdigest()[:24]}.{IMAGE_TYPES[mime]}"
