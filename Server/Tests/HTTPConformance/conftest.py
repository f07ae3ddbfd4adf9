"""Fixtures of the HTTP conformance suite: the OpenAPI document, the seeded server (see
seeded_server.py), a client that checks answers against the document, live /v1 credentials."""
import shutil

import pytest
import yaml

from documented_api import DocumentedAPI
from seeded_server import CLIENT_ID, SPEC, SeededServer, V1Credentials, access_token, start_seeded_server


@pytest.fixture(scope="session")
def spec() -> dict:
    with open(SPEC) as document:
        return yaml.safe_load(document)


@pytest.fixture(scope="session")
def seeded(tandem, tmp_path_factory, artifacts) -> SeededServer:
    """The server every test of this suite but the schemathesis run talks to."""
    seeded = start_seeded_server(tandem, tmp_path_factory.mktemp("conformance-server"))
    yield seeded
    seeded.server.stop()
    shutil.copy(seeded.server.log, artifacts("conformance-server") / "server.log")


@pytest.fixture
def api(spec, seeded) -> DocumentedAPI:
    """A client of the seeded server with cookies of its own."""
    return DocumentedAPI(spec, seeded.base)


@pytest.fixture(scope="session")
def v1(spec, seeded) -> V1Credentials:
    api = DocumentedAPI(spec, seeded.base)
    full = access_token(api, seeded.refresh_tokens["v1"])
    extension = api.expect(200, "POST", "/oauth/token", "/oauth/token", form={
        "grant_type": "urn:ietf:params:oauth:grant-type:token-exchange", "client_id": CLIENT_ID,
        "subject_token": full, "subject_token_type": "urn:ietf:params:oauth:token-type:access_token"}).json()["access_token"]
    return V1Credentials(full=full, extension=extension,
                         read_only=access_token(api, seeded.refresh_tokens["read_only"]),
                         events_only=access_token(api, seeded.refresh_tokens["events_only"]),
                         kiosk={"X-API-Key": seeded.kiosk_key})

