#!/usr/bin/env python3
"""Widget actions on loopback, with real processes: a tap on a row's Approve button
(`tandem-widget act --wait`) until its result is readable in the shared container, with
`tandem serve` and `tandem host run` (its watch on the requests wakes it; the timer is an hour).

The tap's path: the widget seals an action request into the shared container; the host wakes,
opens it with the paired key and POSTs the decision with its own grant (`If-Match`,
`Idempotency-Key`); the server commits it; the host seals the result back; the widget reads it.
`act` reports that time as `seconds`. Goal: median < 300 ms.

Items stay actionable round after round: each round a back office replaces `sales/Approvals`
(a conditional `PUT` with the API key of a writer of `sales`: the taps of the round before moved
the set's version, so it learns the current one from the refusal's `ETag` and sends the write
again with `If-Match`) with 10 new low-value items (at most 1000.00: no step-up),
and the widget (systemLarge, which shows 10 rows) is configured with a new limit, so that its
request is new and the host fetches the new rows at once. Taps start at least INTERVAL seconds
apart: the server allows each user an action every 2 s, in bursts of 10.

Besides the total, two parts of each tap, from the same runs: the host's (from the request file
appearing in the container to the result file appearing, as this script sees them, polling
every 0.5 ms while a tap is in flight) and the rest of `seconds` (the widget sealing and writing
the request durably before it appears, and seeing the result on its 10 ms poll after). And the
widget process from its start to its exit (`act` also reads its timeline before the tap and
reloads it after), which `seconds` does not include.

    scripts/bench/action_latency.py PATH/TO/tandem PATH/TO/tandem-widget WORKDIR TAPS WARMUP INTERVAL

WORKDIR holds `server.sqlite` (seeded); the script starts and stops every process itself.
"""
import json
import math
import os
import statistics
import subprocess
import sys
import threading
import time

from json_lines_process import Process
import urllib.error
import urllib.request

LABEL = "action-latency"
GOAL_SECONDS = 0.3
ROWS_PER_ROUND = 10  # the rows a systemLarge widget shows
FAMILY = "systemLarge"
INSTANCE = "bench-approvals"
PASSCODE = "bench-passcode-7"


class ContainerWatch:
    """Notes when each action request and each result first appears in the shared container,
    polling only while `armed` is set."""

    def __init__(self, container):
        self.folders = {"request": os.path.join(container, "requests"), "result": os.path.join(container, "action-results")}
        self.seen: "dict[tuple[str, str], float]" = {}
        self.armed = threading.Event()
        self.stopped = False
        threading.Thread(target=self._poll, daemon=True).start()

    def _poll(self):
        while not self.stopped:
            if not self.armed.wait(timeout=0.1):
                continue
            now = time.monotonic()
            for kind, folder in self.folders.items():
                try:
                    names = os.listdir(folder)
                except FileNotFoundError:
                    continue
                for name in names:
                    if name.endswith(".action") or name.endswith(".result"):
                        self.seen.setdefault((kind, name.split(".")[0]), now)
            time.sleep(0.0005)

    def host_part(self, request_prefix):
        """Seconds from the request appearing to its result appearing, or None if either was missed."""
        times = {kind: when for (kind, name), when in list(self.seen.items()) if name.startswith(request_prefix)}
        if "request" in times and "result" in times:
            return times["result"] - times["request"]
        return None


def run(command, env):
    return subprocess.run(command, env=env, check=True, text=True, capture_output=True).stdout


def put_approvals(base, api_key, first):
    """Replaces the approvals with new items. A write is conditional: a back office that does
    not know the set's version (it moves with every decision) learns it from the refusal (428,
    or 412 for a stale `If-Match`; nothing written) and sends the write again with `If-Match`,
    the documented way to overwrite knowingly."""
    body = json.dumps({"title": "Approvals (bench)", "rows": [
        {"ApprovalID": f"PR-{first + index}", "Title": f"Bench requisition {index}", "Requester": "Bench Requester",
         "Amount": f"{100 + 80 * index}.00", "Currency": "EUR"}
        for index in range(ROWS_PER_ROUND)]}).encode()
    version = None
    for _ in range(2):
        headers = {"X-API-Key": api_key, "Content-Type": "application/json", **({"If-Match": version} if version else {})}
        request = urllib.request.Request(f"{base}/v1/destinations/sales/Approvals", data=body, method="PUT", headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                answer = json.load(response)
            break
        except urllib.error.HTTPError as refused:
            version = refused.headers.get("ETag")
            if refused.code not in (412, 428) or not version:
                raise SystemExit(f"action-latency: the back office's write was refused: {refused.code} {refused.read()[:200]!r}")
    else:
        raise SystemExit("action-latency: the back office's write was refused twice")
    if answer.get("row_count") != ROWS_PER_ROUND:
        raise SystemExit(f"action-latency: the back office's write was not taken: {answer}")


def shown_rows(widget, app, env):
    timeline = json.loads(run([widget, "timeline", "--dir", app, "--family", FAMILY, "--instance", INSTANCE, "--json"], env))
    entry = (timeline.get("entries") or [{}])[0]
    return entry.get("state"), [row.get("item") for row in entry.get("rows", [])]


def new_round(tandem, widget, app, env, base, api_key, round_index):
    """Replaces the approvals with new items and waits until the widget shows them all; their ids."""
    first = 7000 + round_index * 100
    items = [f"PR-{first + index}" for index in range(ROWS_PER_ROUND)]
    put_approvals(base, api_key, first)
    run([tandem, "widget", "configure", "--dir", app, "--instance", INSTANCE, "--family", FAMILY, "--destination", "sales",
         "--entity-set", "Approvals", "--limit", str(ROWS_PER_ROUND + round_index)], env)
    shown_rows(widget, app, env)  # the widget's first look writes its request
    deadline = time.monotonic() + 20
    while True:
        state, shown = shown_rows(widget, app, env)
        if state == "fresh" and sorted(shown) == items:
            return items
        if time.monotonic() > deadline:
            raise SystemExit(f"action-latency: round {round_index + 1}: the widget shows {state} {shown}, not the new items")
        time.sleep(0.05)


def tap(widget, app, env, item):
    """One tap with --wait 10; (seconds it reported, the process's start-to-exit seconds, request id prefix)."""
    started = time.monotonic()
    finished = subprocess.run([widget, "act", "--dir", app, "--family", FAMILY, "--instance", INSTANCE, "--row", item,
                               "--action", "approve", "--wait", "10"], env=env, text=True, capture_output=True)
    wall = time.monotonic() - started
    if finished.returncode != 0:
        raise SystemExit(f"action-latency: tandem-widget act on {item} failed: {finished.stderr.strip()[-400:]}")
    lines = [json.loads(line) for line in finished.stdout.splitlines() if line.strip()]
    last = lines[-1]
    if last.get("state") != "done" or "seconds" not in last:
        raise SystemExit(f"action-latency: the tap on {item} ended {last.get('state')!r}, not done: {last}")
    return last["seconds"], wall, last["request"]


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def row(name, values, goal=""):
    if not values:
        return f"  {name:<58} {'(not measured)':>30}"
    return (f"  {name:<58} {statistics.median(values) * 1000:7.1f} ms {percentile(values, 0.95) * 1000:7.1f} ms "
            f"{max(values) * 1000:7.1f} ms   {goal}").rstrip()


def main() -> int:
    if len(sys.argv) != 7:
        print(__doc__.strip().splitlines()[-3].strip(), file=sys.stderr)
        return 2
    tandem, widget, workdir = sys.argv[1], sys.argv[2], sys.argv[3]
    taps, warmup, interval = int(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6])
    env = {k: v for k, v in os.environ.items() if not k.startswith("TANDEM_") or k == "TANDEM_SYSTEM_SECRET"}
    env["TANDEM_LOG_LEVEL"] = "error"
    database = f"sqlite:{workdir}/server.sqlite"
    app = f"{workdir}/app"
    processes = []
    totals, walls, host_parts, widget_parts = [], [], [], []
    try:
        run([tandem, "admin", "set-writer", "--database", database, "--client-id", "tandem-demo-kiosk", "--destination", "sales"], env)
        api_key = run([tandem, "admin", "create-api-key", "--database", database, "--client-id", "tandem-demo-kiosk"], env).strip()
        serve = Process([tandem, "serve", "--database", database, "--host", "127.0.0.1", "--port", "0", "--log-level", "error"], env, "tandem serve", LABEL)
        processes.append(serve)
        _, listening = serve.wait_for(lambda line: line.get("text", "").startswith("listening on "))
        base = listening["text"].split()[2]

        host_env = dict(env, TANDEM_PASSWORD="demo-password", TANDEM_PASSCODE=PASSCODE)
        run([tandem, "host", "onboard", "--dir", app, "--server", base, "--client-id", "tandem-demo", "--username", "demo", "--fast-kdf"], host_env)
        host = Process([tandem, "host", "run", "--dir", app, "--interval", "3600"], host_env, "tandem host run", LABEL)
        processes.append(host)
        host.wait_for(lambda line: line.get("host") == "waiting")
        watch = ContainerWatch(f"{app}/shared/container")

        total = warmup + taps
        last_tap = 0.0
        for round_index in range(math.ceil(total / ROWS_PER_ROUND)):
            items = new_round(tandem, widget, app, env, base, api_key, round_index)
            for index, item in enumerate(items):
                done = round_index * ROWS_PER_ROUND + index
                if done >= total:
                    break
                time.sleep(max(0.0, last_tap + interval - time.monotonic()))
                last_tap = time.monotonic()
                watch.armed.set()
                seconds, wall, request = tap(widget, app, env, item)
                watch.armed.clear()
                if done < warmup:
                    continue
                totals.append(seconds)
                walls.append(wall)
                host_part = watch.host_part(request)
                if host_part is not None:
                    host_parts.append(host_part)
                    widget_parts.append(seconds - host_part)
                if len(totals) % 10 == 0:
                    print(f"bench: action tap {len(totals)}/{taps}", file=sys.stderr)
        watch.stopped = True
    finally:
        for process in reversed(processes):
            process.stop()

    median = statistics.median(totals)
    result = "PASS" if median < GOAL_SECONDS else "FAIL"
    print(f"actions: tap → result readable in the shared container (×{taps} after {warmup} warm-up, host running, "
          f"loopback, approvals ≤ 1000.00):")
    print(f"  {'':<58} {'median':>10} {'p95':>10} {'max':>10}")
    print(row("tap → result readable (act's seconds)", totals, f"goal median < 300 ms   {result}"))
    print(row(f"  the host: request appears → result appears ({len(host_parts)} seen)", host_parts))
    print(row("  the widget: seal + durable write, then its 10 ms poll", widget_parts))
    print(row("widget process, start → exit (with 3 timeline reads)", walls))
    return 0


if __name__ == "__main__":
    sys.exit(main())
