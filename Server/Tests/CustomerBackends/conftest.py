"""Fixtures of the customer-backend suite: a Tandem server that is the identity provider (users,
one app, its signing keys at its jwks_uri) and the Django REST Framework service of drf_service
that trusts it (PythonSupport/drf_backend.py), each on a free loopback port over a throwaway
database, their logs kept under --artifacts in customer-backends-drf."""
import functools
import shutil
from dataclasses import dataclass

import pytest
import requests

from drf_backend import DRFBackend
from tandem_server import TandemServer

from backend_setup import AUDIENCE, CLIENT_ID, PASSWORD, USERNAMES


@dataclass
class Identity:
    """The Tandem server the backend trusts (it also reads the backends for its users: it runs
    with --backend-allow-loopback), its base URL, and the addresses its discovery document gives."""
    server: TandemServer
    base: str
    issuer: str
    jwks_uri: str

    def mint(self, username: str, *, audience: str = AUDIENCE, issuer: str = "", as_widget: bool = False) -> str:
        """A token for `username` as Tandem sends it to a backend (`tandem admin backend-token`)."""
        return self.server.admin("backend-token", "--username", username, "--client-id", CLIENT_ID, "--audience", audience,
                                 "--issuer", issuer or self.issuer, *(["--as-widget"] if as_widget else [])).strip()


@pytest.fixture(scope="session")
def kept(artifacts):
    """Where the logs of the Tandem server and the DRF service are kept."""
    return artifacts("customer-backends-drf")


@pytest.fixture(scope="session")
def identity(tandem, tmp_path_factory, kept) -> Identity:
    server = TandemServer(tandem, tmp_path_factory.mktemp("identity-provider"))
    for username in USERNAMES:
        server.admin("create-user", "--username", username, "--fast-password-hashing", extra_environment={"TANDEM_PASSWORD": PASSWORD})
    server.admin("create-app", "--client-id", CLIENT_ID, "--name", "Example", "--redirect-uri", "com.example.app:/oauth/callback",
                 "--url-scheme", "com.example.app", "--security-mode", "oauth")
    base = server.start("--log-level", "warning", "--backend-allow-loopback")
    try:
        discovery = requests.get(f"{base}/.well-known/oauth-authorization-server", timeout=30).json()
        yield Identity(server, base, discovery["issuer"], discovery["jwks_uri"])
    finally:
        server.stop()
        shutil.copy(server.log, kept / "tandem.log")


@pytest.fixture(scope="session")
def token(identity):
    """`token(username, as_widget=False)`: a backend token for AUDIENCE, minted once per session
    (they live five minutes; the suite takes seconds)."""
    return functools.cache(lambda username, as_widget=False: identity.mint(username, as_widget=as_widget))


@pytest.fixture(scope="session")
def drf(identity, tmp_path_factory, kept) -> DRFBackend:
    backend = DRFBackend(tmp_path_factory.mktemp("drf-service"))
    backend.start(jwks_url=identity.jwks_uri, issuer=identity.issuer, audience=AUDIENCE)
    try:
        yield backend
    finally:
        backend.stop()
        for name in ("server.log", "requests.jsonl"):
            if (backend.directory / name).exists():
                shutil.copy(backend.directory / name, kept / f"drf-{name}")
