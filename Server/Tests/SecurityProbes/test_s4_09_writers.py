"""S4-09: one switch granted introspection and write access to all business data, and a full-set
`PUT` without `If-Match` silently reverted decided items and dropped `DecidedBy`. Now writing
takes `set-writer` for the destination (a resource server only introspects), a set that exists
is replaced only with `If-Match` naming its version (428 without, 412 when stale, the current
version in `ETag` either way), and a decided item keeps its `Status`, `DecidedBy` and
`DecidedAt` whatever a writer sends.

On a server from before the fix, the writers are made the only way it knew (`set-resource-server`)."""
import pytest

from security_probe import ACTIONS_SCOPE, APPROVALS, DEMO_CLIENT_ID, DEMO_USERNAME, describe, error_of

INTROSPECTOR, SALES_WRITER, OTHER_WRITER = "introspector", "sales-writer", "other-writer"
DECISION_FIELDS = ("Status", "DecidedBy", "DecidedAt")


@pytest.fixture(scope="module")
def probe(probed_server):
    probe = probed_server("s4-09-writers")
    probe.seed_demo()
    probe.keys = {}
    for client_id in (INTROSPECTOR, SALES_WRITER, OTHER_WRITER):
        probe.create_app(client_id, "--security-mode", "apiKey")
        probe.keys[client_id] = {"X-API-Key": probe.admin("create-api-key", "--client-id", client_id).strip()}
    probe.admin("set-resource-server", "--client-id", INTROSPECTOR, "--audience", "tandem")
    probe.grant_writes(SALES_WRITER, "sales")
    probe.grant_writes(OTHER_WRITER, "elsewhere")
    probe.start()
    probe.host = probe.tokens(DEMO_CLIENT_ID, probe.issue_refresh_token(DEMO_USERNAME, DEMO_CLIENT_ID, scope=ACTIONS_SCOPE))["access_token"]
    yield probe
    probe.stop()


def put(probe, writer: str, path: str, rows: list, headers: dict | None = None):
    return probe.call("PUT", path, headers={**probe.keys[writer], **(headers or {})}, json={"title": "Probe", "rows": rows})


def test_an_app_that_may_introspect_cannot_write(probe):
    for path in ("/v1/destinations/feed/Fresh", "/v1/destinations/sales/Customers"):
        answer = put(probe, INTROSPECTOR, path, [{"id": "x"}])
        assert answer.status_code == 403, f"a resource server that may only introspect wrote: {describe(answer)}"
    introspected = probe.http.post(f"{probe.base}/oauth/introspect", data={"token": probe.host}, headers=probe.keys[INTROSPECTOR], timeout=60)
    assert introspected.status_code == 200 and introspected.json()["active"] is True, describe(introspected)


def test_a_writer_of_one_destination_cannot_write_another(probe):
    answer = put(probe, OTHER_WRITER, "/v1/destinations/sales/Customers", [{"id": "x"}])
    assert answer.status_code == 403, f"a writer of another destination replaced sales/Customers: {describe(answer)}"
    assert len(probe.rows("/v1/destinations/sales/Customers", "CustomerID")) == 60


def test_a_full_set_put_without_if_match_is_refused_and_a_decided_item_stays_decided(probe):
    held = list(probe.rows().values())  # what a back office read before the decision
    decided = probe.decide(probe.host, "PR-1001")
    assert decided.status_code == 200, describe(decided)
    after_decision = {field: probe.rows()["PR-1001"].get(field) for field in DECISION_FIELDS}
    blind = put(probe, SALES_WRITER, APPROVALS, held)
    assert blind.status_code == 428 and error_of(blind) == "precondition_required", \
        f"a full-set PUT without If-Match was not refused: {describe(blind)}"
    assert blind.headers.get("ETag"), "the 428 does not name the current version"
    stale = put(probe, SALES_WRITER, APPROVALS, held, headers={"If-Match": '"stale"'})
    assert stale.status_code == 412 and stale.headers.get("ETag") == blind.headers["ETag"], describe(stale)
    assert {field: probe.rows()["PR-1001"].get(field) for field in DECISION_FIELDS} == after_decision


def test_a_writer_that_knows_the_version_cannot_undo_a_decision_or_forge_one(probe):
    decided = probe.decide(probe.host, "PR-1003", action="reject")
    assert decided.status_code == 200, describe(decided)
    rows = probe.rows()
    kept = {field: rows["PR-1003"].get(field) for field in DECISION_FIELDS}
    forged = []
    for row in rows.values():
        row = {name: value for name, value in row.items() if name != "ETag"}
        if row["ApprovalID"] in ("PR-1003", "PR-1005"):
            row.update(Status="pending" if row["ApprovalID"] == "PR-1003" else "approved",
                       DecidedBy="mallory", DecidedAt="2026-01-01T00:00:00Z")
        forged.append(row)
    version = put(probe, SALES_WRITER, APPROVALS, forged).headers.get("ETag")  # the 428 names it
    written = put(probe, SALES_WRITER, APPROVALS, forged, headers={"If-Match": version or '"unknown"'})
    assert written.status_code == 200, describe(written)
    after = probe.rows()
    assert {field: after["PR-1003"].get(field) for field in DECISION_FIELDS} == kept, \
        f"a writer undid a decision: {after['PR-1003']}"
    assert "DecidedBy" not in after["PR-1005"] and "DecidedAt" not in after["PR-1005"], \
        f"a writer forged who decided an item: {after['PR-1005']}"
    assert written.headers.get("ETag") == f'"{written.json()["version"]}"', written.headers


def test_a_new_set_is_written_without_if_match(probe):
    """Control: a writer creates a set of its destination, and learns its version."""
    answer = put(probe, SALES_WRITER, "/v1/destinations/sales/ProbeFeed", [{"id": "a"}])
    assert answer.status_code == 200 and answer.headers.get("ETag") == f'"{answer.json()["version"]}"', describe(answer)

