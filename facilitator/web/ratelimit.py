"""Rate limits of join codes and console logins, kept by Flask-Limiter.

Only failures count: a wrong join code or a wrong password takes one attempt
from the address's allowance; a right one takes nothing, so a class behind
one address that types its codes right is never held back. Once an address
has used its allowance, every attempt from it waits (the right code too),
which is what makes guessing a code or a password useless.

The counts live in memory (expired as their window passes, so the memory
stays bounded) or, when a message queue is configured (several processes),
in that Redis, shared by every process. If Redis stops answering, the
processes count in memory meanwhile rather than fail a login.
"""
from __future__ import annotations

from flask import Flask, current_app
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

def _address_in_deployment() -> str:
    # The client's address (behind trusted proxies: the student's, see ProxyFix), under the
    # deployment's own prefix: two deployments sharing one Redis count apart. (Flask-Limiter's
    # own key prefix is fixed by the first app it is bound to; this one follows each app.)
    return f"{current_app.config['RATE_LIMIT_PREFIX']}:{get_remote_address()}"


#: Created unbound; ``init_app`` binds it to the app and its storage.
limiter = Limiter(key_func=_address_in_deployment, default_limits=[], strategy="moving-window",
                  swallow_errors=True, in_memory_fallback_enabled=True, headers_enabled=False)

#: Wrong console passwords an address may try in any minute.
LOGINS_PER_MINUTE = 10


def init_app(app: Flask) -> None:
    """Bind the limiter: in memory, or in the Redis of the message queue when there is one."""
    queue = app.config.get("MESSAGE_QUEUE") or ""
    shared = queue.startswith(("redis://", "rediss://"))
    app.config.setdefault("RATELIMIT_STORAGE_URI", queue if shared else "memory://")
    app.config.setdefault("RATE_LIMIT_PREFIX", app.config.get("MESSAGE_QUEUE_CHANNEL", "facilitator")
                          + "-limits")
    limiter.init_app(app)


def join_attempts() -> str:
    """The join limit, from the app's configuration (``JOIN_ATTEMPTS_PER_MINUTE``)."""
    return f"{current_app.config['JOIN_ATTEMPTS_PER_MINUTE']} per minute"


def login_attempts() -> str:
    """The login limit."""
    return f"{LOGINS_PER_MINUTE} per minute"
