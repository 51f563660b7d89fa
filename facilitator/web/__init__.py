"""The pages: blueprints for the GM console, the teams, the projector, assets and the API."""
from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, abort, g, request
from markupsafe import Markup

from ..i18n import LANGUAGES, catalog, pick_language, translate


def register_blueprints(app: Flask) -> None:
    """Register every blueprint and the language handling shared by all pages."""
    from . import (api, api_v1, assets, banks, compression, console, projector, ratelimit,
                   results, rulebook, team)
    from .auth import uses_valid_api_token
    compression.init_app(app)       # first registered, so it runs after the other hooks
    ratelimit.init_app(app)
    for module in (console, team, projector, assets, api, banks, results, api_v1, rulebook):
        app.register_blueprint(module.bp)
    app.register_blueprint(api_v1.tokens_bp)

    @app.before_request
    def refuse_cross_site_posts():
        # A page of another site must not make a logged-in GM's browser act. A request
        # to the API with a valid bearer token is exempt: no browser sends one by itself.
        if request.method in ("POST", "PUT", "PATCH", "DELETE") and not uses_valid_api_token():
            source = request.headers.get("Origin") or request.headers.get("Referer")
            if source and urlsplit(source).netloc != request.host:
                abort(400, "cross-site request refused")

    @app.before_request
    def choose_language():
        g.lang = pick_language(request.args.get("lang"), request.cookies.get("lang"),
                               request.headers.get("Accept-Language"))

    @app.after_request
    def remember_language(response):
        if request.args.get("lang") in LANGUAGES:
            response.set_cookie("lang", request.args["lang"], max_age=365 * 86400,
                                samesite="Lax")
        # Pages never load anything from elsewhere: say so to the browser too.
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
            "script-src 'self'; connect-src 'self' ws: wss:; frame-ancestors 'none'")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        return response

    @app.template_filter("num")
    def number_filter(value):
        """A number as the page's language writes it: 7,5 in Spanish, 7.5 in English."""
        text = str(value)
        return text.replace(".", ",") if getattr(g, "lang", "es") == "es" else text

    @app.context_processor
    def language_context():
        lang = getattr(g, "lang", "es")
        other = "en" if lang == "es" else "es"
        args = {**request.args, "lang": other}
        query = "&".join(f"{k}={v}" for k, v in args.items())
        return {"lang": lang, "catalog": catalog(lang),
                "t": lambda key, **params: translate(lang, key, **params),
                "other_lang": other, "other_lang_url": f"{request.path}?{query}",
                "json_script": _json_script}


def _json_script(data) -> Markup:
    """JSON safe to place inside a <script type="application/json"> element."""
    import json
    text = json.dumps(data, ensure_ascii=False)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return Markup(text)
