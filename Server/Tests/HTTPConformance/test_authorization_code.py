"""Sign-in with the authorization code flow and PKCE (RFC 7636, S256), as a browser does it: the
login form, its refusals, the redirect with the code, and the code's single redemption."""
import re
import secrets
import urllib.parse

import pytest
from authlib.oauth2.rfc7636 import create_s256_code_challenge

from seeded_server import CLIENT_ID, PASSWORD, REDIRECT_URI, USERNAME

AUTHORIZE = "/oauth/authorize"
TOKEN = "/oauth/token"
STATE = "st-123"


@pytest.fixture
def verifier() -> str:
    return secrets.token_urlsafe(32)


@pytest.fixture
def fields(verifier) -> dict:
    """An authorization request of example-app with an S256 challenge."""
    return {"response_type": "code", "client_id": CLIENT_ID, "redirect_uri": REDIRECT_URI,
            "scope": "data.read offline_access", "state": STATE,
            "code_challenge": create_s256_code_challenge(verifier), "code_challenge_method": "S256"}


def login_form_token(api, fields) -> str:
    """GETs the login form (a documented 200) and returns its CSRF token."""
    body = api.expect(200, "GET", f"{AUTHORIZE}?{urllib.parse.urlencode(fields)}", AUTHORIZE).body
    found = re.search(rb'name="csrf_token" value="([^"]*)"', body)
    assert found, "the login form has no csrf_token hidden field"
    return found.group(1).decode()


def sign_in(api, fields, password=PASSWORD, csrf_token=None, expect=302):
    """Posts the login form, with a fresh form's token unless `csrf_token` is given."""
    token = csrf_token or login_form_token(api, fields)
    return api.expect(expect, "POST", AUTHORIZE, AUTHORIZE,
                      form={**fields, "username": USERNAME, "password": password, "csrf_token": token})


def test_the_authorize_endpoint_shows_a_login_form_with_a_csrf_token(api, fields):
    assert login_form_token(api, fields)


def test_an_unknown_client_is_refused_without_a_redirect(api, fields):
    query = urllib.parse.urlencode({**fields, "client_id": "no-such-app"})
    api.expect(400, "GET", f"{AUTHORIZE}?{query}", AUTHORIZE)


def test_a_plain_pkce_challenge_is_refused_by_a_redirect(api, fields):
    query = urllib.parse.urlencode({**fields, "code_challenge_method": "plain"})
    api.expect(302, "GET", f"{AUTHORIZE}?{query}", AUTHORIZE)


def test_a_wrong_csrf_token_is_forbidden(api, fields):
    login_form_token(api, fields)
    sign_in(api, fields, csrf_token="tdf_wrong", expect=403)


def test_a_wrong_password_is_unauthorized(api, fields):
    sign_in(api, fields, password="wrong-password", expect=401)


def test_signing_in_redirects_with_the_code_and_the_state_and_sets_a_session_cookie(api, fields):
    location = sign_in(api, fields).headers.get("Location", "")
    parameters = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query))
    assert parameters.get("state") == STATE, f"the redirect {location} does not carry state={STATE}"
    assert parameters.get("code"), f"the redirect {location} carries no code"
    assert any(cookie.name == "tandem_session" for cookie in api.cookies), "no tandem_session cookie was set"


def test_the_code_is_redeemed_once_with_its_verifier(api, fields, verifier):
    location = sign_in(api, fields).headers.get("Location", "")
    code = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query))["code"]
    redemption = {"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT_URI,
                  "client_id": CLIENT_ID, "code_verifier": verifier}
    api.expect(200, "POST", TOKEN, TOKEN, form=redemption)
    api.expect(400, "POST", TOKEN, TOKEN, form=redemption)
