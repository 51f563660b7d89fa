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
#: Every layer above the games: the whole package but games/, the templates, the browser
#: code (its games' own screens included: they word a refusal as the server sent it).
LAYERS = [*(p for p in sorted(PACKAGE.iterdir()) if p.is_dir() and p.name != "games"),
          *sorted(PACKAGE.glob("*.py")), ROOT / "static" / "js", ROOT / "templates"]
#: Of the games, what the live layer and the store may import.
GAMES_API = {"facilitator.games", "facilitator.games.protocol"}


def files(folder: Path, suffixes=(".py", ".js", ".html")):
    if folder.is_file():
        return [folder] if folder.suffix in suffixes else []
    return sorted(p for p in folder.rglob("*") if p.suffix in suffixes and p.is_file())


def test_no_rule_id_of_any_game_outside_the_games():
    found = [f"{path.relative_to(ROOT)}:{n}: {match}"
             for folder in LAYERS for path in files(folder)
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
             for match in RULE_ID.findall(line)]
    assert found == [], found


def imported(path: Path):
    # The package a relative import starts from (``facilitator`` itself for its __init__).
    package = ".".join(("facilitator", *path.relative_to(PACKAGE).parent.parts))
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


def test_no_module_above_the_games_imports_a_game():
    """No module outside games/ (web, classes, results, questions, live, store, the CLI,
    the services) imports a game's own package: they ask the registry and the protocol
    (issue 46, item 1)."""
    import facilitator.games as games
    packages = tuple(games.MODULES.values())
    importing = set()
    for path in files(PACKAGE, (".py",)):
        relative = str(path.relative_to(ROOT))
        if relative.startswith("facilitator/games/"):
            continue
        if any(name.startswith(packages) for _line, name in imported(path)):
            importing.add(relative)
    assert importing == set(), importing


#: The layers that must name no game (issue 46, item 6): the store's column default and
#: migrations keep la partida's name for the games stored before there were others.
NAMING_LAYERS = [PACKAGE / "web", PACKAGE / "classes", PACKAGE / "results",
                 PACKAGE / "services", PACKAGE / "questions", PACKAGE / "live",
                 *sorted(PACKAGE.glob("*.py")), ROOT / "templates", ROOT / "static" / "js"]


def _own_kind(path: Path) -> str | None:
    """The game a file belongs to, when it is one of a game's own (a page its kind's
    ``pages`` names, its set-up form ``new_<kind>.html``, its results page
    ``results/<kind>.html``, its screens under ``static/js/games/<kind>/``)."""
    import facilitator.games as games
    relative = path.relative_to(ROOT).as_posix()
    for name in games.names():
        own = set(games.kind(name).pages.values())
        if (relative.startswith("templates/") and relative[len("templates/"):] in own
                or relative in (f"templates/console/new_{name}.html",
                                f"templates/results/{name}.html")
                or relative.startswith(f"static/js/games/{name}/")):
            return name
    return None


def test_no_layer_names_a_game_as_the_default_one():
    """No module, template or script above the games names a game (``"partida"`` as the
    kind a form, an upload or an export falls back to) but a file of that game's own: the
    registry's ``setup_kind`` names the set-up game."""
    import facilitator.games as games
    named = re.compile(r"""["'](%s)["']""" % "|".join(games.names()))
    offenders = []
    for folder in NAMING_LAYERS:
        for path in files(folder):
            own = _own_kind(path)
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                offenders += [f"{path.relative_to(ROOT)}:{n} names {m}"
                              for m in named.findall(line) if m != own]
    assert offenders == [], offenders


#: What the layers above ask of a game, its live match or its hall rules: each is declared
#: in games/protocol.py, so none is probed for with getattr or hasattr.
def _capabilities() -> set[str]:
    from facilitator.games import protocol
    found = set()
    for declared in (protocol.GameKind, protocol.LiveMatch, protocol.Match,
                     protocol.HallRules, protocol.Teams):
        for klass in declared.__mro__:
            if klass.__module__ == protocol.__name__:
                found |= {n for n in vars(klass) if not n.startswith("_")}
                found |= set(getattr(klass, "__annotations__", {}))
    return found


def test_no_layer_probes_a_game_for_a_capability():
    """Every capability is the protocol's: no ``getattr(kind, "pages", ...)`` or
    ``hasattr(match, "seats")`` above the games (issue 46, item 1)."""
    capabilities = _capabilities()
    probe = re.compile(r"""\b(?:getattr|hasattr)\(([^,()]+(?:\([^()]*\))?[^,()]*),\s*["'](\w+)["']""")
    offenders = [f"{path.relative_to(ROOT)}:{n} probes {name}"
                 for folder in NAMING_LAYERS for path in files(folder, (".py",))
                 for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
                 for what, name in probe.findall(line)
                 # a stored game's row (its seat holders, its screens) is not a game
                 if name in capabilities and what.strip() not in ("row", "game")]
    assert offenders == [], offenders


def _kinds():
    import facilitator.games as games
    import counter_game
    return [*(games.kind(name) for name in games.names()), counter_game.KIND]


def test_every_game_answers_every_capability_of_the_protocol():
    """Every game's kind, live match and hall rules (the toy game's too) has every
    attribute the protocol declares: what it lacks, its defaults answer."""
    from facilitator.games import protocol
    missing = []
    for found in _kinds():
        wanted = {n for n in (*vars(protocol.GameKind), *protocol.GameKind.__annotations__)
                  if not n.startswith("_")}
        missing += [f"{found.name}: kind.{n}" for n in sorted(wanted) if not hasattr(found, n)]
        match = found.new(_new_settings(found.name))
        wanted = {n for klass in (protocol.LiveMatch, protocol.Match)
                  for n in (*vars(klass), *getattr(klass, "__annotations__", {}))
                  if not n.startswith("_")}
        missing += [f"{found.name}: match.{n}" for n in sorted(wanted) if not hasattr(match, n)]
        if found.hall is not None:
            wanted = {n for n in (*vars(protocol.HallRules), *protocol.HallRules.__annotations__)
                      if not n.startswith("_")}
            missing += [f"{found.name}: hall.{n}" for n in sorted(wanted)
                        if not hasattr(found.hall, n)]
        if found.teams is not None:
            wanted = {n for n in (*vars(protocol.Teams), *protocol.Teams.__annotations__)
                      if not n.startswith("_")}
            missing += [f"{found.name}: teams.{n}" for n in sorted(wanted)
                        if not hasattr(found.teams, n)]
    assert missing == [], missing


def _new_settings(name: str) -> dict:
    """Settings that make a game of each kind (la partida's teams; the others' defaults)."""
    if name == "partida":
        return {"teams": [{"name": f"Equipo {n}", "members": 3} for n in range(1, 5)]}
    if name == "colmena":
        return {"players": ["Ana", "Bea"]}
    return {}


def test_no_query_outside_the_store():
    """Issue 46, item 5: the store is the one way into the database: no module outside
    store/ imports SQLAlchemy or the store's tables to query them itself."""
    offenders = [f"{path.relative_to(ROOT)}:{line} imports {name}"
                 for path in files(PACKAGE, (".py",))
                 if not str(path.relative_to(PACKAGE)).startswith("store/")
                 for line, name in imported(path)
                 if name.split(".")[0] == "sqlalchemy" or name == "facilitator.store.models"]
    assert offenders == [], offenders


def test_every_cache_of_the_store_is_a_kept_one_named_in_one_place():
    """facilitator/store/kept.py: each cache named in KEPT is made, as a ``Kept``, in the
    module KEPT says keeps it, and no ``Kept`` is made under a name KEPT does not have."""
    from facilitator.store.kept import KEPT
    package = PACKAGE
    made: dict[str, set[str]] = {}
    for path in package.rglob("*.py"):
        for name in re.findall(r'\bKept\("([^"]+)"', path.read_text(encoding="utf-8")):
            made.setdefault(name, set()).add(path.relative_to(package).as_posix())
    assert set(made) == set(KEPT)
    for name, freshness in KEPT.items():
        assert freshness.where in made[name], (name, made[name])
