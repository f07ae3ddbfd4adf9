#!/usr/bin/env python3
"""Pushes on loopback, with real processes: `tandem serve` sending through the local APNs
stand-in (`tandem apns-standin`) to a host and a widget played by `tandem host run` and
`tandem widget timeline --follow-pushes`.

1. Change to entry: a back office replaces `sales/SalesOrders` (a conditional `PUT` with the
   API key of a writer of `sales`, `If-Match` the version its last write answered); the time
   from that `PUT` until the following widget (direct mode, revalidating on every reload) prints
   an entry whose first row is the new first order. ROUNDS rounds; goal: median < 500 ms. Each
   round is a first change after a quiet period, which the server's pacing sends at once; the
   server runs with a budget no round can exhaust (`--widget-pushes-per-day`), since rounds a
   few hundred milliseconds apart would otherwise be spread over the day as sustained change.
2. The provider's pushes per second: DEVICES more devices, each with a host and a widgets token
   registered under its own live grant (the rows written into the server's SQLite database
   before it starts, as the registry endpoint would write them), then one change: the time from
   the `PUT` until the stand-in has delivered every push (one file per push in the devices'
   inboxes).

    scripts/bench/push_delivery.py PATH/TO/tandem WORKDIR ROUNDS DEVICES

WORKDIR holds `server.sqlite` (seeded), `apns/` (the stand-in's devices), `apns-ca.pem`,
`AuthKey.p8`; the script starts and stops every process itself.
"""
import json
import os
import secrets
import sqlite3
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request

from json_lines_process import Process

LABEL = "push-delivery"
LATENCY_GOAL = 0.5
BUNDLE_ID = "com.example.tandem-demo"
KEY_ID, TEAM_ID = "BENCHKEY01", "BENCHTEAM1"


def run(command, env, **kwargs):
    return subprocess.run(command, env=env, check=True, text=True, capture_output=True, **kwargs).stdout


ORDERS = "/v1/destinations/sales/SalesOrders"


def put_orders(base, api_key, first, version):
    """Replaces the orders with four new ones, `If-Match` `version` (when known); returns the
    answer's status and the set's version after it (the `ETag` of a 200, or the current one a
    428 or 412 names: then nothing was written)."""
    body = json.dumps({"title": "Sales (demo)", "rows": [
        {"SalesOrderID": f"SO{first + index}", "CustomerName": f"Bench Customer {index}", "GrossAmount": f"{index}.00"}
        for index in range(4)]}).encode()
    headers = {"X-API-Key": api_key, "Content-Type": "application/json", **({"If-Match": version} if version else {})}
    request = urllib.request.Request(base + ORDERS, data=body, method="PUT", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers["ETag"]
    except urllib.error.HTTPError as refused:
        if refused.code in (412, 428) and refused.headers.get("ETag"):
            return refused.code, refused.headers["ETag"]
        raise SystemExit(f"push-delivery: the back office's write was refused: {refused.code} {refused.read()[:200]!r}")


def replace_orders(base, api_key, first, version):
    """A back office's write: conditional on the version it knows; one that does not know the
    current version learns it from the refusal's `ETag` and sends the write again (the documented
    way to overwrite knowingly). Returns the new version."""
    status, version = put_orders(base, api_key, first, version)
    if status != 200:
        status, version = put_orders(base, api_key, first, version)
    if status != 200:
        raise SystemExit(f"push-delivery: the back office's write was refused twice ({status})")
    return version


def inbox_files(devices):
    total = 0
    for device in os.listdir(devices):
        inbox = os.path.join(devices, device, "inbox")
        if os.path.isdir(inbox):
            total += sum(1 for name in os.listdir(inbox) if not name.startswith("."))
    return total


def main() -> int:
    if len(sys.argv) != 5:
        print(__doc__.strip().splitlines()[-4].strip(), file=sys.stderr)
        return 2
    tandem, workdir, rounds, device_count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    env = {k: v for k, v in os.environ.items() if not k.startswith("TANDEM_") or k == "TANDEM_SYSTEM_SECRET"}
    env["TANDEM_LOG_LEVEL"] = "error"
    database = f"sqlite:{workdir}/server.sqlite"
    devices = f"{workdir}/apns"
    app = f"{workdir}/push-app"
    processes = []
    try:
        run([tandem, "admin", "set-apns-key", "--database", database, "--client-id", "tandem-demo", "--key-id", KEY_ID,
             "--team-id", TEAM_ID, "--bundle-id", BUNDLE_ID, "--key-file", f"{workdir}/AuthKey.p8"], env)
        run([tandem, "admin", "set-writer", "--database", database, "--client-id", "tandem-demo-kiosk", "--destination", "sales"], env)
        api_key = run([tandem, "admin", "create-api-key", "--database", database, "--client-id", "tandem-demo-kiosk"], env).strip()
        run([tandem, "admin", "issue-refresh-token", "--database", database, "--username", "demo", "--client-id", "tandem-demo",
                      "--count", str(device_count)], env)

        apns = Process([tandem, "apns-standin", "--port", "0", "--devices", devices, "--ca-certificate", f"{workdir}/apns-ca.pem",
                        "--bundle-id", BUNDLE_ID, "--provider-key", f"{KEY_ID}:{TEAM_ID}:{workdir}/AuthKey.p8"], env, "the APNs stand-in", LABEL)
        processes.append(apns)
        _, listening = apns.wait_for(lambda line: line.get("apns") == "listening")
        serve = Process([tandem, "serve", "--database", database, "--host", "127.0.0.1", "--port", "0", "--log-level", "error",
                         "--rate-limit-per-second", "1000000", "--push-coalescing", "0",
                         "--widget-pushes-per-day", "100000000", "--host-pushes-per-hour", "100000000",
                         "--apns-url", f"https://localhost:{listening['port']}", "--apns-trust-roots", f"{workdir}/apns-ca.pem"],
                        env, "tandem serve", LABEL)
        processes.append(serve)
        _, listening_line = serve.wait_for(lambda line: line.get("text", "").startswith("listening on "))
        base = listening_line["text"].split()[2]

        host_env = dict(env, TANDEM_PASSWORD="demo-password", TANDEM_PASSCODE="bench-passcode-7")
        run([tandem, "host", "onboard", "--dir", app, "--server", base, "--client-id", "tandem-demo", "--username", "demo", "--fast-kdf"], host_env)
        run([tandem, "widget", "configure", "--dir", app, "--instance", "orders", "--destination", "sales", "--entity-set", "SalesOrders",
             "--limit", "4"], env)
        host = Process([tandem, "host", "run", "--dir", app, "--interval", "3600", "--apns-devices", devices], host_env, "tandem host run", LABEL)
        processes.append(host)
        host.wait_for(lambda line: line.get("host") == "running")
        widget = Process([tandem, "widget", "timeline", "--dir", app, "--instance", "orders", "--mode", "direct", "--revalidate", "0",
                          "--follow-pushes", devices], env, "the following widget", LABEL)
        processes.append(widget)
        widget.wait_for(lambda line: line.get("reload") == 1)
        host.wait_for(lambda line: line.get("trigger") == "push-token")

        # The orders' version, learnt as a back office that does not know it does: its write is
        # refused (428, nothing written) with the version in ETag. Each write then answers the next.
        status, version = put_orders(base, api_key, 700_000, None)
        if status != 428:
            raise SystemExit(f"push-delivery: a write without If-Match answered {status}, not 428")
        latencies = []
        for index in range(rounds):
            first = 700_000 + index * 10
            started = time.monotonic()
            version = replace_orders(base, api_key, first, version)
            when, _ = widget.wait_for(lambda line: first_key(line) == f"SO{first}")
            latencies.append(when - started)
            if (index + 1) % 5 == 0:
                print(f"bench: push round {index + 1}/{rounds}", file=sys.stderr)

        # The provider's throughput: every registered device owes two pushes, the host's phone one. The
        # devices are registered now, while the server runs, as the registry endpoint would.
        register_devices(f"{workdir}/server.sqlite", devices, device_count)
        before = inbox_files(devices)
        # Two pushes per registered device; the running host's phone shows the orders in a widget
        # that fetches for itself, so it is owed its WidgetKit push only.
        expected = before + 2 * device_count + 1
        started = time.monotonic()
        replace_orders(base, api_key, 800_000, version)
        deadline = started + 120
        while inbox_files(devices) < expected:
            if time.monotonic() > deadline:
                raise SystemExit(f"push-delivery: {inbox_files(devices) - before} of {expected - before} pushes in 120 s")
            time.sleep(0.005)
        elapsed = time.monotonic() - started
        pushes = expected - before
    finally:
        for process in reversed(processes):
            process.stop()

    latencies.sort()
    median = statistics.median(latencies)
    p95 = latencies[min(len(latencies) - 1, int(round(0.95 * (len(latencies) - 1))))]
    result = "PASS" if median < LATENCY_GOAL else "FAIL"
    print(f"push: data change → widget's new entry (×{rounds}, direct mode, through the APNs stand-in):   "
          f"median {median * 1000:7.1f} ms   p95 {p95 * 1000:7.1f} ms   goal < 500 ms   {result}")
    print(f"push: the provider sent {pushes} pushes ({device_count} devices × widgets and host, and the host phone's widgets) in {elapsed:.2f} s:   "
          f"{pushes / elapsed:8.0f} pushes/s (HTTP/2 over TLS to the stand-in, which writes each to a file)")
    return 0


def first_key(line):
    entries = line.get("entries") or [{}]
    rows = entries[0].get("rows") or [{}]
    return rows[0].get("key")


def register_devices(path, devices, count):
    """Registers COUNT devices of the demo user, each under one of the grants just issued (the
    newest COUNT), with a folder for each token in the stand-in's devices folder."""
    connection = sqlite3.connect(path)
    with connection:
        families = [row[0] for row in connection.execute(
            "SELECT id FROM token_families WHERE client_id = 'tandem-demo' AND revoked_at IS NULL ORDER BY created_at DESC LIMIT ?",
            (count,))]
        user = connection.execute("SELECT id FROM users WHERE username = 'demo'").fetchone()[0]
        now = int(time.time() * 1000)
        for index, family in enumerate(families):
            # Each device's widgets show the orders, one fetching itself and one through the host.
            for delivery in ("direct", "brokered"):
                connection.execute(
                    "INSERT INTO push_subscriptions (client_id, user_id, device_id, destination, entity_set, delivery, row_limit, fields) "
                    "VALUES ('tandem-demo', ?, ?, 'sales', 'SalesOrders', ?, 4, '[]')", (user, f"bench-{index}", delivery))
            for kind in ("host", "widgets"):
                token = secrets.token_hex(32)
                os.makedirs(os.path.join(devices, token, "inbox"), exist_ok=True)
                connection.execute(
                    "INSERT INTO push_registrations (client_id, user_id, device_id, kind, environment, token, family_id, updated_at) "
                    "VALUES ('tandem-demo', ?, ?, ?, 'sandbox', ?, ?, ?)", (user, f"bench-{index}", kind, token, family, now))
    connection.close()


if __name__ == "__main__":
    sys.exit(main())
