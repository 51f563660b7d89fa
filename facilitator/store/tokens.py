"""Personal API tokens of the GM: issue, check, list, revoke (one, or all at once).

A token is ``secrets.token_urlsafe(32)`` (32 random bytes, 43 characters). The
database keeps only its SHA-256, so a copy of the database gives no token; the
token itself is shown to the GM once, when it is issued. Scripts send it as
``Authorization: Bearer <token>`` to the JSON API (``/api/...``). Every token
expires: the GM chooses when on issuing it (:data:`LIFETIMES`, 30 days unless
told otherwise); past it, it is refused with a 401 that says it expired.
"""
from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from sqlalchemy import select, update

from ..safe_text import control_character
from .database import Database
from .models import ApiToken, utcnow

#: Longest label of a token (the column holds 100 characters).
MAX_LABEL = 100
#: Longest token accepted in a header (issued ones have 43 characters).
MAX_TOKEN = 200
#: ``last_used_at`` is written at most this often per token (one write, not one per request).
LAST_USED_EVERY = timedelta(seconds=60)
#: How long a token may work, in days, as the console offers it: a day, 30 days, a year.
LIFETIMES = (1, 30, 365)
DEFAULT_LIFETIME = 30


def token_hash(token: str) -> str:
    """The SHA-256 of a token, in hexadecimal: what the database keeps."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _info(row: ApiToken, now: datetime | None = None) -> dict:
    now = now or utcnow()
    return {"id": row.id, "label": row.label, "created_at": row.created_at,
            "last_used_at": row.last_used_at, "revoked_at": row.revoked_at,
            "expires_at": row.expires_at,
            "expired": row.expires_at is not None and now >= row.expires_at}


def issue_token(database: Database, label: str,
                days: int = DEFAULT_LIFETIME) -> tuple[dict, str]:
    """A new token labelled ``label``, working for ``days`` days (one of
    :data:`LIFETIMES`): its listing ``{"id", "label", "created_at", "expires_at", ...}``
    and the token itself, which is not kept anywhere (show it once)."""
    label = label.strip()
    if not label or len(label) > MAX_LABEL or control_character(label) is not None:
        raise ValueError(f"a token's label has 1 to {MAX_LABEL} characters, none of them a "
                         "control character")
    if days not in LIFETIMES:
        raise ValueError(f"a token works for {', '.join(map(str, LIFETIMES))} days")
    token = secrets.token_urlsafe(32)
    now = utcnow()
    with database.session() as session:
        row = ApiToken(label=label, token_hash=token_hash(token), created_at=now,
                       expires_at=now + timedelta(days=days))
        session.add(row)
        session.flush()
        return _info(row), token


def check_token(database: Database, token: object, now: datetime | None = None) -> dict | None:
    """The token's listing when ``token`` is a token issued here, neither revoked nor
    expired, else None.

    Notes when it was used (at most once a minute per token).
    """
    found = find_token(database, token, now)
    return found if found is not None and not found["expired"] else None


def find_token(database: Database, token: object, now: datetime | None = None) -> dict | None:
    """The listing of the token ``token`` names when it was issued here and not revoked
    (``expired`` says whether it is past its end), else None. A token still valid is
    noted as used (at most once a minute)."""
    if not isinstance(token, str) or not token or len(token) > MAX_TOKEN or not token.isascii():
        return None
    now = now or utcnow()
    with database.session() as session:
        row = session.scalars(select(ApiToken).where(
            ApiToken.token_hash == token_hash(token), ApiToken.revoked_at.is_(None))).first()
        if row is None:
            return None
        info = _info(row, now)
        if not info["expired"] and (row.last_used_at is None
                                    or now - row.last_used_at >= LAST_USED_EVERY):
            row.last_used_at = now
            info["last_used_at"] = now
        return info


def list_tokens(database: Database, include_revoked: bool = False) -> list[dict]:
    """The tokens, newest first; revoked ones only with ``include_revoked``."""
    query = select(ApiToken).order_by(ApiToken.id.desc())
    if not include_revoked:
        query = query.where(ApiToken.revoked_at.is_(None))
    with database.session() as session:
        return [_info(row) for row in session.scalars(query)]


def revoke_all_tokens(database: Database) -> int:
    """Revoke every token still valid at once (a token that may have leaked, a new
    school year): how many were revoked."""
    with database.session() as session:
        return session.execute(update(ApiToken).where(ApiToken.revoked_at.is_(None)).values(
            revoked_at=utcnow())).rowcount


def revoke_token(database: Database, token_id: int) -> bool:
    """Revoke a token for good; False when there is no such token still valid."""
    with database.session() as session:
        changed = session.execute(update(ApiToken).where(
            ApiToken.id == token_id, ApiToken.revoked_at.is_(None)).values(
            revoked_at=utcnow())).rowcount
        return bool(changed)
