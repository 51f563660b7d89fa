"""The one build step pyproject.toml cannot say (the rest of the configuration is there).

A wheel carries the facilitator's own files under ``facilitator/data/``: the pages
(``templates/``), the styles and scripts (``static/``), the sample bank
(``questions/*.csv``), the rule book (``docs/*.md``) and the browser libraries the
pages load, as ``node_modules/<folder>/<file>`` (only the files named by
``VENDOR`` in facilitator/web/assets.py). The libraries come from npm at build time
(``npm ci`` when they are missing); they are never committed. An editable install
(``pip install -e .``) copies nothing: the checkout's folders are used as they are
(see facilitator/resources.py).
"""
from __future__ import annotations

import ast
import shutil
import subprocess
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.errors import SetupError

ROOT = Path(__file__).resolve().parent
#: Folders of the checkout copied into the package, and which of their files.
DATA = {"templates": "**/*", "static": "**/*", "questions": "*.csv", "docs": "*.md"}


def vendor_files() -> list[str]:
    """``node_modules/...`` paths of the browser libraries served under ``/vendor/``,
    read from the ``VENDOR`` literal of facilitator/web/assets.py (not imported: the
    build environment has no Flask)."""
    tree = ast.parse((ROOT / "facilitator" / "web" / "assets.py").read_text(encoding="utf-8"))
    for node in tree.body:
        targets = (node.targets if isinstance(node, ast.Assign)
                   else [node.target] if isinstance(node, ast.AnnAssign) else [])
        if any(isinstance(t, ast.Name) and t.id == "VENDOR" for t in targets):
            vendor = ast.literal_eval(node.value)
            return [f"node_modules/{folder}/{name}" for name, folder in vendor.items()]
    raise SetupError("facilitator/web/assets.py: no VENDOR dictionary found")


def install_browser_libraries(files: list[str]) -> None:
    """Run ``npm ci`` in the source folder if a browser library is missing."""
    if all((ROOT / f).is_file() for f in files):
        return
    npm = shutil.which("npm")
    if npm is None:
        raise SetupError("building the facilitator needs npm (Node.js) to fetch the browser "
                         "libraries of package-lock.json into node_modules/; install Node.js "
                         "and npm, or run `npm ci` in the source folder first")
    print("facilitator: npm ci (browser libraries)", flush=True)
    subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=ROOT,
                   check=True)
    missing = [f for f in files if not (ROOT / f).is_file()]
    if missing:
        raise SetupError(f"npm ci did not install {', '.join(missing)}: "
                         "check package.json against VENDOR in facilitator/web/assets.py")


class build_py_with_data(build_py):
    """build_py, then the facilitator's own files into ``facilitator/data/`` of the build."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return                          # editable: the checkout's folders are used
        vendor = vendor_files()
        install_browser_libraries(vendor)
        target = Path(self.build_lib) / "facilitator" / "data"
        shutil.rmtree(target, ignore_errors=True)       # nothing left from an older build
        files = [*vendor]
        for folder, pattern in DATA.items():
            files += sorted(str(p.relative_to(ROOT)) for p in (ROOT / folder).glob(pattern)
                            if p.is_file() and not any(part.startswith(".") or
                                                       part == "__pycache__"
                                                       for part in p.relative_to(ROOT).parts))
        for name in files:
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(ROOT / name, target / name)


setup(cmdclass={"build_py": build_py_with_data})
