"""Images embedded in a bank file (Moodle XML's ``<file encoding="base64">``).

Only raster images are kept, recognised by their first bytes (never by the
name): PNG, JPEG, GIF and WebP. SVG is refused (it can hold scripts). An
image may have at most :data:`MAX_IMAGE_BYTES`, a bank at most
:data:`MAX_BANK_IMAGE_BYTES` of images. Each kept image is named after its
content (``<sha256>.png``), so two questions that both call their image
"image.png" (Moodle's name for a pasted image) keep both.
"""
from __future__ import annotations

import base64
import binascii
import hashlib

#: Largest image, in bytes (decoded).
MAX_IMAGE_BYTES = 1024 * 1024
#: Largest total of a bank's images, in bytes.
MAX_BANK_IMAGE_BYTES = 20 * 1024 * 1024
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


def decode_image(encoded: str) -> tuple[str, bytes] | str:
    """A base64 image as ``(mime, bytes)``, or why it is refused: ``"size"``,
    ``"type"`` or ``"base64"``."""
    compact = "".join(encoded.split())
    if len(compact) > (MAX_IMAGE_BYTES * 4) // 3 + 8:
        return "size"
    try:
        data = base64.b64decode(compact, validate=True)
    except (binascii.Error, ValueError):
        return "base64"
    if len(data) > MAX_IMAGE_BYTES:
        return "size"
    mime = sniff(data)
    if mime is None:
        return "type"
    return mime, data


def image_key(mime: str, data: bytes) -> str:
    """The name a bank keeps an image under: its content's hash and extension."""
    return f"{hashlib.sha256(data).hexdigest()[:24]}.{IMAGE_TYPES[mime]}"
