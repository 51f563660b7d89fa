"""The GM's credentials, stored hashed: a password and the console secret of each start."""
from __future__ import annotations

import secrets

from werkzeug.security import check_password_hash, generate_password_hash

from .database import INTEGRITY_ERRORS, Database
from .models import SecretRow

PASSWORD = "gm_password"
CONSOLE_SECRET = "console_secret"


def _words(count: int = 3) -> str:
    # Short lower-case syllables: easy to read off a terminal and type on a laptop.
    syllables = ["ba", "be", "bi", "bo", "da", "de", "di", "do", "fa", "fe", "fi", "fo", "ga",
                 "go", "la", "le", "li", "lo", "ma", "me", "mi", "mo", "na", "ne", "ni", "no",
                 "pa", "pe", "pi", "po", "ra", "re", "ri", "ro", "sa", "se", "si", "so", "ta",
                 "te", "ti", "to", "va", "ve", "vi", "vo"]
    return "-".join("".join(secrets.choice(syllables) for _ in range(3)) for _ in range(count))


def set_secret(database: Database, name: str, value: str, hashed: str | None = None) -> None:
    """Store ``value``'s hash under ``name``, replacing any earlier one (``hashed``: that
    hash, already computed)."""
    hashed = hashed or generate_password_hash(value)
    try:
        with database.session() as session:
            row = session.get(SecretRow, name)
            if row is None:
                session.add(SecretRow(name=name, hash=hashed))
            else:
                row.hash = hashed
    except INTEGRITY_ERRORS:
        # Another process starting at the same moment stored one first: replace it.
        with database.session() as session:
            session.get(SecretRow, name).hash = hashed


def new_console_secret(database: Database, value: str | None = None,
                       hashed: str | None = None) -> str:
    """A fresh console secret (printed by ``facilitator serve``); the old one stops working.
    ``value`` and its ``hashed`` form: made beforehand (see ``console_secret``)."""
    if value is None:
        value, hashed = _words(), None
    set_secret(database, CONSOLE_SECRET, value, hashed)
    return value


def console_secret(hash_with) -> tuple[str, object]:
    """A fresh console secret and its hash being computed by ``hash_with(function,
    value)`` (a thread pool's ``spawn``: scrypt is slow on purpose, and a starting
    server builds the app meanwhile); the hash is the result's ``get()``."""
    value = _words()
    return value, hash_with(generate_password_hash, value)


def check_gm(database: Database, value: str, env_password: str | None = None) -> bool:
    """Whether ``value`` is the console secret, the GM password, or the configured password."""
    if not value or len(value) > 200:
        return False
    if env_password and secrets.compare_digest(value.encode(), env_password.encode()):
        return True
    with database.session() as session:
        hashes = [row.hash for row in (session.get(SecretRow, name)
                                       for name in (CONSOLE_SECRET, PASSWORD)) if row is not None]
    if not hashes:
        return False
    # scrypt is slow on purpose: under gevent it runs in the thread pool, so wrong
    # logins never hold up the tablets (the rows were read above, on the loop).
    from ..web.offload import off_the_loop
    return off_the_loop(_matches_any, hashes, value.strip())


def _matches_any(hashes: list[str], value: str) -> bool:
    """Whether ``value`` matches one of the stored ``hashes`` (pure CPU work)."""
    return any(check_password_hash(hashed, value) for hashed in hashes)
