"""The pages: blueprints for the GM console, the teams, the projector, assets and the API."""
from __future__ import annotations


from flask import Flask, abort, g, request
from markupsafe import Markup
from werkzeug.routing import IntegerConverter

from ..i18n import LANGUAGES, catalog, format_date, game_name, ordinal, pick_language, translate


#: The largest id a row of the database has (PostgreSQL's INTEGER): an address naming a
#: larger one names nothing, and is answered 404 before any query is made.
MAX_ROW_ID = 2 ** 31 - 1


class RowIdConverter(IntegerConverter):
    """``<int:...>`` in every route: a whole number a row's id can be (a larger one does
    not match: 404, where the database would refuse the query)."""

    def __init__(self, map, *args, **kwargs):
        kwargs.setdefault("max", MAX_ROW_ID)
        super().__init__(map, *args, **kwargs)


def register_blueprints(app: Flask) -> None:
    """Register every blueprint and the language handling shared by all pages."""
    app.url_map.converters["int"] = RowIdConverter
    from . import (api, api_v1, assets, banks, classes, compression, console, door, halls,
                   images, lti, projector, ratelimit, results, rulebook, team)
    from .auth import from_another_site, uses_valid_api_token
    compression.init_app(app)       # first registered, so it runs after the other hooks
    ratelimit.init_app(app)
    for module in (console, team, projector, assets, api, banks, results, api_v1, rulebook,
                   images, classes, halls, door, lti):
        app.register_blueprint(module.bp)
    app.register_blueprint(api_v1.tokens_bp)
    lti.init_app(app)

    @app.before_request
    def refuse_cross_site_posts():
        # The one cross-site rule (auth.from_another_site): a page of another site must
        # not make a logged-in GM's browser act. A request to the API with a valid bearer
        # token is exempt: no browser sends one by itself.
        # An LTI login and launch come from the platform's page by design: the signed
        # token and the state cookie vouch for them (web/lti.py).
        if (request.method in ("POST", "PUT", "PATCH", "DELETE") and from_another_site()
                and request.path not in lti.CROSS_SITE and not uses_valid_api_token()):
            lang = pick_language(request.args.get("lang"), request.cookies.get("lang"),
                                 request.headers.get("Accept-Language"))
            # The error pages (web/errors.py) answer it: JSON to the API, a page else.
            abort(400, translate(lang, "banks.error.cross_site"))
        return None

    @app.before_request
    def choose_language():
        g.lang = pick_language(request.args.get("lang"), request.cookies.get("lang"),
                               request.headers.get("Accept-Language"))
        # (a game's team page and projector then apply the game's default: use_game_language)

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
        """A number as the page's language writes it: 7,5 and −0,5 in Spanish, 7.5 in English."""
        text = str(value).replace("-", "\u2212")
        return text if getattr(g, "lang", "es") == "en" else text.replace(".", ",")

    @app.template_filter("signed")
    def signed_filter(value):
        """A change of points with its sign: +0,5 and −1 in Spanish, +0.5 in English."""
        return ("+" if float(value) > 0 else "") + number_filter(value)

    @app.template_filter("date")
    def date_filter(value, time=False):
        """A date written out: «30 de noviembre de 2026», «30 November 2026»."""
        return format_date(value, getattr(g, "lang", "es"), time=time)

    @app.template_filter("ordinal")
    def ordinal_filter(value):
        """A place: «1.º» in Spanish, «1st» in English."""
        return ordinal(value, getattr(g, "lang", "es"))

    from .links import listens_local_only, restart_command
    # Every page that shows join codes says when no phone can open them (_local_only.html).
    app.add_template_global(listens_local_only)
    app.add_template_global(restart_command)

    @app.context_processor
    def language_context():
        lang = getattr(g, "lang", "es")
        other = "en" if lang != "en" else "es"                  # Spanish <-> English
        variant = "es" if lang == "es-ES" else "es-ES"          # the other Spanish
        return {"lang": lang, "catalog": catalog(lang),
                "t": lambda key, **params: translate(lang, key, **params),
                "game_title": lambda kind=None: game_name(lang, kind),
                "languages": LANGUAGES,
                "other_lang": other, "other_lang_url": _language_url(other),
                "variant_lang": variant, "variant_lang_url": _language_url(variant),
                "json_script": _json_script}


def _language_url(lang: str) -> str:
    """This page's address with ``?lang=`` set to ``lang`` (the other arguments kept)."""
    from urllib.parse import urlencode
    return f"{request.path}?{urlencode({**request.args, 'lang': lang})}"


def use_game_language(settings: dict | None) -> None:
    """The page of a game's team or projector: the game's default language (the
    teacher's choice at set-up, ``settings["language"]``) unless the device chose one."""
    default = (settings or {}).get("language")
    g.lang = pick_language(request.args.get("lang"), request.cookies.get("lang"),
                           request.headers.get("Accept-Language"), default)


def _json_script(data) -> Markup:
    """JSON safe to place inside a <script type="application/json"> element."""
    import json
    text = json.dumps(data, ensure_ascii=False)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return Markup(text)
