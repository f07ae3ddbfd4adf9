"""/v1/events and /v1/analytics/summary: batches of events, deduplicated by id, validated whole
(one bad event writes nothing), and their summary per app."""
import datetime
import json
import urllib.parse
import uuid

import pytest

from documented_api import DocumentedAPI, bearer
from seeded_server import CLIENT_ID, KIOSK_CLIENT_ID

EVENTS, SUMMARY = "/v1/events", "/v1/analytics/summary"
NOW = datetime.datetime.now(datetime.timezone.utc)


def stamp(minutes_ago: int) -> str:
    return (NOW - datetime.timedelta(minutes=minutes_ago)).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def event(name="widget.tap", minutes_ago=1, **fields) -> dict:
    return {"id": str(uuid.uuid4()), "name": name, "timestamp": stamp(minutes_ago), **fields}


# example-app's batch: three taps in two groups, and an app.open.
BATCH = {"events": [
    event(minutes_ago=5, properties={"kind": "orders", "family": "systemMedium", "configuration": "open-orders", "extra": {"n": 1}}),
    event(minutes_ago=4, properties={"kind": "orders", "family": "systemMedium", "configuration": "open-orders"}),
    event(minutes_ago=3, properties={"kind": "kpi", "family": None}),
    event("app.open", minutes_ago=2),
]}
KIOSK_BATCH = {"events": [event(properties={"kind": "kiosk"})]}
BAD_BATCHES = {
    "no events": {"events": []},
    "a bad id": {"events": [{**BATCH["events"][0], "id": "not-a-uuid"}]},
    "a bad name": {"events": [{**BATCH["events"][0], "id": str(uuid.uuid4()), "name": "widget tap"}]},
    "a timestamp without a zone": {"events": [{**BATCH["events"][0], "id": str(uuid.uuid4()), "timestamp": "2025-03-14T09:30:00"}]},
    "a numeric kind": {"events": [{**BATCH["events"][0], "id": str(uuid.uuid4()), "properties": {"kind": 7}}]},
    "501 events": {"events": [event("x") for _ in range(501)]},
    # A valid event before an invalid one: nothing may be written.
    "one bad event of two": {"events": [event(), {**event(), "id": "bad"}]},
}


@pytest.fixture(scope="module")
def sent(spec, seeded, v1) -> dict:
    """BATCH sent twice with example-app's token and KIOSK_BATCH once with the kiosk's key, before
    any summary is read: the answers, by name."""
    api = DocumentedAPI(spec, seeded.base)
    return {
        "first": api.call("POST", EVENTS, EVENTS, headers=bearer(v1.full), json_body=BATCH),
        "again": api.call("POST", EVENTS, EVENTS, headers=bearer(v1.full), json_body=BATCH),
        "kiosk": api.call("POST", EVENTS, EVENTS, headers=v1.kiosk, json_body=KIOSK_BATCH),
    }


def accepted(answer, accepted: int, duplicates: int):
    assert answer.status == 200 and not answer.problems, f"{answer.describe()} {answer.problems}"
    assert answer.json() == {"accepted": accepted, "duplicates": duplicates}


def test_a_new_batch_is_accepted_whole(sent):
    accepted(sent["first"], 4, 0)


def test_the_same_batch_again_counts_only_duplicates(sent):
    accepted(sent["again"], 0, 4)


def test_an_api_key_app_sends_events_with_its_key(sent):
    accepted(sent["kiosk"], 1, 0)


@pytest.mark.parametrize("what", BAD_BATCHES)
def test_a_batch_with_a_bad_event_is_a_bad_request(api, v1, what):
    api.expect(400, "POST", EVENTS, EVENTS, headers=v1.kiosk, json_body=BAD_BATCHES[what])


def test_a_refused_batch_writes_none_of_its_events(api, v1, sent):
    before = api.expect(200, "GET", SUMMARY, SUMMARY, headers=v1.kiosk).json()["total"]
    api.expect(400, "POST", EVENTS, EVENTS, headers=v1.kiosk, json_body={"events": [event(), {**event(), "id": "bad"}]})
    assert api.expect(200, "GET", SUMMARY, SUMMARY, headers=v1.kiosk).json()["total"] == before


def test_a_body_that_is_not_json_is_a_bad_request(api, v1):
    api.expect(400, "POST", EVENTS, EVENTS, headers={**v1.kiosk, "Content-Type": "application/json"}, raw=b"{")


def test_a_body_as_text_plain_is_an_unsupported_media_type(api, v1):
    api.expect(415, "POST", EVENTS, EVENTS, headers={**v1.kiosk, "Content-Type": "text/plain"}, raw=json.dumps(KIOSK_BATCH).encode())


def test_a_body_over_the_limit_is_too_large(api, v1):
    api.expect(413, "POST", EVENTS, EVENTS, headers={**v1.kiosk, "Content-Type": "application/json"},
               raw=b'{"events":[' + b" " * 70_000 + b"]}")


def test_sending_events_needs_a_credential_with_events_write_and_not_an_extensions(api, v1):
    api.expect(401, "POST", EVENTS, EVENTS, json_body=KIOSK_BATCH)
    api.expect(403, "POST", EVENTS, EVENTS, headers=bearer(v1.extension), json_body=KIOSK_BATCH)
    api.expect(403, "POST", EVENTS, EVENTS, headers=bearer(v1.read_only), json_body=KIOSK_BATCH)


def test_the_summary_counts_the_apps_taps_by_group_largest_first(api, v1, sent):
    summary = api.expect(200, "GET", SUMMARY, SUMMARY, headers=bearer(v1.full)).json()
    groups = {(group["kind"], group["family"], group["configuration"]): group["count"] for group in summary["groups"]}
    assert (summary["client_id"], summary["name"], summary["total"]) == (CLIENT_ID, "widget.tap", 3), summary
    assert groups == {("orders", "systemMedium", "open-orders"): 2, ("kpi", None, None): 1}
    assert summary["groups"][0]["count"] == 2


def test_the_summary_of_one_event_name_in_a_period(api, v1, sent):
    query = f"name=app.open&from={urllib.parse.quote(stamp(60))}&to={urllib.parse.quote(stamp(0))}"
    assert api.expect(200, "GET", f"{SUMMARY}?{query}", SUMMARY, headers=bearer(v1.read_only)).json()["total"] == 1


def test_the_summary_with_an_api_key_is_that_apps(api, v1, sent):
    summary = api.expect(200, "GET", SUMMARY, SUMMARY, headers=v1.kiosk).json()
    assert (summary["client_id"], summary["total"]) == (KIOSK_CLIENT_ID, 1)


def test_an_extension_token_reads_the_summary(api, v1):
    api.expect(200, "GET", SUMMARY, SUMMARY, headers=bearer(v1.extension))


@pytest.mark.parametrize("query", [
    "from=yesterday", "to=2025-03-14T09:30:00",
    pytest.param(f"from={urllib.parse.quote(stamp(0))}&to={urllib.parse.quote(stamp(10))}", id="from-after-to"),
    "name=a&name=b", "name=widget%20tap"])
def test_the_summary_with_a_bad_query_is_a_bad_request(api, v1, query):
    api.expect(400, "GET", f"{SUMMARY}?{query}", SUMMARY, headers=v1.kiosk)


def test_the_summary_needs_a_credential_with_data_read(api, v1):
    api.expect(401, "GET", SUMMARY, SUMMARY)
    api.expect(403, "GET", SUMMARY, SUMMARY, headers=bearer(v1.events_only))
