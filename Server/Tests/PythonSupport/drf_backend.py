"""A customer's backend for the pytest suites: the Django REST Framework service of
CustomerBackends/drf_service (approvals and orders; see its README), served by gunicorn on a free
loopback port over its own SQLite database, its users authenticated by djangorestframework-simplejwt
checking Tandem's tokens against Tandem's JWKS.

    backend = DRFBackend(directory)
    backend.start(jwks_url=..., issuer=..., audience=...)
    backend.load({"users": [...], "approvals": [...], "orders": [...]})
    ... backend.base ...  # http://127.0.0.1:PORT/api/
    backend.stop()

Data goes in through the service's management commands (load_data, update_approval), never
through its HTTP API; what the API served is read back from the log its middleware writes
(`requests()`), and an approval's state straight from its database (`approval()`)."""
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import closing
from decimal import Decimal
from pathlib import Path

SERVICE = Path(__file__).resolve().parents[1] / "CustomerBackends" / "drf_service"


class DRFBackendFailed(Exception):
    """The service did not start, or one of its management commands failed; the message holds
    the tail of its log or the command's output."""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class DRFBackend:
    """The service over `directory/erp.sqlite3`, its output in `directory/server.log` and the
    requests it served in `directory/requests.jsonl`."""

    def __init__(self, directory: Path):
        self.directory = Path(directory)
        self.database = self.directory / "erp.sqlite3"
        self.log = self.directory / "server.log"
        self.request_log = self.directory / "requests.jsonl"
        self.port = 0
        self.process = None
        self.environment = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/"

    def start(self, *, jwks_url: str, issuer: str, audience: str, cache_max_age: int | None = None):
        """Migrates the database and starts the service on a free loopback port, checking tokens
        of `issuer` for `audience` with the keys at `jwks_url`, its lists kept `max-age` seconds
        by callers when `cache_max_age` is given (otherwise `no-cache`); returns once it answers.
        Raises DRFBackendFailed (with the log's tail) if it does not within 60 s (a busy machine starts Django slowly)."""
        self.directory.mkdir(parents=True, exist_ok=True)
        inherited = {key: value for key, value in os.environ.items() if not key.startswith(("ERP_", "DJANGO_"))}
        loopback = ",".join(filter(None, [inherited.get("no_proxy", ""), "127.0.0.1,localhost"]))
        self.environment = {
            **inherited,
            "DJANGO_SETTINGS_MODULE": "erp_site.settings",
            "ERP_DATABASE": str(self.database),
            "ERP_JWKS_URL": jwks_url,
            "ERP_TOKEN_ISSUER": issuer,
            "ERP_TOKEN_AUDIENCE": audience,
            "ERP_REQUEST_LOG": str(self.request_log),
            **({"ERP_CACHE_MAX_AGE": str(cache_max_age)} if cache_max_age is not None else {}),
            "no_proxy": loopback, "NO_PROXY": loopback,
        }
        self.port = free_port()
        self.manage("migrate", "--noinput")
        self._serve()
        return self.base

    def _serve(self):
        with open(self.log, "a") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{self.port}", "--workers", "1",
                 "--worker-class", "gthread", "--threads", "8", "--graceful-timeout", "1", "--no-control-socket",
                 "--access-logfile", "-", "erp_site.wsgi"],
                cwd=SERVICE, env=self.environment, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 60
        while not self._answers():
            if self.process.poll() is not None:
                code = self.process.returncode
                self.stop()
                raise DRFBackendFailed(f"gunicorn exited {code} before answering:\n{self.log_tail()}")
            if time.monotonic() > deadline:
                self.stop()
                raise DRFBackendFailed(f"{self.base} did not answer within 60 s:\n{self.log_tail()}")
            time.sleep(0.05)

    def _answers(self) -> bool:
        """Whether the API answers (without a token, 401)."""
        try:
            with urllib.request.urlopen(self.base + "whoami/", timeout=2):
                return True
        except urllib.error.HTTPError as error:
            return error.code == 401
        except OSError:
            return False

    def is_running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self):
        """Stops the service: gunicorn's graceful shutdown (SIGTERM; requests in flight get up to
        a second), then SIGKILL for whatever is left of its process group (a worker that outlived
        its master would keep the port). Afterwards its port refuses connections. Nothing if it
        was not started."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            deadline = time.monotonic() + 3
            # Waits for the master without reaping it, so that the group's id stays its own.
            while os.waitid(os.P_PID, self.process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None \
                    and time.monotonic() < deadline:
                time.sleep(0.05)
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait()
        self.process = None

    def restart(self):
        """Stops it and starts it again on the same port, with the same data."""
        self.stop()
        self._serve()

    def manage(self, *arguments: str, stdin: str | None = None) -> str:
        """Runs `manage.py ARGUMENTS…` with the service's settings; returns its output."""
        if self.environment is None:
            raise DRFBackendFailed("start the backend first")
        done = subprocess.run([sys.executable, "manage.py", *arguments], cwd=SERVICE, env=self.environment,
                              input=stdin, capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise DRFBackendFailed(f"manage.py {' '.join(arguments)} exited {done.returncode}:\n{done.stderr or done.stdout}")
        return done.stdout

    def load(self, data: dict):
        """Replaces every user, approval and order with those of `data` (see load_data's help)."""
        self.manage("load_data", "-", stdin=json.dumps(data))

    def update_approval(self, approval_id: str, **fields):
        """Changes the approval's title, requester, amount, currency or status as the ERP's own
        users would: its version, and with it its etag, goes up."""
        options = [f"--{name}={value}" for name, value in fields.items()]
        self.manage("update_approval", approval_id, *options)

    def approval(self, approval_id: str) -> dict | None:
        """The approval as stored (None if there is none): its fields, `version`, `etag`,
        `decided_by`, `decided_via`, `decided_at`, `comment` and `last_if_match` (the If-Match
        of the decision)."""
        with closing(sqlite3.connect(f"file:{self.database}?mode=ro", uri=True, timeout=10)) as connection:
            connection.row_factory = sqlite3.Row
            row = connection.execute(
                "SELECT approval.*, user.username AS approver FROM erp_approval AS approval "
                "JOIN auth_user AS user ON user.id = approval.approver_id WHERE approval.id = ?", (approval_id,)).fetchone()
        if row is None:
            return None
        stored = dict(row)
        stored.pop("approver_id")
        stored["amount"] = str(Decimal(str(stored["amount"])).quantize(Decimal("0.01")))
        stored["etag"] = f'"{stored["version"]}"'
        return stored

    def requests(self) -> list:
        """What the API served, in order: {"method", "path", "query", "if_none_match", "if_match",
        "idempotency_key", "username", "status"} each (never the token)."""
        if not self.request_log.exists():
            return []
        return [json.loads(line) for line in self.request_log.read_text().splitlines() if line]

    def clear_requests(self):
        """Forgets the requests served so far (requests() starts empty again)."""
        self.request_log.write_text("")

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"


def main(arguments: list[str]) -> int:
    """`make demo`'s way to run the service (scripts/demo-story.sh):

        python drf_backend.py serve DIRECTORY --jwks-url U --issuer I --audience A --data FILE
            starts it over DIRECTORY, loads FILE (load_data's JSON), prints one JSON line
            {"backend": "listening", "base": …} and serves until SIGTERM or SIGINT, then stops it
        python drf_backend.py approval DIRECTORY ID
            prints the approval as stored (see DRFBackend.approval), exit 1 if there is none"""
    import argparse
    parser = argparse.ArgumentParser(prog="drf_backend.py", description="The example ERP service (Django REST Framework).")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="start the service and serve until stopped")
    serve.add_argument("directory", type=Path)
    serve.add_argument("--jwks-url", required=True)
    serve.add_argument("--issuer", required=True)
    serve.add_argument("--audience", required=True)
    serve.add_argument("--data", type=Path, required=True, help="users, approvals and orders (load_data's JSON)")
    show = commands.add_parser("approval", help="print an approval as stored")
    show.add_argument("directory", type=Path)
    show.add_argument("id")
    options = parser.parse_args(arguments)

    backend = DRFBackend(options.directory)
    if options.command == "approval":
        stored = backend.approval(options.id)
        if stored is None:
            print(f"drf_backend: there is no approval {options.id}", file=sys.stderr)
            return 1
        print(json.dumps(stored))
        return 0

    stopping = []
    for signal_number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signal_number, lambda number, frame: stopping.append(number))
    try:
        backend.start(jwks_url=options.jwks_url, issuer=options.issuer, audience=options.audience)
        backend.load(json.loads(options.data.read_text()))
    except (DRFBackendFailed, OSError, ValueError) as error:
        backend.stop()
        print(f"drf_backend: {error}", file=sys.stderr)
        return 1
    print(json.dumps({"backend": "listening", "base": backend.base}), flush=True)
    try:
        while not stopping and backend.is_running():
            time.sleep(0.1)
        if not stopping:
            print(f"drf_backend: gunicorn exited:\n{backend.log_tail()}", file=sys.stderr)
            return 1
        return 0
    finally:
        backend.stop()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
