"""The layers stay apart: the rules engine and the bank formats import no web or database
library, and the formats import nothing of the store, the web or the live game (the store
uses the formats, never the other way round: no import circle)."""
import ast
import pathlib

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / "facilitator"
GAMES = PACKAGE / "games"
ENGINE = GAMES / "partida"
QUESTIONS = PACKAGE / "questions"
FORBIDDEN = {"flask", "flask_socketio", "socketio", "engineio", "sqlalchemy", "gevent",
             "eventlet", "redis", "psycopg", "psycopg2", "alembic"}
#: Parts of the facilitator the bank formats may not import.
ABOVE_THE_FORMATS = {"facilitator.store", "facilitator.web", "facilitator.live",
                     "facilitator.extensions", "facilitator.questions_cli"}


def imports(folder: pathlib.Path):
    """Every module imported by the files of ``folder``: (file, line, absolute name)."""
    for path in sorted(folder.rglob("*.py")):
        package = "facilitator." + ".".join(path.relative_to(PACKAGE).parent.parts)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    yield path.name, node.lineno, alias.name
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                    yield path.name, node.lineno, f"{base}.{node.module}" if node.module else base
                elif node.module:
                    yield path.name, node.lineno, node.module


def test_engine_imports_no_web_or_database_library():
    offenders = [f"{file}:{line} imports {name}" for file, line, name in imports(ENGINE)
                 if name.split(".")[0] in FORBIDDEN]
    assert not offenders, offenders
    assert len(list(ENGINE.glob("*.py"))) >= 8


def test_every_game_imports_no_web_or_database_library_and_nothing_above_it():
    """Each game under facilitator/games/ is pure: no web or database library, and nothing
    of the store, the web or the live layer (they use the games, never the reverse)."""
    offenders = [f"{file}:{line} imports {name}" for file, line, name in imports(GAMES)
                 if name.split(".")[0] in FORBIDDEN
                 or any(name == above or name.startswith(above + ".")
                        for above in ABOVE_THE_FORMATS)]
    assert not offenders, offenders
    assert (GAMES / "protocol.py").exists()


def test_bank_formats_import_no_database_and_nothing_above_them():
    offenders = [f"{file}:{line} imports {name}" for file, line, name in imports(QUESTIONS)
                 if name.split(".")[0] in FORBIDDEN
                 or any(name == above or name.startswith(above + ".")
                        for above in ABOVE_THE_FORMATS)]
    assert not offenders, offenders
