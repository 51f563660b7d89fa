"""One house for every game (issue 35): the rules live in the games, nowhere else.

The live layer, the store, the web layer, the templates and the browser code hold no
rule id of any game (a rule there would be a rule outside its game); the live layer, the
store, the CLI and the services import no game's package, only the games' registry and
protocol, and the CLI and the services name no game; and every change to a library's
private behaviour is in facilitator/patches.py.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "facilitator"
#: A rule id of any game: R-U2 (la partida), C-P5 (la colmena), H-M1.5 (Hive).
RULE_ID = re.compile(r"\b[RCH]-[A-Z][0-9]+(?:\.[0-9]+)?\b")
LAYERS = [PACKAGE / "live", PACKAGE / "store", PACKAGE / "web", ROOT / "static" / "js",
          ROOT / "templates"]
#: Of the games, what the live layer and the store may import.
GAMES_API = {"facilitator.games", "facilitator.games.protocol"}


def files(folder: Path, suffixes=(".py", ".js", ".html")):
    return sorted(p for p in folder.rglob("*") if p.suffix in suffixes and p.is_file())


def test_no_rule_id_of_any_game_outside_the_games():
    found = [f"{path.relative_to(ROOT)}:{n}: {match}"
             for folder in LAYERS for path in files(folder)
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
             for match in RULE_ID.findall(line)]
    assert found == [], found


def imported(path: Path):
    package = "facilitator." + ".".join(path.relative_to(PACKAGE).parent.parts)
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                name = f"{base}.{node.module}" if node.module else base
            else:
                name = node.module or ""
            yield node.lineno, name
            if name == "facilitator.games":
                for alias in node.names:
                    yield node.lineno, f"{name}.{alias.name}"


def test_the_live_layer_and_the_store_know_the_games_only_through_the_registry():
    offenders = []
    for folder in (PACKAGE / "live", PACKAGE / "store"):
        for path in files(folder, (".py",)):
            for line, name in imported(path):
                if name.startswith("facilitator.games") and name not in GAMES_API \
                        and not _api_name(name):
                    offenders.append(f"{path.relative_to(ROOT)}:{line} imports {name}")
    assert offenders == [], offenders


def test_the_cli_and_the_services_name_no_game():
    """The console command and the services ask the registry and the protocol: no game's
    package imported, no game named as the default one (issue 46, the first of its
    places)."""
    import facilitator.games as games
    paths = [PACKAGE / "cli.py", *files(PACKAGE / "services", (".py",))]
    offenders = [f"{path.relative_to(ROOT)}:{line} imports {name}"
                 for path in paths for line, name in imported(path)
                 if name.startswith("facilitator.games") and name not in GAMES_API
                 and not _api_name(name)]
    named = re.compile(r"""["'](%s)["']""" % "|".join(games.MODULES))
    offenders += [f"{path.relative_to(ROOT)}:{n} names {match}"
                  for path in paths
                  for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
                  for match in named.findall(line)]
    assert offenders == [], offenders


def _api_name(name: str) -> bool:
    """``from facilitator.games import Refusal`` names something of the registry's."""
    import facilitator.games as games
    last = name.rsplit(".", 1)[-1]
    return name.rsplit(".", 1)[0] == "facilitator.games" and last in games.__all__


def test_private_attributes_of_socketio_and_engineio_are_replaced_only_in_patches():
    patched = re.compile(r"\b(server|eio|manager|pubsub_manager)\.(_[a-z]\w*)\s*=(?!=)")
    offenders = [f"{path.relative_to(ROOT)}:{n}"
                 for path in files(PACKAGE, (".py",)) if path.name != "patches.py"
                 for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
                 if patched.search(line)]
    assert offenders == [], offenders


def test_the_shared_browser_modules_know_no_game():
    """Issue 36: the connection, words, DOM, timer and widgets every screen composes name no
    game; a game's screens live in static/js/games/<kind>/ (the partida's pages, older than
    that folder, in static/js/)."""
    from facilitator.games import names
    game_name = re.compile(r"\b(" + "|".join(map(re.escape, names())) + r")\b", re.IGNORECASE)
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
             for path in files(ROOT / "static" / "js" / "lib", (".js",))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
             if game_name.search(line)]
    assert found == [], found


#: The modules above games/ that still import la partida's package (issue 46, item 1:
#: its question bank's model and its results live in it). The list only shrinks: a
#: module that stops importing it is taken off, and no other module may start.
STILL_IMPORT_PARTIDA = {
    "facilitator/web/banks.py", "facilitator/web/results.py",
    "facilitator/web/api.py", "facilitator/web/api_v1.py", "facilitator/classes/roster.py",
    "facilitator/results/exports.py", "facilitator/results/__init__.py",
    "facilitator/questions/report.py", "facilitator/questions/__init__.py",
    "facilitator/questions/csv_bank.py", "facilitator/questions/moodle_rules.py",
    "facilitator/questions/summary.py",
}


def test_no_module_above_the_games_starts_importing_a_game():
    """Every module outside games/ (web, classes, results, questions, live, store, the
    CLI, the services) imports a game's own package only if it is on the shrinking list
    above; the list names no module that no longer does."""
    import facilitator.games as games
    packages = tuple(games.MODULES.values())
    importing = set()
    for path in files(PACKAGE, (".py",)):
        relative = str(path.relative_to(ROOT))
        if relative.startswith("facilitator/games/"):
            continue
        if any(name.startswith(packages) for _line, name in imported(path)):
            importing.add(relative)
    assert importing - STILL_IMPORT_PARTIDA == set(), "a module started importing a game"
    assert STILL_IMPORT_PARTIDA - importing == set(), "take these off the list: they no longer do"
