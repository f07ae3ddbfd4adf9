#!/usr/bin/env python3
"""What a widget extension costs as a process: peak resident memory and start-to-first-entry.

iOS stops a widget extension at about 30 MB, and a widget must show its first entry quickly.
Runs, in turn and RUNS times each, `tandem-widget timeline` (the widget as its own binary,
linked as an extension target is) for a fresh large-family timeline from a warm snapshot,
`tandem widget timeline` (the same command in the full tool, for reference: it carries the
server and libcurl) and a bare Swift process that only prints (the floor), each under
`/usr/bin/time -f %M`, and prints each one's peak memory and median time to its first byte of
output. APP_DIR must hold an onboarded host whose snapshot for the page is fresh.

    scripts/bench/widget_process.py TANDEM TANDEM_WIDGET FLOOR APP_DIR [RUNS]
"""
import statistics
import subprocess
import sys
import time

MEMORY_GOAL_MB = 20.0
FIRST_ENTRY_GOAL_MS = 50.0
PAGE = ["--destination", "sales", "--entity-set", "SalesOrders", "--limit", "10"]


def measure(command: list) -> tuple:
    """Runs `command` under /usr/bin/time; returns (ms to first output byte, peak kB)."""
    start = time.perf_counter()
    process = subprocess.Popen(["/usr/bin/time", "-f", "%M"] + command, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.read(1)
    first = (time.perf_counter() - start) * 1000
    process.stdout.read()
    errors = process.stderr.read().decode(errors="replace")
    if process.wait() != 0:
        raise SystemExit(f"widget_process: {' '.join(command)} failed: {errors[-400:]}")
    return first, int(errors.strip().splitlines()[-1])


def main() -> int:
    if len(sys.argv) not in (5, 6):
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    tandem, widget, floor, app = sys.argv[1:5]
    runs = int(sys.argv[5]) if len(sys.argv) == 6 else 15
    timeline = ["timeline", "--dir", app, "--family", "systemLarge"] + PAGE
    commands = [[widget] + timeline, [tandem, "widget"] + timeline, [floor]]
    samples = [[] for _ in commands]
    for _ in range(runs):
        for index, command in enumerate(commands):
            samples[index].append(measure(command))

    def megabytes(rows: list) -> float:
        return max(kb for _, kb in rows) / 1024

    def median_ms(rows: list) -> float:
        return statistics.median(ms for ms, _ in rows)

    widget_rows, tool_rows, floor_rows = samples
    memory_ok = megabytes(widget_rows) < MEMORY_GOAL_MB
    first_ok = median_ms(widget_rows) < FIRST_ENTRY_GOAL_MS
    print(f"widget process (×{runs})   tandem-widget  tandem widget  bare Swift    goal      result")
    print(f"peak resident memory     {megabytes(widget_rows):10.1f} MB  {megabytes(tool_rows):10.1f} MB "
          f"{megabytes(floor_rows):8.1f} MB    < {MEMORY_GOAL_MB:.0f} MB    {'PASS' if memory_ok else 'FAIL'}")
    print(f"start to first entry     {median_ms(widget_rows):10.1f} ms  {median_ms(tool_rows):10.1f} ms "
          f"{median_ms(floor_rows):8.1f} ms    < 50 ms    {'PASS' if first_ok else 'FAIL'}")
    print("  goals apply to tandem-widget, the widget's own binary; tandem widget (the full tool) is shown for reference")
    return 0


if __name__ == "__main__":
    sys.exit(main())
