"""DPoP (RFC 9449) with an independent client: requests-oauth2client, which speaks DPoP on its own
(proofs, the server's nonce, DPoP-bound tokens), completes the authorization code flow with PKCE,
calls a resource and refreshes against the server; and what it gets is what the RFC says: bound
tokens, a refresh token that is worthless with another key, a resource refused as Bearer."""
import re
import urllib.parse

import pytest
import requests
from requests_oauth2client import DPoPKey, DPoPToken, EndpointError, OAuth2Client

from seeded_server import CLIENT_ID, PASSWORD, REDIRECT_URI, USERNAME


@pytest.fixture
def metadata(seeded) -> dict:
    return requests.get(f"{seeded.base}/.well-known/oauth-authorization-server", timeout=30).json()


@pytest.fixture
def client(metadata) -> OAuth2Client:
    """A public client of example-app with DPoP-bound tokens, configured from the server's metadata."""
    assert "ES256" in metadata["dpop_signing_alg_values_supported"]
    return OAuth2Client(
        token_endpoint=metadata["token_endpoint"], authorization_endpoint=metadata["authorization_endpoint"],
        client_id=CLIENT_ID, redirect_uri=REDIRECT_URI, dpop_bound_access_tokens=True, dpop_alg="ES256",
        testing=True)  # the test server listens on plain http; the library otherwise insists on https


def browser_sign_in(authorization_url: str) -> str:
    """Signs in on the server's login form as a browser does and returns the redirect it answers with."""
    browser = requests.Session()
    form = browser.get(authorization_url, timeout=30)
    assert form.status_code == 200, form.text
    csrf = re.search(r'name="csrf_token" value="([^"]*)"', form.text)
    assert csrf, "the login form has no csrf_token field"
    fields = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(authorization_url).query))
    answer = browser.post(authorization_url.split("?")[0], timeout=30, allow_redirects=False, data={
        **fields, "username": USERNAME, "password": PASSWORD, "csrf_token": csrf.group(1)})
    assert answer.status_code == 302, answer.text
    return answer.headers["Location"]


def dpop_token(client: OAuth2Client) -> DPoPToken:
    request = client.authorization_request(scope="data.read offline_access", nonce=None)
    response = request.validate_callback(browser_sign_in(str(request)))
    token = client.authorization_code(response)
    assert isinstance(token, DPoPToken), f"the server answered a {type(token).__name__}, not a DPoP-bound token"
    return token


def test_requests_oauth2client_completes_code_pkce_a_resource_call_and_a_refresh_with_dpop(seeded, client):
    token = dpop_token(client)
    assert token.token_type == "DPoP"

    # The library sends `Authorization: DPoP …` with a proof (htm, htu, ath) for the request.
    resource = requests.get(f"{seeded.base}/v1/destinations", auth=token, timeout=30)
    assert resource.status_code == 200, resource.text

    refreshed = client.refresh_token(token)
    assert isinstance(refreshed, DPoPToken)
    assert refreshed.dpop_key.private_key == token.dpop_key.private_key, "the refreshed grant keeps its key"
    assert refreshed.refresh_token != token.refresh_token
    again = requests.get(f"{seeded.base}/v1/destinations", auth=refreshed, timeout=30)
    assert again.status_code == 200, again.text


def test_a_bound_refresh_token_is_worthless_with_another_key_and_a_bound_token_as_bearer(seeded, client):
    token = dpop_token(client)
    stolen = DPoPToken(
        access_token=token.access_token, refresh_token=token.refresh_token, _dpop_key=DPoPKey.generate(alg="ES256"))
    with pytest.raises(EndpointError) as refused:
        client.refresh_token(stolen)
    assert refused.value.error == "invalid_dpop_proof"
    as_bearer = requests.get(f"{seeded.base}/v1/destinations", timeout=30,
                             headers={"Authorization": f"Bearer {token.access_token}"})
    assert as_bearer.status_code == 401
    assert as_bearer.json()["error"] == "invalid_token"
    # The stolen attempt changed nothing: the holder of the key still refreshes.
    assert isinstance(client.refresh_token(token), DPoPToken)
