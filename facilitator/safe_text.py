"""Text that reaches the database or a spreadsheet: no NUL byte, no control character.

PostgreSQL refuses a NUL byte in any text column (psycopg: "PostgreSQL text fields cannot
contain NUL (0x00) bytes"), and an .xlsx cell cannot hold the C0 control characters
(openpyxl's ``IllegalCharacterError``). Text typed or pasted by a person may carry them
(copied from another program, a Word document's manual line break ``\\x0b``), so every
edge where text comes in (banks, classes, students, team and game names, spokespersons,
written answers, correction reasons, token labels, records) checks it with this one helper
and refuses it with a message naming the field; the exports clean what is already stored.

Tab, line feed and carriage return are text; every other C0 character and DEL are not.

    >>> control_character("Ana\\x00")
    'U+0000'
    >>> without_control_characters("a\\x01b\\tc")
    'ab\\tc'
"""
from __future__ import annotations

import re

#: The characters refused: C0 controls but tab, line feed and carriage return; and DEL.
CONTROL_CHARACTERS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
#: The line breaks of other programs (Word's manual line break, a form feed), which a
#: bank file may turn into a plain line break rather than refuse.
FOREIGN_LINE_BREAKS = re.compile("[\x0b\x0c]")


class UnsafeText(ValueError):
    """A text holds a NUL byte or another control character; the message names the field."""

    def __init__(self, field: str, code: str):
        super().__init__(f"{field} holds an invisible control character ({code}) that cannot "
                         f"be stored: remove it (it usually comes from copying out of another "
                         f"program)")
        self.field = field
        self.code = code


def control_character(text: str) -> str | None:
    """The first control character of ``text`` as ``U+0000``, or None when there is none."""
    found = CONTROL_CHARACTERS.search(text)
    return None if found is None else f"U+{ord(found.group()):04X}"


def check_text(value: str, field: str) -> str:
    """``value`` unchanged, or :class:`UnsafeText` naming ``field`` when it holds a
    control character."""
    code = control_character(value) if isinstance(value, str) else None
    if code is not None:
        raise UnsafeText(field, code)
    return value


def first_unsafe(value: object, where: str = "") -> tuple[str, str] | None:
    """Where in ``value`` (text, or lists and dicts of them, keys included) the first
    control character is, as ``(path, "U+0000")`` (``settings.teams[0].name``), or None."""
    stack = [(value, where)]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str):
            code = control_character(item)
            if code is not None:
                return path or "text", code
        elif isinstance(item, dict):
            for key in item:
                if isinstance(key, str) and control_character(key) is not None:
                    return path or "text", control_character(key)
            # Reversed onto the stack, so the first child is looked at first.
            stack.extend(reversed([(child, f"{path}.{key}" if path else str(key))
                                   for key, child in item.items()]))
        elif isinstance(item, (list, tuple)):
            stack.extend(reversed([(child, f"{path}[{index}]")
                                   for index, child in enumerate(item)]))
    return None


def check_all(value: object, where: str) -> None:
    """Raise :class:`UnsafeText` naming the place of the first control character inside
    ``value`` (see :func:`first_unsafe`)."""
    found = first_unsafe(value, where)
    if found is not None:
        raise UnsafeText(*found)


def without_control_characters(text: str) -> str:
    """``text`` with its control characters dropped (what a spreadsheet cell can hold)."""
    return CONTROL_CHARACTERS.sub("", text)
