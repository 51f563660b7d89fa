"""The sample philosophy bank shipped in ``questions/`` is ready for a game."""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from facilitator.questions import QUESTION_TYPES, load_bank

SAMPLE = Path(__file__).resolve().parents[2] / "questions" / "filosofia.csv"


def test_sample_bank_loads_with_every_type_for_every_author():
    assert SAMPLE.exists(), f"the sample bank {SAMPLE} is missing"
    report = load_bank(SAMPLE)
    assert report.errors == [], "\n".join(map(str, report.errors))
    assert len(report.questions) >= 96
    types = defaultdict(set)
    for question in report.questions:
        types[question.author].add(question.type)
    assert len(types) >= 8, sorted(types)
    # R-Q2: any author-and-type choice must find a question.
    assert {author: sorted(kinds) for author, kinds in types.items()
            if kinds != set(QUESTION_TYPES)} == {}
