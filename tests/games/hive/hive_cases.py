"""Mzinga's test data (tests/data/mzinga/, see its README) read into test cases."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2] / "data" / "mzinga"
ROOT = Path(__file__).resolve().parents[3]


def rows(name: str):
    """(line number, the comment heading above it, tab-separated fields) for each row."""
    heading = None
    text = (DATA / name).read_text(encoding="utf-8-sig")
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line:
            continue
        if line.startswith("#"):
            heading = line[1:].strip()
            continue
        yield number, heading, line.split("\t")


def params(name: str, keep=lambda fields: True):
    """pytest params of a data file, each with an id naming the file and the line."""
    short = name.removeprefix("Board_").removesuffix("Test.csv")
    return [pytest.param(heading, *fields, id=f"{short}:L{number}")
            for number, heading, fields in rows(name) if keep(fields)]


def recordings(game_type: str | None = None) -> list[Path]:
    """Mzinga's recordings (PGN): base-game, Base+P and Base+MLP games; only those of
    ``game_type`` when it is given."""
    paths = sorted((DATA / "GameRecordings").glob("*.pgn"))
    if game_type is None:
        return paths
    return [p for p in paths if read_pgn(p)[0].get("GameType") == game_type]


def read_pgn(path: Path) -> tuple[dict, list[str]]:
    """A PGN recording's tags and its moves in order."""
    text = path.read_text(encoding="utf-8-sig")
    tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]$', text, re.M))
    moves = [m.strip() for m in re.findall(r"^\d+\. (.+)$", text, re.M)]
    return tags, moves
