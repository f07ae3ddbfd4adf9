"""S4-05: the audit log as a write primitive. The kiosk's API key ships inside every copy of its app;
each refused action request wrote one `action.refused` row before any limit (120 rows in
0.3 s). Refusals on the action and step-up endpoints now spend a per-app-and-address bucket
first (past it `429`, nothing written) and their audit lines are sampled per kind, app and
address: a flood leaves a handful of lines, whoever sends it."""
import secrets

import pytest

from security_probe import ACTIONS_SCOPE, APPROVALS, DEMO_CLIENT_ID, DEMO_USERNAME, KIOSK_CLIENT_ID, describe

FLOOD = 120
# A line for the first refusal, perhaps one more counting those left out: never one per request.
HANDFUL = 3
MALLORY, UNRELATED = "mallory", "unrelated-app"


@pytest.fixture(scope="module")
def probe(probed_server):
    probe = probed_server("s4-05-audit-flood")
    probe.seed_demo()
    probe.create_user(MALLORY)
    probe.create_app(UNRELATED)
    probe.start()
    yield probe
    probe.stop()


def flood(probe, client_id: str, send) -> tuple[dict, int]:
    """Sends FLOOD requests of `client_id`; how many got each status, and how many refusal
    lines (`*.refused`) the audit log gained for the app meanwhile."""
    before = refused_lines(probe, client_id)
    statuses = {}
    for _ in range(FLOOD):
        status = send().status_code
        statuses[status] = statuses.get(status, 0) + 1
    return statuses, refused_lines(probe, client_id) - before


def refused_lines(probe, client_id: str) -> int:
    return sum(1 for line in probe.audit() if line.get("client_id") == client_id and line.get("kind", "").endswith(".refused"))


def test_the_kiosk_key_cannot_fill_the_audit_log_through_the_action_endpoint(probe):
    etag = probe.rows()["PR-1001"]["ETag"]
    kiosk = {"X-API-Key": probe.kiosk_key}
    statuses, lines = flood(probe, KIOSK_CLIENT_ID, lambda: probe.call("POST", f"{APPROVALS}/PR-1001/actions/approve", headers={
        **kiosk, "Idempotency-Key": secrets.token_urlsafe(12), "If-Match": etag}))
    assert lines <= HANDFUL, f"{FLOOD} refused requests ({statuses}) wrote {lines} audit lines"
    assert set(statuses) <= {403, 429}, statuses
    assert statuses.get(429, 0) > 0, f"{FLOOD} refused requests and none limited: {statuses}"
    assert probe.rows()["PR-1001"]["Status"] == "pending"


def test_the_kiosk_key_cannot_fill_the_audit_log_through_the_step_up_key_endpoint(probe):
    kiosk = {"X-API-Key": probe.kiosk_key}
    statuses, lines = flood(probe, KIOSK_CLIENT_ID, lambda: probe.call("PUT", "/v1/step-up-key", headers=kiosk, json={"jwk": {}}))
    assert lines <= HANDFUL, f"{FLOOD} refused requests ({statuses}) wrote {lines} audit lines"
    assert set(statuses) <= {403, 429}, statuses


def test_a_token_without_actions_cannot_fill_the_audit_log(probe):
    token = probe.tokens(DEMO_CLIENT_ID, probe.issue_refresh_token(DEMO_USERNAME, DEMO_CLIENT_ID, scope="data.read offline_access"))["access_token"]
    statuses, lines = flood(probe, DEMO_CLIENT_ID, lambda: probe.decide(token, "PR-1003", if_match='"any"'))
    assert lines <= HANDFUL, f"{FLOOD} requests without actions ({statuses}) wrote {lines} audit lines"
    assert set(statuses) <= {403, 429}, statuses


def test_a_user_no_set_permits_cannot_fill_the_audit_log(probe):
    token = probe.tokens(UNRELATED, probe.issue_refresh_token(MALLORY, UNRELATED, scope=ACTIONS_SCOPE))["access_token"]
    first = probe.decide(token, "PR-1005")
    assert first.status_code == 403, f"a user of an unrelated app decided an item: {describe(first)}"
    statuses, lines = flood(probe, UNRELATED, lambda: probe.decide(token, "PR-1005", if_match=first.request.headers["If-Match"]))
    assert lines <= HANDFUL, f"{FLOOD} refused decisions ({statuses}) wrote {lines} audit lines"
    assert set(statuses) <= {403, 429}, statuses
