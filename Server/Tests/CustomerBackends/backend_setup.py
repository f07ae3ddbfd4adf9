"""What the customer-backend suite's Tandem server and its backends agree on: the audience of the
backend tokens, the app, the users and their password. (A module of its own, not conftest.py:
every suite's conftest is imported as `conftest`, so a test importing from it could get another
suite's.)"""

AUDIENCE = "https://erp.example.test/api"
CLIENT_ID = "example-app"
PASSWORD = "correct-horse-battery-staple"
# Tandem's users; the DRF service knows all but dave.
USERNAMES = ("ada", "bob", "carol", "dave")


def erp_destination(base: str, apps: tuple = (CLIENT_ID,)) -> dict:
    """The DRF service at `base` (its `/api/` root) as the REST destination `erp`, read with each
    user's token for AUDIENCE: DRF's LimitOffsetPagination page ({"count","next","previous",
    "results"}), each item's ETag in its "etag" member, Approve and Reject as POSTs that the
    `apps` may make, above 1000.00 only with the user present. (The suite's tests and `make
    bench`'s proxy figures, scripts/bench/backend_proxy.py, read the same destination.)"""
    return {
        "name": "erp", "title": "ERP approvals", "protocolKind": "rest", "baseURL": base,
        "authentication": {"mode": "user-token", "audience": AUDIENCE},
        "entitySets": [{
            "name": "Approvals", "path": "approvals/", "query": [{"name": "limit", "value": "20"}],
            "mapping": {
                "protocolKind": "rest", "items": "/results", "id": {"pointer": "/id"}, "title": {"pointer": "/title"},
                "subtitle": {"pointer": "/requester"}, "amount": {"pointer": "/amount", "type": "string"},
                "currency": {"pointer": "/currency"}, "status": {"pointer": "/status"},
                "date": {"pointer": "/createdAt", "type": "iso8601"}, "paging": {"kind": "nextURL", "pointer": "/next"},
                "itemETag": "/etag"},
            "actions": {"apps": list(apps), "approve": {"method": "POST", "path": "approvals/{id}/approve/"},
                        "reject": {"method": "POST", "path": "approvals/{id}/reject/"}, "stepUpAbove": "1000.00"},
        }],
    }
