"""Small JSON helpers of the set-up form: proposed team sizes, settings checks, dealing
names, and what keeps a lineup of teams from starting a game (all the game's rules)."""
from __future__ import annotations

import random

from flask import Blueprint, jsonify, request

from ..games import Refusal, is_unicode
from ..services.games import setup_teams
from ..classes.roster import roster_names
from .auth import gm_required, read_json

bp = Blueprint("api", __name__, url_prefix="/api")


@bp.get("/propose")
@gm_required
def propose():
    """Team sizes the game proposes for ?students=N."""
    students = request.args.get("students", "")
    if not (students.isascii() and students.isdecimal()) or len(students) > 4:
        return jsonify(error="format", message="give the number of students"), 400
    try:
        return jsonify(sizes=setup_teams().propose(int(students)))
    except Refusal as refusal:
        return jsonify(error=refusal.rule, message=refusal.message)


@bp.post("/check-settings")
@gm_required
def check_settings():
    """Check the settings of the set-up form as the game does."""
    data = read_json()
    settings = data.get("settings") if isinstance(data, dict) else None
    try:
        setup_teams().check(settings)
    except Refusal as refusal:
        return jsonify(ok=False, error=refusal.rule, message=refusal.message)
    return jsonify(ok=True)


@bp.post("/team-problems")
@gm_required
def team_problems_route():
    """What keeps teams of ``{"sizes": [...], "max_members": N}`` from starting a game:
    ``{"ok": true, "problems": [{"rule", "what", ...}]}`` (the game's own check)."""
    teams = setup_teams()
    data = read_json()
    sizes = data.get("sizes") if isinstance(data, dict) else None
    most = data.get("max_members", teams.default_max_members) if isinstance(data, dict) \
        else None
    if (not isinstance(sizes, list) or len(sizes) > 20
            or not all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= 500
                       for n in sizes)
            or not isinstance(most, int) or isinstance(most, bool) or not 1 <= most <= 50):
        return jsonify(ok=False, error="format",
                       message='send {"sizes": [members per team], "max_members": N}'), 400
    return jsonify(ok=True, problems=teams.problems(sizes, most))


@bp.post("/deal")
@gm_required
def deal():
    """Deal a pasted class list into teams of the given sizes, at random (the game's way)."""
    data = read_json()
    data = data if isinstance(data, dict) else {}
    names, sizes = data.get("names"), data.get("sizes")
    if (not names_ok(names) or not isinstance(sizes, list)
            or not all(isinstance(s, int) and 0 < s <= 50 for s in sizes)):
        return jsonify(error="format", message="send names (text) and sizes (numbers)"), 400
    try:
        # Namesakes told apart ("Ana García (2)"): a spokesperson's name names one student.
        return jsonify(teams=setup_teams().deal(roster_names([" ".join(n.split()) for n in names]),
                                           sizes, random.SystemRandom()))
    except Refusal as refusal:
        return jsonify(error=refusal.rule, message=refusal.message)


#: Most names a class list may hold.
MAX_NAMES = 500


def names_ok(names: object) -> bool:
    """Whether ``names`` is a class list: at most 500 names, each text of 1 to 100 characters."""
    return (isinstance(names, list) and len(names) <= MAX_NAMES
            and all(isinstance(n, str) and 0 < len(n) <= 100 and is_unicode(n) for n in names))


@bp.get("/games/<int:game_id>/codes")
@gm_required
def game_codes(game_id: int):
    """The join codes of a game's teams, its own code (``door``: where a device picks its
    name or team) and its projector code (GM only)."""
    from ..extensions import store
    from .console import broken_or_none
    from .links import join_url
    broken = broken_or_none(game_id)
    if broken is not None:
        return broken
    row = store.row(game_id)
    if row is None:
        return jsonify(error="format", message="no such game"), 404
    door = next((jc.code for jc in row.join_codes if jc.team == 0), None)
    # A game with a table's screen lists its table's code (0) and screen code (-1) among
    # its seats, as it always did; a game of teams only its teams.
    table = any(jc.team < 0 for jc in row.join_codes)
    return jsonify(teams=[{"team": jc.team, "code": jc.code, "join_url": join_url(jc.code)}
                          for jc in row.join_codes if jc.team >= 1 or table], watch=row.watch_code,
                   door={"code": door, "join_url": join_url(door)} if door else None)
