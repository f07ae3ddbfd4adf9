"""Item actions on the demo's actionable set `sales/Approvals` (decided through example-app by the
group `approvers`, which ada is in): the signed-in host decides an item once with If-Match and
an Idempotency-Key, a repeat replays the answer, a changed item is 412, missing headers are 400
and 428, the widgets' grant and API keys are 403 `insufficient_scope`, a user the set's rules do
not name is 403 `not_permitted`, refusals past the app's bucket are 429, and an approval above
the threshold needs a step-up proof by the key enrolled for the sign-in: with the code
(`step_up_key`) or, right after it, with PUT /v1/step-up-key."""
import re
import secrets
import urllib.parse
import uuid

import pytest
import requests
from authlib.oauth2.rfc7636 import create_s256_code_challenge

from documented_api import DocumentedAPI, bearer
from seeded_server import CLIENT_ID, USERNAME, access_token
from tandem_proofs import ProofKey

ACTION = "/v1/destinations/{destination}/{entitySet}/{item}/actions/{action}"
STEP_UP_KEY = "/v1/step-up-key"
APPROVALS = "/v1/destinations/sales/Approvals"
AUTHORIZE, TOKEN = "/oauth/authorize", "/oauth/token"
DEMO_CLIENT_ID, DEMO_REDIRECT_URI, DEMO_USERNAME, DEMO_PASSWORD = "tandem-demo", "tandem-demo://oauth/callback", "demo", "demo-password"


@pytest.fixture(scope="module")
def host(spec, seeded) -> str:
    """An access token of a grant with the `actions` scope."""
    return access_token(DocumentedAPI(spec, seeded.base), seeded.refresh_tokens["actions"])


@pytest.fixture(scope="module")
def issuer(seeded) -> str:
    return requests.get(f"{seeded.base}/.well-known/oauth-authorization-server", timeout=30).json()["issuer"]


def approvals(api, token) -> dict:
    answer = api.expect(200, "GET", APPROVALS + "?limit=50", "/v1/destinations/{destination}/{entitySet}", headers=bearer(token))
    return {row["ApprovalID"]: row for row in answer.json()["items"]}


def act(api, status, token, item, action="approve", key=None, if_match=None, extra=None):
    headers = {**bearer(token), **(extra or {})}
    if key:
        headers["Idempotency-Key"] = key
    if if_match:
        headers["If-Match"] = if_match
    return api.expect(status, "POST", f"{APPROVALS}/{item}/actions/{action}", ACTION, headers=headers)


def test_the_host_decides_once_and_a_repeat_replays(api, host):
    row = approvals(api, host)["PR-1001"]
    assert row["Status"] == "pending"
    key = str(uuid.uuid4())
    first = act(api, 200, host, "PR-1001", key=key, if_match=row["ETag"])
    assert first.json()["status"] == "approved" and first.json()["etag"] != row["ETag"]
    again = act(api, 200, host, "PR-1001", key=key, if_match=row["ETag"])
    assert again.json() == first.json() and again.headers.get("Idempotent-Replayed") == "true"
    act(api, 422, host, "PR-1001", action="reject", key=key, if_match=row["ETag"])
    stale = act(api, 412, host, "PR-1001", action="reject", key=str(uuid.uuid4()), if_match=row["ETag"])
    assert stale.json()["current_etag"] == first.json()["etag"]
    act(api, 409, host, "PR-1001", action="reject", key=str(uuid.uuid4()), if_match=first.json()["etag"])


def test_missing_headers_and_other_credentials_are_refused(api, v1, host):
    etag = approvals(api, host)["PR-1003"]["ETag"]
    act(api, 400, host, "PR-1003", if_match=etag)
    act(api, 428, host, "PR-1003", key=str(uuid.uuid4()))
    act(api, 404, host, "PR-9999", key=str(uuid.uuid4()), if_match=etag)
    for token in (v1.extension, v1.full):
        assert act(api, 403, token, "PR-1003", key=str(uuid.uuid4()), if_match=etag).json()["error"] == "insufficient_scope"
    api.expect(403, "POST", f"{APPROVALS}/PR-1003/actions/approve", ACTION,
               headers={**v1.kiosk, "Idempotency-Key": str(uuid.uuid4()), "If-Match": etag})


def test_a_user_the_sets_rules_do_not_name_is_not_permitted(api, spec, seeded, host):
    outsider = access_token(DocumentedAPI(spec, seeded.base), seeded.refresh_tokens["outsider"])
    etag = approvals(api, host)["PR-1005"]["ETag"]
    refused = act(api, 403, outsider, "PR-1005", key=str(uuid.uuid4()), if_match=etag)
    assert refused.json()["error"] == "not_permitted"
    assert approvals(api, host)["PR-1005"]["Status"] == "pending"


def enrolment_body(key: ProofKey, url: str) -> dict:
    return {"enrolment": key.enrolment(url)}


def test_a_high_value_approval_steps_up_with_the_key_enrolled_after_the_sign_in(api, spec, seeded, issuer):
    # A sign-in of a moment ago: a key is enrolled after the sign-in only within minutes of it.
    fresh = seeded.server.admin("issue-refresh-token", "--username", USERNAME, "--client-id", CLIENT_ID,
                                "--scope", "data.read data.write events.write offline_access actions").splitlines()[0]
    token = access_token(DocumentedAPI(spec, seeded.base), fresh)
    key, url = ProofKey(), issuer + STEP_UP_KEY
    api.expect(400, "PUT", STEP_UP_KEY, STEP_UP_KEY, headers=bearer(token), json_body={"jwk": key.public})
    api.expect(400, "PUT", STEP_UP_KEY, STEP_UP_KEY, headers=bearer(token), json_body=enrolment_body(key, issuer + TOKEN))
    enrolled = api.expect(200, "PUT", STEP_UP_KEY, STEP_UP_KEY, headers=bearer(token), json_body=enrolment_body(key, url))
    assert enrolled.json()["jkt"] == key.thumbprint
    api.expect(200, "PUT", STEP_UP_KEY, STEP_UP_KEY, headers=bearer(token), json_body=enrolment_body(key, url))
    conflict = api.expect(409, "PUT", STEP_UP_KEY, STEP_UP_KEY, headers=bearer(token), json_body=enrolment_body(ProofKey(), url))
    assert conflict.json()["error"] == "step_up_key_conflict"

    etag = approvals(api, token)["PR-1002"]["ETag"]
    idempotency_key = str(uuid.uuid4())
    refused = act(api, 401, token, "PR-1002", key=idempotency_key, if_match=etag)
    assert refused.json()["error"] == "insufficient_user_authentication"
    proof = key.step_up(f"{issuer}{APPROVALS}/PR-1002/actions/approve", "approve", etag, idempotency_key)
    decided = act(api, 200, token, "PR-1002", key=idempotency_key, if_match=etag, extra={"Tandem-Step-Up": proof})
    assert decided.json()["status"] == "approved"


def test_a_sign_in_enrols_its_step_up_key_with_the_code(api, issuer):
    """The demo user through tandem-demo (each user's actions are limited per app: ada's are spent)."""
    verifier, key = secrets.token_urlsafe(32), ProofKey()
    fields = {"response_type": "code", "client_id": DEMO_CLIENT_ID, "redirect_uri": DEMO_REDIRECT_URI, "state": "st",
              "scope": "data.read offline_access actions", "code_challenge": create_s256_code_challenge(verifier),
              "code_challenge_method": "S256"}
    form = api.expect(200, "GET", f"{AUTHORIZE}?{urllib.parse.urlencode(fields)}", AUTHORIZE).body
    csrf = re.search(rb'name="csrf_token" value="([^"]*)"', form).group(1).decode()
    location = api.expect(302, "POST", AUTHORIZE, AUTHORIZE, form={
        **fields, "username": DEMO_USERNAME, "password": DEMO_PASSWORD, "csrf_token": csrf}).headers["Location"]
    code = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query))["code"]
    redemption = {"grant_type": "authorization_code", "code": code, "redirect_uri": DEMO_REDIRECT_URI, "client_id": DEMO_CLIENT_ID,
                  "code_verifier": verifier}
    # An enrolment made for another URL is refused before the code is spent.
    api.expect(400, "POST", TOKEN, TOKEN, form={**redemption, "step_up_key": key.enrolment(issuer + STEP_UP_KEY)})
    token = api.expect(200, "POST", TOKEN, TOKEN, form={**redemption, "step_up_key": key.enrolment(issuer + TOKEN)}).json()["access_token"]
    api.expect(409, "PUT", STEP_UP_KEY, STEP_UP_KEY, headers=bearer(token), json_body=enrolment_body(ProofKey(), issuer + STEP_UP_KEY))

    etag = approvals(api, token)["PR-1004"]["ETag"]
    idempotency_key = str(uuid.uuid4())
    proof = key.step_up(f"{issuer}{APPROVALS}/PR-1004/actions/approve", "approve", etag, idempotency_key)
    decided = act(api, 200, token, "PR-1004", key=idempotency_key, if_match=etag, extra={"Tandem-Step-Up": proof})
    assert decided.json()["status"] == "approved"


def test_the_app_configuration_names_its_action_policy(api):
    answer = api.expect(200, "GET", "/v1/apps/tandem-demo/configuration", "/v1/apps/{clientId}/configuration")
    assert answer.json()["action_policy"] == {"amount_field": "Amount", "step_up_above": "1000.00"}
    assert "actions" in answer.json()["default_scope"].split()


def test_refusals_past_the_apps_bucket_are_too_many_requests(api, v1, host):
    """Refusals spend a bucket per app and address (a burst of 20) before anything is written."""
    etag = approvals(api, host)["PR-1003"]["ETag"]
    for _ in range(40):
        answer = api.call("POST", f"{APPROVALS}/PR-1003/actions/approve", ACTION,
                          headers={**v1.kiosk, "Idempotency-Key": str(uuid.uuid4()), "If-Match": etag})
        assert not answer.problems, f"{answer.describe()}: {answer.problems}"
        if answer.status == 429:
            break
    assert answer.status == 429 and answer.json()["error"] == "rate_limited", answer.describe()
