"""Worked scenarios replayed through ``facilitator replay`` (RULES.md section 11, issue 11).

The project's own scenarios live in tests/scenarios (see its README.md for the
format); together they cite every rule id. The shared scenarios beside the
repository (../shared/scenarios) are checked too when that folder exists; in CI
(CI=true) its absence is a failure, elsewhere a skip.
"""
from __future__ import annotations

import json
import os
import pathlib
import re
import subprocess
import sys

import pytest

from facilitator.games.partida import Refusal, load_record, propose_team_sizes, replay
from facilitator.games.partida.views import gm_view, public_view, team_view

HERE = pathlib.Path(__file__).resolve().parent
OWN = HERE / "scenarios"
SHARED = HERE.parents[1] / "shared" / "scenarios"      # <repository>/../shared/scenarios
RULES_DOC = HERE.parent / "docs" / "rules.md"

#: Every rule id of RULES.md; docs/rules.md's anchors are added when that file exists.
MINIMUM_RULE_IDS = frozenset(
    [f"R-T{i}" for i in range(1, 6)] + [f"R-O{i}" for i in range(1, 6)]
    + [f"R-U{i}" for i in range(1, 11)] + ["R-Q1", "R-Q2"]
    + [f"R-R{i}" for i in range(1, 9)] + ["R-C1", "R-C2"]
    + [f"R-K{i}" for i in range(1, 8)] + [f"R-P{i}" for i in range(1, 5)]
    + [f"R-G{i}" for i in range(1, 5)] + [f"R-V{i}" for i in range(1, 5)])
#: What ``"rules"`` may cite besides rule ids: the form check of section 11.
NOT_A_RULE = frozenset({"format"})

OUTCOME_KEYS = {"standings", "error", "action"}
CHECK_KEYS = {"views", "public_values", "legal", "proposed_sizes"}
KNOWN_KEYS = OUTCOME_KEYS | CHECK_KEYS | {"rules", "worked"}
VIEW_KEY = re.compile(r"^(public|gm|team_(\d+))_(has|lacks)$")


def names_in(folder: pathlib.Path) -> list[str]:
    return sorted(p.name[:-len(".record.json")] for p in folder.glob("*.record.json"))


OWN_NAMES = names_in(OWN)
SHARED_NAMES = names_in(SHARED) if SHARED.is_dir() else []


def expected_of(folder: pathlib.Path, name: str) -> dict:
    return json.loads((folder / f"{name}.expected.json").read_text(encoding="utf-8"))


def run_replay(path: pathlib.Path):
    proc = subprocess.run([sys.executable, "-m", "facilitator.cli", "replay", str(path)],
                          capture_output=True, text=True, timeout=60)
    return proc.returncode, json.loads(proc.stdout)


def rule_ids() -> frozenset[str]:
    """The ids every scenario set must cover: the minimum plus docs/rules.md's anchors."""
    if not RULES_DOC.is_file():
        return MINIMUM_RULE_IDS
    text = RULES_DOC.read_text(encoding="utf-8")
    anchors = re.findall(r"""<a\s+id\s*=\s*["'](R-[A-Z]+\d+)["']""", text)
    return MINIMUM_RULE_IDS | frozenset(anchors)


def check_outcome(folder: pathlib.Path, name: str) -> None:
    """Replay ``name`` through the command and compare with its expected file."""
    expected = expected_of(folder, name)
    code, got = run_replay(folder / f"{name}.record.json")
    if "standings" in expected:
        assert code == 0, got
        assert [(r["team"], r["rank"], r["score"]) for r in got["standings"]] == [
            (r["team"], r["rank"], r["score"]) for r in expected["standings"]]
    else:
        wanted = expected["error"] if isinstance(expected["error"], list) else [expected["error"]]
        assert code != 0, got
        assert (got["error"], got["action"]) in [(w, expected["action"]) for w in wanted], got
        assert got["message"]


# ---------------------------------------------------------------- the project's own scenarios

def test_own_scenarios_are_complete_and_well_formed():
    assert len(OWN_NAMES) >= 25, f"too few scenarios in {OWN}"
    records = {p.name[:-len(".record.json")] for p in OWN.glob("*.record.json")}
    expecteds = {p.name[:-len(".expected.json")] for p in OWN.glob("*.expected.json")}
    assert records == expecteds, "every NAME.record.json needs its NAME.expected.json"
    known = rule_ids() | NOT_A_RULE
    for name in OWN_NAMES:
        expected = expected_of(OWN, name)
        assert set(expected) <= KNOWN_KEYS, f"{name}: unknown keys {set(expected) - KNOWN_KEYS}"
        assert ("standings" in expected) != ("error" in expected), name
        if "error" in expected:
            assert "action" in expected, f"{name}: an error names its action (or null)"
            assert expected["error"] in expected["rules"], f"{name}: cite the refusing rule"
            if expected["action"] is None:
                assert not set(expected) & CHECK_KEYS, f"{name}: no game to check"
        rules = expected.get("rules")
        assert isinstance(rules, list) and rules, f"{name}: \"rules\" lists the rule ids"
        assert set(rules) <= known, f"{name}: unknown rule ids {set(rules) - known}"
        assert isinstance(expected.get("worked"), str) and expected["worked"].strip(), name
        record = json.loads((OWN / f"{name}.record.json").read_text(encoding="utf-8"))
        assert record.get("format") == "partida/1" and "questions" in record, name


def test_own_scenarios_cover_every_rule():
    cited = set()
    for name in OWN_NAMES:
        cited.update(expected_of(OWN, name)["rules"])
    missing = sorted(rule_ids() - cited)
    assert not missing, f"no scenario in {OWN} cites {', '.join(missing)}"


@pytest.mark.parametrize("name", OWN_NAMES)
def test_own_scenario_replays_to_its_expected_output(name):
    check_outcome(OWN, name)


CHECKED = [n for n in OWN_NAMES if set(expected_of(OWN, n)) & CHECK_KEYS]


def replayed(name: str, expected: dict):
    """The game the checks look at: the whole record, or the actions before the refused one."""
    record = load_record((OWN / f"{name}.record.json").read_text(encoding="utf-8"))
    if "error" in expected:
        record = {**record, "actions": record["actions"][:expected["action"]]}
    return replay(record)


def value_at(data, path: str):
    for part in path.split("."):
        data = data[int(part)] if isinstance(data, list) else data[part]
    return data


@pytest.mark.parametrize("name", CHECKED)
def test_own_scenario_extra_checks(name):
    expected = expected_of(OWN, name)
    game = replayed(name, expected)
    state = game.state
    for key, texts in expected.get("views", {}).items():
        match = VIEW_KEY.match(key)
        assert match, f"{name}: unknown view check {key!r}"
        who, team, how = match.groups()
        view = (public_view(state) if who == "public" else gm_view(state) if who == "gm"
                else team_view(state, int(team)))
        seen = json.dumps(view, ensure_ascii=False)
        for text in texts:
            assert (text in seen) == (how == "has"), f"{name}: {key}: {text!r}"
    public = json.loads(json.dumps(public_view(state), ensure_ascii=False))
    for path, want in expected.get("public_values", {}).items():
        assert value_at(public, path) == want, f"{name}: public view {path}"
    legal = {entry.do: sorted(entry.teams) for entry in game.legal_actions()}
    for do, teams in expected.get("legal", {}).items():
        if teams is None:
            assert do not in legal, f"{name}: {do} should not be legal now"
        else:
            assert legal.get(do) == sorted(teams), f"{name}: who may send {do}: {legal.get(do)}"
    proposals = expected.get("proposed_sizes", [])
    for case in [proposals] if isinstance(proposals, dict) else proposals:
        args = (case["students"], case["max_members"]) if "max_members" in case \
            else (case["students"],)
        if "error" in case:
            with pytest.raises(Refusal) as caught:
                propose_team_sizes(*args)
            assert caught.value.rule == case["error"], case
        else:
            assert propose_team_sizes(*args) == case["sizes"], case


# ---------------------------------------------------------------- the shared scenarios

def shared_folder_or_skip() -> None:
    """Skip (or, in CI, fail) when the shared scenarios are not beside the repository."""
    if SHARED.is_dir():
        return
    why = f"the shared folder is absent: no {SHARED}"
    if os.environ.get("CI") == "true":
        pytest.fail(f"{why}; CI=true needs the shared scenarios checked out beside the "
                    "repository (../shared/scenarios)")
    pytest.skip(why)


def test_the_shared_scenarios_are_there():
    shared_folder_or_skip()
    assert len(SHARED_NAMES) >= 3, f"fewer than 3 scenarios in {SHARED}"


@pytest.mark.parametrize("name", SHARED_NAMES or [None])
def test_every_shared_scenario_replays_to_its_expected_output(name):
    if name is None:
        pytest.skip(f"the shared folder is absent: no {SHARED}")
    check_outcome(SHARED, name)
