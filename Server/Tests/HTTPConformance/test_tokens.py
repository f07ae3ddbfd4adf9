"""The token endpoints after sign-in: refresh with rotation, introspection by a resource server
(X-API-Key or Basic), token exchange for a widget extension (a DPoP-bound one only with a proof
by its key, bound to the key of its `Tandem-DPoP-Bind` proof), the SSO passcode grant's scope,
and revocation."""
import base64

import pytest

from documented_api import DocumentedAPI
from seeded_server import CLIENT_ID, USERNAME
from tandem_proofs import ProofKey

TOKEN, INTROSPECT, REVOKE = "/oauth/token", "/oauth/introspect", "/oauth/revoke"


def refresh(api, refresh_token: str, expect=200):
    return api.expect(expect, "POST", TOKEN, TOKEN,
                      form={"grant_type": "refresh_token", "client_id": CLIENT_ID, "refresh_token": refresh_token})


@pytest.fixture(scope="module")
def rotated(spec, seeded) -> dict:
    """The `rotation` grant refreshed once: {"access_token": …, "refresh_token": its successor, …}."""
    return refresh(DocumentedAPI(spec, seeded.base), seeded.refresh_tokens["rotation"]).json()


def test_a_refresh_returns_an_access_token_and_a_successor(seeded, rotated):
    assert rotated["access_token"] and rotated["refresh_token"]
    assert rotated["refresh_token"] != seeded.refresh_tokens["rotation"]


def test_a_resource_server_introspects_an_access_token_with_its_api_key(api, seeded, rotated):
    api.expect(200, "POST", INTROSPECT, INTROSPECT, form={"token": rotated["access_token"]},
               headers={"X-API-Key": seeded.api_key})


def test_a_resource_server_introspects_a_refresh_token_with_basic_authentication(api, seeded, rotated):
    basic = base64.b64encode(f"{CLIENT_ID}:{seeded.api_key}".encode()).decode()
    api.expect(200, "POST", INTROSPECT, INTROSPECT, form={"token": rotated["refresh_token"], "token_type_hint": "refresh_token"},
               headers={"Authorization": f"Basic {basic}"})


def test_introspection_without_a_key_is_unauthorized(api, rotated):
    api.expect(401, "POST", INTROSPECT, INTROSPECT, form={"token": rotated["access_token"]})


def test_token_exchange_issues_an_extension_grant(api, rotated):
    api.expect(200, "POST", TOKEN, TOKEN, form={
        "grant_type": "urn:ietf:params:oauth:grant-type:token-exchange", "client_id": CLIENT_ID,
        "subject_token": rotated["access_token"], "subject_token_type": "urn:ietf:params:oauth:token-type:access_token",
        "requested_token_type": "urn:ietf:params:oauth:token-type:refresh_token"})


def test_a_revoked_refresh_token_no_longer_refreshes_and_introspects_as_inactive(api, seeded):
    successor = refresh(api, seeded.refresh_tokens["revocation"]).json()["refresh_token"]
    api.expect(200, "POST", REVOKE, REVOKE, form={"token": successor, "token_type_hint": "refresh_token", "client_id": CLIENT_ID})
    refresh(api, successor, expect=400)
    introspection = api.expect(200, "POST", INTROSPECT, INTROSPECT, form={"token": successor},
                               headers={"X-API-Key": seeded.api_key}).json()
    assert introspection.get("active") is False, f"the revoked token introspects as {introspection}"


def test_revoking_an_unknown_token_succeeds(api):
    api.expect(200, "POST", REVOKE, REVOKE, form={"token": "tdr_unknown", "client_id": CLIENT_ID})


TOKEN_EXCHANGE = {"grant_type": "urn:ietf:params:oauth:grant-type:token-exchange", "client_id": CLIENT_ID,
                  "subject_token_type": "urn:ietf:params:oauth:token-type:access_token"}


def with_nonce(api, form: dict, proofs) -> object:
    """POSTs `form` to the token endpoint with the headers `proofs(nonce)` makes, after learning
    the server's nonce (every answer carries it); a documented 200 expected."""
    nonce = api.call("POST", TOKEN, TOKEN, form={"grant_type": "refresh_token", "client_id": CLIENT_ID,
                                                 "refresh_token": "tdr_unknown"}).headers["DPoP-Nonce"]
    return api.expect(200, "POST", TOKEN, TOKEN, form=form, headers=proofs(nonce))


def test_a_bound_token_is_exchanged_only_with_a_proof_by_its_key_for_a_grant_bound_to_the_bind_proofs_key(api, seeded):
    host, widgets = ProofKey(), ProofKey()
    issued = seeded.server.admin("issue-refresh-token", "--username", USERNAME, "--client-id", CLIENT_ID,
                                 "--count", "2", f"--dpop-jkt={host.thumbprint}").splitlines()[0]
    url = api.base + TOKEN
    subject = with_nonce(api, {"grant_type": "refresh_token", "client_id": CLIENT_ID, "refresh_token": issued},
                         lambda nonce: {"DPoP": host.dpop("POST", url, nonce=nonce)}).json()["access_token"]
    refused = api.expect(400, "POST", TOKEN, TOKEN, form={**TOKEN_EXCHANGE, "subject_token": subject})
    assert refused.json()["error"] == "invalid_dpop_proof"
    exchanged = with_nonce(api, {**TOKEN_EXCHANGE, "subject_token": subject}, lambda nonce: {
        "DPoP": host.dpop("POST", url, nonce=nonce, access_token=subject),
        "Tandem-DPoP-Bind": widgets.dpop("POST", url, nonce=nonce)}).json()
    assert exchanged["token_type"] == "DPoP"
    with_nonce(api, {"grant_type": "refresh_token", "client_id": CLIENT_ID, "refresh_token": exchanged["refresh_token"]},
               lambda nonce: {"DPoP": widgets.dpop("POST", url, nonce=nonce)})


def test_the_sso_passcode_grant_refuses_a_scope_beyond_a_users(api):
    answer = api.expect(400, "POST", TOKEN, TOKEN, form={
        "grant_type": "urn:tandem:params:oauth:grant-type:sso-passcode", "client_id": CLIENT_ID, "sso_passcode": "unknown",
        "device_secret": "d" * 32, "scope": "data.read admin"})
    assert answer.json()["error"] == "invalid_scope"
