"""S4-08: the push registry. Any user registered any token under any device id, and an APNs `410`
deleted the token for every app and user, whenever it had been registered. Now a token is
registered once per app and environment (the newest registration keeps it), and a refusal by
APNs removes only the registration of the app whose push it refused, and a `410` only a
registration made before its `timestamp`.

The pushes go through the local APNs stand-in (`tandem apns-standin`), which answers `410
Unregistered` with the `timestamp` a device's `unregistered` file holds."""
import json
import os
import select
import secrets
import subprocess
import time

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from security_probe import ACTIONS_SCOPE, DEMO_CLIENT_ID, DEMO_USERNAME, describe

MALLORY = "mallory"
SECOND, KEYLESS = "second-app", "keyless-app"  # with an APNs key / without one
KEY_ID, TEAM_ID = "PROBEKEY01", "PROBETEAM1"
BUNDLES = {DEMO_CLIENT_ID: "com.example.probe.demo", SECOND: "com.example.probe.second"}


class APNsStandIn:
    """`tandem apns-standin` on a free port, with a devices folder in `directory`."""

    def __init__(self, tandem, directory, key_file, environment):
        self.devices = directory / "devices"
        self.devices.mkdir()
        self.ca = directory / "apns-ca.pem"
        bundles = [option for bundle in BUNDLES.values() for option in ("--bundle-id", bundle)]
        self.log = open(directory / "apns-standin.log", "w")
        self.process = subprocess.Popen(
            [str(tandem), "apns-standin", "--port", "0", "--devices", str(self.devices), "--ca-certificate", str(self.ca),
             *bundles, "--provider-key", f"{KEY_ID}:{TEAM_ID}:{key_file}"],
            stdout=subprocess.PIPE, stderr=self.log, text=True, env=environment)
        self.port = self._listening_port(deadline=time.monotonic() + 60)

    def _listening_port(self, deadline) -> int:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.process.stdout], [], [], 0.5)
            if ready:
                line = self.process.stdout.readline()
                if not line:
                    break
                if line.startswith("{") and json.loads(line).get("apns") == "listening":
                    return json.loads(line)["port"]
        self.stop()
        raise RuntimeError("tandem apns-standin did not say it was listening")

    def device(self) -> str:
        """A new device's token (its folder made, as when an iPhone registers)."""
        token = secrets.token_hex(32)
        (self.devices / token / "inbox").mkdir(parents=True)
        return token

    def unregister(self, token: str, at_milliseconds: int):
        """The app is deleted from the device: pushes to `token` get 410 with this timestamp."""
        (self.devices / token / "unregistered").write_text(f"{at_milliseconds}\n")

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process.stdout.close()
        self.log.close()


@pytest.fixture(scope="module")
def probe(probed_server, tandem):
    probe = probed_server("s4-08-push-registry")
    directory = probe.database_file.parent
    key_file = directory / "AuthKey.p8"
    key_file.write_bytes(ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    os.chmod(key_file, 0o600)
    probe.seed_demo()
    probe.create_user(MALLORY)
    probe.create_app(SECOND)
    probe.create_app(KEYLESS)
    for client_id, bundle in BUNDLES.items():
        probe.admin("set-apns-key", "--client-id", client_id, "--key-id", KEY_ID, "--team-id", TEAM_ID, "--bundle-id", bundle,
                    "--key-file", str(key_file))
    apns = APNsStandIn(tandem, directory, key_file, probe.server.environment)
    try:
        probe.start("--apns-url", f"https://localhost:{apns.port}", "--apns-trust-roots", str(apns.ca), "--push-coalescing", "0")
        probe.apns = apns
        probe.hosts = {
            (user, client): probe.tokens(client, probe.issue_refresh_token(user, client, scope=ACTIONS_SCOPE))["access_token"]
            for user, client in [(DEMO_USERNAME, DEMO_CLIENT_ID), (MALLORY, DEMO_CLIENT_ID), (MALLORY, SECOND), (MALLORY, KEYLESS)]}
        yield probe
    finally:
        probe.stop()
        apns.stop()


def register(probe, user: str, client_id: str, device_id: str, token: str):
    """Registers `token` as the host's, for a phone whose brokered widget shows sales/Approvals
    (a change is pushed only where a placed widget shows the set)."""
    widgets = [{"destination": "sales", "entity_set": "Approvals", "rows": 10, "fields": [], "delivery": "brokered"}]
    answer = probe.call("PUT", f"/v1/push/devices/{device_id}", probe.hosts[user, client_id],
                        json={"environment": "production", "host_token": token, "widgets": widgets})
    assert answer.status_code == 200, describe(answer)


def registrations(probe, token: str) -> list[tuple]:
    """(client id, username, device id) of every registration of `token`."""
    return sorted(probe.query(
        "SELECT p.client_id, u.username, p.device_id FROM push_registrations p JOIN users u ON u.id = p.user_id WHERE p.token = ?", token))


def test_a_token_is_registered_once_per_app_and_environment(probe):
    token = probe.apns.device()
    register(probe, DEMO_USERNAME, DEMO_CLIENT_ID, "demo-phone", token)
    register(probe, MALLORY, DEMO_CLIENT_ID, "mallory-phone", token)
    assert registrations(probe, token) == [(DEMO_CLIENT_ID, MALLORY, "mallory-phone")], \
        f"one token, registered for two users of one app: {registrations(probe, token)}"


def test_a_410_removes_only_that_apps_registration_made_before_its_timestamp(probe):
    token = probe.apns.device()
    register(probe, MALLORY, KEYLESS, "phone", token)              # another app, never pushed
    register(probe, DEMO_USERNAME, DEMO_CLIENT_ID, "phone", token)  # pushed, registered before the 410's timestamp
    time.sleep(0.05)
    probe.apns.unregister(token, int(time.time() * 1000))
    time.sleep(0.05)
    register(probe, MALLORY, SECOND, "phone", token)               # pushed, registered again after it
    # A change of a set owes a push to every registration, of an app with an APNs key, whose widgets show it.
    decided = probe.decide(probe.hosts[DEMO_USERNAME, DEMO_CLIENT_ID], "PR-1001")
    assert decided.status_code == 200, describe(decided)
    deadline = time.monotonic() + 60
    while probe.query("SELECT COUNT(*) FROM push_outbox")[0][0] and time.monotonic() < deadline:
        time.sleep(0.1)
    assert probe.query("SELECT COUNT(*) FROM push_outbox")[0][0] == 0, "the pushes were not sent within 60 s"
    assert registrations(probe, token) == sorted([(KEYLESS, MALLORY, "phone"), (SECOND, MALLORY, "phone")]), \
        f"after the 410: {registrations(probe, token)}"
