"""Item actions on the demo's actionable set `sales/Approvals`: the signed-in host decides an
item once with If-Match and an Idempotency-Key, a repeat replays the answer, a changed item is
412, missing headers are 400 and 428, the widgets' grant and API keys are 403, and an approval
above the threshold needs a step-up proof by the key registered with PUT /v1/step-up-key."""
import json
import time
import uuid

import pytest
import requests
from jwskate import Jwk, JwsCompact

from documented_api import DocumentedAPI, bearer
from seeded_server import access_token

ACTION = "/v1/destinations/{destination}/{entitySet}/{item}/actions/{action}"
STEP_UP_KEY = "/v1/step-up-key"
APPROVALS = "/v1/destinations/sales/Approvals"


@pytest.fixture(scope="module")
def host(spec, seeded) -> str:
    """An access token of a grant with the `actions` scope."""
    return access_token(DocumentedAPI(spec, seeded.base), seeded.refresh_tokens["actions"])


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
        act(api, 403, token, "PR-1003", key=str(uuid.uuid4()), if_match=etag)
    api.expect(403, "POST", f"{APPROVALS}/PR-1003/actions/approve", ACTION,
               headers={**v1.kiosk, "Idempotency-Key": str(uuid.uuid4()), "If-Match": etag})


def test_a_high_value_approval_steps_up_with_the_registered_key(api, seeded, host):
    key = Jwk.generate(alg="ES256")
    public = {name: value for name, value in key.public_jwk().items() if name in ("kty", "crv", "x", "y")}
    api.expect(200, "PUT", STEP_UP_KEY, STEP_UP_KEY, headers=bearer(host), json_body={"jwk": public})
    api.expect(200, "PUT", STEP_UP_KEY, STEP_UP_KEY, headers=bearer(host), json_body={"jwk": public})
    other = {name: value for name, value in Jwk.generate(alg="ES256").public_jwk().items() if name in ("kty", "crv", "x", "y")}
    api.expect(409, "PUT", STEP_UP_KEY, STEP_UP_KEY, headers=bearer(host), json_body={"jwk": other})

    etag = approvals(api, host)["PR-1002"]["ETag"]
    idempotency_key = str(uuid.uuid4())
    refused = act(api, 401, host, "PR-1002", key=idempotency_key, if_match=etag)
    assert refused.json()["error"] == "insufficient_user_authentication"
    issuer = requests.get(f"{seeded.base}/.well-known/oauth-authorization-server", timeout=30).json()["issuer"]
    claims = {"jti": idempotency_key, "iat": int(time.time()), "htu": f"{issuer}{APPROVALS}/PR-1002/actions/approve",
              "if_match": etag, "action": "approve"}
    proof = JwsCompact.sign(json.dumps(claims).encode(), key=key, alg="ES256",
                            extra_headers={"typ": "tandem-step-up+jwt", "jwk": public})
    decided = act(api, 200, host, "PR-1002", key=idempotency_key, if_match=etag, extra={"Tandem-Step-Up": str(proof)})
    assert decided.json()["status"] == "approved"


def test_the_app_configuration_names_its_action_policy(api):
    answer = api.expect(200, "GET", "/v1/apps/tandem-demo/configuration", "/v1/apps/{clientId}/configuration")
    assert answer.json()["action_policy"] == {"amount_field": "Amount", "step_up_above": "1000.00"}
