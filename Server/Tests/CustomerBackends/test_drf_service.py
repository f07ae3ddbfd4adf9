"""The customer backend of drf_service on its own, called with the tokens Tandem mints for its
users (`tandem admin backend-token`) and checked by a third party's validator: simplejwt with
the keys at Tandem's jwks_uri. Who sees what, which tokens are refused, the list's ETag, and
conditional, idempotent decisions."""
import base64
import json
import uuid
from urllib.parse import parse_qs, urlsplit

import pytest
import requests

BOBS_MANY = [f"A-2{number:03d}" for number in range(1, 23)]
# Ada's approvals: A-1001, A-1003 and A-1004 only read; one of A-3001… for each test that decides.
ADAS = ["A-1001", "A-1003", "A-1004", *(f"A-300{number}" for number in range(1, 9))]


def approval(id, approver="ada", title="Laptop", amount="1299.00", currency="EUR", status="pending", requester="bob",
             created="2026-12-07T08:00:00Z") -> dict:
    return {"id": id, "approver": approver, "requester": requester, "title": title, "amount": amount, "currency": currency,
            "status": status, "createdAt": created}


def order(id, owner, customer, amount, currency, status, ordered) -> dict:
    return {"id": id, "owner": owner, "customer": customer, "amount": amount, "currency": currency, "status": status,
            "orderedAt": ordered}


DATA = {
    "users": [{"username": "ada", "approver": True}, {"username": "bob", "approver": True}, {"username": "carol", "approver": False}],
    "approvals": [
        approval("A-1001"),
        approval("A-1002", "bob", "Team offsite", "4805.00", requester="carol", created="2026-12-07T08:30:00Z"),
        approval("A-1003", title="Monitor", amount="349.90", currency="CHF", requester="carol", created="2026-12-07T09:00:00Z"),
        approval("A-1004", title="Conference", amount="780", status="rejected", created="2026-12-06T16:00:00Z"),
        *(approval(id, "bob", f"Licence {id}", "10.00", requester="ada", created="2026-12-05T12:00:00Z") for id in BOBS_MANY),
        *(approval(id, title=f"Purchase {id}") for id in ADAS[3:]),
    ],
    "orders": [
        order("O-1", "ada", "Acme", "12.50", "EUR", "open", "2026-12-01T10:00:00Z"),
        order("O-2", "bob", "Globex", "99.00", "USD", "shipped", "2026-12-02T10:00:00Z"),
        order("O-3", "ada", "Initech", "7", "EUR", "open", "2026-12-03T10:00:00Z"),
        order("O-4", "carol", "Umbrella", "1.05", "GBP", "open", "2026-12-04T10:00:00Z"),
    ],
}
# act.sub of a token minted --as-widget for the app of conftest.py.
WIDGETS = "example-app:widgets"


@pytest.fixture(scope="module")
def erp(drf):
    """The backend holding DATA. The tests that decide or change an approval each have their own
    (A-3001…), so that one load serves every test in any order."""
    drf.load(DATA)
    return drf


def call(drf, token, path="approvals/", method="GET", body=None, **headers):
    """`method` `path` (under /api/) with `token` as the bearer, and headers given as If_Match=…"""
    sent = {name.replace("_", "-"): value for name, value in headers.items()}
    if token is not None:
        sent["Authorization"] = f"Bearer {token}"
    return requests.request(method, drf.base + path, headers=sent, json=body, timeout=30)


def decide(drf, token, approval_id, verb="approve", if_match=None, key=None, body=None):
    headers = {}
    if if_match is not None:
        headers["If_Match"] = if_match
    if key is not None:
        headers["Idempotency_Key"] = key
    return call(drf, token, f"approvals/{approval_id}/{verb}/", "POST", body, **headers)


def new_key() -> str:
    return str(uuid.uuid4())


def ids(answer) -> list:
    assert answer.status_code == 200, answer.text
    return [item["id"] for item in answer.json()["results"]]


def undecided(drf, approval_id, version=1) -> bool:
    stored = drf.approval(approval_id)
    return (stored["status"], stored["version"], stored["decided_by"]) == ("pending", version, None)


# -- Who sees what

def test_an_approver_sees_exactly_her_approvals_as_stored(erp, token):
    answer = call(erp, token("ada"))
    assert answer.status_code == 200 and answer.headers["Content-Type"] == "application/json"
    listed = answer.json()
    assert (listed["count"], listed["next"], listed["previous"]) == (len(ADAS), None, None)
    assert [item["id"] for item in listed["results"]] == ADAS
    assert listed["results"][:3] == [
        {"id": "A-1001", "title": "Laptop", "requester": "bob", "amount": "1299.00", "currency": "EUR", "status": "pending",
         "createdAt": "2026-12-07T08:00:00Z", "etag": '"1"'},
        {"id": "A-1003", "title": "Monitor", "requester": "carol", "amount": "349.90", "currency": "CHF", "status": "pending",
         "createdAt": "2026-12-07T09:00:00Z", "etag": '"1"'},
        {"id": "A-1004", "title": "Conference", "requester": "bob", "amount": "780.00", "currency": "EUR", "status": "rejected",
         "createdAt": "2026-12-06T16:00:00Z", "etag": '"1"'},
    ]


def test_another_approver_sees_only_his_in_pages_of_twenty(erp, token):
    first = call(erp, token("bob"))
    assert ids(first) == ["A-1002", *BOBS_MANY[:19]]
    assert first.json()["count"] == 23 and first.json()["previous"] is None
    following = first.json()["next"]
    assert following.startswith(erp.base + "approvals/?")
    assert parse_qs(urlsplit(following).query) == {"limit": ["20"], "offset": ["20"]}
    rest = requests.get(following, headers={"Authorization": f"Bearer {token('bob')}"}, timeout=30)
    assert ids(rest) == BOBS_MANY[19:] and rest.json()["next"] is None


def test_limit_and_offset_page_through_the_list(erp, token):
    assert ids(call(erp, token("ada"), "approvals/?limit=2")) == ["A-1001", "A-1003"]
    last = call(erp, token("ada"), "approvals/?limit=4&offset=8")
    assert ids(last) == ADAS[8:] and last.json()["next"] is None
    assert parse_qs(urlsplit(last.json()["previous"]).query) == {"limit": ["4"], "offset": ["4"]}


def test_orders_are_the_callers_own(erp, token):
    answer = call(erp, token("ada"), "orders/")
    assert answer.json() == {"count": 2, "next": None, "previous": None, "results": [
        {"id": "O-1", "customer": "Acme", "amount": "12.50", "currency": "EUR", "status": "open", "orderedAt": "2026-12-01T10:00:00Z"},
        {"id": "O-3", "customer": "Initech", "amount": "7.00", "currency": "EUR", "status": "open", "orderedAt": "2026-12-03T10:00:00Z"},
    ]}
    assert ids(call(erp, token("carol"), "orders/")) == ["O-4"]


def test_someone_outside_the_approvers_group_is_forbidden_the_approvals(erp, token):
    listed = call(erp, token("carol"))
    assert listed.status_code == 403 and "approvers" in listed.json()["detail"]
    deciding = decide(erp, token("carol"), "A-1001", if_match='"1"', key=new_key())
    assert deciding.status_code == 403 and undecided(erp, "A-1001")


def test_whoami_names_the_user_and_whoever_acts_for_them(erp, token):
    assert call(erp, token("ada"), "whoami/").json() == {"username": "ada", "via": None}
    assert call(erp, token("ada", as_widget=True), "whoami/").json() == {"username": "ada", "via": WIDGETS}


# -- Tokens the backend refuses

def refused(answer) -> bool:
    return answer.status_code == 401 and answer.headers.get("WWW-Authenticate", "").startswith("Bearer") and "detail" in answer.json()


def test_a_request_without_a_token_is_refused(erp):
    assert refused(call(erp, None))


def test_a_token_for_another_backend_is_refused(erp, token, identity):
    assert call(erp, token("ada")).status_code == 200
    assert refused(call(erp, identity.mint("ada", audience="https://other.example.test/api")))


def test_a_token_from_another_issuer_is_refused(erp, identity):
    assert refused(call(erp, identity.mint("ada", issuer="https://login.example.test")))


def test_a_tampered_token_is_refused(erp, token):
    header, payload, signature = token("bob").split(".")

    def encoded(raw: bytes) -> str:
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()

    assert call(erp, ".".join([header, payload, signature])).status_code == 200
    raw = bytearray(base64.urlsafe_b64decode(signature + "=="))
    raw[10] ^= 0x01
    assert refused(call(erp, ".".join([header, payload, encoded(bytes(raw))])))
    # Claiming to be someone else under bob's signature.
    claims = json.loads(base64.urlsafe_b64decode(payload + "=="))
    claims["preferred_username"] = "ada"
    assert refused(call(erp, ".".join([header, encoded(json.dumps(claims).encode()), signature])))


def test_a_user_the_backend_does_not_know_is_refused(erp, token):
    answer = call(erp, token("dave"))
    assert refused(answer) and answer.json().get("code") == "user_not_found"


# -- The list's ETag

def test_a_list_carries_a_strong_etag_of_its_body_and_answers_304_while_it_holds(erp, token):
    first, second = call(erp, token("ada")), call(erp, token("ada"))
    etag = first.headers["ETag"]
    assert etag.startswith('"') and etag.endswith('"') and len(etag) > 2, etag
    assert second.headers["ETag"] == etag and first.headers["Cache-Control"] == "private, no-cache"
    assert call(erp, token("bob")).headers["ETag"] != etag
    assert call(erp, token("ada"), "approvals/?limit=1").headers["ETag"] != etag
    assert call(erp, token("ada"), "orders/").headers["ETag"] not in (etag, None)

    unchanged = call(erp, token("ada"), If_None_Match=etag)
    assert unchanged.status_code == 304 and unchanged.content == b""
    assert unchanged.headers["ETag"] == etag and unchanged.headers["Cache-Control"] == "private, no-cache"
    assert call(erp, token("ada"), If_None_Match=f'"elsewhere", {etag}').status_code == 304
    assert call(erp, token("ada"), If_None_Match='"elsewhere"').status_code == 200


def test_a_changed_item_changes_the_lists_etag(erp, token):
    etag = call(erp, token("ada")).headers["ETag"]
    erp.update_approval("A-3008", title="Purchase, revised")
    answer = call(erp, token("ada"), If_None_Match=etag)
    assert answer.status_code == 200 and answer.headers["ETag"] != etag
    assert answer.json()["results"][ADAS.index("A-3008")] | {"createdAt": None} == {
        "id": "A-3008", "title": "Purchase, revised", "requester": "bob", "amount": "1299.00", "currency": "EUR",
        "status": "pending", "createdAt": None, "etag": '"2"'}


# -- Decisions

def test_approving_through_a_widget_records_the_user_and_the_widgets(erp, token):
    answer = decide(erp, token("ada", as_widget=True), "A-3001", if_match='"1"', key=new_key(), body={"comment": "fine"})
    assert answer.status_code == 200, answer.text
    assert answer.headers["ETag"] == '"2"'
    assert answer.json() == {"id": "A-3001", "title": "Purchase A-3001", "requester": "bob", "amount": "1299.00", "currency": "EUR",
                             "status": "approved", "createdAt": "2026-12-07T08:00:00Z", "etag": '"2"'}
    stored = erp.approval("A-3001")
    assert (stored["status"], stored["decided_by"], stored["decided_via"], stored["version"], stored["last_if_match"], stored["comment"]) \
        == ("approved", "ada", WIDGETS, 2, '"1"', "fine")
    assert stored["decided_at"]
    listed = call(erp, token("ada")).json()["results"][ADAS.index("A-3001")]
    assert (listed["status"], listed["etag"]) == ("approved", '"2"')


def test_rejecting_in_the_app_records_no_one_acting_for_the_user(erp, token):
    answer = decide(erp, token("ada"), "A-3002", "reject", if_match='"1"', key=new_key())
    assert answer.status_code == 200 and answer.json()["status"] == "rejected"
    stored = erp.approval("A-3002")
    assert (stored["status"], stored["decided_by"], stored["decided_via"]) == ("rejected", "ada", None)


def test_a_stale_if_match_fails_with_the_current_etag(erp, token):
    erp.update_approval("A-3003", amount="1349.00")
    answer = decide(erp, token("ada"), "A-3003", if_match='"1"', key=new_key())
    assert answer.status_code == 412 and answer.headers["ETag"] == '"2"'
    assert undecided(erp, "A-3003", version=2)
    assert decide(erp, token("ada"), "A-3003", if_match='"2"', key=new_key()).status_code == 200


def test_a_decision_without_if_match_is_refused(erp, token):
    answer = decide(erp, token("ada"), "A-3004", key=new_key())
    assert answer.status_code == 428 and undecided(erp, "A-3004")


def test_a_decision_without_an_idempotency_key_is_refused(erp, token):
    answer = decide(erp, token("ada"), "A-3005", if_match='"1"')
    assert answer.status_code == 400 and undecided(erp, "A-3005")


def test_a_repeated_idempotency_key_replays_the_answer_without_acting_again(erp, token):
    key = new_key()
    first = decide(erp, token("ada", as_widget=True), "A-3006", if_match='"1"', key=key)
    again = decide(erp, token("ada", as_widget=True), "A-3006", if_match='"1"', key=key)
    assert (first.status_code, again.status_code) == (200, 200)
    assert again.json() == first.json() and again.headers["ETag"] == first.headers["ETag"] == '"2"'
    assert erp.approval("A-3006")["version"] == 2
    # A new key is a new request: this one finds the approval decided.
    assert decide(erp, token("ada"), "A-3006", if_match='"2"', key=new_key()).status_code == 409
    # The key names the first request only: for another item or action it is an error, and acts on nothing.
    assert decide(erp, token("ada"), "A-3007", if_match='"1"', key=key).status_code == 422
    assert decide(erp, token("ada"), "A-3006", "reject", if_match='"2"', key=key).status_code == 422
    assert undecided(erp, "A-3007") and erp.approval("A-3006")["status"] == "approved"
    # Bob's keys are his own.
    assert decide(erp, token("bob"), "A-2022", if_match='"1"', key=key).status_code == 200


def test_someone_elses_approval_is_not_found(erp, token):
    answer = decide(erp, token("ada"), "A-1002", if_match='"1"', key=new_key())
    assert answer.status_code == 404 and undecided(erp, "A-1002")


def test_a_decided_approval_cannot_be_decided_again(erp, token):
    answer = decide(erp, token("ada"), "A-1004", if_match='"1"', key=new_key())
    assert answer.status_code == 409 and answer.headers["ETag"] == '"1"'
    assert erp.approval("A-1004")["status"] == "rejected"


# -- What the launcher gives other suites

def test_the_request_log_names_the_headers_and_the_user_never_the_token(erp, token):
    etag = call(erp, token("ada")).headers["ETag"]
    call(erp, token("ada"), "approvals/?limit=20", If_None_Match=etag)
    call(erp, None, "orders/")
    assert erp.requests()[-3:] == [
        {"method": "GET", "path": "/api/approvals/", "query": "", "if_none_match": None, "if_match": None,
         "idempotency_key": None, "username": "ada", "status": 200},
        # (Twenty is the default page: the same body, so the same ETag.)
        {"method": "GET", "path": "/api/approvals/", "query": "limit=20", "if_none_match": etag, "if_match": None,
         "idempotency_key": None, "username": "ada", "status": 304},
        {"method": "GET", "path": "/api/orders/", "query": "", "if_none_match": None, "if_match": None,
         "idempotency_key": None, "username": None, "status": 401},
    ]
    for name in ("requests.jsonl", "server.log"):
        assert token("ada") not in (erp.directory / name).read_text()


def test_a_stopped_backend_refuses_connections_and_comes_back_on_its_port(erp, token):
    base = erp.base
    erp.stop()
    with pytest.raises(requests.ConnectionError):
        call(erp, token("ada"))
    erp.restart()
    assert erp.base == base and ids(call(erp, token("ada"))) == ADAS
