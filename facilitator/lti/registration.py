"""LTI Advantage dynamic registration: a campus admin pastes one URL into the platform
(Moodle 4.x: Site administration → Plugins → External tool → Manage tools → «Tool URL»),
the platform opens it with its OpenID configuration and a registration token, and the
facilitator registers itself there (pylti1p3's DynamicRegistration) and keeps what the
platform answered (its issuer, addresses, the client and deployment ids it gave).

The URL carries a one-time key the console command ``facilitator lti registration-url``
makes: without it the page fetches nothing (a stranger's link would otherwise make the
server fetch any address and register any platform).
"""
from __future__ import annotations

import hashlib
import secrets

from pylti1p3.dynamic_registration import DynamicRegistration

from ..store import lti as lti_store

#: How long a registration URL's key stays good (seconds).
KEY_SECONDS = 7 * 86400
#: What the facilitator asks of a platform's services: roster, line items, scores.
SCOPES = ["https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly",
          "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
          "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly",
          "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly",
          "https://purl.imsglobal.org/spec/lti-ags/scope/score"]
TOOL_CONFIGURATION = "https://purl.imsglobal.org/spec/lti-tool-configuration"


def _stored_key(key: str) -> str:
    return "registration-" + hashlib.sha256(key.encode()).hexdigest()


def new_registration_key(database) -> str:
    """A new one-time key for a registration URL (kept by its hash for KEY_SECONDS)."""
    key = secrets.token_urlsafe(24)
    lti_store.put_value(database, _stored_key(key), True, KEY_SECONDS)
    return key


def registration_key_is_good(database, key: object) -> bool:
    """Whether ``key`` is a registration URL's key not used nor expired."""
    return isinstance(key, str) and 0 < len(key) <= 100 and \
        lti_store.get_value(database, _stored_key(key)) is not None


class Registration(DynamicRegistration):
    """The facilitator's registration with one platform (its addresses from ``urls``:
    ``{"login", "launch", "jwks", "domain"}``)."""

    client_name = "El facilitador"
    description = ("Juegos de clase en el aula: la partida, la colmena y Hive. Classroom "
                   "games in the lecture hall.")

    def __init__(self, database, key: str, openid_configuration: str,
                 registration_token: str | None, urls: dict):
        self.database, self.key, self.urls = database, key, urls
        self.openid_configuration, self.registration_token = (openid_configuration,
                                                              registration_token)

    def get_initiate_login_uri(self) -> str:
        """The OIDC login initiation (/lti/login)."""
        return self.urls["login"]

    def get_jwks_uri(self) -> str:
        """The facilitator's key set (/lti/jwks.json)."""
        return self.urls["jwks"]

    def get_redirect_uris(self) -> list[str]:
        """Where a launch is posted (/lti/launch)."""
        return [self.urls["launch"]]

    def get_target_link_uri(self) -> str:
        """Where a launch is posted (/lti/launch)."""
        return self.urls["launch"]

    def get_domain(self) -> str:
        """The host the facilitator answers on."""
        return self.urls["domain"]

    def get_logo_uri(self) -> str:
        """No icon (the facilitator has none to offer)."""
        return ""

    def lti_registration_data(self) -> dict:
        """pylti1p3's registration data, without an empty logo address."""
        data = super().lti_registration_data()
        if not data.get("logo_uri"):
            data.pop("logo_uri", None)
        return data

    def get_scopes(self) -> list[str]:
        """The roster's and the gradebook's scopes."""
        return SCOPES

    def get_claims(self) -> list[str]:
        """Who launches: their id, name and e-mail (a class list's columns)."""
        return ["iss", "sub", "name", "given_name", "family_name", "email"]

    def get_messages(self) -> list[dict]:
        """Deep linking, for placing a game or hall as a course's activity."""
        return [{"type": "LtiDeepLinkingRequest", "target_link_uri": self.urls["launch"],
                 "label": self.client_name}]

    def get_openid_configuration_endpoint(self) -> str:
        """The platform's OpenID configuration, as it passed it."""
        return self.openid_configuration

    def get_registration_token(self) -> str | None:
        """The platform's registration token, as it passed it."""
        return self.registration_token

    def complete_registration(self, openid_configuration: dict, openid_registration: dict):
        """Keep the platform as it describes itself, with the client and deployment ids it
        gave; the URL's key is used up. Returns the platform's id."""
        tool = openid_registration.get(TOOL_CONFIGURATION) or {}
        platform = openid_configuration.get(
            "https://purl.imsglobal.org/spec/lti-platform-configuration") or {}
        deployment = tool.get("deployment_id") if isinstance(tool, dict) else None
        platform_id, _new = lti_store.add_platform(
            self.database, issuer=openid_configuration.get("issuer"),
            client_id=openid_registration.get("client_id"),
            deployment_ids=[deployment] if isinstance(deployment, str) else [],
            auth_login_url=openid_configuration.get("authorization_endpoint"),
            auth_token_url=openid_configuration.get("token_endpoint"),
            key_set_url=openid_configuration.get("jwks_uri"),
            auth_audience=openid_configuration.get("authorization_server") or "",
            name=str(platform.get("product_family_code") or "")[:100])
        lti_store.take_value(self.database, _stored_key(self.key))
        return platform_id
