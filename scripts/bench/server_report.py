#!/usr/bin/env python3
"""The table of scripts/bench-server.sh, from the results it wrote.

RESULTS has one tab-separated line per measurement: database, endpoint, binary (current or
baseline), round, requests/s, p99 ms, "ok" or why the figure is missing ("n/a: …" for what
a binary cannot do; anything else is an error), and the server's CPU microseconds per request
("-" where not measured; older results have no such column). A figure is the median over the rounds; a ratio
between two figures is taken within each round (the two were measured minutes apart at most),
and its median is the one printed and judged.

With one binary it prints requests/s and p99 per endpoint and database and the goals (≥ 4,000
refresh grants/s on SQLite with p99 < 25 ms; the protected GET at ≥ 50% of /health). With two
it prints each figure for both, current / baseline, and a verdict against the tolerance: SLOWER
or faster only when every round's ratio is beyond it in the same direction, "same" when the
median is within it, and "unclear" when the rounds disagree; then issue 43's goal ratios for
both binaries.

    scripts/bench/server_report.py RESULTS --binary current=PATH [--binary baseline=PATH] …

Exit status: 1 when a measurement failed, 3 with --strict 1 when a goal was missed or (with two
binaries) a figure is SLOWER, else 0.
"""
import argparse
import statistics
import sys
from collections import defaultdict

RESOURCE_PATH = "/v1/destinations/sales/Customers?limit=20"
ENDPOINTS = ["refresh", "refresh-dpop", "resource", "health", "write-limit-each", "write-limit-shared64"]
LABELS = {
    "refresh": "POST /oauth/token refresh",
    "refresh-dpop": "POST /oauth/token refresh, DPoP-bound",
    "resource": f"GET {RESOURCE_PATH}",
    "health": "GET /health (ceiling)",
    "write-limit-each": "rotation statement alone, one commit each",
    "write-limit-shared64": "rotation statement alone, shared commits of 64",
}
LOWER_IS_BETTER = {"p99", "cpu"}


class Results:
    """The measurements, by (database, endpoint, binary): {round: (rps, p99)} and their states."""

    def __init__(self, path):
        self.figures = defaultdict(dict)
        self.states = {}
        self.errors = []
        with open(path, encoding="utf-8") as lines:
            for line in lines:
                fields = line.rstrip("\n").split("\t")
                db, endpoint, side, round_, rps, p99, state = fields[:7]
                cpu = fields[7] if len(fields) > 7 else "-"
                key = (db, endpoint, side)
                if state == "ok":
                    self.figures[key][int(round_)] = {
                        "rps": float(rps), "p99": None if p99 == "-" else float(p99), "cpu": None if cpu == "-" else float(cpu)}
                else:
                    if state.startswith("n/a") or key not in self.states:
                        self.states[key] = state
                    if not state.startswith("n/a"):
                        self.errors.append(f"[{db}/{side}] {endpoint}, round {round_}: {state}")

    def state(self, db, endpoint, side):
        """"ok" when every round has its figure, else why not."""
        if (db, endpoint, side) in self.states:
            return self.states[(db, endpoint, side)]
        return "ok" if self.figures.get((db, endpoint, side)) else "not measured"

    def median(self, db, endpoint, side, metric):
        rounds = self.figures.get((db, endpoint, side), {})
        values = [figures[metric] for figures in rounds.values() if figures[metric] is not None]
        return statistics.median(values) if values else None

    def ratios(self, numerator, denominator):
        """Per-round ratios numerator / denominator, each a (db, endpoint, side, metric) tuple."""
        top = self.figures.get(numerator[:3], {})
        bottom = self.figures.get(denominator[:3], {})
        ratios = []
        for round_ in sorted(set(top) & set(bottom)):
            a, b = top[round_][numerator[3]], bottom[round_][denominator[3]]
            if a is not None and b:
                ratios.append(a / b)
        return ratios


def number(value, metric):
    if value is None:
        return "-"
    return f"{value:.2f}" if metric == "p99" else f"{value:.1f}" if metric == "cpu" else f"{value:.0f}"


def percent(ratios):
    return f"{100 * statistics.median(ratios):.0f}%" if ratios else "n/a"


# ── One binary ──────────────────────────────────────────────────────────────────────────────────

def single_report(results, options):
    misses = 0
    rounds = f", median of {options.rounds} rounds" if options.rounds > 1 else ""
    print()
    print(f"Tandem server on loopback: wrk, {options.connections} connections, {options.threads} threads, "
          f"{options.duration} per run after a {options.warmup} warm-up{rounds}")
    print(f"binary: {options.binaries['current']}")
    row = "{:<10} {:<48} {:>12} {:>10} {:>12}  {}"
    print(row.format("database", "endpoint", "requests/s", "p99 ms", "CPU µs/req", "goal"))
    print(row.format("--------", "--------", "----------", "------", "----------", "----"))
    for db in options.databases:
        for endpoint in ENDPOINTS:
            state = results.state(db, endpoint, "current")
            if state == "not measured" and endpoint != "health" and endpoint != "refresh":
                continue  # not asked for here (DPoP off, the write limit off or on PostgreSQL)
            rps = results.median(db, endpoint, "current", "rps")
            p99 = results.median(db, endpoint, "current", "p99")
            cpu = results.median(db, endpoint, "current", "cpu")
            goal = ""
            if state == "ok":
                refresh = (db, "refresh", "current", "rps")
                if endpoint == "refresh" and db == "sqlite":
                    passed = rps >= 4000 and p99 < 25
                    misses += not passed
                    goal = f"{'PASS' if passed else 'FAIL'} (≥ 4000/s and p99 < 25 ms)"
                elif endpoint == "refresh-dpop":
                    goal = f"{percent(results.ratios((db, endpoint, 'current', 'rps'), refresh))} of the bearer refresh (reported, no goal)"
                elif endpoint == "resource":
                    ratio = results.ratios((db, endpoint, "current", "rps"), (db, "health", "current", "rps"))
                    if ratio:
                        passed = statistics.median(ratio) >= 0.5
                        misses += not passed
                        goal = f"{'PASS' if passed else 'FAIL'} ({percent(ratio)} of /health, goal ≥ 50%)"
                elif endpoint.startswith("write-limit"):
                    ratio = results.ratios(refresh, (db, endpoint, "current", "rps"))
                    goal = f"refresh at {percent(ratio)} of it (reported, no goal)" if ratio else ""
            elif state.startswith("n/a"):
                goal = state
            else:
                goal = f"ERROR: {state}"
            print(row.format(db, LABELS[endpoint], number(rps, "rps"), number(p99, "p99"), number(cpu, "cpu"), goal))
    print()
    goal_ratios(results, options, sides=("current",))
    return misses


# ── Two binaries ────────────────────────────────────────────────────────────────────────────────

def verdict(ratios, metric, tolerance):
    """SLOWER / faster / same / unclear, from the per-round ratios current / baseline."""
    if not ratios:
        return "-"
    worse = (lambda r: r > 1 + tolerance) if metric in LOWER_IS_BETTER else (lambda r: r < 1 - tolerance)
    better = (lambda r: r < 1 - tolerance) if metric in LOWER_IS_BETTER else (lambda r: r > 1 + tolerance)
    median = statistics.median(ratios)
    change = f"{100 * abs(median - 1):.0f}%"
    if all(worse(r) for r in ratios):
        return f"SLOWER ({'+' if metric in LOWER_IS_BETTER else '-'}{change})"
    if all(better(r) for r in ratios):
        return f"faster ({'-' if metric in LOWER_IS_BETTER else '+'}{change})"
    if abs(median - 1) <= tolerance:
        return "same"
    return "unclear (rounds disagree)"


def comparison_report(results, options):
    tolerance = options.tolerance / 100
    slower = 0
    notes = set()
    print()
    print(f"Tandem server on loopback, current against baseline: wrk, {options.connections} connections, "
          f"{options.threads} threads, {options.duration} per run after a {options.warmup} warm-up; "
          f"{options.rounds} rounds, each measurement run for one binary then the other")
    print(f"current:  {options.binaries['current']}")
    print(f"baseline: {options.binaries['baseline']}")
    print(f"Figures are medians of the rounds; current/baseline is the median of each round's ratio; "
          f"verdicts against a tolerance of {options.tolerance:g}% (BENCH_TOLERANCE).")
    row = "{:<9} {:<60} {:>9} {:>9} {:>8}  {:<26} {}"
    print(row.format("database", "figure", "current", "baseline", "cur/base", "verdict", "rounds: current | baseline"))
    print(row.format("--------", "------", "-------", "--------", "--------", "-------", "--------------------------"))
    for db in options.databases:
        for endpoint in ENDPOINTS:
            states = [results.state(db, endpoint, side) for side in ("current", "baseline")]
            if all(state == "not measured" for state in states) and endpoint not in ("refresh", "health"):
                continue
            metrics = ["rps"] if endpoint.startswith("write-limit") else ["rps", "p99", "cpu"]
            for metric in metrics:
                if metric == "cpu" and all(results.median(db, endpoint, side, "cpu") is None for side in ("current", "baseline")):
                    continue
                unit = "requests/s" if not endpoint.startswith("write-limit") else "rotations/s"
                label = f"{LABELS[endpoint]}, {({'rps': unit, 'p99': 'p99 ms', 'cpu': 'server CPU µs/request'})[metric]}"
                figures = [results.median(db, endpoint, side, metric) for side in ("current", "baseline")]
                shown = [number(f, metric) if s == "ok" else ("n/a" if s.startswith("n/a") else "ERROR")
                         for f, s in zip(figures, states)]
                ratios = results.ratios((db, endpoint, "current", metric), (db, endpoint, "baseline", metric))
                if all(s == "ok" for s in states):
                    judged = verdict(ratios, metric, tolerance)
                else:
                    side, state = next((side, s) for side, s in zip(("current", "baseline"), states) if s != "ok")
                    judged = f"n/a in the {side}" if state.startswith("n/a") else f"ERROR in the {side}"
                    notes.add(f"{db}, {LABELS[endpoint]}: {state} ({side})")
                slower += judged.startswith("SLOWER")
                ratio = f"{statistics.median(ratios):.2f}x" if ratios and all(s == "ok" for s in states) else "-"
                per_round = " | ".join(
                    " ".join(number(results.figures[(db, endpoint, side)][r][metric], metric)
                             for r in sorted(results.figures.get((db, endpoint, side), {})))
                    or "-" for side in ("current", "baseline"))
                print(row.format(db, label, shown[0], shown[1], ratio, judged, per_round))
    for note in sorted(notes):
        print(f"  {note}")
    print()
    goal_ratios(results, options)
    return slower


def goal_ratios(results, options, sides=("current", "baseline")):
    """Issue 43's goals, stated as ratios within one binary, for each of `sides`; with a
    baseline, the refresh grant against the baseline's too. The write limit is the rotation
    statement alone (RefreshWriteLimit): refresh as a fraction of it says how much of the
    refresh grant's time is the database's."""
    print("Issue 43's goals, as ratios within each binary (medians of each round's ratio):")
    row = "{:<9} {:<60}" + " {:>9}" * len(sides) + "  {}"
    print(row.format("database", "ratio", *sides, "goal"))
    print(row.format("--------", "-----", *["-" * len(side) for side in sides], "----"))
    for db in options.databases:
        lines = [
            ("refresh / health", ("refresh", "rps"), ("health", "rps"), "≥ 40%", lambda r: r >= 0.40),
            ("protected GET / health", ("resource", "rps"), ("health", "rps"), "≥ 75%", lambda r: r >= 0.75),
            ("DPoP-bound refresh / bearer refresh", ("refresh-dpop", "rps"), ("refresh", "rps"), "≥ 50%", lambda r: r >= 0.50),
        ]
        if db == "sqlite":
            lines += [
                ("refresh / write limit, one commit each", ("refresh", "rps"), ("write-limit-each", "rps"), "reported", None),
                ("refresh / write limit, shared commits of 64", ("refresh", "rps"), ("write-limit-shared64", "rps"), "reported", None),
            ]
        for label, top, bottom, goal, passes in lines:
            shown, judged = [], []
            for side in sides:
                ratios = results.ratios((db, top[0], side, top[1]), (db, bottom[0], side, bottom[1]))
                shown.append(percent(ratios))
                if ratios and passes:
                    judged.append(f"{side} {'PASS' if passes(statistics.median(ratios)) else 'FAIL'}")
            print(row.format(db, label, *shown, f"{goal}  {', '.join(judged)}".rstrip()))
        shown, judged = [], []
        for side in sides:
            p99 = results.median(db, "refresh", side, "p99") if results.state(db, "refresh", side) == "ok" else None
            shown.append(f"{p99:.1f} ms" if p99 is not None else "n/a")
            if p99 is not None and options.connections == 64:
                judged.append(f"{side} {'PASS' if p99 < 25 else 'FAIL'}")
        goal = "< 25 ms  " + ", ".join(judged) if options.connections == 64 else "(the goal is at 64 connections)"
        print(row.format(db, f"refresh p99 at {options.connections} connections", *shown, goal.rstrip()))
        if "baseline" in sides:
            ratios = results.ratios((db, "refresh", "current", "rps"), (db, "refresh", "baseline", "rps"))
            floor = 1 - options.tolerance / 100
            judged = f"current {'PASS' if statistics.median(ratios) >= floor else 'FAIL'}" if ratios else ""
            print(row.format(db, "refresh, current / baseline", percent(ratios), "",
                             f"≥ 100% within the tolerance (≥ {100 * floor:.0f}%)  {judged}".rstrip()))
    print()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results")
    parser.add_argument("--binary", action="append", required=True, help="current=PATH or baseline=PATH")
    parser.add_argument("--databases", required=True)
    parser.add_argument("--rounds", type=int, required=True)
    parser.add_argument("--tolerance", type=float, required=True, help="percent")
    parser.add_argument("--connections", type=int, required=True)
    parser.add_argument("--threads", type=int, required=True)
    parser.add_argument("--duration", required=True)
    parser.add_argument("--warmup", required=True)
    parser.add_argument("--strict", default="0")
    options = parser.parse_args()
    options.binaries = dict(binary.split("=", 1) for binary in options.binary)
    options.databases = options.databases.split()

    results = Results(options.results)
    if "baseline" in options.binaries:
        missed = comparison_report(results, options)
        summary = f"{missed} figure(s) SLOWER than the baseline beyond {options.tolerance:g}%" if missed else \
            f"no figure SLOWER than the baseline beyond {options.tolerance:g}%"
    else:
        missed = single_report(results, options)
        summary = f"{missed} goal(s) missed" if missed else "all goals met"
    sys.stdout.flush()
    if results.errors:
        for error in results.errors:
            print(f"bench-server: ERROR: {error}", file=sys.stderr)
        print(f"bench-server: FAILED: {len(results.errors)} measurement(s) failed or could not run (above)", file=sys.stderr)
        return 1
    print(f"bench-server: {summary}", file=sys.stderr)
    return 3 if missed and options.strict == "1" else 0


if __name__ == "__main__":
    sys.exit(main())
