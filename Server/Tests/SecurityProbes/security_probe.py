"""A `tandem serve` under attack: the server of one probe module (a throwaway SQLite database,
seeded with `tandem admin`), and what an attacker — or the rightful client, for the controls —
sends it over HTTP: token requests with DPoP proofs and the server's nonce, a browser's sign-in,
calls to /v1 as Bearer or DPoP, item decisions. What the server wrote is read back the way an
operator would: `tandem admin audit`, and the SQLite file itself."""
import json
import re
import secrets
import sqlite3
import subprocess
import urllib.parse
from functools import cache
from pathlib import Path

import requests
from authlib.oauth2.rfc7636 import create_s256_code_challenge

from tandem_proofs import ProofKey
from tandem_server import TandemServer, seed_demo

TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange"
ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token"
FULL_SCOPE = "data.read data.write events.write offline_access"
ACTIONS_SCOPE = FULL_SCOPE + " actions"
APPROVALS = "/v1/destinations/sales/Approvals"
DEMO_CLIENT_ID, KIOSK_CLIENT_ID = "tandem-demo", "tandem-demo-kiosk"
DEMO_USERNAME, DEMO_PASSWORD = "demo", "demo-password"
# Answers may be slow: a debug build, on a machine that is building something else.
TIMEOUT = 60


class ProbedServer:
    """One `tandem serve` (see TandemServer) and an HTTP client of it.

    `tandem`: the binary under test; `directory`: where its database and logs go."""

    def __init__(self, tandem: Path, directory: Path):
        self.server = TandemServer(tandem, directory)
        self.database_file = directory / "tandem.sqlite"
        self.http = requests.Session()
        self.base = self.issuer = ""
        self.nonce = None
        self.kiosk_key = ""

    # MARK: - Setting up

    def admin(self, *arguments: str, **options) -> str:
        """`tandem admin ARGUMENTS…` on this server's database; its standard output."""
        return self.server.admin(*arguments, **options)

    def knows(self, command: str, option: str) -> bool:
        """Whether this binary's `tandem admin COMMAND` has OPTION (a server from before a fix
        may lack the command that configures the fix; `admin UNKNOWN --help` prints admin's help)."""
        return option in _help_text(str(self.server.tandem), command, tuple(sorted(self.server.environment.items())))

    def seed_demo(self) -> str:
        """`tandem admin seed-demo` (the demo user, the apps tandem-demo and tandem-demo-kiosk,
        the demo data of `sales`); the kiosk's API key, which ``rows`` reads with from then on."""
        self.kiosk_key = seed_demo(self.server)[KIOSK_CLIENT_ID]
        return self.kiosk_key

    def create_user(self, username: str, password: str = "probe-password-1") -> str:
        self.admin("create-user", "--username", username, "--fast-password-hashing", extra_environment={"TANDEM_PASSWORD": password})
        return password

    def create_app(self, client_id: str, *options: str, redirect_uri: str | None = None) -> str:
        """An OAuth app (unless OPTIONS say `--security-mode apiKey`) with the redirect URI
        `probe.<client id>:/callback`; returns the redirect URI."""
        redirect_uri = redirect_uri or f"probe.{client_id}:/callback"
        self.admin("create-app", "--client-id", client_id, "--name", client_id, "--redirect-uri", redirect_uri,
                   "--url-scheme", f"probe.{client_id}", *options)
        return redirect_uri

    def issue_refresh_token(self, username: str, client_id: str, scope: str = FULL_SCOPE, bound_to: ProofKey | None = None) -> str:
        """A refresh token of a new grant (a bearer one, or bound to `bound_to`'s key: `--dpop-jkt`
        binds only grants issued with `--count`, so two are issued and the first kept; `=`
        because a thumbprint may begin with `-`)."""
        options = ["--count", "2", f"--dpop-jkt={bound_to.thumbprint}"] if bound_to else []
        printed = self.admin("issue-refresh-token", "--username", username, "--client-id", client_id, "--scope", scope, *options)
        return printed.splitlines()[0].strip()

    def grant_writes(self, client_id: str, destination: str):
        """Lets `client_id`'s API keys replace the entity sets of `destination`: `set-writer`
        where the binary has it; on a server from before S4-09, the one switch it had
        (`set-resource-server`, which let a key introspect and write everything)."""
        if self.knows("set-writer", "--destination"):
            self.admin("set-writer", "--client-id", client_id, "--destination", destination)
        else:
            self.admin("set-resource-server", "--client-id", client_id, "--audience", "tandem")

    def start(self, *options: str) -> str:
        """Starts the server (`--log-level warning`, OPTIONS), learns its issuer; its base URL."""
        self.base = self.server.start("--log-level", "warning", *options)
        self.issuer = self.http.get(f"{self.base}/.well-known/oauth-authorization-server", timeout=TIMEOUT).json()["issuer"]
        return self.base

    def stop(self):
        self.server.stop()

    # MARK: - The token endpoint

    @property
    def token_url(self) -> str:
        return self.issuer + "/oauth/token"

    def token(self, form: dict, key: ProofKey | None = None, bind_key: ProofKey | None = None,
              access_token: str | None = None, proof: str | None = None) -> requests.Response:
        """POST /oauth/token with `form`; with a `DPoP` proof by `key` (for a use of
        `access_token` when given: `ath`) or the ready-made `proof`, and a `Tandem-DPoP-Bind`
        proof by `bind_key`, each with the server's current nonce (asked again once when the
        server says `use_dpop_nonce`)."""
        for attempt in range(2):
            headers = {}
            if proof:
                headers["DPoP"] = proof
            elif key:
                headers["DPoP"] = key.dpop("POST", self.token_url, nonce=self.nonce, access_token=access_token)
            if bind_key:
                headers["Tandem-DPoP-Bind"] = bind_key.dpop("POST", self.token_url, nonce=self.nonce)
            answer = self.http.post(self.base + "/oauth/token", data=form, headers=headers, timeout=TIMEOUT)
            self.nonce = answer.headers.get("DPoP-Nonce", self.nonce)
            if attempt == 0 and not proof and (key or bind_key) and error_of(answer) == "use_dpop_nonce":
                continue
            return answer
        return answer

    def refresh(self, client_id: str, refresh_token: str, key: ProofKey | None = None, **form) -> requests.Response:
        return self.token({"grant_type": "refresh_token", "client_id": client_id, "refresh_token": refresh_token, **form}, key=key)

    def tokens(self, client_id: str, refresh_token: str, key: ProofKey | None = None) -> dict:
        """Redeems `refresh_token` (with a proof by `key`), asserting 200; the token answer."""
        answer = self.refresh(client_id, refresh_token, key)
        assert answer.status_code == 200, f"refreshing for {client_id}: {answer.status_code} {answer.text}"
        return answer.json()

    def exchange(self, client_id: str, subject_token: str, key: ProofKey | None = None, bind_key: ProofKey | None = None,
                 ath: bool = True) -> requests.Response:
        """The RFC 8693 token exchange of `subject_token` for a widgets' grant, with a DPoP
        proof by `key` (made for the subject token when `ath`) and a bind proof by `bind_key`."""
        form = {"grant_type": TOKEN_EXCHANGE, "client_id": client_id, "subject_token": subject_token,
                "subject_token_type": ACCESS_TOKEN_TYPE}
        return self.token(form, key=key, bind_key=bind_key, access_token=subject_token if ath else None)

    def sign_in(self, client_id: str, redirect_uri: str, username: str, password: str, scope: str | None = None,
                key: ProofKey | None = None, step_up_key: ProofKey | None = None, enrolment: str | None = None) -> requests.Response:
        """Signs in as a browser does (the login form, code + PKCE S256, no earlier session),
        then redeems the code, with a DPoP proof by `key` and the step-up key enrolment of
        `step_up_key` (or the ready-made `enrolment`) in `step_up_key`; the token answer."""
        browser = requests.Session()
        verifier = secrets.token_urlsafe(32)
        fields = {"response_type": "code", "client_id": client_id, "redirect_uri": redirect_uri, "state": "probe",
                  "code_challenge": create_s256_code_challenge(verifier), "code_challenge_method": "S256"}
        if scope is not None:
            fields["scope"] = scope
        form = browser.get(f"{self.base}/oauth/authorize", params=fields, timeout=TIMEOUT)
        assert form.status_code == 200, f"the login form: {form.status_code} {form.text[:300]}"
        csrf = re.search(r'name="csrf_token" value="([^"]*)"', form.text)
        assert csrf, "the login form has no csrf_token"
        signed_in = browser.post(f"{self.base}/oauth/authorize", allow_redirects=False, timeout=TIMEOUT,
                                 data={**fields, "username": username, "password": password, "csrf_token": csrf.group(1)})
        assert signed_in.status_code == 302, f"signing in: {signed_in.status_code} {signed_in.text[:300]}"
        query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(signed_in.headers["Location"]).query))
        assert "code" in query, f"the redirect carries no code: {signed_in.headers['Location']}"
        redemption = {"grant_type": "authorization_code", "code": query["code"], "redirect_uri": redirect_uri,
                      "client_id": client_id, "code_verifier": verifier}
        if step_up_key or enrolment:
            redemption["step_up_key"] = enrolment or step_up_key.enrolment(self.token_url)
        return self.token(redemption, key=key)

    # MARK: - /v1

    def call(self, method: str, path: str, token: str | None = None, key: ProofKey | None = None,
             headers: dict | None = None, **options) -> requests.Response:
        """A /v1 request with `token` as Bearer, or as DPoP with a proof of this request by `key`."""
        headers = dict(headers or {})
        if token and key:
            headers["Authorization"] = f"DPoP {token}"
            headers["DPoP"] = key.dpop(method, self.issuer + path, access_token=token)
        elif token:
            headers["Authorization"] = f"Bearer {token}"
        return self.http.request(method, self.base + path, headers=headers, timeout=TIMEOUT, **options)

    def rows(self, entity_set: str = APPROVALS, id_field: str = "ApprovalID") -> dict:
        """The rows of `entity_set` (a path) by `id_field`, read with the kiosk's key."""
        answer = self.call("GET", entity_set + "?limit=500", headers={"X-API-Key": self.kiosk_key})
        assert answer.status_code == 200, f"reading {entity_set}: {answer.status_code} {answer.text}"
        return {row[id_field]: row for row in answer.json()["items"]}

    def decide(self, token: str | None, item: str, action: str = "approve", key: ProofKey | None = None,
               if_match: str | None = None, step_up_key: ProofKey | None = None, headers: dict | None = None,
               entity_set: str = APPROVALS, id_field: str = "ApprovalID") -> requests.Response:
        """POSTs `action` on `item` of `entity_set` (a path) under a fresh Idempotency-Key, with
        `If-Match` (the item's current ETag unless given) and a step-up proof by `step_up_key`."""
        idempotency_key = secrets.token_urlsafe(16)
        path = f"{entity_set}/{item}/actions/{action}"
        if if_match is None:
            if_match = next(row["ETag"] for row in self.rows(entity_set, id_field).values() if row[id_field] == item)
        extra = {**(headers or {}), "Idempotency-Key": idempotency_key, "If-Match": if_match}
        if step_up_key:
            extra["Tandem-Step-Up"] = step_up_key.step_up(self.issuer + path, action, if_match, idempotency_key)
        return self.call("POST", path, token, key, headers=extra)

    # MARK: - What the server wrote

    def audit(self, kind: str | None = None) -> list[dict]:
        """The newest 1000 audit lines (`tandem admin audit`), of `kind` when given."""
        lines = [json.loads(line) for line in self.admin("audit", "--limit", "1000").splitlines() if line.startswith("{")]
        return [line for line in lines if kind is None or line.get("kind") == kind]

    def query(self, statement: str, *parameters) -> list[tuple]:
        """The rows of a read-only SQL statement on the server's SQLite file."""
        connection = sqlite3.connect(self.database_file, timeout=30)
        try:
            return connection.execute(statement, parameters).fetchall()
        finally:
            connection.close()

    def execute(self, statement: str, *parameters):
        """Writes to the server's SQLite file: only while the server is stopped (a probe's
        stand-in for what the server's clock or an old cockpit would have written)."""
        assert not self.server.is_running(), "write to the database only while the server is stopped"
        connection = sqlite3.connect(self.database_file, timeout=30)
        try:
            with connection:
                connection.execute(statement, parameters)
        finally:
            connection.close()


def error_of(answer: requests.Response) -> str | None:
    """The `error` member of a JSON error body, or None."""
    try:
        return answer.json().get("error")
    except ValueError:
        return None


def describe(answer: requests.Response) -> str:
    return f"{answer.request.method} {urllib.parse.urlsplit(answer.request.url).path} → {answer.status_code} {answer.text[:300]}"


@cache
def _help_text(tandem: str, command: str, environment: tuple) -> str:
    done = subprocess.run([tandem, "admin", command, "--help"], capture_output=True, text=True, env=dict(environment), timeout=60)
    text = done.stdout + done.stderr
    return text if f"tandem admin {command}" in text else ""
