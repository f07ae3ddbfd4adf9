"""The server under the HTTP conformance suite: `tandem serve` on a throwaway SQLite database
seeded with `tandem admin seed-demo` (the demo user, the OAuth app `tandem-demo`, the API-key app
`tandem-demo-kiosk` with its key, the demo business data of destination `sales`), plus a user
`ada`, an OAuth app `example-app` registered as a resource server (it introspects) with an API
key of its own, an API-key app `example-back-office` that writes destination `pytest-feed`, and
refresh grants issued before the server starts, one per purpose so that no test spends another's.

`sales/Approvals` is decided through `tandem-demo` and `example-app` by the group `approvers`,
which `ada` (like the demo user) is in; `grace` is a user of `example-app` who is not."""
from dataclasses import dataclass
from pathlib import Path

from documented_api import DocumentedAPI
from tandem_server import TandemServer, seed_demo

SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"
CLIENT_ID = "example-app"
REDIRECT_URI = "com.example.app:/oauth/callback"
USERNAME = "ada"
PASSWORD = "correct-horse-battery-staple"
KIOSK_CLIENT_ID = "tandem-demo-kiosk"
WRITER_CLIENT_ID, WRITTEN_DESTINATION = "example-back-office", "pytest-feed"
OUTSIDER = "grace"
FULL_SCOPE = "data.read data.write events.write offline_access"

# The refresh grants of `ada` for `example-app`, by purpose, and their scopes.
GRANTS = {
    "schemathesis": FULL_SCOPE,
    "rotation": FULL_SCOPE,
    "revocation": FULL_SCOPE,
    "v1": FULL_SCOPE,
    "read_only": "data.read offline_access",
    "events_only": "events.write offline_access",
    "actions": FULL_SCOPE + " actions",
}


@dataclass
class SeededServer:
    """A running, seeded server and the credentials it was seeded with."""
    server: TandemServer
    base: str
    api_key: str          # example-app's key: a resource server's, so it may introspect (and write nothing)
    writer_key: str       # example-back-office's key: it writes the entity sets of pytest-feed
    kiosk_key: str        # tandem-demo-kiosk's key: an apiKey-mode app's, accepted at /v1
    refresh_tokens: dict  # GRANTS' names → a refresh token (and "outsider": grace's, with actions)


def start_seeded_server(tandem: Path, directory: Path) -> SeededServer:
    """Seeds a database in `directory` and starts `tandem serve` on it, with the rate limiter
    raised out of the way of generated traffic. The caller stops `.server`."""
    server = TandemServer(tandem, directory)
    kiosk_key = seed_demo(server)[KIOSK_CLIENT_ID]
    server.admin("create-user", "--username", USERNAME, "--fast-password-hashing", extra_environment={"TANDEM_PASSWORD": PASSWORD})
    server.admin("create-app", "--client-id", CLIENT_ID, "--name", "Example", "--redirect-uri", REDIRECT_URI,
                 "--url-scheme", "com.example.app", "--security-mode", "oauth")
    api_key = server.admin("create-api-key", "--client-id", CLIENT_ID).strip()
    # Only a registered resource server's key may introspect.
    server.admin("set-resource-server", "--client-id", CLIENT_ID, "--audience", "tandem", "--audience", "tandem-extension")
    # Only a writer's key writes, and only the destinations it was granted.
    server.admin("create-app", "--client-id", WRITER_CLIENT_ID, "--name", "Example back office", "--security-mode", "apiKey")
    writer_key = server.admin("create-api-key", "--client-id", WRITER_CLIENT_ID).strip()
    server.admin("set-writer", "--client-id", WRITER_CLIENT_ID, "--destination", WRITTEN_DESTINATION)
    # example-app decides the demo's approvals too, by the same rules as tandem-demo.
    server.admin("set-actionable", "--destination", "sales", "--entity-set", "Approvals", "--id-field", "ApprovalID",
                 "--app", "tandem-demo", "--app", CLIENT_ID, "--approver-group", "approvers", "--requester-field", "Requester",
                 "--step-up-above", "1000.00", "--amount-field", "Amount")
    server.admin("set-group", "--username", USERNAME, "--group", "approvers")
    server.admin("create-user", "--username", OUTSIDER, "--fast-password-hashing", extra_environment={"TANDEM_PASSWORD": PASSWORD})
    refresh_tokens = {
        name: server.admin("issue-refresh-token", "--username", USERNAME, "--client-id", CLIENT_ID,
                           "--scope", scope).splitlines()[0]
        for name, scope in GRANTS.items()
    }
    refresh_tokens["outsider"] = server.admin("issue-refresh-token", "--username", OUTSIDER, "--client-id", CLIENT_ID,
                                              "--scope", GRANTS["actions"]).splitlines()[0]
    base = server.start("--rate-limit-per-second", "100000", "--log-level", "warning")
    return SeededServer(server, base, api_key, writer_key, kiosk_key, refresh_tokens)


def access_token(api: DocumentedAPI, refresh_token: str) -> str:
    """Redeems `refresh_token` of example-app (asserting a documented 200) for an access token."""
    answer = api.expect(200, "POST", "/oauth/token", "/oauth/token",
                        form={"grant_type": "refresh_token", "client_id": CLIENT_ID, "refresh_token": refresh_token})
    return answer.json()["access_token"]


@dataclass
class V1Credentials:
    """Live credentials for /v1, each with what it allows."""
    full: str          # data.read data.write events.write
    extension: str     # exchanged from `full`: what a widget extension holds
    read_only: str     # data.read
    events_only: str   # events.write
    kiosk: dict        # the X-API-Key header of the kiosk app
