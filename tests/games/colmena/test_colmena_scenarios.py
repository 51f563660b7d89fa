"""Worked scenarios of la colmena (tests/scenarios/colmena) and the rule ids they cite.

Each scenario is a ``colmena/1`` record worked by hand from docs/colmena.md,
with what its replay must give: the summary's total, tier and (part of) its
breakdown, or the refusal ``{"error", "action"}``; ``values`` checks a few
fields of the views at the end (before the refused action, for a refusal).
The scenarios are replayed in this process (the summary is what ``facilitator
replay`` prints); two of them also go through the command itself (C-R4).
Together with the unit tests they cite every rule id of docs/colmena.md.
"""
from __future__ import annotations

import json
import pathlib
import re
import subprocess
import sys

import pytest

from facilitator.games import kind_of_record
from facilitator.games.colmena import KIND
from facilitator.games.protocol import Refusal, Role

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[2]
SCENARIOS = ROOT / "tests" / "scenarios" / "colmena"
RULE_BOOK = ROOT / "docs" / "colmena.md"
RULE_ID = re.compile(r"\bC-[A-Z][0-9]+\b")
ANCHOR = re.compile(r'<a id="(C-[A-Z][0-9]+)"></a>')
KEYS = {"comment", "rules", "total", "tier", "breakdown", "error", "action", "values"}

NAMES = sorted(p.name[:-len(".record.json")] for p in SCENARIOS.glob("*.record.json"))


def rule_ids() -> set[str]:
    """Every rule id of the rule book (its anchors)."""
    return set(ANCHOR.findall(RULE_BOOK.read_text(encoding="utf-8")))


def load(name: str) -> tuple[dict, dict]:
    record = json.loads((SCENARIOS / f"{name}.record.json").read_text(encoding="utf-8"))
    expected = json.loads((SCENARIOS / f"{name}.expected.json").read_text(encoding="utf-8"))
    return record, expected


def value_at(data, path: str):
    for part in path.split("."):
        data = data[int(part)] if isinstance(data, list) else data[part]
    return data


def test_the_rule_book_has_every_section_of_ids():
    ids = rule_ids()
    assert len(ids) == 69
    for group, last in {"C": 5, "D": 3, "S": 6, "T": 5, "P": 8, "H": 3, "E": 3, "X": 5,
                        "O": 3, "V": 3, "R": 4, "Z": 9, "A": 9, "Q": 3}.items():
        assert {f"C-{group}{n}" for n in range(1, last + 1)} <= ids, group


def test_scenarios_are_complete_and_well_formed():
    assert len(NAMES) >= 30
    expecteds = {p.name[:-len(".expected.json")] for p in SCENARIOS.glob("*.expected.json")}
    assert expecteds == set(NAMES), "every NAME.record.json needs its NAME.expected.json"
    known = rule_ids() | {"format"}
    for name in NAMES:
        record, expected = load(name)
        assert set(expected) <= KEYS, f"{name}: unknown keys {set(expected) - KEYS}"
        assert isinstance(expected.get("comment"), str) and expected["comment"].strip(), name
        assert expected["rules"] and set(expected["rules"]) <= known, name
        if "error" in expected:
            assert "action" in expected and expected["error"] in expected["rules"], name
            assert not {"total", "tier", "breakdown"} & set(expected), name
        else:
            assert {"total", "tier", "breakdown"} <= set(expected), name
        assert record.get("format") == "colmena/1" or expected.get("error") == "format", name


def test_scenarios_and_tests_cite_every_rule():
    cited = set()
    for name in NAMES:
        cited.update(load(name)[1]["rules"])
    for path in HERE.glob("test_*.py"):
        cited.update(RULE_ID.findall(path.read_text(encoding="utf-8")))
    missing = sorted(rule_ids() - cited, key=lambda r: (r[2], int(r[3:])))
    assert not missing, f"no scenario or test cites {', '.join(missing)}"


def replayed_before(record: dict, expected: dict):
    """The table the value checks look at: all of it, or up to the refused action."""
    if "error" in expected:
        record = {**record, "actions": record["actions"][:expected["action"]]}
    return KIND.replay(record)


@pytest.mark.parametrize("name", NAMES)
def test_scenario_replays_to_its_expected_result(name):
    record, expected = load(name)
    if "error" in expected:
        with pytest.raises(Refusal) as caught:
            KIND.replay(record)
        got = caught.value.to_dict()
        assert (got["error"], got["action"]) == (expected["error"], expected["action"]), got
        assert got["message"]
    else:
        summary = KIND.replay(record).summary()
        assert (summary["total"], summary["tier"]) == (expected["total"], expected["tier"])
        for key, want in expected["breakdown"].items():
            assert summary["breakdown"][key] == want, f"{name}: breakdown {key}"
        assert summary["message"]["es-ES"] and summary["message"]["en"]
    if "values" in expected:
        match = replayed_before(record, expected)
        for audience, values in expected["values"].items():
            role = {"public": Role.watcher(), "gm": Role.gm()}.get(audience) \
                or Role.of_seat(int(audience.split("_")[1]))
            view = json.loads(json.dumps(match.view(role), ensure_ascii=False))
            for path, want in values.items():
                assert value_at(view, path) == want, f"{name}: {audience} {path}"


@pytest.mark.parametrize("name", NAMES)
def test_scenario_record_rewrites_to_itself(name):
    """C-R1: the record a replayed table writes replays to the same table."""
    record, expected = load(name)
    if "error" in expected and expected["action"] is None:
        return
    match = replayed_before(record, expected)
    again = KIND.replay(match.record())
    assert again.state.to_dict() == match.state.to_dict()
    assert again.record() == match.record()


def run_replay(path: pathlib.Path):
    proc = subprocess.run([sys.executable, "-m", "facilitator.cli", "replay", str(path)],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    return proc.returncode, json.loads(proc.stdout)


def test_facilitator_replay_prints_the_breakdown_and_the_tier():
    """C-R4: ``facilitator replay`` on a colmena/1 record prints the summary."""
    code, got = run_replay(SCENARIOS / "c01-three-turns-then-the-bell.record.json")
    assert code == 0, got
    assert got["game"] == "colmena" and got["total"] == -6 and got["tier"] == "do_better"
    assert got["breakdown"]["completed"] == [{"card": "T11", "at": [0, 0], "teams": 3,
                                              "points": 3}]
    assert got["message"]["es-ES"].startswith("¡Podéis hacerlo mejor!")
    assert got["message"]["es"].startswith("¡Pueden hacerlo mejor!")
    assert got["message"]["en"].startswith("You can do better!")


def test_facilitator_replay_prints_a_refusal_and_exits_1():
    """C-R4, C-Z1: a refused record prints {error, action, message} and exits 1."""
    code, got = run_replay(SCENARIOS / "p05-faculty-between-two-tasks.record.json")
    assert code == 1
    assert got["error"] == "C-P5" and got["action"] == 4 and "FAC11" in got["message"]


def test_the_registry_finds_colmena_records():
    record, _ = load("c01-three-turns-then-the-bell")
    assert kind_of_record(record) is KIND
    assert KIND.name == "colmena" and KIND.record_format == "colmena/1"
