"""A widget's page of a customer's backend, read through Tandem for the signed-in user, and an
item decided there through Tandem's action endpoint: Tandem
(`tandem serve --backend-allow-loopback`) mints each user's token for the backend, and the backend
— the Django REST Framework service, whose simplejwt validates those tokens with Tandem's JWKS, or
the replay of recorded OData V4 and V2 services — answers with that user's rows. Checked over
HTTP with each user's own Tandem access token, as the widget's host sends it."""
import json
import uuid

import pytest
import requests

from backend_setup import AUDIENCE, CLIENT_ID, erp_destination
from odata_replay import ODataReplay
from tandem_server import TandemCommandFailed
from pathlib import Path

RECORDINGS = Path(__file__).resolve().parent / "recordings" / "recordings.json"


def approval(id, approver, title, amount="1299.00", currency="EUR", status="pending", requester="carol",
             created="2026-12-07T08:00:00Z") -> dict:
    return {"id": id, "approver": approver, "requester": requester, "title": title, "amount": amount, "currency": currency,
            "status": status, "createdAt": created}


DATA = {
    "users": [{"username": "ada", "approver": True}, {"username": "bob", "approver": True}, {"username": "carol", "approver": False}],
    "approvals": [
        approval("A-1001", "ada", "Laptop", "1299.00"),
        approval("A-1002", "ada", "Monitor", "349.90", "CHF", created="2026-12-07T09:00:00Z"),
        approval("A-1005", "ada", "Train ticket", "120.00"),
        approval("A-1006", "ada", "Desk lamp", "45.00"),
        approval("B-2001", "bob", "Team offsite", "4805.00"),
    ],
    "orders": [],
}

ADAS = ["A-1001", "A-1002", "A-1005", "A-1006"]


def save_destination(identity, tmp_path, document: dict):
    path = tmp_path / f"{document['name']}.json"
    path.write_text(json.dumps(document))
    identity.server.admin("destination", "set", "--file", str(path))


@pytest.fixture(scope="module")
def tandem_tokens(identity):
    """`tandem_tokens(username, widget=False)`: the user's Tandem access token (data.read and
    actions, as the host holds it), or the widgets' token exchanged from it (data.read only)."""
    cache = {}

    def token(username: str, widget: bool = False) -> str:
        if (username, widget) in cache:
            return cache[(username, widget)]
        refresh = identity.server.admin("issue-refresh-token", "--username", username, "--client-id", CLIENT_ID,
                                        "--scope", "data.read actions offline_access").splitlines()[0]
        answer = requests.post(f"{identity.base}/oauth/token", data={
            "grant_type": "refresh_token", "client_id": CLIENT_ID, "refresh_token": refresh}, timeout=30)
        assert answer.status_code == 200, answer.text
        access = answer.json()["access_token"]
        cache[(username, False)] = access
        exchanged = requests.post(f"{identity.base}/oauth/token", data={
            "grant_type": "urn:ietf:params:oauth:grant-type:token-exchange", "client_id": CLIENT_ID, "subject_token": access,
            "subject_token_type": "urn:ietf:params:oauth:token-type:access_token"}, timeout=30)
        assert exchanged.status_code == 200, exchanged.text
        cache[(username, True)] = exchanged.json()["access_token"]
        return cache[(username, widget)]
    return token


@pytest.fixture(scope="module")
def erp(identity, drf, tmp_path_factory):
    drf.load(DATA)
    save_destination(identity, tmp_path_factory.mktemp("erp"), erp_destination(drf.base))
    return drf


def page(identity, token, path="/v1/destinations/erp/Approvals", **headers):
    return requests.get(f"{identity.base}{path}", headers={"Authorization": f"Bearer {token}", **headers}, timeout=60)


def rows(answer) -> list:
    assert answer.status_code == 200, answer.text
    return answer.json()["items"]


# -- The DRF service: each user's own rows

def test_each_user_sees_only_their_own_approvals(identity, erp, tandem_tokens):
    ada = rows(page(identity, tandem_tokens("ada")))
    bob = rows(page(identity, tandem_tokens("bob")))
    assert [row["id"] for row in ada] == ADAS
    assert [row["id"] for row in bob] == ["B-2001"]
    assert ada[1] == {"amount": "349.90", "currency": "CHF", "date": "2026-12-07T09:00:00Z", "etag": "\"1\"", "id": "A-1002",
                      "status": "pending", "subtitle": "carol", "title": "Monitor"}
    served = [(entry["username"], entry["path"]) for entry in erp.requests() if entry["path"] == "/api/approvals/"]
    assert ("ada", "/api/approvals/") in served and ("bob", "/api/approvals/") in served


def test_the_widgets_token_reads_the_same_users_rows(identity, erp, tandem_tokens):
    assert [row["id"] for row in rows(page(identity, tandem_tokens("bob", widget=True)))] == ["B-2001"]


def test_a_second_read_is_revalidated_and_a_change_is_seen(identity, erp, tandem_tokens):
    token = tandem_tokens("ada")
    first = page(identity, token)
    erp.clear_requests()
    again = page(identity, token, **{"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    asked = erp.requests()
    assert len(asked) == 1 and asked[0]["if_none_match"] is not None and asked[0]["username"] == "ada"
    erp.update_approval("A-1001", title="Laptop, 16 inch")
    changed = page(identity, token, **{"If-None-Match": first.headers["ETag"]})
    assert [row["title"] for row in rows(changed)][:2] == ["Laptop, 16 inch", "Monitor"]
    assert changed.headers["ETag"] != first.headers["ETag"]


def test_someone_the_backend_forbids_is_told_not_allowed(identity, erp, tandem_tokens):
    answer = page(identity, tandem_tokens("carol"))
    assert answer.status_code == 403 and answer.json()["error"] == "backend_forbidden"


def test_someone_the_backend_does_not_know_is_asked_to_sign_in_again(identity, erp, tandem_tokens):
    answer = page(identity, tandem_tokens("dave"))
    assert answer.status_code == 403 and answer.json()["error"] == "backend_unauthorized"


def test_a_backend_that_is_down_shows_the_users_last_rows_marked_stale(identity, erp, tandem_tokens):
    ada = tandem_tokens("ada")
    seen = rows(page(identity, ada))
    erp.stop()
    try:
        stale = page(identity, ada)
        assert stale.status_code == 200, stale.text
        body = stale.json()
        assert body["stale"] is True and body["fetchedAt"] and body["items"] == seen
        # A page Bob never read: nothing of Ada's (or anyone's) is shown to him instead.
        bob = page(identity, tandem_tokens("bob"), "/v1/destinations/erp/Approvals?limit=7")
        assert bob.status_code == 503 and bob.json()["error"] == "backend_unavailable"
    finally:
        erp.restart()
    assert "stale" not in page(identity, ada).json()


# -- Recorded OData services, replayed

@pytest.fixture(scope="module")
def replay(identity, tmp_path_factory):
    replay = ODataReplay(RECORDINGS)
    replay.start()
    folder = tmp_path_factory.mktemp("odata")
    northwind_id = {"pointer": "/CustomerID", "type": "Edm.String"}
    save_destination(identity, folder, {
        "name": "northwind4", "title": "Northwind V4", "protocolKind": "odata-v4", "baseURL": f"{replay.base}/V4/Northwind/Northwind.svc/",
        "authentication": {"mode": "user-token", "audience": "https://services.odata.org"},
        "entitySets": [{"name": "Customers", "path": "Customers", "query": [{"name": "$select", "value": "CustomerID"}],
                        "mapping": {"protocolKind": "odata-v4", "id": northwind_id}}]})
    save_destination(identity, folder, {
        "name": "northwind2", "title": "Northwind V2", "protocolKind": "odata-v2", "baseURL": f"{replay.base}/V2/Northwind/Northwind.svc/",
        "authentication": {"mode": "none"},
        "entitySets": [{"name": "Customers", "path": "Customers", "query": [],
                        "mapping": {"protocolKind": "odata-v2", "id": northwind_id}}]})
    save_destination(identity, folder, {
        "name": "epm", "title": "EPM sales orders", "protocolKind": "odata-v4",
        "baseURL": f"{replay.base}/sap/opu/odata4/sap/zui5_testv4/default/sap/zui5_epm_sample/0002/",
        "authentication": {"mode": "user-token", "audience": "https://epm.example.test"},
        "entitySets": [{"name": "SalesOrders", "path": "SalesOrderList", "query": [],
                        "mapping": {"protocolKind": "odata-v4", "id": {"pointer": "/SalesOrderID"}, "title": {"pointer": "/BuyerName"},
                                    "amount": {"pointer": "/GrossAmount", "type": "Edm.Decimal"},
                                    "currency": {"pointer": "/CurrencyCode"}}}]})
    yield replay
    replay.stop()


def test_odata_v4_pages_by_position_with_the_count(identity, replay, tandem_tokens):
    answer = page(identity, tandem_tokens("ada"), "/v1/destinations/northwind4/Customers?limit=5")
    body = answer.json()
    assert [row["id"] for row in rows(answer)] == ["ALFKI", "ANATR", "ANTON", "AROUT", "BERGS"]
    assert body["total"] == 91 and body["next"] == "/v1/destinations/northwind4/Customers?limit=5&offset=5"
    asked = replay.requests()[-1]
    assert "%24top=5" in asked["query"] or "$top=5" in asked["query"]
    assert asked["headers"]["authorization"].startswith("Bearer ") and asked["headers"]["odata-maxversion"] == "4.0"


def test_odata_v2_public_data_carries_no_token(identity, replay, tandem_tokens):
    answer = page(identity, tandem_tokens("bob"), "/v1/destinations/northwind2/Customers?limit=3")
    body = answer.json()
    assert [row["id"] for row in rows(answer)] == ["ALFKI", "ANATR", "ANTON"]
    assert body["total"] is None and body["next"] == "/v1/destinations/northwind2/Customers?limit=3&offset=3"
    asked = replay.requests()[-1]
    assert "authorization" not in asked["headers"] and "inlinecount=allpages" in asked["query"]


def test_odata_decimals_are_exact(identity, replay, tandem_tokens):
    items = rows(page(identity, tandem_tokens("ada"), "/v1/destinations/epm/SalesOrders?limit=3"))
    assert [(item["id"], item["title"], item["amount"], item["currency"]) for item in items] == [
        ("0500000000", "SAP", "25867.03", "EUR"), ("0500000001", "DelBont Industries", "14602.49", "EUR"),
        ("0500000002", "TECUM", "5631.08", "EUR")]


def test_an_odata_service_that_fails_gives_the_last_page_stale_and_then_a_refusal(identity, replay, tandem_tokens):
    token = tandem_tokens("carol")
    path = "/v1/destinations/epm/SalesOrders?limit=2"
    seen = rows(page(identity, token, path))
    replay.set_status("v4-epm-sales-orders", 503)
    try:
        stale = page(identity, token, path).json()
        assert stale["stale"] is True and stale["items"] == seen
        replay.set_status("v4-epm-sales-orders", 403)
        refused = page(identity, token, path)
        assert refused.status_code == 403 and refused.json()["error"] == "backend_forbidden"
    finally:
        replay.reset()


# -- An operator trying a destination: the first page as user X

def fetch_as(identity, username: str) -> str:
    return identity.server.admin("destination", "fetch", "--name", "erp", "--entity-set", "Approvals", "--username", username,
                                 "--client-id", CLIENT_ID, "--issuer", identity.issuer, "--limit", "5", "--backend-allow-loopback")


def test_an_operator_fetches_the_first_page_as_a_user_and_the_fetch_is_audited(identity, erp):
    page = json.loads(fetch_as(identity, "bob"))
    assert [row["id"] for row in page["items"]] == ["B-2001"]
    with pytest.raises(TandemCommandFailed):
        fetch_as(identity, "carol")
    audit = [json.loads(line) for line in identity.server.admin("audit", "--limit", "50").splitlines() if line.startswith("{")]
    fetched = [line["detail"] for line in audit if line.get("kind") == "destination.fetched_as"]
    assert f"erp/Approvals as bob through {CLIENT_ID}: 200" in fetched
    assert f"erp/Approvals as carol through {CLIENT_ID}: 403" in fetched
    assert not any("Team offsite" in json.dumps(line) for line in audit)


# -- Deciding an item on the backend through Tandem

def decide(identity, token, item, verb="approve", if_match=None, key=None, destination="erp/Approvals"):
    headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": key or str(uuid.uuid4())}
    if if_match is not None:
        headers["If-Match"] = if_match
    return requests.post(f"{identity.base}/v1/destinations/{destination}/{item}/actions/{verb}", headers=headers, timeout=60)


def shown(identity, token, item) -> dict:
    return next(row for row in rows(page(identity, token)) if row["id"] == item)


def test_an_approval_through_tandem_is_recorded_by_the_backend_under_the_user(identity, erp, tandem_tokens):
    ada = tandem_tokens("ada")
    etag = shown(identity, ada, "A-1005")["etag"]
    key = str(uuid.uuid4())
    answer = decide(identity, ada, "A-1005", if_match=etag, key=key)
    assert answer.status_code == 200, answer.text
    assert answer.json()["status"] == "approved" and answer.headers["ETag"] == answer.json()["etag"] != etag
    stored = erp.approval("A-1005")
    assert (stored["status"], stored["decided_by"], stored["last_if_match"]) == ("approved", "ada", etag)
    erp.clear_requests()
    again = decide(identity, ada, "A-1005", if_match=etag, key=key)
    assert again.status_code == 200 and again.headers.get("Idempotent-Replayed") == "true"
    assert not [entry for entry in erp.requests() if entry["method"] == "POST"]
    assert shown(identity, ada, "A-1005")["status"] == "approved"


def test_an_item_changed_since_it_was_shown_is_a_conflict(identity, erp, tandem_tokens):
    ada = tandem_tokens("ada")
    etag = shown(identity, ada, "A-1006")["etag"]
    erp.update_approval("A-1006", title="Desk lamp, brass")
    answer = decide(identity, ada, "A-1006", "reject", if_match=etag)
    assert answer.status_code == 412 and answer.json()["error"] == "precondition_failed"
    assert answer.json()["current_etag"] == answer.headers["ETag"] == erp.approval("A-1006")["etag"] != etag
    assert erp.approval("A-1006")["status"] == "pending"


def test_above_the_threshold_the_server_asks_for_the_user_present(identity, erp, tandem_tokens):
    ada = tandem_tokens("ada")
    answer = decide(identity, ada, "A-1001", if_match=shown(identity, ada, "A-1001")["etag"])
    assert answer.status_code == 401 and answer.json()["error"] == "insufficient_user_authentication"
    assert erp.approval("A-1001")["status"] == "pending"


def test_nobody_decides_another_users_item_and_a_widget_decides_nothing(identity, erp, tandem_tokens):
    etag = shown(identity, tandem_tokens("ada"), "A-1002")["etag"]
    erp.clear_requests()
    # Bob's own page does not show Ada's item, so its amount is unknown to the server: it asks for
    # Bob present before anything reaches the backend (which would refuse him too).
    bob = decide(identity, tandem_tokens("bob"), "A-1002", if_match=etag)
    assert bob.status_code == 401 and bob.json()["error"] == "insufficient_user_authentication"
    widget = decide(identity, tandem_tokens("ada", widget=True), "A-1002", if_match=etag)
    assert widget.status_code == 403 and widget.json()["error"] == "insufficient_scope"
    assert not [entry for entry in erp.requests() if entry["method"] == "POST"]
    assert erp.approval("A-1002")["status"] == "pending"


def test_an_odata_v4_bound_action_is_posted_to_the_item_with_its_etag(identity, replay, tandem_tokens, tmp_path):
    save_destination(identity, tmp_path, {
        "name": "epm-actions", "title": "EPM sales orders", "protocolKind": "odata-v4",
        "baseURL": f"{replay.base}/sap/opu/odata4/sap/zui5_testv4/default/sap/zui5_epm_sample/0002/",
        "authentication": {"mode": "user-token", "audience": "https://epm.example.test"},
        "entitySets": [{"name": "SalesOrders", "path": "SalesOrderList", "query": [],
                        "mapping": {"protocolKind": "odata-v4", "id": {"pointer": "/SalesOrderID"}},
                        "actions": {"apps": [CLIENT_ID], "approve": {"boundAction": "com.sap.gateway.default.zui5_epm_sample.v0002.SalesOrder_Confirm"},
                                    "reject": {"boundAction": "com.sap.gateway.default.zui5_epm_sample.v0002.SalesOrder_Cancel"}}}]})
    answer = decide(identity, tandem_tokens("ada"), "0500000000", if_match='W/"20160619220000.0000000"',
                    destination="epm-actions/SalesOrders")
    assert answer.status_code == 200, answer.text
    posted = [entry for entry in replay.requests() if entry["method"] == "POST"][-1]
    assert posted["path"].endswith("/SalesOrderList('0500000000')/com.sap.gateway.default.zui5_epm_sample.v0002.SalesOrder_Confirm")
    assert posted["headers"]["if-match"] == 'W/"20160619220000.0000000"' and posted["headers"]["idempotency-key"]
    stale = decide(identity, tandem_tokens("ada"), "0500000000", if_match='W/"older"', destination="epm-actions/SalesOrders")
    assert stale.status_code == 412 and stale.json()["error"] == "precondition_failed"
    # An item the backend does not have (for this user) is the backend's 404.
    unknown = decide(identity, tandem_tokens("ada"), "0599999999", if_match='W/"1"', destination="epm-actions/SalesOrders")
    assert unknown.status_code == 404 and unknown.json()["error"] == "not_found"


def test_another_app_of_the_same_user_may_not_decide_the_sets_items(identity, erp, tandem_tokens):
    identity.server.admin("create-app", "--client-id", "other-app", "--name", "Other", "--redirect-uri", "com.other.app:/oauth/callback",
                          "--url-scheme", "com.other.app", "--security-mode", "oauth")
    refresh = identity.server.admin("issue-refresh-token", "--username", "ada", "--client-id", "other-app",
                                    "--scope", "data.read actions offline_access").splitlines()[0]
    token = requests.post(f"{identity.base}/oauth/token", data={
        "grant_type": "refresh_token", "client_id": "other-app", "refresh_token": refresh}, timeout=30).json()["access_token"]
    etag = shown(identity, tandem_tokens("ada"), "A-1002")["etag"]
    erp.clear_requests()
    answer = decide(identity, token, "A-1002", if_match=etag)
    assert answer.status_code == 403 and answer.json()["error"] == "not_permitted"
    assert not [entry for entry in erp.requests() if entry["method"] == "POST"]
    assert erp.approval("A-1002")["status"] == "pending"
