"""Running CPU-heavy work (password hashing, imports) off the gevent event loop.

Under ``facilitator serve`` every request and every socket shares one gevent
loop: a scrypt check (a good part of a second's worth of hashing) run there holds
up every tablet's sync for as long. ``off_the_loop(func, *args)`` runs ``func(*args)`` in gevent's thread
pool (a real OS thread; hashlib's scrypt and PBKDF2 release the GIL) and waits
for it without blocking the loop; under any other async mode (threading: the
tests, the command line tools), or outside an app, it is a plain call.

Give it pure work only: no database session and no app context travel to the
pool's thread (read what the work needs first, on the loop).
"""
from __future__ import annotations

from typing import Any, Callable, TypeVar

from flask import current_app, has_app_context

T = TypeVar("T")


def off_the_loop(func: Callable[..., T], *args: Any) -> T:
    """``func(*args)``, computed outside the gevent loop when the app runs under gevent."""
    if has_app_context() and current_app.config.get("ASYNC_MODE") == "gevent":
        import gevent
        return gevent.get_hub().threadpool.apply(func, args)
    return func(*args)
