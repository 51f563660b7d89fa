"""pylti1p3next fed from the store: the registrations, the signing key, and what a launch
keeps between its OIDC login and its launch (the nonce, taken once; the state's token).

:func:`check_launch` runs the library's every check (state, nonce, registration,
signature and expiry, deployment, message) and the few it leaves to the tool (an
``azp`` among several audiences, an ``exp`` and ``iat`` present), and gives back what the
facilitator uses of the launch, or raises :class:`LaunchRefused` saying why.
"""
from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass, field

import requests
from jwcrypto.jwk import JWK
from pylti1p3.contrib.flask import (FlaskMessageLaunch, FlaskOIDCLogin, FlaskRequest,
                                    FlaskServiceConnector)
from pylti1p3.deployment import Deployment
from pylti1p3.exception import LtiException, LtiKeyException, OIDCException
from pylti1p3.launch_data_storage.base import LaunchDataStorage
from pylti1p3.registration import Registration
from pylti1p3.session import SessionService
from pylti1p3.tool_config.abstract import ToolConfAbstract

from ..store import lti as lti_store
from . import keys

log = logging.getLogger("facilitator.lti")

#: How long a login's nonce waits for its launch (seconds).
NONCE_SECONDS = 600
#: How long a checked launch's data is kept (a deep-linking answer reads it).
LAUNCH_SECONDS = 3600
#: How long a platform's key set is kept before it is fetched again (a key it does not
#: hold is fetched at once: the platform rotated its keys).
PLATFORM_KEYS_SECONDS = 3600
#: Claims of a launch.
CLAIM = "https://purl.imsglobal.org/spec/lti/claim/"
NRPS_CLAIM = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
AGS_CLAIM = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
DL_CLAIM = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
LIS = "http://purl.imsglobal.org/vocab/lis/v2/"
#: The roles that make a teacher of the course: its own (course) roles, a teaching
#: assistant's among them, and the site's administrators. An institution's Instructor is
#: not one: Canvas gives it to whoever teaches anywhere, a student of this course too.
TEACHER_ROLES = frozenset({
    LIS + "membership#Instructor", LIS + "membership/Instructor#TeachingAssistant",
    LIS + "membership#Administrator", LIS + "membership#ContentDeveloper",
    LIS + "system/person#Administrator", LIS + "institution/person#Administrator",
    "Instructor", "Administrator", "ContentDeveloper", "TeachingAssistant"})
#: The course roles of its students (the role and its sub-roles, and the short form).
LEARNER_ROLES = (LIS + "membership#Learner", LIS + "membership/Learner#")


def teaches(roles: list) -> bool:
    """Whether ``roles`` (a launch's or a roster member's) make a teacher of the course."""
    return any(role in TEACHER_ROLES for role in roles if isinstance(role, str))


def learns(roles: list) -> bool:
    """Whether ``roles`` make a student of the course."""
    return any(isinstance(role, str) and (role == "Learner" or role.startswith(LEARNER_ROLES))
               for role in roles)


#: Seconds a platform has to answer one request (its keys, roster, gradebook): a launch
#: or a game's end never waits longer on a platform that does not answer.
PLATFORM_TIMEOUT = 10


class PlatformSession(requests.Session):
    """The HTTP session to the platforms: every request with PLATFORM_TIMEOUT (the
    library's requests have none)."""

    def request(self, method, url, *args, **kwargs):
        """A request that gives up after PLATFORM_TIMEOUT seconds."""
        kwargs.setdefault("timeout", PLATFORM_TIMEOUT)
        return super().request(method, url, *args, **kwargs)


class ServiceConnector(FlaskServiceConnector):
    """pylti1p3's service connector whose cached access tokens are kept per client id too
    (the library keys them by issuer and scopes: two registrations of one issuer, as
    Canvas makes, would share a token)."""

    def _scope_key(self, scopes) -> str:
        return super()._scope_key([*scopes, "client:" + str(self._registration.get_client_id())])


class LaunchRefused(Exception):
    """A login or launch the facilitator does not take; ``reason`` is a short key
    (``signature``, ``expired``, ``nonce``, ``state``, ``platform``, ``deployment``,
    ``message``) for the page, the message says what was wrong."""

    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.reason = reason


class ToolConf(ToolConfAbstract):
    """The registrations the store keeps, as pylti1p3 asks for them (several client ids
    may share an issuer: Moodle registers each tool it adds by hand with its own)."""

    def __init__(self, database):
        super().__init__()
        self.database = database

    def check_iss_has_one_client(self, iss: str) -> bool:
        """Never: a registration is found by issuer and client id."""
        return False

    def check_iss_has_many_clients(self, iss: str) -> bool:
        """Always (see check_iss_has_one_client)."""
        return True

    def registration(self, platform: dict | None) -> Registration | None:
        """pylti1p3's registration of a stored platform, with the current signing key."""
        if platform is None:
            return None
        key = keys.signing_key(self.database)
        public_pem = JWK.from_pem(key["private_pem"].encode("ascii")).export_to_pem().decode()
        registration = (Registration().set_issuer(platform["issuer"])
                        .set_client_id(platform["client_id"])
                        .set_auth_login_url(platform["auth_login_url"])
                        .set_auth_token_url(platform["auth_token_url"])
                        .set_key_set_url(platform["key_set_url"]).set_key_set(None)
                        .set_tool_private_key(key["private_pem"])
                        .set_tool_public_key(public_pem))
        if platform["auth_audience"]:
            registration.set_auth_audience(platform["auth_audience"])
        return registration

    def find_registration_by_issuer(self, iss: str, *args, **kwargs):
        """The platform registered once under ``iss``."""
        return self.registration(lti_store.find_platform(self.database, iss))

    def find_registration_by_params(self, iss: str, client_id: str, *args, **kwargs):
        """The platform of ``iss`` and ``client_id`` (without a client id, as a login
        may come: the one registered under ``iss``)."""
        return self.registration(lti_store.find_platform(self.database, iss, client_id))

    def find_deployment(self, iss: str, deployment_id: str):
        """The deployment ``deployment_id`` of the platform registered once under ``iss``."""
        return self._deployment(lti_store.find_platform(self.database, iss), deployment_id)

    def find_deployment_by_params(self, iss: str, deployment_id: str, client_id: str,
                                  *args, **kwargs):
        """The deployment ``deployment_id`` of the platform of ``iss`` and ``client_id``."""
        return self._deployment(lti_store.find_platform(self.database, iss, client_id),
                                deployment_id)

    @staticmethod
    def _deployment(platform: dict | None, deployment_id: str):
        if platform is None or deployment_id not in platform["deployment_ids"]:
            return None
        return Deployment().set_deployment_id(deployment_id)

    def get_jwks(self, iss=None, client_id=None, **kwargs):
        """The facilitator's published key set (the same for every platform)."""
        return keys.jwks(self.database)


class DatabaseStorage(LaunchDataStorage):
    """pylti1p3's launch data kept in the store (lti_values), not in the browser's
    session: the launch is a cross-site POST, which a browser may send without the
    session's cookie, and several server processes share the database."""

    def __init__(self, database):
        super().__init__()
        self.database = database

    def get_session_cookie_name(self):
        """No cookie of its own: the values are the database's."""
        return None

    @staticmethod
    def _key(key: str) -> str:
        # A platform chooses the nonce's length: a long key is kept by its hash.
        return key if len(key) <= 200 else "h-" + hashlib.sha256(key.encode()).hexdigest()

    def get_value(self, key: str):
        """The value kept under ``key``, or None."""
        return lti_store.get_value(self.database, self._key(key))

    def set_value(self, key: str, value, exp: int | None = None) -> None:
        """Keep ``value`` for ``exp`` seconds (LAUNCH_SECONDS without one)."""
        lti_store.put_value(self.database, self._key(key), value, exp or LAUNCH_SECONDS)

    def check_value(self, key: str) -> bool:
        """Whether a value is kept under ``key``."""
        return self.get_value(key) is not None

    def take_value(self, key: str) -> bool:
        """Remove the value under ``key``; True for the one caller that removed it."""
        return lti_store.take_value(self.database, self._key(key))

    def can_set_keys_expiration(self) -> bool:
        """Values expire."""
        return True


class LaunchSessions(SessionService):
    """pylti1p3's session service on :class:`DatabaseStorage`, whose nonce is good for
    one launch only and for NONCE_SECONDS (the library would accept it again)."""

    def __init__(self, request, database):
        super().__init__(request)
        self.data_storage = DatabaseStorage(database)
        self.data_storage.set_request(request)
        self._launch_data_lifetime = LAUNCH_SECONDS

    def save_nonce(self, nonce: str) -> None:
        """Keep a login's nonce until its launch comes, at most NONCE_SECONDS."""
        self.data_storage.set_value(self._get_key("nonce", nonce), True, exp=NONCE_SECONDS)

    def check_nonce(self, nonce: str) -> bool:
        """Take the nonce: only the first launch carrying it passes."""
        return self.data_storage.take_value(self._get_key("nonce", nonce))


class MessageLaunch(FlaskMessageLaunch):
    """pylti1p3's launch with the platform's key set kept in the store for
    PLATFORM_KEYS_SECONDS (a lecture's launches do not each fetch it), fetched again once
    when the token names a key the kept set lacks."""

    def __init__(self, request, database, **kwargs):
        storage = DatabaseStorage(database)
        super().__init__(request, ToolConf(database),
                         session_service=LaunchSessions(request, database),
                         service_connector_cls=ServiceConnector, **kwargs)
        self.set_public_key_caching(storage, PLATFORM_KEYS_SECONDS)

    def get_public_key(self):
        """The platform's key that signed the token (see the class)."""
        try:
            return super().get_public_key()
        except LtiKeyException:
            url = self._registration.get_key_set_url() if self._registration else None
            if not url:
                raise
            self._public_key_cache_data_storage.take_value(
                "key-set-url-" + hashlib.md5(url.encode("utf-8")).hexdigest())
            self._registration.set_key_set(None)
            return super().get_public_key()


def oidc_login(database, launch_url: str):
    """The answer to a platform's OIDC login initiation: the redirect to its
    authentication with a new state (a cookie) and nonce (the store). LaunchRefused for
    an unknown platform or a login without its parameters."""
    request = FlaskRequest()
    login = FlaskOIDCLogin(request, ToolConf(database),
                           session_service=LaunchSessions(request, database))
    try:
        return login.redirect(launch_url)
    except (OIDCException, LtiException) as error:
        raise LaunchRefused("platform", str(error)) from None


@dataclass
class Launch:
    """What the facilitator uses of a checked launch."""

    platform: dict
    deployment_id: str
    message_type: str
    sub: str
    name: str
    email: str
    roles: list[str]
    context_id: str
    context_title: str
    resource_link_id: str
    custom: dict
    services: dict = field(default_factory=dict)
    launch_id: str = ""
    #: pylti1p3's launch, for the services (roster, gradebook) during this request.
    message_launch: object = None

    @property
    def teacher(self) -> bool:
        """Whether the user teaches the course (Instructor, Administrator...)."""
        return teaches(self.roles)

    @property
    def student(self) -> bool:
        """Whether the user is one of the course's students (and does not teach it)."""
        return not self.teacher and learns(self.roles)


def _refusal(error: Exception) -> LaunchRefused:
    text = str(error)
    lowered = text.lower()
    if "expired" in lowered:
        return LaunchRefused("expired", text)
    if "nonce" in lowered:
        return LaunchRefused("nonce", text)
    if "state" in lowered:
        return LaunchRefused("state", text)
    if "deployment" in lowered:
        return LaunchRefused("deployment", text)
    if "registration" in lowered or "client id" in lowered or '"iss"' in lowered:
        return LaunchRefused("platform", text)
    if "decode" in lowered or "key" in lowered or "signature" in lowered or "jwt" in lowered:
        return LaunchRefused("signature", text)
    return LaunchRefused("message", text)


def _text(value: object, limit: int = 300) -> str:
    return value.strip()[:limit] if isinstance(value, str) else ""


def check_launch(database, requests_session=None) -> Launch:
    """Check this request's launch (a POST of ``id_token`` and ``state``) and give what it
    says; LaunchRefused, logged, when any check fails (nothing else is done then)."""
    message = MessageLaunch(FlaskRequest(), database,
                            requests_session=requests_session or PlatformSession())
    # The library leaves the audience to the registration check; a token must also say
    # when it was made and when it expires (a token without exp would never expire).
    message.set_jwt_verify_options({"verify_aud": False, "require": ["exp", "iat"]})
    try:
        body = message.validate().get_launch_data()
    except LtiException as error:
        refusal = _refusal(error)
        log.warning("LTI launch refused (%s): %s", refusal.reason, error)
        raise refusal from None
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        log.warning("LTI launch refused (malformed): %r", error)
        raise LaunchRefused("message", "the launch could not be read") from None
    audiences = body.get("aud") if isinstance(body.get("aud"), list) else [body.get("aud")]
    client_id = audiences[0]
    if len(audiences) > 1 and body.get("azp") != client_id:
        log.warning("LTI launch refused (platform): azp %r among audiences %r",
                    body.get("azp"), audiences)
        raise LaunchRefused("platform", "the token names other audiences without an azp")
    context = body.get(CLAIM + "context") if isinstance(body.get(CLAIM + "context"), dict) else {}
    link = body.get(CLAIM + "resource_link") if isinstance(body.get(CLAIM + "resource_link"),
                                                         dict) else {}
    # An id is kept whole or refused: cut short, two ids could become one. (A course
    # without an id is kept as its activity's, "link:<id>": see courses.course_of_launch.)
    for name, found, longest in (("user", body.get("sub"), lti_store.MAX_ID),
                                 ("course", context.get("id"), lti_store.MAX_ID),
                                 ("activity", link.get("id"), lti_store.MAX_ID - 5)):
        if found is not None and (not isinstance(found, str) or len(found) > longest):
            log.warning("LTI launch refused (message): its %s id is not one", name)
            raise LaunchRefused("message", f"the launch's {name} id is not one")
    platform = lti_store.find_platform(database, body["iss"], client_id)
    roles = body.get(CLAIM + "roles") if isinstance(body.get(CLAIM + "roles"), list) else []
    services = {name: body[claim] for name, claim in (("nrps", NRPS_CLAIM), ("ags", AGS_CLAIM))
                if isinstance(body.get(claim), dict)}
    custom = body.get(CLAIM + "custom")
    name = _text(body.get("name")) or " ".join(
        filter(None, (_text(body.get("given_name")), _text(body.get("family_name")))))
    return Launch(
        platform=platform, deployment_id=_text(body.get(CLAIM + "deployment_id")),
        message_type=_text(body.get(CLAIM + "message_type")), sub=_text(body.get("sub")),
        name=name, email=_text(body.get("email"), 200),
        roles=[r for r in roles if isinstance(r, str)],
        context_id=_text(context.get("id")), context_title=_text(context.get("title"))
        or _text(context.get("label")),
        resource_link_id=_text(link.get("id")),
        custom=custom if isinstance(custom, dict) else {}, services=services,
        launch_id=message.get_launch_id(), message_launch=message)


def deep_link_answer(database, launch_id: str, url: str, title: str,
                     custom: dict) -> tuple[str, str] | None:
    """The signed answer to a deep-linking launch kept under ``launch_id``: where the
    platform wants it (its return URL) and the JWT placing one resource link to ``url``
    with ``custom`` parameters; None when the launch is gone (expired) or was no deep
    linking."""
    from pylti1p3.deep_link_resource import DeepLinkResource
    request = FlaskRequest()
    try:
        message = FlaskMessageLaunch.from_cache(
            launch_id, request, ToolConf(database),
            session_service=LaunchSessions(request, database))
        if not message.is_deep_link_launch():
            return None
        link = message.get_deep_link()
    except LtiException as error:
        log.warning("LTI deep linking answer not made: %s", error)
        return None
    resource = (DeepLinkResource().set_url(url).set_title(title[:200])
                .set_custom_params(custom))
    settings = message.get_launch_data()[DL_CLAIM]
    return settings["deep_link_return_url"], link.get_response_jwt([resource])
