"""docs/hive.md, the project's Hive rule book: it restates every rule of HIVE.md with its id,
each id is cited by a test here, and every id the engine raises has an entry."""
from __future__ import annotations

import re
from pathlib import Path

from hive_cases import ROOT

BOOK = ROOT / "docs" / "hive.md"
SPEC = Path("/work/shared/HIVE.md")
RULE_ID = re.compile(r"\bH-[A-Z]\d+(?:\.\d+)?\b")
ENTRY = re.compile(r'<a id="(H-[A-Z]\d+(?:\.\d+)?)"></a>\*\*(H-[A-Z]\d+(?:\.\d+)?)\*\*')
TESTS = Path(__file__).resolve().parent
PACKAGE = ROOT / "facilitator" / "games" / "hive"


def book_ids() -> list[str]:
    """The rule ids that have an entry in docs/hive.md, in order."""
    entries = ENTRY.findall(BOOK.read_text(encoding="utf-8"))
    assert all(anchor == bold for anchor, bold in entries)
    return [anchor for anchor, _bold in entries]


def cited(folder: Path, skip: Path | None = None) -> set[str]:
    found = set()
    for path in folder.rglob("*.py"):
        if path != skip:
            found |= set(RULE_ID.findall(path.read_text(encoding="utf-8")))
    return found


def test_every_rule_has_one_entry():
    ids = book_ids()
    assert len(ids) == len(set(ids)) and len(ids) >= 40
    assert {"H-G1", "H-G2", "H-G3", "H-G4", "H-G5", "H-G6"} <= set(ids)


def test_the_book_restates_every_rule_of_hive_md():
    if SPEC.exists():   # the shared reference, beside the repository
        spec = {i for i in RULE_ID.findall(SPEC.read_text(encoding="utf-8"))
                if i.count(".") == 1}
        assert spec <= set(book_ids()), sorted(spec - set(book_ids()))


def test_every_rule_is_cited_by_a_test():
    missing = [i for i in book_ids() if i not in cited(TESTS, skip=Path(__file__).resolve())]
    assert not missing, missing


def sections() -> set[str]:
    """The ids of the book's sections (``## 3. Moving a piece (H-M1)``)."""
    return set(re.findall(r"^## .*\((H-[A-Z]\d+)", BOOK.read_text(encoding="utf-8"), re.M))


def test_every_rule_the_engine_names_has_an_entry():
    used = cited(PACKAGE)
    known = set(book_ids()) | sections()
    assert used and used <= known, sorted(used - known)
    assert {"H-S1", "H-P1", "H-M1", "H-O1", "H-F1", "H-E1", "H-N1", "H-V1", "H-R1"} <= sections()


def test_the_decisions_are_marked():
    text = BOOK.read_text(encoding="utf-8")
    for rule in ("H-G1", "H-G2", "H-G3", "H-G4", "H-G5", "H-G6", "H-P1.5", "H-E1.4"):
        assert re.search(rf"\*\*{re.escape(rule)}\*\* \[D\]", text), rule
