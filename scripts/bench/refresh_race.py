#!/usr/bin/env python3
"""The refresh single flight across real processes, against one process refreshing alone.

PROCESSES separate `tandem widget race` processes ask for a fresh grant token at the same
wall-clock moment, round after round; a round lasts until the last of them holds the new
token. The baseline is one process alone, the same way. The two run in alternating blocks
(alone, together, …) so that a machine getting busier or quieter moves both alike. Prints the
medians and p99s and the ratio against the goal (< 1.5x). APP_DIR must hold an onboarded host.

    scripts/bench/refresh_race.py TANDEM APP_DIR [ROUNDS] [PROCESSES]
"""
import json
import math
import statistics
import subprocess
import sys
import tempfile
import time

GOAL_RATIO = 1.5
BLOCKS = 6
PERIOD_MS = 150
SKIPPED_ROUNDS = 3  # connection set-up and lazy initialisation


def race(tandem: str, app: str, processes: int, rounds: int) -> list:
    """One race; per round (after the first few), ms from its scheduled start to the last token."""
    start_at = int((time.time() + 1.5) * 1000)
    children = []
    with tempfile.TemporaryDirectory(prefix="tandem-bench-race-") as scratch:
        for index in range(processes):
            output = open(f"{scratch}/race-{index}.out", "w+")
            command = [tandem, "widget", "race", "--dir", app, "--rounds", str(rounds),
                       "--start-at-ms", str(start_at), "--period-ms", str(PERIOD_MS)]
            children.append((subprocess.Popen(command, stdout=output), output))
        slowest = [0.0] * rounds
        for process, output in children:
            if process.wait() != 0:
                raise SystemExit(f"refresh_race: a race process exited with status {process.returncode}")
            output.seek(0)
            for line in output:
                try:
                    event = json.loads(line)
                except ValueError:
                    continue
                if "round" not in event or "finished_ms" not in event:
                    continue
                if event.get("result") != "ok":
                    raise SystemExit(f"refresh_race: round {event['round']} failed: {event.get('error', '?')}")
                slowest[event["round"]] = max(slowest[event["round"]], event["finished_ms"])
            output.close()
    return slowest[SKIPPED_ROUNDS:]


def p99(samples: list) -> float:
    ordered = sorted(samples)
    return ordered[min(max(math.ceil(0.99 * len(ordered)), 1), len(ordered)) - 1]


def main() -> int:
    if len(sys.argv) not in (3, 4, 5):
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    tandem, app = sys.argv[1:3]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 150
    processes = int(sys.argv[4]) if len(sys.argv) > 4 else 8
    per_block = max(1, math.ceil(rounds / BLOCKS)) + SKIPPED_ROUNDS
    alone, together = [], []
    for block in range(1, BLOCKS + 1):
        print(f"bench: refresh, block {block} of {BLOCKS}", file=sys.stderr)
        alone += race(tandem, app, 1, per_block)
        together += race(tandem, app, processes, per_block)
    ratio = statistics.median(together) / max(statistics.median(alone), 0.001)
    print(f"refresh single flight ({len(alone)} rounds each)     median          p99")
    print(f"refresh, 1 process alone                  {statistics.median(alone):8.2f} ms  {p99(alone):8.2f} ms")
    print(f"refresh, {processes} processes at once (last done) {statistics.median(together):8.2f} ms  {p99(together):8.2f} ms")
    print(f"{processes} processes / 1 process: {ratio:.2f}x   goal: < {GOAL_RATIO}x   {'PASS' if ratio < GOAL_RATIO else 'FAIL'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
