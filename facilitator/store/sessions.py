"""The GM's console sessions: opened at login, ended at logout, expired after a lecture day.

The browser's (signed) session cookie holds only the session's secret,
``secrets.token_urlsafe(32)``; the database keeps its SHA-256
(``console_sessions.secret_hash``, unique, hence indexed). A session is valid
while its row exists, has not ended and has not expired. Because the
database, not the cookie, decides, logging out makes a copied cookie
useless, "log out every console" ends every session at once, and a restarted
server (or another process on the same database) still knows the GM.

Checking a session is one indexed lookup. A positive answer is remembered by
the process for at most ``CACHE_SECONDS`` (and never past the session's own
expiry), so a page that makes a few requests costs one lookup; a session the
process has just opened counts as one (the console page and socket that follow a
login ask nothing). Ending a
session forgets it at once in the process that ends it; **another process
sharing the database may still accept it for up to ``CACHE_SECONDS``** after
the logout, unless the logout reached it through Redis (``forget_remembered``, called
when the other process closes that session's connections). Negative answers are never
remembered.

A server process asks again, every ``CACHE_SECONDS / 2`` and in one query, about
every session it remembers (``keep_remembered_fresh``): a console in use is then
always remembered, and its next action does not wait for a lookup (a GM acting
every few seconds otherwise found the answer just expired, action after action).
Those still open are trusted for another ``CACHE_SECONDS``, the others forgotten:
a logout elsewhere still takes effect here within ``CACHE_SECONDS``.
"""
from __future__ import annotations

import hashlib
import logging
import secrets
from datetime import datetime, timedelta
from typing import Callable

from sqlalchemy import select, update

from .database import Database
from .kept import MISSING, Kept
from .models import ConsoleSession, utcnow

#: Longest secret looked up (issued ones have 43 characters).
MAX_SECRET = 100

#: secret's hash -> the session's expires_at, each trusted for ``CACHE_SECONDS``.
_cache = Kept("console sessions", limit=1000)
#: How long a process trusts a positive answer without asking the database again.
CACHE_SECONDS: float = _cache.freshness.seconds


def secret_hash(secret: str) -> str:
    """The SHA-256 of a session's secret, in hexadecimal: what the database keeps."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def open_session(database: Database, hours: float) -> str:
    """Open a session that lasts ``hours``; returns its secret (kept only in the cookie)."""
    secret = secrets.token_urlsafe(32)
    now = utcnow()
    key, expires_at = secret_hash(secret), now + timedelta(hours=hours)
    with database.session() as session:
        session.add(ConsoleSession(secret_hash=key, created_at=now, expires_at=expires_at))
    # Opened and committed here: the console page and its socket that follow the login
    # need not ask the database about it (trusted as a positive answer is).
    _remember(key, expires_at)
    return secret


def session_is_valid(database: Database, secret: object) -> bool:
    """Whether ``secret`` names a session that exists, has not ended and has not expired."""
    if not isinstance(secret, str) or not secret or len(secret) > MAX_SECRET \
            or not secret.isascii():
        return False
    key = secret_hash(secret)
    now = utcnow()
    expires_at = _cache.get(key)
    if expires_at is not MISSING:
        if now < expires_at:
            return True
        _cache.forget(key)
    with database.read() as connection:        # one statement, no transaction around it
        expires_at = connection.scalar(select(ConsoleSession.expires_at).where(
            ConsoleSession.secret_hash == key, ConsoleSession.ended_at.is_(None)))
    if expires_at is None or now >= expires_at:
        return False
    _remember(key, expires_at)
    return True


def _remember(key: str, expires_at: datetime) -> None:
    _cache.put(key, expires_at)


def refresh_remembered(database: Database) -> int:
    """Ask the database, in one query, which of the sessions this process remembers are
    still open: trust those for another ``CACHE_SECONDS``, forget the others. Returns
    how many are still remembered. A session forgotten meanwhile (a logout here) stays
    forgotten."""
    keys = _cache.keys()
    if not keys:
        return 0
    now = utcnow()
    with database.read() as connection:
        still_open = dict(connection.execute(
            select(ConsoleSession.secret_hash, ConsoleSession.expires_at).where(
                ConsoleSession.secret_hash.in_(keys), ConsoleSession.ended_at.is_(None),
                ConsoleSession.expires_at > now)).all())
    for key in keys:
        if key not in _cache:
            continue                          # ended here while the database was asked
        if key in still_open:
            _cache.put(key, still_open[key])
        else:
            _cache.forget(key)
    return len(_cache)


def keep_remembered_fresh(database: Database, sleep: Callable[[float], None]) -> None:
    """Run forever (a server's background task): ``refresh_remembered`` every
    ``CACHE_SECONDS / 2``."""
    while True:
        sleep(CACHE_SECONDS / 2)
        try:
            refresh_remembered(database)
        except Exception:      # a database hiccup: each check asks for itself meanwhile
            logging.getLogger(__name__).exception("refreshing the console sessions")


def end_session(database: Database, secret: object) -> bool:
    """End the session ``secret`` names (logging out); False when it was not open."""
    if not isinstance(secret, str) or not secret or len(secret) > MAX_SECRET:
        return False
    key = secret_hash(secret)
    _cache.forget(key)
    with database.session() as session:
        ended = session.execute(update(ConsoleSession).where(
            ConsoleSession.secret_hash == key, ConsoleSession.ended_at.is_(None))
            .values(ended_at=utcnow())).rowcount
    return bool(ended)


def end_all_sessions(database: Database) -> int:
    """End every open session ("log out every console"); returns how many were still valid."""
    _cache.forget()
    now = utcnow()
    with database.session() as session:
        return session.execute(update(ConsoleSession).where(
            ConsoleSession.ended_at.is_(None), ConsoleSession.expires_at > now)
            .values(ended_at=now)).rowcount


def forget_remembered(key: str) -> None:
    """Stop trusting the session whose hash is ``key`` (or every one, with ``"*"``) without
    asking the database: another process ended it and said so (live/consoles.py)."""
    _cache.forget(None if key == "*" else key)


def forget_cache() -> None:
    """Forget every remembered answer (tests; the next check asks the database)."""
    _cache.forget()
