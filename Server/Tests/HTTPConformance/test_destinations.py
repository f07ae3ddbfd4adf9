"""/v1 on the demo data (`tandem admin seed-demo`, destination `sales`): the destinations, paging
an entity set to its end, conditional requests with ETags, and who may read."""
import pytest

from documented_api import bearer

LIST = "/v1/destinations"
PAGE = "/v1/destinations/{destination}/{entitySet}"
DEMO_SETS = {"Approvals": 12, "Customers": 60, "Products": 40, "SalesOrders": 240}


def test_the_destinations_list_the_demo_entity_sets_with_their_counts_in_order(api, v1):
    answer = api.expect(200, "GET", LIST, LIST, headers=bearer(v1.full))
    sales = [destination for destination in answer.json()["destinations"] if destination.get("name") == "sales"]
    assert len(sales) == 1, "no destination sales"
    assert {entity_set["name"]: entity_set["count"] for entity_set in sales[0]["entity_sets"]} == DEMO_SETS
    assert [entity_set["href"] for entity_set in sales[0]["entity_sets"]] == [f"/v1/destinations/sales/{name}" for name in sorted(DEMO_SETS)]


def test_the_destinations_are_not_modified_for_their_etag(api, v1):
    etag = api.expect(200, "GET", LIST, LIST, headers=bearer(v1.full)).headers.get("ETag", "")
    api.expect(304, "GET", LIST, LIST, headers={**bearer(v1.full), "If-None-Match": etag})


def test_the_kiosk_key_and_an_extension_token_read_the_destinations(api, v1):
    api.expect(200, "GET", LIST, LIST, headers=v1.kiosk)
    api.expect(200, "GET", LIST, LIST, headers=bearer(v1.extension))


@pytest.mark.parametrize("credential, status", [
    ("none", 401), ("an OAuth app's key", 401), ("a garbage token", 401), ("a token without data.read", 403)])
def test_the_destinations_refuse(api, seeded, v1, credential, status):
    headers = {"none": {}, "an OAuth app's key": {"X-API-Key": seeded.api_key}, "a garbage token": bearer("a.b.c"),
               "a token without data.read": bearer(v1.events_only)}[credential]
    api.expect(status, "GET", LIST, LIST, headers=headers)


def test_paging_sales_orders_follows_next_to_all_240_distinct_rows(api, v1):
    path, seen, pages = "/v1/destinations/sales/SalesOrders?limit=100", [], 0
    while path and pages < 10:
        page = api.expect(200, "GET", path, PAGE, headers=bearer(v1.full)).json()
        assert (page["offset"], page["limit"], page["total"]) == (len(seen), 100, 240), f"page {pages + 1}"
        seen += [item.get("SalesOrderID") for item in page["items"]]
        path, pages = page["next"], pages + 1
    assert len(seen) == 240 and len(set(seen)) == 240, f"{len(seen)} rows ({len(set(seen))} distinct) in {pages} pages"


def test_a_page_is_not_modified_for_its_etag_with_strong_or_weak_comparison(api, v1):
    path = "/v1/destinations/sales/SalesOrders?limit=100"
    etag = api.expect(200, "GET", path, PAGE, headers=bearer(v1.full)).headers.get("ETag")
    api.expect(304, "GET", path, PAGE, headers={**bearer(v1.full), "If-None-Match": etag})
    api.expect(304, "GET", path, PAGE, headers={**bearer(v1.full), "If-None-Match": f'"nope", W/{etag}'})
    api.expect(200, "GET", path, PAGE, headers={**bearer(v1.full), "If-None-Match": '"00000000000000000000000000000000"'})


def test_a_page_has_50_rows_from_offset_0_by_default(api, v1):
    page = api.expect(200, "GET", "/v1/destinations/sales/Customers", PAGE, headers=v1.kiosk).json()
    assert (page["limit"], page["offset"], len(page["items"])) == (50, 0, 50)
    assert page["next"] == "/v1/destinations/sales/Customers?limit=50&offset=50"


def test_a_page_past_the_end_is_empty_without_next(api, v1):
    page = api.expect(200, "GET", "/v1/destinations/sales/Products?offset=1000", PAGE, headers=bearer(v1.full)).json()
    assert page["items"] == [] and page["next"] is None


def test_an_extension_token_reads_a_page(api, v1):
    api.expect(200, "GET", "/v1/destinations/sales/Products?limit=5", PAGE, headers=bearer(v1.extension))


@pytest.mark.parametrize("query", ["limit=0", "limit=501", "limit=ten", "limit=5&limit=6", "offset=-1", "offset=1000000001", "offset=1.5"])
def test_a_page_with_a_bad_query_is_a_bad_request(api, v1, query):
    api.expect(400, "GET", f"/v1/destinations/sales/Customers?{query}", PAGE, headers=bearer(v1.full))


def test_an_unknown_destination_or_entity_set_is_not_found(api, v1):
    api.expect(404, "GET", "/v1/destinations/nowhere/Customers", PAGE, headers=bearer(v1.full))
    api.expect(404, "GET", "/v1/destinations/sales/Nothing", PAGE, headers=v1.kiosk)


def test_a_page_needs_a_credential_with_data_read(api, v1):
    api.expect(401, "GET", "/v1/destinations/sales/Customers", PAGE)
    api.expect(403, "GET", "/v1/destinations/sales/Customers", PAGE, headers=bearer(v1.events_only))


WRITTEN = "/v1/destinations/pytest-feed/Items"


def writer(seeded, **headers) -> dict:
    return {"X-API-Key": seeded.writer_key, **headers}


def test_a_writer_replaces_a_set_that_readers_then_page_through(api, seeded, v1):
    rows = [{"id": "a", "n": 1}, {"n": 2, "id": "b"}]
    written = api.expect(200, "PUT", WRITTEN, PAGE, headers=writer(seeded),
                         json_body={"title": "Written by a back office", "rows": rows})
    answer = written.json()
    assert (answer["destination"], answer["entity_set"], answer["row_count"], answer["changed"]) == ("pytest-feed", "Items", 2, True)
    assert written.headers.get("ETag") == f'"{answer["version"]}"'
    page = api.expect(200, "GET", WRITTEN, PAGE, headers=bearer(v1.full)).json()
    assert page["items"] == rows and page["total"] == 2
    again = api.expect(200, "PUT", WRITTEN, PAGE, headers=writer(seeded, **{"If-Match": written.headers["ETag"]}),
                       json_body={"title": "Written by a back office", "rows": rows}).json()
    assert again["changed"] is False and again["version"] == answer["version"]


def test_a_set_that_exists_is_replaced_only_with_its_version(api, seeded, v1):
    path = "/v1/destinations/pytest-feed/Conditional"
    body = {"title": "Conditional", "rows": [{"id": "a"}]}
    created = api.expect(200, "PUT", path, PAGE, headers=writer(seeded, **{"If-None-Match": "*"}), json_body=body)
    required = api.expect(428, "PUT", path, PAGE, headers=writer(seeded), json_body={**body, "rows": []})
    assert required.json()["error"] == "precondition_required" and required.headers["ETag"] == created.headers["ETag"]
    api.expect(412, "PUT", path, PAGE, headers=writer(seeded, **{"If-None-Match": "*"}), json_body=body)
    stale = api.expect(412, "PUT", path, PAGE, headers=writer(seeded, **{"If-Match": '"0"'}), json_body={**body, "rows": []})
    assert stale.json()["error"] == "precondition_failed" and stale.headers["ETag"] == created.headers["ETag"]
    assert api.expect(200, "GET", path, PAGE, headers=bearer(v1.full)).json()["total"] == 1, "a refused write changed the set"
    replaced = api.expect(200, "PUT", path, PAGE, headers=writer(seeded, **{"If-Match": required.headers["ETag"]}),
                          json_body={**body, "rows": []})
    assert replaced.json()["changed"] is True and replaced.headers["ETag"] != created.headers["ETag"]


def test_if_match_for_a_set_that_does_not_exist_fails_without_an_etag(api, seeded):
    missing = api.expect(412, "PUT", "/v1/destinations/pytest-feed/Missing", PAGE, headers=writer(seeded, **{"If-Match": '"0"'}),
                         json_body={"title": "T", "rows": []})
    assert "ETag" not in missing.headers


@pytest.mark.parametrize("headers", [{"If-Match": "*"}, {"If-Match": 'W/"0"'}, {"If-None-Match": '"0"'}])
def test_a_precondition_that_names_no_version_is_a_bad_request(api, seeded, headers):
    api.expect(400, "PUT", "/v1/destinations/pytest-feed/Unconditional", PAGE, headers=writer(seeded, **headers),
               json_body={"title": "T", "rows": []})


@pytest.mark.parametrize("credential, path, status", [
    ("none", "pytest-feed/Refused", 401),
    ("the kiosk's key (no writer)", "pytest-feed/Refused", 403),
    ("a resource server's key (introspection only)", "pytest-feed/Refused", 403),
    ("the writer's key, for another destination", "sales/Refused", 403),
    ("a user's token", "pytest-feed/Refused", 401),
    ("a garbage key", "pytest-feed/Refused", 401)])
def test_only_a_writer_of_the_destination_writes(api, seeded, v1, credential, path, status):
    headers = {"none": {}, "the kiosk's key (no writer)": v1.kiosk, "a resource server's key (introspection only)": {"X-API-Key": seeded.api_key},
               "the writer's key, for another destination": writer(seeded), "a user's token": bearer(v1.full),
               "a garbage key": {"X-API-Key": "tdk_garbage"}}[credential]
    api.expect(status, "PUT", f"/v1/destinations/{path}", PAGE, headers=headers, json_body={"title": "T", "rows": []})
    api.expect(404, "GET", f"/v1/destinations/{path}", PAGE, headers=bearer(v1.full))


@pytest.mark.parametrize("body, status", [
    ({"rows": []}, 400), ({"title": "T", "rows": [1]}, 400), ({"title": "T", "rows": {}}, 400)])
def test_a_bad_body_is_refused(api, seeded, body, status):
    api.expect(status, "PUT", "/v1/destinations/pytest-feed/Bad", PAGE, headers=writer(seeded), json_body=body)
