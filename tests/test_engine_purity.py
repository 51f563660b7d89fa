"""The rules engine is pure: it imports nothing from the web or the database."""
import ast
import pathlib

ENGINE = pathlib.Path(__file__).resolve().parents[1] / "facilitator" / "engine"
FORBIDDEN = {"flask", "flask_socketio", "socketio", "engineio", "sqlalchemy", "gevent",
             "eventlet", "redis", "psycopg", "psycopg2"}


def test_engine_imports_no_web_or_database_library():
    offenders = []
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                if name.split(".")[0] in FORBIDDEN:
                    offenders.append(f"{path.name}:{node.lineno} imports {name}")
    assert not offenders, offenders
    assert len(list(ENGINE.glob("*.py"))) >= 8
