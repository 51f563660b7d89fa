"""The browser modules that compute (static/js/lib: words, the connection's resends, the
timer) tested where they live, by Node's own test runner: ``node --test tests/js/``.

Without Node.js the test skips and says why; under CI (``CI=true``) it fails.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_browser_modules_pass_their_node_tests():
    node = shutil.which("node")
    if node is None:
        message = "Node.js is not installed: the browser modules' unit tests need `node --test`"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests" / "js").glob("*.test.mjs"))
    assert len(files) >= 3, files
    done = subprocess.run([node, "--test", *files], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "# fail 0" in done.stdout, done.stdout[-4000:]
