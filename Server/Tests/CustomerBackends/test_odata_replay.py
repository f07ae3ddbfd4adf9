"""The replay server alone (PythonSupport/odata_replay.py), before Tandem is put in front of it:
every route serves its recording's bytes, next links come back to the replay and lead to the
last page, conditional requests, test-set statuses, OData error bodies per version, the request
log, bearer and If-Match rules. No tandem binary is needed."""
import http.client
import json
import re
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from odata_replay import ODataReplay

RECORDINGS = Path(__file__).resolve().parent / "recordings"
MANIFEST = RECORDINGS / "recordings.json"
ROOT = Path(__file__).resolve().parents[3]
EPM = "/sap/opu/odata4/sap/zui5_testv4/default/sap/zui5_epm_sample/0002"
GWSAMPLE = "/sap/opu/odata/sap/ZUI5_GWSAMPLE_BASIC"
C4C_REQUEST = "/sap/c4c/odata/v1/c4codata/ServiceRequestCollection('00163E1379D01ED785B015D2038B098A')"
C4C_ETAG = "W/\"datetimeoffset'2017-03-30T19%3A40%3A10.8490260Z'\""
ORDER_ETAG = 'W/"20160619220000.0000000"'
CONFIRM = f"{EPM}/SalesOrderList('0500000000')/com.sap.gateway.default.zui5_epm_sample.v0002.SalesOrder_Confirm"
CLONE = f"{GWSAMPLE}/SalesOrderItem_Clone?SalesOrderID='111'&ItemPosition='010'"
BEARER = {"Authorization": "Bearer replay-test-token"}


class Answer:
    def __init__(self, status: int, headers, body: bytes):
        self.status, self.headers, self.body = status, headers, body

    def json(self):
        return json.loads(self.body)


def call(replay: ODataReplay, target: str, method: str = "GET", headers: dict | None = None, body: bytes | None = None) -> Answer:
    """One request to the replay (a target starting with http is used as it is); any status."""
    url = target if target.startswith("http") else replay.base + target
    request = urllib.request.Request(url, method=method, headers=headers or {}, data=body)
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return Answer(response.status, response.headers, response.read())
    except urllib.error.HTTPError as failure:
        return Answer(failure.code, failure.headers, failure.read())


def manifest() -> dict:
    return json.loads(MANIFEST.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def replay():
    with ODataReplay(MANIFEST) as running:
        yield running


@pytest.fixture(autouse=True)
def fresh(replay):
    replay.reset()
    yield


def request_for(route: dict) -> tuple:
    """(target, headers) that reach `route` and satisfy its rules."""
    query = "&".join(f"{name}={value}" for name, value in route.get("query", {}).items() if value is not None)
    headers = dict(BEARER) if route.get("requireBearer") else {}
    if route.get("requireIfMatch"):
        headers["If-Match"] = route["requireIfMatch"]
    return route["path"] + ("?" + query if query else ""), headers


@pytest.mark.parametrize("route", manifest()["routes"], ids=lambda route: route["name"])
def test_each_route_serves_its_recording_with_its_status_and_headers(replay, route):
    target, headers = request_for(route)
    answer = call(replay, target, route["method"], headers, b"{}" if route["method"] == "POST" else None)
    recorded = (ROOT / route["body"]).read_bytes()
    origin = manifest()["services"][route["service"]]["origin"]
    assert answer.status == route["status"]
    if origin:
        # The only change is the origin: put it back and the bytes are the recording's.
        assert answer.body.replace(replay.base.encode(), origin.encode()) == recorded
    else:
        assert answer.body == recorded
    assert int(answer.headers["Content-Length"]) == len(answer.body)
    for name, value in route["headers"].items():
        expected = value.replace(origin, replay.base) if origin and name.lower() == "location" else value
        assert answer.headers[name] == expected


def test_every_recording_here_is_served_and_has_its_source(replay):
    served = {Path(route["body"]).name for route in manifest()["routes"]}
    sources = (RECORDINGS / "SOURCES.md").read_text(encoding="utf-8")
    for recording in sorted(RECORDINGS.glob("*.json")):
        if recording.name == "recordings.json":
            continue
        assert recording.name in served, f"{recording.name} is not served by any route"
        assert f"`{recording.name}`" in sources, f"{recording.name} has no entry in SOURCES.md"


def test_v2_next_links_point_back_to_the_replay_and_lead_to_the_last_page(replay):
    target, ids, pages = "/V2/Northwind/Northwind.svc/Customers?$select=CustomerID", [], 0
    while target:
        answer = call(replay, target)
        assert answer.status == 200
        document = answer.json()["d"]
        for row in document["results"]:
            assert row["__metadata"]["uri"] == f"{replay.base}/V2/Northwind/Northwind.svc/Customers('{row['CustomerID']}')"
            ids.append(row["CustomerID"])
        target = document.get("__next")
        if target:
            # Exactly the recorded link, origin swapped: path and query (quotes, $) untouched.
            recorded = r"/V2/Northwind/Northwind\.svc/Customers\?\$select=CustomerID&\$skiptoken='[A-Z]{5}'"
            assert re.fullmatch(re.escape(replay.base) + recorded, target)
        pages += 1
    assert pages == 5
    assert len(ids) == len(set(ids)) == 91
    assert [entry["query"] for entry in replay.requests()][1:] == [
        f"$select=CustomerID&$skiptoken='{token}'" for token in ("ERNSH", "LACOR", "PRINI", "TORTU")]


def test_v4_relative_next_links_stay_relative_and_lead_to_the_last_page(replay):
    url, ids, contexts = replay.base + "/V4/Northwind/Northwind.svc/Customers?$count=true", [], set()
    while url:
        document = call(replay, url).json()
        contexts.add(document["@odata.context"])
        ids += [row["CustomerID"] for row in document["value"]]
        link = document.get("@odata.nextLink")
        if link:
            assert link.startswith("Customers?$count=true&$select=CustomerID&$skiptoken='")
        url = urllib.parse.urljoin(url, link) if link else None
    assert contexts == {f"{replay.base}/V4/Northwind/Northwind.svc/$metadata#Customers(CustomerID)"}
    assert len(ids) == len(set(ids)) == 91


def test_sap_gateway_v4_next_link_keeps_its_path_and_reaches_the_second_page(replay):
    first = call(replay, f"{EPM}/BusinessPartnerList?custom-option=value&$count=true&$skip=0&$top=21")
    link = first.json()["@odata.nextLink"]
    assert link.startswith(f"{EPM}/BusinessPartnerList?$skip=0&$top=21&$filter=")
    second = call(replay, link).json()
    rows = first.json()["value"] + second["value"]
    assert [row["BusinessPartnerID"] for row in rows] == [
        "0100000000", "0100000001", "0100000002", "0100000020", "0100000021", "0100000022"]
    assert all(row["@odata.etag"].startswith('W/"') for row in rows)
    assert "@odata.nextLink" not in second


def test_percent_encoded_paging_parameters_find_the_same_page(replay):
    encoded = call(replay, "/V2/Northwind/Northwind.svc/Customers?%24skiptoken=%27ERNSH%27")
    assert encoded.status == 200
    assert encoded.json()["d"]["results"][0]["CustomerID"] == "FAMIA"


def test_a_matching_if_none_match_gets_304_without_a_body(replay):
    for tag in (C4C_ETAG, f'"other", {C4C_ETAG}', "*", C4C_ETAG[2:]):
        answer = call(replay, C4C_REQUEST, headers={**BEARER, "If-None-Match": tag})
        assert (answer.status, answer.body) == (304, b""), tag
        assert answer.headers["etag"] == C4C_ETAG
    assert call(replay, C4C_REQUEST, headers={**BEARER, "If-None-Match": 'W/"stale"'}).status == 200
    assert call(replay, f"{EPM}/SalesOrderList('0500000000')", headers={**BEARER, "If-None-Match": ORDER_ETAG}).status == 304


def test_set_status_answers_an_error_of_the_routes_version_until_reset(replay):
    replay.set_status("v2-c4c-service-request", 503)
    replay.set_status("v4-epm-sales-orders", 403)
    v2 = call(replay, C4C_REQUEST, headers=BEARER)
    v4 = call(replay, f"{EPM}/SalesOrderList")
    assert v2.status == 503 and v2.json()["error"]["message"]["lang"] == "en"
    assert v4.status == 403 and isinstance(v4.json()["error"]["message"], str)
    replay.reset()
    assert call(replay, C4C_REQUEST, headers=BEARER).status == 200
    assert call(replay, f"{EPM}/SalesOrderList").status == 200
    with pytest.raises(KeyError):
        replay.set_status("no-such-route", 500)


@pytest.mark.parametrize("target, version", [
    (f"{EPM}/ProductList", "v4"),
    ("/V4/Northwind/Northwind.svc/Orders", "v4"),
    ("/nowhere", "v4"),
    (f"{GWSAMPLE}/SalesOrderSet('230')/ToLineItems?$skip=4&$top=4", "v2"),
    ("/V2/Northwind/Northwind.svc/Customers?$skiptoken='ZZZZZ'", "v2"),
    ("/service/Rooms?$skiptoken=2", "v2"),
])
def test_an_unrecorded_request_gets_404_with_the_error_body_of_its_version(replay, target, version):
    answer = call(replay, target)
    assert answer.status == 404
    error = answer.json()["error"]
    assert set(error) == {"code", "message"}
    if version == "v2":
        assert set(error["message"]) == {"lang", "value"} and answer.headers["dataserviceversion"] == "1.0"
    else:
        assert isinstance(error["message"], str) and answer.headers["OData-Version"] == "4.0"


def test_the_olingo_relative_next_link_has_no_recorded_page(replay):
    rooms = call(replay, "/service/Rooms").json()["d"]
    assert rooms["__next"] == "Rooms?$skiptoken=2"
    assert rooms["results"][0]["__metadata"] == {
        "id": f"{replay.base}/service/Rooms('1')", "uri": f"{replay.base}/service/Rooms('1')",
        "type": "RefScenario.Room", "etag": 'W/"1"'}
    assert call(replay, urllib.parse.urljoin(replay.base + "/service/Rooms", rooms["__next"])).status == 404


def test_requests_are_logged_in_order_with_lower_case_headers(replay):
    call(replay, "/V4/Northwind/Northwind.svc/Customers?$count=true", headers={"X-Request-ID": "one"})
    call(replay, CONFIRM, "POST", {**BEARER, "If-Match": ORDER_ETAG, "Content-Type": "application/json"}, b"{}")
    logged = replay.requests()
    assert [(entry["method"], entry["path"], entry["query"]) for entry in logged] == [
        ("GET", "/V4/Northwind/Northwind.svc/Customers", "$count=true"), ("POST", CONFIRM, "")]
    assert logged[0]["headers"]["x-request-id"] == "one"
    assert logged[1]["headers"]["authorization"] == BEARER["Authorization"]
    assert logged[1]["headers"]["if-match"] == ORDER_ETAG
    assert all(name == name.lower() for entry in logged for name in entry["headers"])


@pytest.mark.parametrize("authorization", [None, "Basic dXNlcjpwYXNz", "Bearer ", "Bearer"])
def test_a_bearer_route_answers_401_without_a_bearer_token(replay, authorization):
    answer = call(replay, C4C_REQUEST, headers={"Authorization": authorization} if authorization else {})
    assert answer.status == 401
    assert answer.headers["WWW-Authenticate"] == "Bearer"
    assert set(answer.json()["error"]["message"]) == {"lang", "value"}


def test_any_bearer_token_passes(replay):
    assert call(replay, C4C_REQUEST, headers={"authorization": "bearer anything-at-all"}).status == 200


@pytest.mark.parametrize("target, etag, version", [(CONFIRM, ORDER_ETAG, "v4"), (CLONE, 'W/"not-recorded-1"', "v2")])
def test_a_write_needs_the_current_etag_in_if_match(replay, target, etag, version):
    without = call(replay, target, "POST", BEARER, b"{}")
    stale = call(replay, target, "POST", {**BEARER, "If-Match": 'W/"19990101000000.0000000"'}, b"{}")
    current = call(replay, target, "POST", {**BEARER, "If-Match": etag}, b"{}")
    star = call(replay, target, "POST", {**BEARER, "If-Match": "*"}, b"{}")
    assert (without.status, stale.status, current.status, star.status) == (428, 412, 200, 200)
    for refused in (without, stale):
        message = refused.json()["error"]["message"]
        assert (set(message) == {"lang", "value"}) if version == "v2" else isinstance(message, str)
    assert call(replay, target, "POST", {"If-Match": etag}, b"{}").status == 401


def test_the_v2_function_import_answers_as_recorded(replay):
    answer = call(replay, CLONE, "POST", {**BEARER, "If-Match": 'W/"not-recorded-1"'}, b"")
    line = answer.json()["d"]
    assert (line["SalesOrderID"], line["ItemPosition"], line["GrossAmount"], line["DeliveryDate"]) == (
        "111", "020", "1137.64", "/Date(1601457612700)/")
    assert answer.headers["location"] == f"{GWSAMPLE}/SalesOrderLineItemSet(SalesOrderID='111',ItemPosition='020')"
    assert call(replay, CLONE.replace("'010'", "'020'"), "POST", {**BEARER, "If-Match": "*"}, b"").status == 404


def test_the_c4c_create_location_points_back_to_the_replay(replay):
    answer = call(replay, "/sap/c4c/odata/v1/c4codata/ServiceRequestCollection", "POST", BEARER, b"{}")
    assert answer.status == 201
    assert answer.headers["location"] == replay.base + C4C_REQUEST
    assert answer.json()["d"]["results"]["__metadata"]["uri"] == replay.base + C4C_REQUEST


def test_one_connection_carries_several_requests_with_sized_and_chunked_bodies(replay):
    port = int(replay.base.rsplit(":", 1)[1])
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        statuses = []
        for body, chunked in ((b'{"a":1}', False), (iter([b'{"b":', b"2}"]), True), (None, False)):
            headers = {**BEARER, "If-Match": ORDER_ETAG}
            connection.request("POST" if body is not None else "GET", CONFIRM if body is not None else f"{EPM}/SalesOrderList",
                               body=body, headers=headers, encode_chunked=chunked)
            response = connection.getresponse()
            response.read()
            statuses.append(response.status)
    finally:
        connection.close()
    assert statuses == [200, 200, 200]
    logged = replay.requests()
    assert [entry["method"] for entry in logged] == ["POST", "POST", "GET"]
    assert logged[1]["headers"]["transfer-encoding"] == "chunked"
