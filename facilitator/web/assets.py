"""Assets made or installed on this machine: browser libraries from npm, QR codes."""
from __future__ import annotations

import io

from flask import Blueprint, Response, abort, current_app, redirect, send_from_directory, url_for

from ..store.games import normalise_code
from .links import join_url

bp = Blueprint("assets", __name__)

#: The browser libraries the pages use, installed by npm at set-up (never a CDN):
#: ``/vendor/<name>`` serves ``node_modules/<folder>/<name>``. A plain literal: the
#: package build (setup.py) reads it to put exactly these files in the wheel.
VENDOR = {
    "socket.io.min.js": "socket.io-client/dist",
    # The pages' ES modules import it as /vendor/lit-html.js: one file, no directives.
    "lit-html.js": "lit-html",
}


@bp.route("/vendor/<name>")
def vendor(name: str):
    """A browser library from node_modules."""
    folder = VENDOR.get(name)
    if folder is None:
        abort(404)
    return send_from_directory(f"{current_app.config['NODE_MODULES']}/{folder}", name,
                               max_age=86400)


@bp.route("/qr/<code>.svg")
def qr(code: str):
    """The QR code of a team's join address, as SVG."""
    code = normalise_code(code)
    if not code:
        abort(404)
    import segno         # with the first QR code asked for, not at start-up
    out = io.BytesIO()
    segno.make(join_url(code), error="m").save(out, kind="svg", scale=8, border=2,
                                               xmldecl=False, svgns=True)
    return Response(out.getvalue(), mimetype="image/svg+xml",
                    headers={"Cache-Control": "private, max-age=3600"})


@bp.route("/")
def home():
    """The root sends teachers to the console and students to the join page."""
    return redirect(url_for("console.games"))
