#!/usr/bin/env bash
# Measures widget actions on loopback with real processes (scripts/bench/action_latency.py): a
# tap on a row's Approve button (`tandem-widget act --wait`) until its result is readable in the
# shared container, with `tandem serve` and `tandem host run` (goal: median < 300 ms), and how
# much of it is the host's. Each round a back office writes 10 new low-value approvals (no
# step-up); taps start BENCH_ACTION_INTERVAL seconds apart (default 2.1: the server allows a
# user an action every 2 s, in bursts of 10).
#
#   scripts/bench-actions.sh [PATH/TO/tandem [PATH/TO/tandem-widget]]
#       default: Server/.build/release/tandem and Server/.build-widget/release/tandem-widget,
#       as make bench builds them
#   BENCH_ACTION_TAPS (default 60) measured taps, after BENCH_ACTION_WARMUP (default 3)
#
# A missed goal prints FAIL; with BENCH_STRICT=1 the exit status is 3.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[ $# -le 2 ] || { echo "usage: scripts/bench-actions.sh [PATH/TO/tandem [PATH/TO/tandem-widget]]" >&2; exit 2; }
tandem_path="${1:-$here/../Server/.build/release/tandem}"
widget_path="${2:-$here/../Server/.build-widget/release/tandem-widget}"
[ -x "$tandem_path" ] || { echo "bench-actions: $tandem_path is not an executable tandem binary" >&2; exit 1; }
[ -x "$widget_path" ] || { echo "bench-actions: $widget_path is not an executable tandem-widget binary (make bench builds it)" >&2; exit 1; }
tandem="$(cd "$(dirname "$tandem_path")" && pwd)/$(basename "$tandem_path")"
widget_binary="$(cd "$(dirname "$widget_path")" && pwd)/$(basename "$widget_path")"
"$here/ensure-deps.sh" --bench

workdir="$(mktemp -d "${TMPDIR:-/tmp}/tandem-bench-actions.XXXXXX")"
# shellcheck source=lib/tandem-serve.sh
source "$here/lib/tandem-serve.sh"  # exports a system secret for this run
trap 'rm -rf "$workdir"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

"$tandem" admin seed-demo --database "sqlite:$workdir/server.sqlite" >"$workdir/seed.out" 2>&1 || { cat "$workdir/seed.out" >&2; exit 1; }
python3 "$here/bench/action_latency.py" "$tandem" "$widget_binary" "$workdir" "${BENCH_ACTION_TAPS:-60}" \
  "${BENCH_ACTION_WARMUP:-3}" "${BENCH_ACTION_INTERVAL:-2.1}" | tee "$workdir/table.txt"
if [ "${BENCH_STRICT:-0}" = 1 ] && grep -q FAIL "$workdir/table.txt"; then exit 3; fi
