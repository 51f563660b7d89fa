"""The lecture's front door: one code on a hall's projector for the whole room.

A student opens the code (``/h/<CODE>``, the QR code, or typed at ``/join``), picks
their name from the hall's list and is sent to their seat (``/seat``): their hand at
their table, their colour at their board, their bye. The page follows them round after
round (it asks ``/seat/where`` every few seconds and comes back here when it moved). One device holds a player:
a second device of the same student asks, and the teacher's console answers
(docs/protocol.md, "Seats and devices").
"""
from __future__ import annotations

from flask import (Blueprint, current_app, jsonify, make_response, redirect, render_template,
                   request, url_for)

from ..extensions import store
from ..live.audience import (decode_hall_token, issue_device_token, issue_hall_token,
                             new_device_id)
from ..store.halls import Halls
from . import use_game_language
from .ratelimit import join_attempts, limiter

bp = Blueprint("door", __name__)
HALL_COOKIE = "hall_token"
#: The player of a hall token that has not picked a name yet.
NOBODY = -1


def _halls() -> Halls:
    return current_app.extensions["facilitator_live"].halls.halls


def door_of_code(code: object) -> dict | None:
    """The hall whose door code is ``code``, or None."""
    hall_id = _halls().of_door_code(code)
    return _halls().hall(hall_id) if hall_id is not None else None


def _token():
    return decode_hall_token(current_app.config["SECRET_KEY"], request.cookies.get(HALL_COOKIE))


def _with_token(response, hall: dict, player: int, device: str):
    response = make_response(response)
    token = issue_hall_token(current_app.config["SECRET_KEY"], hall["public_id"], player, device)
    response.set_cookie(HALL_COOKIE, token, max_age=30 * 86400, httponly=True, samesite="Lax")
    return response


def enter_door(hall: dict):
    """A device comes in through the hall's door: it keeps the name it picked there
    before (the same phone scanning again), else it picks one."""
    held = _token()
    if held is not None and held.public_id == hall["public_id"]:
        return redirect(url_for("door.seat" if held.player >= 0 else "door.names"))
    return _with_token(redirect(url_for("door.names")), hall, NOBODY, new_device_id())


def _mine():
    """This device's hall token and its hall, or (None, None)."""
    held = _token()
    hall_id = _halls().of_public_id(held.public_id) if held is not None else None
    hall = _halls().hall(hall_id) if hall_id is not None else None
    return (held, hall) if hall is not None else (None, None)


@bp.route("/h/<code>")
@limiter.shared_limit(join_attempts, scope="join", methods=["GET"],
                      deduct_when=lambda response: response.status_code == 404)
def door(code: str):
    """The address the lecture's QR code encodes."""
    hall = door_of_code(code)
    if hall is None:
        return render_template("team/join.html", error="join.unknown", code=str(code)[:20]), 404
    return enter_door(hall)


@bp.route("/door", methods=["GET", "POST"])
def names():
    """The hall's list of names: a student taps theirs (POST ``player``)."""
    held, hall = _mine()
    if hall is None:
        return redirect(url_for("team.join"))
    use_game_language(hall["settings"])
    if request.method == "POST":
        choice = request.form.get("player", "")
        player = int(choice) if choice.isascii() and choice.isdigit() and len(choice) < 5 else -1
        answer = _halls().hold(hall["id"], player, held.device) if player >= 0 else "unknown"
        if answer == "elsewhere" or answer == "unknown":
            return _names_page(hall, held, error=f"door.{answer}"), 409
        # A name another device holds: the seat's page asks the teacher.
        return _with_token(redirect(url_for("door.seat")), hall, player, held.device)
    if held.player >= 0:
        return redirect(url_for("door.seat"))
    return _names_page(hall, held)


def _names_page(hall: dict, held, error: str | None = None):
    holders = hall["holders"]
    people = sorted(({"value": n, "key": n, "name": name, "taken": str(n) in holders
                      and holders[str(n)] != held.device}
                     for n, name in enumerate(hall["players"])),
                    key=lambda p: p["name"].casefold())
    # The name this device holds already: the error ``elsewhere`` names it, and the page
    # offers to go on to that student's seat.
    mine = hall["players"][held.player] if 0 <= held.player < len(hall["players"]) else None
    response = make_response(render_template(
        "team/door.html", place_name=hall["name"], people=people, action=url_for("door.names"),
        field="player", title="door.title", hint="door.hint", error=error, mine=mine,
        go_on=url_for("door.seat"), game_kind=hall["kind"]))
    response.headers["Cache-Control"] = "no-store"
    return response


def _place(hall: dict, player: int) -> dict:
    """Where ``player`` plays in the hall's current round: ``{"round", "key", "seat",
    "game_id", "name"}``, or ``{"round", "bye": True}`` when in no game of it."""
    rules = _halls().rules(hall["kind"])
    games = rules.round_games(hall["plan"])
    current = games[0]["round"] if games else 1
    ids = {g["key"]: g["game_id"] for g in _halls().games_of(hall["id"])}
    for game in games:
        seat = (game.get("seats") or {}).get(str(player))
        if seat is not None and game["key"] in ids:
            return {"round": current, "key": game["key"], "seat": seat,
                    "game_id": ids[game["key"]], "name": game.get("name") or game["key"],
                    "place": game.get("place")}
    return {"round": current, "bye": True}


@bp.route("/seat")
def seat():
    """This student's seat in the hall's current round: the seat's screen, the bye's
    page, or the page that waits for the teacher (another device holds the seat)."""
    from .team import waiting_page
    held, hall = _mine()
    if hall is None or held.player < 0:
        return redirect(url_for("door.names") if hall is not None else url_for("team.join"))
    use_game_language(hall["settings"])
    name = hall["players"][held.player] if held.player < len(hall["players"]) else "?"
    place = _place(hall, held.player)
    if place.get("bye"):
        return _no_store(render_template("team/bye.html", hall=hall, name=name, place=place,
                                         game_kind=hall["kind"]))
    live = current_app.extensions["facilitator_live"]
    holder = hall["holders"].get(str(held.player))
    answer = live.seats.claim(place["game_id"], place["seat"], held.device, holder)
    if answer == "ok":
        if holder != held.device:     # the teacher moved the seat here: the hall follows
            _halls().hold(hall["id"], held.player, held.device, take=True)
        return _seat_screen(hall, place, held.device)
    if answer == "asked":
        state = live.seats.asked(place["game_id"], place["seat"], held.device)
        return waiting_page(place["game_id"], place["seat"], state == "refused",
                            url_for("door.where"), url_for("door.ask_again"))
    return render_template("team/join.html", error=f"seatpick.{answer}"), 409


def _no_store(body):
    response = make_response(body)
    response.headers["Cache-Control"] = "no-store"
    return response


def _seat_screen(hall: dict, place: dict, device: str):
    """The seat's own screen, with what the page needs to follow the hall: it comes back
    to ``/seat`` when the hall moves on."""
    from .team import seat_screen
    row = store.row(place["game_id"])
    token = issue_device_token(current_app.config["SECRET_KEY"], row.public_id, place["seat"],
                               device)
    rules = _halls().rules(hall["kind"])
    # Where the student plays this round, in the hall's words: "Ronda 2 · Tablero 3".
    spot = {"words": rules.place_words, "n": place.get("place"),
            "round": place["round"] if rules.rounds_named else None}
    return _no_store(seat_screen(row, place["seat"], token, follow={
        "where": url_for("door.where"), "round": place["round"], "key": place["key"]},
        spot=spot if spot["words"] and spot["n"] is not None else None))


@bp.route("/seat/where")
def where():
    """Where this device's player plays now, and where its request stands: ``{"round",
    "key", "state"}`` (a page that shows a bye, a finished game or the wait asks it)."""
    held, hall = _mine()
    if hall is None or held.player < 0:
        return jsonify(state="none")
    place = _place(hall, held.player)
    state = "bye" if place.get("bye") else current_app.extensions["facilitator_live"] \
        .seats.asked(place["game_id"], place["seat"], held.device)
    over = False if place.get("bye") else bool(store.current(place["game_id"])[1].over)
    return jsonify(round=place["round"], key=place.get("key"), state=state, over=over)


@bp.post("/seat/ask")
def ask_again():
    """Ask the teacher again for this student's seat (after a refusal)."""
    held, hall = _mine()
    if hall is not None and held.player >= 0:
        place = _place(hall, held.player)
        if not place.get("bye"):
            current_app.extensions["facilitator_live"].seats.claim(
                place["game_id"], place["seat"], held.device, "", again=True)
    return redirect(url_for("door.seat"))
