"""A `tandem serve` process for the pytest suites: a throwaway SQLite database in a directory the
test owns, `tandem admin` commands against it, and the server on a free loopback port."""
import base64
import os
import re
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path


class TandemCommandFailed(Exception):
    """A `tandem` command exited non-zero; the message holds its arguments and its stderr."""


class TandemServer:
    """One `tandem serve` over `directory/tandem.sqlite`.

    `tandem`: the path of the built binary. `directory`: where the database, the server's output
    and its log live. Every command of one server shares a random system secret (the server's
    keys are sealed under it), as `tandem serve` and `tandem admin` must.
    """

    def __init__(self, tandem: Path, directory: Path):
        self.tandem = Path(tandem)
        self.directory = Path(directory)
        self.database = f"sqlite:{self.directory / 'tandem.sqlite'}"
        self.log = self.directory / "server.log"
        self.base = ""
        self.process = None
        self.environment = {key: value for key, value in os.environ.items() if not key.startswith("TANDEM_")}
        self.environment["TANDEM_SYSTEM_SECRET"] = base64.b64encode(os.urandom(32)).decode().rstrip("=")

    def admin(self, *arguments: str, extra_environment: dict | None = None) -> str:
        """Runs `tandem admin ARGUMENTS… --database DB` and returns its standard output."""
        command = [str(self.tandem), "admin", *arguments, "--database", self.database]
        environment = {**self.environment, **(extra_environment or {})}
        done = subprocess.run(command, capture_output=True, text=True, env=environment, timeout=120)
        if done.returncode != 0:
            raise TandemCommandFailed(f"{' '.join(arguments)} exited {done.returncode}: {done.stderr.strip()}")
        return done.stdout

    def start(self, *options: str) -> str:
        """Starts `tandem serve --host 127.0.0.1 --port 0 --fast-password-hashing OPTIONS…` (these
        suites test the HTTP contract and the pages, not the cost of a password hash), waits for its "listening on"
        line and for GET /health to answer 200 (up to 60 s: a debug build on a busy machine is slow
        to start), and returns its base URL. If it does not get there, the process is stopped and
        TandemCommandFailed says why."""
        output = self.directory / "server.out"
        with open(output, "w") as out, open(self.log, "w") as log:
            self.process = subprocess.Popen(
                [str(self.tandem), "serve", "--host", "127.0.0.1", "--port", "0", "--database", self.database,
                 "--fast-password-hashing", *options],
                stdout=out, stderr=log, env=self.environment)
        try:
            self._wait_until_healthy(output, deadline=time.monotonic() + 60)
        except TandemCommandFailed:
            self.stop()
            raise
        return self.base

    def _wait_until_healthy(self, output: Path, deadline: float):
        while not self.base:
            found = re.search(r"^listening on (http://\S+)", output.read_text(), re.MULTILINE)
            if found:
                self.base = found.group(1)
            elif self.process.poll() is not None:
                raise TandemCommandFailed(f"tandem serve exited {self.process.returncode} before listening: {self.log_tail()}")
            elif time.monotonic() > deadline:
                raise TandemCommandFailed(f"tandem serve did not print 'listening on …' within 60 s: {self.log_tail()}")
            else:
                time.sleep(0.1)
        while not self._healthy():
            if time.monotonic() > deadline:
                raise TandemCommandFailed(f"GET {self.base}/health never answered 200: {self.log_tail()}")
            time.sleep(0.1)

    def is_running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self):
        """SIGTERM (a graceful shutdown), up to 5 s, then SIGKILL; nothing if it is not running."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def log_tail(self, lines: int = 20) -> str:
        """The last lines of the server's log, for a failure message."""
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no server log)"

    def _healthy(self) -> bool:
        try:
            with urllib.request.urlopen(self.base + "/health", timeout=2) as response:
                return response.status == 200
        except (urllib.error.URLError, OSError):
            return False


def seed_demo(server: TandemServer) -> dict:
    """`tandem admin seed-demo`: the demo user, the OAuth app `tandem-demo`, the API-key app
    `tandem-demo-kiosk` and the demo business data of destination `sales`, the passwords hashed
    cheaply (`--fast-password-hashing`). Returns the kiosk
    app's key, which seed-demo prints once on a fresh database, as {"tandem-demo-kiosk": key}."""
    help_text = subprocess.run([str(server.tandem), "admin", "--help"], capture_output=True, text=True,
                               env=server.environment).stdout
    # (`tandem admin UNKNOWN --help` prints admin's help and succeeds: look for the command in it.)
    if not re.search(r"^ *seed-demo ", help_text, re.MULTILINE):
        raise TandemCommandFailed(f"{server.tandem} has no 'admin seed-demo' command (too old?)")
    printed = server.admin("seed-demo", "--fast-password-hashing")
    found = re.search(r"^API key for tandem-demo-kiosk \([^)]*\): *(tdk_\S+)$", printed, re.MULTILINE)
    if not found:
        raise TandemCommandFailed(f"tandem admin seed-demo printed no API key for tandem-demo-kiosk: {printed}")
    return {"tandem-demo-kiosk": found.group(1)}
