"""A learning platform for the LTI tests (issue 48), built on lti1p3platform: it runs on
127.0.0.1 in a thread of the test, and does what Moodle does for a tool: the OIDC
login's authentication (it answers with the signed launch instead of an auto-posting
form, and the test posts it to the facilitator), access tokens for its services, a
course's roster (Names and Role Provisioning) and gradebook (Assignment and Grade
Services) kept in memory, and its key set.

What the platform signs, checks and issues is lti1p3platform's; the services' storage
(a few dicts) is the test's own.
"""
from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlsplit

import requests
from flask import Flask, jsonify, request
from jwcrypto.jwk import JWK
from lti1p3platform.ltiplatform import LTI1P3PlatformConfAbstract
from lti1p3platform.message_launch import LTIAdvantageMessageLaunchAbstract
from lti1p3platform.oidc_login import OIDCLoginAbstract
from lti1p3platform.registration import Registration
from werkzeug.serving import make_server

INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
NRPS_SCOPE = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"


def new_pem() -> str:
    """A new RSA private key, PEM."""
    return JWK.generate(kty="RSA", size=2048).export_to_pem(private_key=True,
                                                            password=None).decode()


class _Config(LTI1P3PlatformConfAbstract):
    def init_platform_config(self, registration: Registration) -> None:
        self._registration = registration

    def get_registration_by_params(self, **kwargs) -> Registration:
        return self._registration


class _Login(OIDCLoginAbstract):
    def set_lti_message_hint(self, **kwargs) -> None:
        self._lti_message_hint = kwargs["hint"]

    def get_redirect(self, url: str) -> str:
        return url


class _Launch(LTIAdvantageMessageLaunchAbstract):
    def get_preflight_response(self):
        return dict(request.args)

    def render_launch_form(self, launch_data, **kwargs):
        return jsonify(launch_data)


@dataclass
class User:
    """A person of the platform's course."""

    sub: str
    name: str
    email: str = ""
    roles: list = field(default_factory=lambda: [LEARNER])
    id_number: str = ""
    status: str = "Active"


class Platform:
    """The platform: ``start()`` serves it on 127.0.0.1, ``login_url(user)`` is where a
    course's activity sends a user's browser first (the tool's OIDC login)."""

    def __init__(self, tool_url: str = "http://localhost", client_id: str = "facilitator",
                 deployment_id: str = "dep-1", context_id: str = "course-7",
                 context_title: str = "Filosofía 1.º B"):
        self.tool_url, self.client_id, self.deployment_id = tool_url, client_id, deployment_id
        self.context_id, self.context_title = context_id, context_title
        self.private_pem = new_pem()
        self.public_pem = JWK.from_pem(self.private_pem.encode()).export_to_pem().decode()
        self.users: dict[str, User] = {}
        #: The tool's key set, or a function that fetches it (as a platform reads the
        #: tool's key set URL at each check).
        self.tool_keys = None
        self.lineitems: dict[str, dict] = {}
        self.scores: dict[str, dict[str, dict]] = {}
        self.refuse_scores = False
        #: What tools asked at dynamic registration (their registration data).
        self.registrations: list[dict] = []
        #: The content items the tool placed through deep linking.
        self.placed: list[dict] = []
        self.token_requests = 0
        self.key_set_requests = 0
        #: What the next launch changes: id_token expiration, signing key, deployment...
        self.next_launch: dict = {}
        self.app = self._make_app()
        self.server = None

    # -- serving -----------------------------------------------------------------------
    def start(self) -> "Platform":
        """Serve the platform on a free port of 127.0.0.1 (a thread)."""
        self.server = make_server("127.0.0.1", 0, self.app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        """Stop serving."""
        if self.server is not None:
            self.server.shutdown()

    @property
    def issuer(self) -> str:
        """The platform's issuer: its address, as Moodle's is."""
        return self.url

    def registration(self, deployment_id: str | None = None,
                     private_pem: str | None = None) -> Registration:
        """lti1p3platform's registration of the facilitator on this platform."""
        registration = (Registration().set_iss(self.issuer).set_client_id(self.client_id)
                        .set_deployment_id(deployment_id or self.deployment_id)
                        .set_oidc_login_url(f"{self.tool_url}/lti/login")
                        .set_launch_url(f"{self.tool_url}/lti/launch")
                        .set_deeplink_launch_url(f"{self.tool_url}/lti/launch")
                        .set_platform_private_key(private_pem or self.private_pem)
                        .set_platform_public_key(self.public_pem))
        if self.tool_keys is not None:
            registration.set_tool_key_set(self.tool_keys() if callable(self.tool_keys)
                                          else self.tool_keys)
        return registration

    def tool_values(self) -> dict:
        """What the platform shows its admin for the tool (the add-platform values)."""
        return {"issuer": self.issuer, "client_id": self.client_id,
                "deployment_ids": [self.deployment_id],
                "auth_login_url": f"{self.url}/auth", "auth_token_url": f"{self.url}/token",
                "key_set_url": f"{self.url}/jwks"}

    # -- a launch ----------------------------------------------------------------------
    def login_url(self, user: User) -> str:
        """The tool's OIDC login initiation for ``user`` in the course."""
        self.users[user.sub] = user
        config = _Config(registration=self.registration())
        login = _Login(None, config)
        login.set_lti_message_hint(hint="resource-1")
        return login.initiate_login(user.sub)

    def _launch(self):
        user = self.users[request.args["login_hint"]]
        changes = dict(self.next_launch)
        self.next_launch.clear()
        config = _Config(registration=self.registration(
            deployment_id=changes.get("deployment_id"), private_pem=changes.get("private_pem")))
        launch = _Launch(None, config)
        launch.set_user_data(user.sub, user.roles, full_name=user.name,
                             email_address=user.email or None)
        launch.set_resource_link_claim("resource-1", title="El facilitador")
        launch.set_launch_context_claim(self.context_id, context_title=self.context_title,
                                        context_label="FIL1B")
        launch.set_nrps(f"{self.url}/memberships/{self.context_id}")
        launch.set_ags(f"{self.url}/lineitems/{self.context_id}")
        if user.id_number:
            launch.set_extra_claims({"https://purl.imsglobal.org/spec/lti/claim/lis": {
                "person_sourcedid": user.id_number}})
        if changes.get("deep_link"):
            launch.set_dl(f"{self.url}/deep-link-return", title="Nueva actividad",
                          accept_types={"ltiResourceLink"})
        if "custom" in changes:
            launch.set_custom_parameters_claim(changes["custom"])
        if "expiration" in changes:
            launch.set_id_token_expiration(changes["expiration"])
        return launch.lti_launch()

    # -- the services --------------------------------------------------------------------
    def _authorized(self, scope: str) -> bool:
        header = request.headers.get("Authorization", "")
        if not header.startswith("Bearer "):
            return False
        config = _Config(registration=self.registration())
        try:
            return config.validate_token(header[7:], allowed_scopes=[scope])
        except Exception:
            return False

    def _make_app(self) -> Flask:
        app = Flask("lti_platform")
        platform = self

        @app.get("/auth")
        def auth():
            return platform._launch()

        @app.get("/jwks")
        def jwks():
            platform.key_set_requests += 1
            config = _Config(registration=platform.registration())
            config.get_registration()
            return jsonify(config.get_jwks())

        @app.get("/.well-known/openid-configuration")
        def openid_configuration():
            # As Moodle 4.x publishes it (lti/openid-configuration.php), abridged.
            return jsonify({
                "issuer": platform.issuer, "token_endpoint": f"{platform.url}/token",
                "authorization_endpoint": f"{platform.url}/auth",
                "jwks_uri": f"{platform.url}/jwks",
                "registration_endpoint": f"{platform.url}/register",
                "scopes_supported": ["openid", NRPS_SCOPE],
                "https://purl.imsglobal.org/spec/lti-platform-configuration": {
                    "product_family_code": "moodle", "version": "4.5"}})

        @app.post("/register")
        def register():
            if request.headers.get("Authorization") != "Bearer registration-token":
                return jsonify(error="unauthorized"), 401
            data = request.get_json()
            platform.registrations.append(data)
            tool = dict(data["https://purl.imsglobal.org/spec/lti-tool-configuration"])
            tool["deployment_id"] = platform.deployment_id
            return jsonify({**data, "client_id": platform.client_id,
                            "https://purl.imsglobal.org/spec/lti-tool-configuration": tool})

        @app.post("/deep-link-return")
        def deep_link_return():
            config = _Config(registration=platform.registration())
            config.get_registration()
            try:
                platform.placed.extend(config.validate_deeplinking_resp(dict(request.form)))
            except Exception as error:         # not the tool's, or not signed by it
                return jsonify(error="refused", message=str(error)), 400
            return jsonify(ok=True)

        @app.post("/token")
        def token():
            platform.token_requests += 1
            config = _Config(registration=platform.registration())
            config.get_registration()
            try:
                return jsonify(config.get_access_token(dict(request.form)))
            except Exception as error:          # the tool's assertion did not check out
                return jsonify(error="invalid_client", message=str(error)), 400

        @app.get("/memberships/<context>")
        def memberships(context):
            if not platform._authorized(NRPS_SCOPE):
                return jsonify(error="unauthorized"), 401
            members = [{"user_id": u.sub, "name": u.name, "email": u.email, "roles": u.roles,
                        "status": u.status, "lis_person_sourcedid": u.id_number}
                       for u in platform.users.values()]
            response = jsonify(id=request.url, context={"id": context}, members=members)
            response.mimetype = "application/vnd.ims.lti-nrps.v2.membershipcontainer+json"
            return response

        @app.route("/lineitems/<context>", methods=["GET", "POST"])
        def lineitems(context):
            scope = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"
            if not platform._authorized(scope):
                return jsonify(error="unauthorized"), 401
            if request.method == "POST":
                item = json.loads(request.get_data(as_text=True))
                item["id"] = f"{platform.url}/lineitems/{context}/{len(platform.lineitems) + 1}"
                platform.lineitems[item["id"]] = item
                return jsonify(item), 201
            return jsonify(list(platform.lineitems.values()))

        @app.post("/lineitems/<context>/<int:number>/scores")
        def scores(context, number):
            if not platform._authorized("https://purl.imsglobal.org/spec/lti-ags/scope/score"):
                return jsonify(error="unauthorized"), 401
            if f"{platform.url}/lineitems/{context}/{number}" not in platform.lineitems:
                return jsonify(error="no such line item"), 404
            if platform.refuse_scores:
                return jsonify(error="unavailable"), 503
            item = f"{platform.url}/lineitems/{context}/{number}"
            score = json.loads(request.get_data(as_text=True))
            platform.scores.setdefault(item, {}).setdefault(score["userId"], [])
            platform.scores[item][score["userId"]].append(score)
            return "", 204

        return app

    def results(self, label: str) -> dict[str, float]:
        """The gradebook's column ``label`` as the platform keeps it: user -> last score."""
        item = next(i for i, v in self.lineitems.items() if v.get("label") == label)
        return {user: posts[-1]["scoreGiven"] for user, posts in self.scores.get(item, {}).items()}

    def posts(self, label: str) -> int:
        """How many scores were posted to the column ``label`` in all."""
        item = next(i for i, v in self.lineitems.items() if v.get("label") == label)
        return sum(len(posts) for posts in self.scores.get(item, {}).values())


def follow_login(client, platform: Platform, user: User):
    """A browser's way from the course's activity to the facilitator: the tool's login
    (``client``, the facilitator's test client), the platform's authentication (over
    HTTP), then the launch posted back. Returns ``(launch response, posted form)``."""
    start = urlsplit(platform.login_url(user))
    answer = client.get(f"{start.path}?{start.query}")
    assert answer.status_code == 302, answer.get_data(as_text=True)[:500]
    form = requests.get(answer.headers["Location"], timeout=10).json()
    posted = {"id_token": form["id_token"], "state": form["state"]}
    return client.post("/lti/launch", data=posted), posted


def query_of(url: str) -> dict:
    """The query parameters of ``url``."""
    return dict(parse_qsl(urlsplit(url).query))
