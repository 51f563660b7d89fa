"""Personal API tokens of the GM: issue, check, list, revoke.

A token is ``secrets.token_urlsafe(32)`` (32 random bytes, 43 characters). The
database keeps only its SHA-256, so a copy of the database gives no token; the
token itself is shown to the GM once, when it is issued. Scripts send it as
``Authorization: Bearer <token>`` to the JSON API (``/api/...``).
"""
from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from sqlalchemy import select, update

from .database import Database
from .models import ApiToken, utcnow

#: Longest label of a token (the column holds 100 characters).
MAX_LABEL = 100
#: Longest token accepted in a header (issued ones have 43 characters).
MAX_TOKEN = 200
#: ``last_used_at`` is written at most this often per token (one write, not one per request).
LAST_USED_EVERY = timedelta(seconds=60)


def token_hash(token: str) -> str:
    """The SHA-256 of a token, in hexadecimal: what the database keeps."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _info(row: ApiToken) -> dict:
    return {"id": row.id, "label": row.label, "created_at": row.created_at,
            "last_used_at": row.last_used_at, "revoked_at": row.revoked_at}


def issue_token(database: Database, label: str) -> tuple[dict, str]:
    """A new token labelled ``label``: its listing ``{"id", "label", "created_at", ...}``
    and the token itself, which is not kept anywhere (show it once)."""
    label = label.strip()
    if not label or len(label) > MAX_LABEL:
        raise ValueError(f"a token's label has 1 to {MAX_LABEL} characters")
    token = secrets.token_urlsafe(32)
    with database.session() as session:
        row = ApiToken(label=label, token_hash=token_hash(token), created_at=utcnow())
        session.add(row)
        session.flush()
        return _info(row), token


def check_token(database: Database, token: object, now: datetime | None = None) -> dict | None:
    """The token's listing when ``token`` is a token issued here and not revoked, else None.

    Notes when it was used (at most once a minute per token).
    """
    if not isinstance(token, str) or not token or len(token) > MAX_TOKEN or not token.isascii():
        return None
    now = now or utcnow()
    with database.session() as session:
        row = session.scalars(select(ApiToken).where(
            ApiToken.token_hash == token_hash(token), ApiToken.revoked_at.is_(None))).first()
        if row is None:
            return None
        if row.last_used_at is None or now - row.last_used_at >= LAST_USED_EVERY:
            row.last_used_at = now
        return _info(row)


def list_tokens(database: Database, include_revoked: bool = False) -> list[dict]:
    """The tokens, newest first; revoked ones only with ``include_revoked``."""
    query = select(ApiToken).order_by(ApiToken.id.desc())
    if not include_revoked:
        query = query.where(ApiToken.revoked_at.is_(None))
    with database.session() as session:
        return [_info(row) for row in session.scalars(query)]


def revoke_token(database: Database, token_id: int) -> bool:
    """Revoke a token for good; False when there is no such token still valid."""
    with database.session() as session:
        changed = session.execute(update(ApiToken).where(
            ApiToken.id == token_id, ApiToken.revoked_at.is_(None)).values(
            revoked_at=utcnow())).rowcount
        return bool(changed)
