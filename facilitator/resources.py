"""Where the facilitator's own files are: pages, styles, the sample bank, the rule book.

In a checkout they sit beside the package (``templates/``, ``static/``,
``questions/``, ``docs/``, ``node_modules/``); an installed package carries
them inside itself, under ``facilitator/data/``. Every module asks here, so
the two layouts are decided in one place.
"""
from __future__ import annotations

import os
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
#: Inside an installed package (a wheel puts the files here at build time).
INSTALLED = PACKAGE / "data"
#: Beside the package in a checkout (or an editable install).
CHECKOUT = PACKAGE.parent


def data_path(name: str) -> Path:
    """The folder (or file) ``name`` of the facilitator's own files: the installed copy
    when there is one, else the checkout's."""
    inside = INSTALLED / name
    if inside.exists():
        return inside
    return CHECKOUT / name


def instance_path() -> Path:
    """The instance folder (database, signing key): ``FACILITATOR_INSTANCE`` when set;
    else ``instance/`` of the checkout, or for an installed package (whose folder,
    site-packages, is no place for data) ``instance/`` of the working directory."""
    chosen = os.environ.get("FACILITATOR_INSTANCE")
    if chosen:
        return Path(chosen).absolute()
    if INSTALLED.is_dir():
        return Path.cwd() / "instance"
    return CHECKOUT / "instance"


def make_private_folder(path: str | os.PathLike) -> Path:
    """Create the folder ``path`` (and its parents) readable by its owner only (0700),
    whatever the umask; a folder that already exists is left as it is."""
    path = Path(path)
    if not path.is_dir():
        os.makedirs(path, mode=0o700, exist_ok=True)
        os.chmod(path, 0o700)          # makedirs' mode is filtered by the umask
    return path
