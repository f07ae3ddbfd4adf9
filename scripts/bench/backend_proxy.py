"""`make bench`'s proxy figures: a widget's page of a customer's backend through Tandem, against
the same page fetched from the backend directly, in the same run (scripts/bench-backend.sh runs
this with the virtualenv of Server/Tests/requirements.txt).

    python backend_proxy.py PATH/TO/tandem WORKDIR

The backend is the Django REST Framework service of Server/Tests/CustomerBackends/drf_service
(gunicorn, one worker of 8 threads, SQLite), whose lists say `Cache-Control: private,
max-age=300`; Tandem (`tandem serve --backend-allow-loopback`) reads it as the REST destination
`erp` with each user's own token. BENCH_BACKEND_USERS users (default 40) have five approvals each.

- **Cache miss**: for each user in turn, one GET of their approvals from the backend directly
  (with the token Tandem would mint for them, `tandem admin backend-token`) and one GET of
  `/v1/destinations/erp/Approvals` from Tandem with their access token — Tandem's first read
  of that user's page, so it mints the token, calls the backend, maps the rows and keeps the
  page. The two alternate which goes first; each client keeps its connection. Goal: Tandem's
  p50 ≤ the backend's p50 + 5 ms.
- **Cache hit**: wrk (BENCH_CONNECTIONS, BENCH_THREADS, BENCH_DURATION after BENCH_WARMUP) on
  one user's page with `If-None-Match` of the ETag Tandem gave them: every answer must be 304
  from Tandem's cache, the backend not asked; against wrk on `GET /health`, in BENCH_ROUNDS
  rounds (default 2), the two alternating. Goal: ≥ 70 % of `/health`'s rate (the median of the
  rounds' ratios).

Prints a table; exits 1 when something did not work (a status that was not the one expected, a
backend that did not start) and, with BENCH_STRICT=1, 3 when a goal is missed."""
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Server" / "Tests" / "PythonSupport"))
sys.path.insert(0, str(ROOT / "Server" / "Tests" / "CustomerBackends"))
from backend_setup import AUDIENCE, erp_destination  # noqa: E402
from drf_backend import DRFBackend  # noqa: E402
from tandem_server import TandemServer  # noqa: E402

CLIENT_ID = "bench-app"
PASSWORD = "bench-password-1"
MISS_GOAL_MS = 5.0
HIT_GOAL = 0.70


class BenchFailed(Exception):
    """Something the measurement needs did not work; the message says what."""


def setting(name: str, default: str) -> str:
    return os.environ.get(name, "").strip() or default


def seconds_of(duration: str) -> float:
    match = re.fullmatch(r"(\d+(?:\.\d+)?)(ms|s|m)?", duration)
    if not match:
        raise BenchFailed(f"not a duration: {duration!r} (such as 10s)")
    value, unit = float(match.group(1)), match.group(2) or "s"
    return value / 1000 if unit == "ms" else value * 60 if unit == "m" else value


def backend_data(usernames: list[str]) -> dict:
    approvals = [
        {"id": f"{username}-{index}", "approver": username, "requester": "someone", "title": f"Request {index}",
         "amount": f"{100 + index}.50", "currency": "EUR", "status": "pending", "createdAt": "2026-12-07T08:00:00Z"}
        for username in usernames for index in range(1, 6)]
    return {"users": [{"username": username, "approver": True} for username in usernames], "approvals": approvals, "orders": []}


def timed_get(session: requests.Session, url: str, token: str, expected_items: int) -> float:
    """Milliseconds of one GET of `url` with `token`, which must answer 200 with that many rows."""
    started = time.perf_counter()
    answer = session.get(url, headers={"Authorization": f"Bearer {token}"}, timeout=30)
    elapsed = (time.perf_counter() - started) * 1000
    if answer.status_code != 200:
        raise BenchFailed(f"GET {url} answered {answer.status_code}: {answer.text[:300]}")
    body = answer.json()
    items = body.get("items", body.get("results"))
    if not isinstance(items, list) or len(items) != expected_items:
        raise BenchFailed(f"GET {url} gave {items!r:.200}, expected {expected_items} rows")
    return elapsed


def wrk(url: str, authorization: str = "", if_none_match: str = "", duration: str = "10s") -> dict:
    """One wrk run with scripts/bench/get.lua; its BENCH line's fields. Any answer but the
    expected one (200, or 304 with If-None-Match) fails the measurement."""
    script = ROOT / "scripts" / "bench" / "get.lua"
    arguments = [argument for argument in (authorization, if_none_match) if argument] if authorization else []
    command = ["wrk", "-t", setting("BENCH_THREADS", "2"), "-c", setting("BENCH_CONNECTIONS", "64"), "-d", duration,
               "--timeout", "5s", "-s", str(script), url, "--", *arguments]
    done = subprocess.run(command, capture_output=True, text=True, timeout=seconds_of(duration) + 60)
    line = next((line for line in done.stdout.splitlines() if line.startswith("BENCH ")), None)
    if done.returncode != 0 or line is None:
        raise BenchFailed(f"wrk on {url} failed ({done.returncode}): {done.stderr.strip() or done.stdout.strip()}")
    fields = dict(field.split("=", 1) for field in line.split()[1:])
    if int(fields["non200"]) or int(fields["socket_errors"]):
        failure = next((line for line in done.stdout.splitlines() if line.startswith("BENCH_FIRST_FAILURE")), "")
        raise BenchFailed(f"wrk on {url}: {fields['non200']} unexpected answers, {fields['socket_errors']} socket errors {failure}")
    return {"rps": float(fields["rps"]), "p99_ms": float(fields["p99_ms"])}


def run(tandem: Path, workdir: Path) -> bool:
    user_count = int(setting("BENCH_BACKEND_USERS", "40"))
    if user_count < 3:
        raise BenchFailed("BENCH_BACKEND_USERS must be 3 or more")
    rounds = int(setting("BENCH_ROUNDS", "2"))
    duration, warmup = setting("BENCH_DURATION", "10s"), setting("BENCH_WARMUP", "2s")
    usernames = [f"user{index:03d}" for index in range(user_count)]

    server = TandemServer(tandem, workdir / "tandem")
    server.directory.mkdir(parents=True)
    backend = DRFBackend(workdir / "backend")
    try:
        print(f"seeding {user_count} users", file=sys.stderr)
        server.admin("create-app", "--client-id", CLIENT_ID, "--name", "Bench", "--redirect-uri", "bench://callback",
                     "--security-mode", "oauth")
        for username in usernames:
            server.admin("create-user", "--username", username, "--fast-password-hashing", extra_environment={"TANDEM_PASSWORD": PASSWORD})
        base = server.start("--log-level", "warning", "--backend-allow-loopback", "--rate-limit-per-second", "1000000")
        discovery = requests.get(f"{base}/.well-known/oauth-authorization-server", timeout=30).json()
        backend_base = backend.start(jwks_url=discovery["jwks_uri"], issuer=discovery["issuer"], audience=AUDIENCE, cache_max_age=300)
        backend.load(backend_data(usernames))
        (workdir / "erp.json").write_text(json.dumps(erp_destination(backend_base, apps=(CLIENT_ID,))))
        server.admin("destination", "set", "--file", str(workdir / "erp.json"))

        print("issuing each user's tokens", file=sys.stderr)
        access, backend_tokens = {}, {}
        for username in usernames:
            refresh = server.admin("issue-refresh-token", "--username", username, "--client-id", CLIENT_ID,
                                   "--scope", "data.read offline_access").splitlines()[0]
            answer = requests.post(f"{base}/oauth/token", data={
                "grant_type": "refresh_token", "client_id": CLIENT_ID, "refresh_token": refresh}, timeout=30)
            if answer.status_code != 200:
                raise BenchFailed(f"the refresh grant for {username} answered {answer.status_code}: {answer.text[:300]}")
            access[username] = answer.json()["access_token"]
            backend_tokens[username] = server.admin("backend-token", "--username", username, "--client-id", CLIENT_ID,
                                                    "--audience", AUDIENCE, "--issuer", discovery["issuer"]).strip()

        direct_url, proxy_url = f"{backend_base}approvals/?limit=20", f"{base}/v1/destinations/erp/Approvals"
        direct, proxy = requests.Session(), requests.Session()
        print("cache misses: each user's first page, from the backend and through Tandem", file=sys.stderr)
        # The first user warms both clients' connections and both servers' code paths; not counted.
        timed_get(direct, direct_url, backend_tokens[usernames[0]], 5)
        timed_get(proxy, proxy_url, access[usernames[0]], 5)
        direct_ms, proxy_ms = [], []
        for index, username in enumerate(usernames[1:]):
            if index % 2 == 0:
                direct_ms.append(timed_get(direct, direct_url, backend_tokens[username], 5))
                proxy_ms.append(timed_get(proxy, proxy_url, access[username], 5))
            else:
                proxy_ms.append(timed_get(proxy, proxy_url, access[username], 5))
                direct_ms.append(timed_get(direct, direct_url, backend_tokens[username], 5))

        hit_user = usernames[1]
        kept = proxy.get(proxy_url, headers={"Authorization": f"Bearer {access[hit_user]}"}, timeout=30)
        etag = kept.headers.get("ETag", "")
        check = proxy.get(proxy_url, headers={"Authorization": f"Bearer {access[hit_user]}", "If-None-Match": etag}, timeout=30)
        if kept.status_code != 200 or not etag or check.status_code != 304:
            raise BenchFailed(f"Tandem's page gave {kept.status_code} with ETag {etag!r}, and {check.status_code} to it (expected 304)")
        served_before = len(backend.requests())
        print(f"cache hits: wrk, {rounds} rounds of {duration} against /health", file=sys.stderr)
        hits, healths, ratios = [], [], []
        for round_index in range(rounds):
            measured = {}
            order = ("hit", "health") if round_index % 2 == 0 else ("health", "hit")
            for kind in order:
                arguments = (proxy_url, f"Bearer {access[hit_user]}", etag) if kind == "hit" else (f"{base}/health",)
                wrk(*arguments, duration=warmup)
                measured[kind] = wrk(*arguments, duration=duration)
            hits.append(measured["hit"])
            healths.append(measured["health"])
            ratios.append(measured["hit"]["rps"] / measured["health"]["rps"])
        asked = len(backend.requests()) - served_before
        if asked:
            raise BenchFailed(f"the backend was asked {asked} times during the cache hits (expected none: its page is fresh for 300 s)")
    finally:
        backend.stop()
        server.stop()

    direct_p50, proxy_p50 = statistics.median(direct_ms), statistics.median(proxy_ms)
    miss_ok = proxy_p50 <= direct_p50 + MISS_GOAL_MS
    ratio = statistics.median(ratios)
    hit_ok = ratio >= HIT_GOAL
    verdict = lambda ok: "PASS" if ok else "FAIL"  # noqa: E731
    print(f"\nbackend proxy: the REST destination `erp` (Django REST Framework under gunicorn, loopback), "
          f"{user_count - 1} users' first pages of 5 rows, then {rounds} round(s) of wrk")
    print(f"  {'':44} {'p50':>10} {'p90':>10}")
    print(f"  {'backend directly (its own token), 200':44} {direct_p50:8.2f} ms {statistics.quantiles(direct_ms, n=10)[-1]:8.2f} ms")
    print(f"  {'through Tandem, cache miss, 200':44} {proxy_p50:8.2f} ms {statistics.quantiles(proxy_ms, n=10)[-1]:8.2f} ms"
          f"   +{proxy_p50 - direct_p50:.2f} ms (goal ≤ +{MISS_GOAL_MS:.0f} ms) {verdict(miss_ok)}")
    print(f"  {'':44} {'requests/s':>12} {'p99':>10}")
    for index, (hit, health) in enumerate(zip(hits, healths), start=1):
        print(f"  {f'round {index}: through Tandem, cache hit, 304':44} {hit['rps']:12,.0f} {hit['p99_ms']:7.2f} ms")
        print(f"  {f'round {index}: GET /health':44} {health['rps']:12,.0f} {health['p99_ms']:7.2f} ms   "
              f"hit/health {ratios[index - 1]:.0%}")
    print(f"  cache hit at {ratio:.0%} of /health (median of the rounds; goal ≥ {HIT_GOAL:.0%}) {verdict(hit_ok)}; "
          f"the backend was asked nothing during the hits")
    return miss_ok and hit_ok


def main(arguments: list[str]) -> int:
    if len(arguments) != 2:
        print("usage: backend_proxy.py PATH/TO/tandem WORKDIR", file=sys.stderr)
        return 2
    try:
        met = run(Path(arguments[0]), Path(arguments[1]))
    except BenchFailed as error:
        print(f"bench-backend: FAILED: {error}", file=sys.stderr)
        return 1
    return 0 if met or os.environ.get("BENCH_STRICT", "0") != "1" else 3


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
