"""Configuration: defaults, the environment, and the instance folder."""
from __future__ import annotations

import os
import secrets
from datetime import timedelta
from pathlib import Path

from .resources import data_path


def instance_secret_key(instance_path: str) -> str:
    """The signing key of sessions and device tokens, made once per instance folder.

    Kept in a file so that a restarted server still recognises the GM's session
    and every team's device: nobody has to join again.
    """
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_urlsafe(48))
    return path.read_text().strip()


def database_url(instance_path: str) -> str:
    """``FACILITATOR_DATABASE_URL``, or the SQLite file ``facilitator.db`` of the instance folder."""
    return os.environ.get("FACILITATOR_DATABASE_URL") or (
        "sqlite:///" + str(Path(instance_path) / "facilitator.db"))


#: Longest console session one may configure: a year (``FACILITATOR_SESSION_HOURS``).
MAX_SESSION_HOURS = 366 * 24


def session_hours() -> float:
    """``FACILITATOR_SESSION_HOURS``: how long a console login lasts (12, a lecture day)."""
    text = os.environ.get("FACILITATOR_SESSION_HOURS") or "12"
    try:
        hours = float(text)
    except ValueError:
        hours = float("nan")
    if not 0 < hours <= MAX_SESSION_HOURS:      # also refuses nan
        raise ValueError(f"FACILITATOR_SESSION_HOURS={text!r}: give a number of hours "
                         f"above 0 and at most {MAX_SESSION_HOURS}")
    return hours


#: The commands that start a server, as the person typed them: ``./scripts/run`` sets
#: ``FACILITATOR_COMMAND`` to its own name, so the server's hints name what was run.
START_COMMANDS = ("./scripts/run", "facilitator serve")


def start_command() -> str:
    """The command that started this server (``FACILITATOR_COMMAND`` when it is one of
    :data:`START_COMMANDS`), else ``facilitator serve``."""
    given = os.environ.get("FACILITATOR_COMMAND", "")
    return given if given in START_COMMANDS else "facilitator serve"


def default_config(instance_path: str) -> dict:
    """Settings read from the environment, with a SQLite file in the instance folder by default."""
    hours = session_hours()
    return {
        "DATABASE_URL": database_url(instance_path),
        "MESSAGE_QUEUE": os.environ.get("FACILITATOR_MESSAGE_QUEUE") or None,
        "MESSAGE_QUEUE_CHANNEL": os.environ.get("FACILITATOR_MESSAGE_QUEUE_CHANNEL", "facilitator"),
        "SECRET_KEY": os.environ.get("FACILITATOR_SECRET_KEY") or instance_secret_key(instance_path),
        "ASYNC_MODE": os.environ.get("FACILITATOR_ASYNC_MODE", "gevent"),
        "GM_PASSWORD": os.environ.get("FACILITATOR_GM_PASSWORD") or None,
        # What the person ran to start the server, for the hints that name it.
        "START_COMMAND": start_command(),
        # How often Socket.IO pings, and how long a silent device keeps its session.
        "PING_INTERVAL": int(os.environ.get("FACILITATOR_PING_INTERVAL", "10")),
        "PING_TIMEOUT": int(os.environ.get("FACILITATOR_PING_TIMEOUT", "20")),
        "SAMPLE_BANK": str(data_path("questions") / "filosofia.csv"),
        # A console login lasts this long, on the server (store/sessions.py) and in the cookie.
        "SESSION_HOURS": hours,
        "PERMANENT_SESSION_LIFETIME": timedelta(hours=hours),
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_HTTPONLY": True,
        "MAX_CONTENT_LENGTH": 2 * 1024 * 1024,
        "JOIN_ATTEMPTS_PER_MINUTE": 20,
        # Behind a reverse proxy: how many proxies' X-Forwarded-For to trust (rate limits
        # count per student address, not per proxy), and each process's database pool.
        "TRUSTED_PROXIES": int(os.environ.get("FACILITATOR_TRUSTED_PROXIES", "0")),
        "DATABASE_POOL_SIZE": int(os.environ.get("FACILITATOR_DATABASE_POOL_SIZE", "10")),
        # A team device's token is refused this many hours after its game ended (the
        # results stay on the tablets that long); a fraction of an hour is allowed.
        "DEVICE_GRACE_HOURS": float(os.environ.get("FACILITATOR_DEVICE_GRACE_HOURS", "12")),
        # Flood limits of Socket.IO events (facilitator/live/flood.py, docs/deploy.md): every
        # bucket's size and refill multiplied by this (0: none); SOCKET_RATE_LIMITS overrides
        # single buckets, {"act:device": [20, 1]}.
        "SOCKET_RATE_SCALE": float(os.environ.get("FACILITATOR_SOCKET_RATE_SCALE", "1")),
        "SOCKET_RATE_LIMITS": {},
        # LTI (web/lti.py): after a game's end sent marks the platform did not take, the
        # sending is tried again after each of these waits (seconds), until none waits.
        "LTI_RETRY_SECONDS": (60, 300, 900, 3600, 6 * 3600),
    }
