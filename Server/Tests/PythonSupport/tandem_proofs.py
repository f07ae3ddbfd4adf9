"""The key-bound proofs a Tandem client signs, made independently of the SDK (with jwskate): DPoP
proofs (RFC 9449), step-up key enrolments and step-up proofs. Each is a compact ES256 JWS whose
header names its type (`typ`) and the P-256 public key that signed it (`jwk`)."""
import base64
import hashlib
import json
import secrets
import time

from jwskate import Jwk, JwsCompact

DPOP_TYPE = "dpop+jwt"
ENROLMENT_TYPE = "tandem-step-up-key+jwt"
STEP_UP_TYPE = "tandem-step-up+jwt"


def base64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def access_token_hash(token: str) -> str:
    """`ath`: base64url(SHA-256(token)), what a proof made for a use of `token` carries."""
    return base64url(hashlib.sha256(token.encode()).digest())


class ProofKey:
    """A P-256 key that signs proofs (a host's DPoP key, a widgets' key, a step-up key)."""

    def __init__(self):
        self.key = Jwk.generate(alg="ES256")

    @property
    def public(self) -> dict:
        """The public JWK, with only the members RFC 7638 hashes (`kty`, `crv`, `x`, `y`)."""
        return {name: value for name, value in self.key.public_jwk().items() if name in ("kty", "crv", "x", "y")}

    @property
    def thumbprint(self) -> str:
        """The RFC 7638 SHA-256 thumbprint: the `jkt` a grant bound to this key names."""
        canonical = json.dumps({name: self.public[name] for name in ("crv", "kty", "x", "y")}, separators=(",", ":"))
        return base64url(hashlib.sha256(canonical.encode()).digest())

    def sign(self, typ: str, claims: dict, header_key: dict | None = None) -> str:
        """A compact JWS of type `typ` over `claims`, signed by this key; the header names
        `header_key` (default: this key's public JWK), so a test can lie about who signed."""
        return str(JwsCompact.sign(json.dumps(claims).encode(), key=self.key, alg="ES256",
                                   extra_headers={"typ": typ, "jwk": header_key or self.public}))

    def dpop(self, method: str, url: str, nonce: str | None = None, access_token: str | None = None, **extra) -> str:
        """A DPoP proof for `method` `url` (`htu`: no query), with the server's `nonce` and,
        for a use of `access_token`, its hash (`ath`); `extra` claims override the others."""
        claims = {"jti": secrets.token_urlsafe(16), "htm": method, "htu": url.split("?")[0], "iat": int(time.time())}
        if nonce is not None:
            claims["nonce"] = nonce
        if access_token is not None:
            claims["ath"] = access_token_hash(access_token)
        return self.sign(DPOP_TYPE, {**claims, **extra})

    def enrolment(self, url: str, **extra) -> str:
        """A step-up key enrolment of this key, made for the endpoint at `url`."""
        return self.sign(ENROLMENT_TYPE, {"jti": secrets.token_urlsafe(16), "iat": int(time.time()), "htu": url, **extra})

    def step_up(self, url: str, action: str, if_match: str, idempotency_key: str) -> str:
        """A step-up proof for deciding an item: `action` at `url` on the version `if_match`,
        under `idempotency_key` (its `jti`)."""
        return self.sign(STEP_UP_TYPE, {"jti": idempotency_key, "iat": int(time.time()), "htu": url,
                                        "if_match": if_match, "action": action})
