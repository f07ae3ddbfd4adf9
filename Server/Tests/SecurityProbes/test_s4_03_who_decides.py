"""S4-03: nobody checked who may decide an item. The demo's `sales/Approvals` is decided through the
app `tandem-demo` by the group `approvers` (seed-demo puts the demo user in it), never by an
item's requester, with a step-up above 1000.00 in `Amount`. A user of an unrelated app, a user
of the listed app outside the group and an item's requester are refused (`403 not_permitted`),
`actions` is not in anyone's default scope, and the threshold is the set's, whichever app calls.

On a server from before the approvers (no `set-actionable --app`), the sets are made actionable
the only way it knew, and the looser app gets the per-app action policy such a server read (the
row its cockpit wrote): that is the server under attack."""
import json

import pytest

from security_probe import ACTIONS_SCOPE, DEMO_CLIENT_ID, DEMO_USERNAME, describe, error_of

MALLORY = "mallory"
UNRELATED, LOOSER, BACK_OFFICE = "unrelated-app", "looser-app", "back-office"
REQUESTS = "/v1/destinations/probe/Requests"
LOOSE_POLICY = {"amount_field": "Amount", "step_up_above": "1000000.00"}


@pytest.fixture(scope="module")
def probe(probed_server):
    probe = probed_server("s4-03-who-decides")
    probe.seed_demo()
    probe.mallory_password = probe.create_user(MALLORY)
    probe.unrelated_redirect = probe.create_app(UNRELATED)
    probe.create_app(LOOSER)
    probe.create_app(BACK_OFFICE, "--security-mode", "apiKey")
    probe.back_office_key = probe.admin("create-api-key", "--client-id", BACK_OFFICE).strip()
    probe.grant_writes(BACK_OFFICE, "probe")
    if probe.knows("set-actionable", "--app"):
        probe.admin("set-actionable", "--destination", "sales", "--entity-set", "Approvals", "--id-field", "ApprovalID",
                    "--app", DEMO_CLIENT_ID, "--app", LOOSER, "--approver-group", "approvers", "--requester-field", "Requester",
                    "--step-up-above", "1000.00", "--amount-field", "Amount")
    if probe.query("SELECT name FROM sqlite_master WHERE name = 'app_action_policies'"):
        probe.execute("INSERT INTO app_action_policies (client_id, policy, updated_at) VALUES (?, ?, 0)",
                      LOOSER, json.dumps(LOOSE_POLICY, sort_keys=True))
    probe.start()
    probe.tokens_of = {
        (user, client): probe.tokens(client, probe.issue_refresh_token(user, client, scope=ACTIONS_SCOPE))["access_token"]
        for user, client in [(MALLORY, UNRELATED), (MALLORY, DEMO_CLIENT_ID), (DEMO_USERNAME, DEMO_CLIENT_ID), (DEMO_USERNAME, LOOSER)]}
    yield probe
    probe.stop()


def refused(answer) -> bool:
    return answer.status_code == 403 and error_of(answer) == "not_permitted"


def test_a_user_of_an_unrelated_app_cannot_decide_the_demos_approvals(probe):
    answer = probe.decide(probe.tokens_of[MALLORY, UNRELATED], "PR-1001")
    assert refused(answer), describe(answer)
    assert probe.rows()["PR-1001"]["Status"] == "pending"


def test_a_user_of_the_listed_app_outside_the_approvers_group_cannot_decide(probe):
    answer = probe.decide(probe.tokens_of[MALLORY, DEMO_CLIENT_ID], "PR-1003", action="reject")
    assert refused(answer), describe(answer)
    assert probe.rows()["PR-1003"]["Status"] == "pending"


def test_actions_is_not_in_the_default_scope_of_an_app_no_set_lists(probe):
    signed_in = probe.sign_in(UNRELATED, probe.unrelated_redirect, MALLORY, probe.mallory_password)
    assert signed_in.status_code == 200, describe(signed_in)
    assert "actions" not in signed_in.json()["scope"].split(), f"a sign-in without a scope got {signed_in.json()['scope']}"
    configuration = probe.http.get(f"{probe.base}/v1/apps/{UNRELATED}/configuration", timeout=60).json()
    assert "actions" not in configuration["default_scope"].split(), configuration["default_scope"]


def test_the_step_up_threshold_is_the_sets_whichever_app_calls(probe):
    amount = probe.rows()["PR-1002"]["Amount"]
    assert float(amount) > 1000, amount
    answer = probe.decide(probe.tokens_of[DEMO_USERNAME, LOOSER], "PR-1002")
    assert answer.status_code == 401 and error_of(answer) == "insufficient_user_authentication", \
        f"{amount} was decided without a step-up through an app with a looser policy: {describe(answer)}"
    assert probe.rows()["PR-1002"]["Status"] == "pending"


def test_the_requester_never_decides_their_own_item(probe):
    rows = [{"RequestID": "RQ-1", "Title": "Mallory's own", "Requester": MALLORY, "Approvers": [MALLORY, DEMO_USERNAME], "Amount": "10.00"},
            {"RequestID": "RQ-2", "Title": "Someone else's", "Requester": "carol", "Approvers": [MALLORY, DEMO_USERNAME], "Amount": "10.00"},
            {"RequestID": "RQ-3", "Title": "Not Mallory's to decide", "Requester": "carol", "Approvers": [DEMO_USERNAME], "Amount": "10.00"}]
    written = probe.call("PUT", REQUESTS, headers={"X-API-Key": probe.back_office_key}, json={"title": "Probe", "rows": rows})
    assert written.status_code == 200, describe(written)
    rules = ["--app", DEMO_CLIENT_ID, "--approvers-field", "Approvers", "--requester-field", "Requester"]
    probe.admin("set-actionable", "--destination", "probe", "--entity-set", "Requests", "--id-field", "RequestID",
                *(rules if probe.knows("set-actionable", "--app") else []))
    mallory = probe.tokens_of[MALLORY, DEMO_CLIENT_ID]
    own = probe.decide(mallory, "RQ-1", entity_set=REQUESTS, id_field="RequestID")
    assert refused(own), f"the requester decided their own item: {describe(own)}"
    not_named = probe.decide(mallory, "RQ-3", entity_set=REQUESTS, id_field="RequestID")
    assert refused(not_named), f"a user the item does not name decided it: {describe(not_named)}"
    named = probe.decide(mallory, "RQ-2", entity_set=REQUESTS, id_field="RequestID")
    assert named.status_code == 200, f"an approver the item names was refused: {describe(named)}"


def test_an_approver_through_the_listed_app_decides(probe):
    """Control: the demo user, in the approvers group, through tandem-demo, below the threshold."""
    answer = probe.decide(probe.tokens_of[DEMO_USERNAME, DEMO_CLIENT_ID], "PR-1005")
    assert answer.status_code == 200 and answer.json()["status"] == "approved", describe(answer)
