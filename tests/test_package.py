"""The installable package: a wheel built from this source tree, installed into an empty
virtualenv, runs ``facilitator serve`` outside any checkout with every file it needs.

The wheel is built (with ``pip wheel``, as a user would) from a temporary copy of the
source tree: the tracked files plus the untracked ones git does not ignore, so that
work not yet committed is tested too. The checkout's ``node_modules`` is copied along
to spare the build an ``npm ci`` (the build runs it only when a library is missing).
Installing the wheel downloads the dependencies from PyPI. About half a minute with
a warm pip cache.
"""
from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import zipfile
from html.parser import HTMLParser
from pathlib import Path

import pytest
import requests

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = "contraseña-del-paquete"
SETTINGS = {"teams": [{"name": f"Equipo {n}", "members": 4} for n in range(1, 5)],
            "round_modes": [["normal"], ["simple", "risky"]], "deliberation_seconds": 60}

pytestmark = pytest.mark.timeout(300)


def source_copy(target: Path) -> Path:
    """The files of the working tree git knows of or would add (not the ignored ones)."""
    try:
        listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard",
                                 "-z"], cwd=ROOT, capture_output=True, check=True).stdout
        names = filter(None, listed.decode().split("\0"))
    except (OSError, subprocess.CalledProcessError):
        # Not a git checkout (an unpacked source archive): every file but what .gitignore
        # names (virtualenv, npm folder, caches, instance data, builds).
        skipped = {".git", ".venv", "node_modules", "__pycache__", "instance", "build", "dist",
                   "test-artifacts", ".pytest_cache", ".hypothesis"}
        names = [str(p.relative_to(ROOT)) for p in ROOT.rglob("*")
                 if p.is_file() and not skipped & set(p.relative_to(ROOT).parts[:-1])
                 and p.relative_to(ROOT).parts[:2] != ("facilitator", "data")
                 and not any(part.endswith(".egg-info") for part in p.relative_to(ROOT).parts)]
    for name in names:
        source = ROOT / name
        if source.is_file():                      # a tracked file deleted in the tree is gone
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    if (ROOT / "node_modules").is_dir():
        shutil.copytree(ROOT / "node_modules", target / "node_modules", symlinks=True)
    return target


def run(*command, **kwargs) -> subprocess.CompletedProcess:
    """Run a command; on failure the assertion shows its output."""
    done = subprocess.run([str(c) for c in command], capture_output=True, text=True, **kwargs)
    assert done.returncode == 0, f"{command}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def clean_environment() -> dict:
    """This process's environment without anything pointing at the checkout or its settings."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("FACILITATOR_", "PYTHON", "PIP_TARGET", "PIP_PREFIX"))
           and k != "VIRTUAL_ENV"}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Assets(HTMLParser):
    """The ``<script src>`` and ``<link rel=stylesheet href>`` of a page."""

    def __init__(self):
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script" and attrs.get("src"):
            self.found.append(attrs["src"])
        elif (tag == "link" and "stylesheet" in (attrs.get("rel") or "").split()
              and attrs.get("href")):
            self.found.append(attrs["href"])


def assets_of(html: str) -> list[str]:
    parser = Assets()
    parser.feed(html)
    return parser.found


def test_installed_wheel_serves_everything(tmp_path):
    source = source_copy(tmp_path / "source")
    dist, venv, room = tmp_path / "dist", tmp_path / "venv", tmp_path / "room"
    room.mkdir()
    env = clean_environment()

    # Build the wheel as a user would, from the copy (build isolation fetches setuptools).
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", dist, source,
        env=env, timeout=240)
    wheel, = dist.glob("facilitator-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in ("facilitator/data/templates/base.html", "facilitator/data/static/css/app.css",
                   "facilitator/data/static/js/games/partida/team.js", "facilitator/data/questions/filosofia.csv",
                   "facilitator/data/node_modules/socket.io-client/dist/socket.io.min.js",
                   "facilitator/data/node_modules/lit-html/lit-html.js",
                   "facilitator/i18n/es.json"):
        assert needed in names, needed
    for doc in (source / "docs").glob("*.md"):
        assert f"facilitator/data/docs/{doc.name}" in names
    for mako in (source / "facilitator").rglob("*.mako"):
        assert mako.relative_to(source).as_posix() in names
    vendored = {n for n in names if n.startswith("facilitator/data/node_modules/")}
    assert vendored == {"facilitator/data/node_modules/socket.io-client/dist/socket.io.min.js",
                        "facilitator/data/node_modules/lit-html/lit-html.js"}

    # Install it into an empty virtualenv and run it from an empty folder.
    run(sys.executable, "-m", "venv", venv, env=env, timeout=120)
    python = venv / "bin" / "python"
    run(python, "-m", "pip", "install", "-q", "--disable-pip-version-check", wheel,
        env=env, timeout=240)
    package = Path(run(python, "-c", "import facilitator; print(facilitator.__file__)",
                       cwd=room, env=env).stdout.strip()).parent
    assert package.is_relative_to(venv), package

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log_path = tmp_path / "server.log"
    with open(log_path, "wb") as log:
        server = subprocess.Popen([str(venv / "bin" / "facilitator"), "serve", "--port", str(port)],
                                  cwd=room, env={**env, "FACILITATOR_GM_PASSWORD": PASSWORD},
                                  stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, log_path.read_text(errors="replace")[-3000:]
            try:
                requests.get(url + "/join", timeout=1)
                break
            except requests.RequestException:
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.1)

        # The instance folder is the working directory's, never the package's.
        assert (room / "instance" / "facilitator.db").is_file()
        assert not (package / "instance").exists()

        gm = requests.Session()
        login = gm.get(url + "/console/login", timeout=10)
        assert "Consola del docente" in login.text          # the catalogs are installed
        answer = gm.post(url + "/console/login", data={"secret": PASSWORD},
                         allow_redirects=False, timeout=10)
        assert answer.status_code == 302, answer.text[:300]
        games = gm.get(url + "/console", timeout=10)
        assert games.status_code == 200
        banks = gm.get(url + "/console/banks/", timeout=10)
        assert "Filosofía (muestra)" in banks.text                # the sample bank was loaded
        created = gm.post(url + "/console/games", json={"name": "Paquete", "settings": SETTINGS},
                          timeout=10).json()
        assert created["ok"], created
        game_id = created["game_id"]
        console = gm.get(f"{url}/console/{game_id}", timeout=10)
        assert console.status_code == 200

        codes = gm.get(f"{url}/api/games/{game_id}/codes", timeout=10).json()
        tablet = requests.Session()
        joined = tablet.get(f"{url}/j/{codes['teams'][0]['code']}", allow_redirects=False,
                            timeout=10)
        assert joined.status_code == 302 and "team_token" in tablet.cookies
        team = tablet.get(url + "/team", allow_redirects=False, timeout=10)
        assert team.status_code == 200

        assets = {a for page in (games, banks, console, team) for a in assets_of(page.text)}
        assert "/vendor/socket.io.min.js" in assets
        assets.add("/vendor/lit-html.js")        # imported by the pages' modules, not named in HTML
        assert any(a.endswith(".css") for a in assets), assets
        for asset in sorted(assets):
            answer = gm.get(url + asset, timeout=10)
            assert answer.status_code == 200 and answer.content, asset

        for address in ("/reglas", "/rules"):
            rulebook = requests.get(url + address, timeout=10)
            if rulebook.status_code != 404:         # the rule book may not be written yet
                assert rulebook.status_code == 200 and "<h1" in rulebook.text, address
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait(10)


def test_the_package_describes_every_game():
    """pyproject.toml and the package's docstring name the three games, not one."""
    import tomllib
    import facilitator
    from facilitator.games import kind, names
    with open(Path(__file__).resolve().parents[1] / "pyproject.toml", "rb") as f:
        description = tomllib.load(f)["project"]["description"]
    for text in (description, facilitator.__doc__):
        for name in ("partida", "colmena", "Hive"):
            assert name in text, (name, text)
    assert {kind(n).name for n in names()} >= {"partida", "colmena", "hive"}
