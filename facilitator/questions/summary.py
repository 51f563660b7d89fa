"""What a bank offers a game: questions per author and type, and the gaps."""
from __future__ import annotations

from collections import Counter

from facilitator.engine.questions import QUESTION_TYPES, Question


def author_type_table(questions: list[Question]) -> list[str]:
    """Lines of a text table: one row per author, one column per question type."""
    counts = Counter((q.author, q.type) for q in questions)
    authors = sorted({q.author for q in questions}, key=lambda name: (name.casefold(), name))
    header = ["author", *QUESTION_TYPES, "total"]
    rows = [[author, *(str(counts[author, kind]) for kind in QUESTION_TYPES),
             str(sum(counts[author, kind] for kind in QUESTION_TYPES))] for author in authors]
    rows.append(["total", *(str(sum(counts[a, kind] for a in authors)) for kind in QUESTION_TYPES),
                 str(len(questions))])
    widths = [max(len(row[n]) for row in [header, *rows]) for n in range(len(header))]
    return ["  ".join(cell.ljust(widths[0]) if n == 0 else cell.rjust(widths[n])
                      for n, cell in enumerate(row)).rstrip()
            for row in [header, *rows]]


def coverage_gaps(questions: list[Question]) -> list[str]:
    """Author and type choices with no question: a game would refuse them (R-Q2)."""
    have = {(q.author, q.type) for q in questions}
    authors = sorted({q.author for q in questions}, key=lambda name: (name.casefold(), name))
    gaps = []
    for author in authors:
        missing = [kind for kind in QUESTION_TYPES if (author, kind) not in have]
        if missing:
            gaps.append(f"{author} has no {' or '.join(missing)} question: choosing it "
                        "in a game will be refused (R-Q2)")
    return gaps
