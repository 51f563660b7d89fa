"""What a bank offers a game: questions per author and type, and the gaps."""
from __future__ import annotations

from collections import Counter

from .model import QUESTION_TYPES, Question

from facilitator.i18n.collation import name_key

from .messages import DEFAULT_LANGUAGE, message


def author_type_table(questions: list[Question], lang: str = DEFAULT_LANGUAGE) -> list[str]:
    """Lines of a text table: one row per author, one column per question type."""
    counts = Counter((q.author, q.type) for q in questions)
    authors = sorted({q.author for q in questions}, key=lambda name: name_key(name, lang))
    header = [message(lang, "summary.author"), *QUESTION_TYPES, "total"]
    rows = [[author, *(str(counts[author, kind]) for kind in QUESTION_TYPES),
             str(sum(counts[author, kind] for kind in QUESTION_TYPES))] for author in authors]
    rows.append(["total", *(str(sum(counts[a, kind] for a in authors)) for kind in QUESTION_TYPES),
                 str(len(questions))])
    widths = [max(len(row[n]) for row in [header, *rows]) for n in range(len(header))]
    return ["  ".join(cell.ljust(widths[0]) if n == 0 else cell.rjust(widths[n])
                      for n, cell in enumerate(row)).rstrip()
            for row in [header, *rows]]


def coverage_gaps(questions: list[Question], lang: str = DEFAULT_LANGUAGE) -> list[str]:
    """Author and type choices with no question: a game would refuse them (the rule is
    not named in the message: the console shows rule ids as a tooltip)."""
    have = {(q.author, q.type) for q in questions}
    authors = sorted({q.author for q in questions}, key=lambda name: name_key(name, lang))
    gaps = []
    for author in authors:
        missing = [kind for kind in QUESTION_TYPES if (author, kind) not in have]
        if missing:
            gaps.append(message(lang, "summary.gap", author=author,
                                types=message(lang, "summary.or").join(missing)))
    return gaps
