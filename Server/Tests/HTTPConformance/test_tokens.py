"""The token endpoints after sign-in: refresh with rotation, introspection by a resource server
(X-API-Key or Basic), token exchange for a widget extension, and revocation."""
import base64

import pytest

from documented_api import DocumentedAPI
from seeded_server import CLIENT_ID

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
