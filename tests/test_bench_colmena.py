"""``bench/fanout.py --scenario colmena`` runs (issue 37, item 6): a short run of the hall
of la colmena, three tables of four, against the floor, so the scenario does not rot. It
checks what the run counts, not the figures (they depend on the machine)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_the_colmena_scenario_plays_a_hall_and_loses_nothing():
    run = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "fanout.py"), "--scenario", "colmena",
         "--games", "3", "--duration", "4", "--db", "sqlite"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    result = json.loads(run.stdout.strip().splitlines()[-1])
    # Three tables: four phones and a tablet each, and the hall's two screens.
    assert result["clients"] == 3 * 5 + 2
    assert result["actions"] > 0 and result["refused"] == 0
    assert result["lost"] == 0 and result["floor_lost"] == 0
    assert result["samples"] == result["actions"]
    # Each action reached its table's own screens and the hall's, in both phases.
    for side in ("", "floor_"):
        assert result[f"{side}hall_p50_ms"] is not None
        # The fan-out ends with the last screen: a table's own ones come no later.
        assert result[f"{side}table_fanout_p50_ms"] <= result[f"{side}p50_ms"]
    assert set(result["state_bytes"]) == {"team", "table", "hall_gm", "hall_watcher"}
    assert set(result["targets"]) == {"p50<=1.25x_floor", "p99<=1.25x_floor", "lost==0"}
