"""/v1/push/devices/{deviceId}: the signed-in host registers and withdraws its device's push
tokens; the widgets' read-only grant, API keys and bad bodies register nothing."""
import pytest

from documented_api import bearer

DEVICE = "/v1/push/devices/{deviceId}"
HOST_TOKEN = "ab" * 32
WIDGETS_TOKEN = "CD" * 32


def test_the_host_registers_replaces_and_withdraws_its_tokens(api, v1):
    path = "/v1/push/devices/pytest-phone"
    answer = api.expect(200, "PUT", path, DEVICE, headers=bearer(v1.full),
                        json_body={"environment": "production", "host_token": HOST_TOKEN, "widgets_token": WIDGETS_TOKEN}).json()
    assert answer == {"device_id": "pytest-phone", "environment": "production", "kinds": ["host", "widgets"]}
    answer = api.expect(200, "PUT", path, DEVICE, headers=bearer(v1.full),
                        json_body={"environment": "sandbox", "widgets_token": WIDGETS_TOKEN}).json()
    assert answer["kinds"] == ["widgets"]
    api.expect(204, "DELETE", path, DEVICE, headers=bearer(v1.full))
    api.expect(204, "DELETE", path, DEVICE, headers=bearer(v1.full))


@pytest.mark.parametrize("credential, status", [
    ("none", 401), ("the widgets' grant", 401), ("the kiosk's key", 403), ("a token without data.write", 403)])
def test_only_the_hosts_own_token_registers(api, v1, credential, status):
    headers = {"none": {}, "the widgets' grant": bearer(v1.extension), "the kiosk's key": v1.kiosk,
               "a token without data.write": bearer(v1.events_only)}[credential]
    api.expect(status, "PUT", "/v1/push/devices/pytest-phone", DEVICE, headers=headers,
               json_body={"environment": "production", "host_token": HOST_TOKEN})


@pytest.mark.parametrize("body", [
    {"environment": "production"}, {"environment": "staging", "host_token": HOST_TOKEN},
    {"environment": "production", "host_token": "xyz"}, {"environment": "production", "widgets_token": "abc"}])
def test_a_bad_body_registers_nothing(api, v1, body):
    api.expect(400, "PUT", "/v1/push/devices/pytest-phone", DEVICE, headers=bearer(v1.full), json_body=body)
