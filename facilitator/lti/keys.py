"""The facilitator's own signing keys: made on first need, published at /lti/jwks.json,
rotated by ``facilitator lti rotate-keys``.

A rotated key stays published for :data:`GRACE` after it stops signing: a platform
that fetched the key set before the rotation still checks what that key signed (a
token request or a deep-linking answer in flight).
"""
from __future__ import annotations

import json
from datetime import timedelta

from jwcrypto.jwk import JWK

from ..store import lti as lti_store

#: How long a retired key stays published.
GRACE = timedelta(days=2)
#: RSA modulus size of a new key (the LTI security framework asks for RS256).
KEY_BITS = 2048


def new_key() -> tuple[str, str, dict]:
    """A new RSA key: its id (the JWK thumbprint), private PEM and public JWK."""
    key = JWK.generate(kty="RSA", size=KEY_BITS)
    kid = key.thumbprint()
    public = json.loads(key.export_public())
    public.update({"kid": kid, "alg": "RS256", "use": "sig"})
    pem = key.export_to_pem(private_key=True, password=None).decode("ascii")
    return kid, pem, public


def signing_key(database) -> dict:
    """The key that signs now, made when there is none yet."""
    found = lti_store.signing_key(database)
    if found is None:
        kid, pem, public = new_key()
        lti_store.add_key(database, kid, pem, public)
        found = lti_store.signing_key(database)
    return found


def rotate(database) -> str:
    """Make a new signing key and retire the others (still published for GRACE);
    returns the new key's id."""
    kid, pem, public = new_key()
    lti_store.add_key(database, kid, pem, public, retire_others=True)
    return kid


def jwks(database) -> dict:
    """The key set to publish: ``{"keys": [public JWK, ...]}``."""
    signing_key(database)
    return {"keys": lti_store.published_keys(database, GRACE)}
