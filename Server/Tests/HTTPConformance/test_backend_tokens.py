"""The token the server sends a customer's backend for a user (principal propagation), checked as
a backend would check it: with a third party's JOSE library (joserfc) and the keys the server
publishes at its `jwks_uri`, not with Tandem's own code. Minted by `tandem admin backend-token`,
which operators use to try their backend's validator."""
import json

import requests
from joserfc import jwt
from joserfc.jwk import KeySet

from seeded_server import CLIENT_ID, USERNAME

AUDIENCE = "https://erp.example.test/api"


def metadata(seeded) -> dict:
    return requests.get(f"{seeded.base}/.well-known/oauth-authorization-server", timeout=30).json()


def mint(seeded, *extra: str, audience: str = AUDIENCE) -> str:
    return seeded.server.admin("backend-token", "--username", USERNAME, "--client-id", CLIENT_ID, "--audience", audience,
                               "--issuer", metadata(seeded)["issuer"], *extra).strip()


def validated(seeded, token: str, audience: str = AUDIENCE) -> jwt.Token:
    document = metadata(seeded)
    keys = KeySet.import_key_set(requests.get(document["jwks_uri"], timeout=30).json())
    decoded = jwt.decode(token, keys, algorithms=["ES256"])
    jwt.JWTClaimsRegistry(
        iss={"essential": True, "value": document["issuer"]}, aud={"essential": True, "value": audience},
        sub={"essential": True}, exp={"essential": True}, iat={"essential": True}, jti={"essential": True},
    ).validate(decoded.claims)
    return decoded


def test_a_backend_validates_the_token_with_the_published_keys(seeded):
    token = validated(seeded, mint(seeded))
    assert token.header["typ"] == "at+jwt" and token.header["alg"] == "ES256"
    claims = token.claims
    assert claims["preferred_username"] == USERNAME and claims["client_id"] == CLIENT_ID == claims["azp"]
    assert claims["exp"] - claims["iat"] == 300 and "act" not in claims
    assert set(claims) == {"aud", "azp", "client_id", "exp", "iat", "iss", "jti", "preferred_username", "sub"}


def test_a_widgets_token_names_the_widgets_as_acting(seeded):
    claims = validated(seeded, mint(seeded, "--as-widget")).claims
    assert claims["act"] == {"sub": f"{CLIENT_ID}:widgets", "client_id": CLIENT_ID}


def test_another_backend_refuses_it(seeded):
    token = mint(seeded)
    try:
        validated(seeded, token, audience="https://other.example.test")
    except Exception as error:  # joserfc's InvalidClaimError
        assert "aud" in str(error)
    else:
        raise AssertionError("a token for one backend validated for another")


def test_tandem_itself_refuses_a_backend_token(seeded):
    answer = requests.get(f"{seeded.base}/v1/destinations", headers={"Authorization": f"Bearer {mint(seeded)}"}, timeout=30)
    assert answer.status_code == 401


def test_minting_is_audited_without_the_token(seeded):
    token = mint(seeded, audience="https://audited.example.test")
    lines = [json.loads(line) for line in seeded.server.admin("audit", "--limit", "200").splitlines() if line.startswith("{")]
    minted = [line for line in lines if line.get("kind") == "backend.token_minted" and "https://audited.example.test" in line.get("detail", "")]
    assert len(minted) == 1 and token not in json.dumps(minted)
