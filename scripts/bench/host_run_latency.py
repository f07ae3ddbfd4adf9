#!/usr/bin/env python3
"""How soon `tandem host run` fulfils a widget's request once it is written.

Starts `tandem host run --interval 3600` (an hour between scheduled runs, so only its watch on
the shared container's requests can explain a prompt run), then, round after round, writes a
request with `tandem widget request` and times from starting that command to the host printing
the run that fulfilled it (an upper bound: it includes the widget process's own start, about
25 ms). Prints the median and p95 against the goal
(< 1 s), then stops the host with SIGTERM and checks it exits 0.

    scripts/bench/host_run_latency.py PATH/TO/tandem APP_DIR PASSCODE [ROUNDS]
"""
import json
import os
import queue
import signal
import statistics
import subprocess
import sys
import threading
import time

GOAL_SECONDS = 1.0


def main() -> int:
    if len(sys.argv) not in (4, 5):
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    tandem, app, passcode = sys.argv[1:4]
    rounds = int(sys.argv[4]) if len(sys.argv) == 5 else 20
    env = {k: v for k, v in os.environ.items() if not k.startswith("TANDEM_")}
    env["TANDEM_PASSCODE"] = passcode
    env["TANDEM_LOG_LEVEL"] = "error"
    host = subprocess.Popen([tandem, "host", "run", "--dir", app, "--interval", "3600"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    lines: "queue.Queue[tuple[float, dict]]" = queue.Queue()

    def read() -> None:
        for line in host.stdout:
            try:
                lines.put((time.monotonic(), json.loads(line)))
            except ValueError:
                pass

    threading.Thread(target=read, daemon=True).start()
    try:
        when, first = lines.get(timeout=60)
        if first.get("host") != "running":
            raise SystemExit(f"host-run-latency: unexpected first line {first}")
        latencies = []
        for index in range(rounds):
            # A new limit each round: a new request, never one the host already fulfilled.
            page = ["--destination", "sales", "--entity-set", "Customers", "--limit", str(index % 20 + 1)]
            written = time.monotonic()
            subprocess.run([tandem, "widget", "request", "--dir", app, *page], env=env, check=True,
                           stdout=subprocess.DEVNULL)
            while True:
                when, line = lines.get(timeout=60)
                outcomes = line.get("outcomes", [])
                if any(o.get("result") == "fulfilled" for o in outcomes):
                    latencies.append(when - written)
                    break
            if (index + 1) % 5 == 0:
                print(f"bench: host run {index + 1}/{rounds}", file=sys.stderr)
    finally:
        host.send_signal(signal.SIGTERM)
        status = host.wait(timeout=60)
    latencies.sort()
    median = statistics.median(latencies)
    p95 = latencies[min(len(latencies) - 1, int(round(0.95 * (len(latencies) - 1))))]
    result = "PASS" if median < GOAL_SECONDS and status == 0 else "FAIL"
    print(f"tandem host run (×{rounds}), widget request → fulfilled:   median {median * 1000:7.1f} ms   "
          f"p95 {p95 * 1000:7.1f} ms   goal < 1 s   {result}")
    print(f"  SIGTERM: exit status {status}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
