"""Join codes: what a team's devices type or scan to join, and what a projector shows."""
from __future__ import annotations

import secrets

#: Letters for codes: no 0/O, 1/I/L, so a code read off a projector is typed right.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
JOIN_CODE_LENGTH = 8       # 31^8 ≈ 8.5e11 codes: not guessed in a lecture
WATCH_CODE_LENGTH = 12


def new_code(length: int = JOIN_CODE_LENGTH) -> str:
    """A random code from CODE_ALPHABET."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def normalise_code(text: str) -> str:
    """A typed code as stored: upper case, without spaces or dashes."""
    return "".join(ch for ch in text.upper() if ch.isalnum())[:32]


def fresh_code(taken) -> str:
    """A new join code for which ``taken(code)`` is false (a code in use elsewhere)."""
    code = new_code()
    while taken(code):
        code = new_code()
    return code
