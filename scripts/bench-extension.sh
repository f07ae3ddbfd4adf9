#!/usr/bin/env bash
# Measures the extension paths that need real processes and a local server (SQLite), in
# release mode; the in-process paths (sealed records, the widget timeline, the brokered round
# trip without the network, the single flight between coordinators) are in Benchmarks/:
#   - the refresh single flight across processes: 8 `tandem widget race` processes at once
#     against 1 alone (scripts/bench/refresh_race.py);
#   - the widget process: peak resident memory and start-to-first-entry of `tandem-widget
#     timeline` (the widget as its own binary; fresh large-family timeline, warm snapshot), of
#     `tandem widget timeline` (the same command in the full tool, for reference) and of a bare
#     Swift process that only prints (compiled here with swiftc -static-stdlib, as tandem-widget
#     is linked by make bench), each under /usr/bin/time (scripts/bench/widget_process.py);
#   - `tandem host run`: from a widget's request to the host's run that fulfilled it, through
#     its watch on the requests (20 rounds; the timer is an hour), and a clean SIGTERM.
# Goals (checked on figures from this one run): 8 processes < 1.5x one; widget process < 20 MB
# and first entry < 50 ms; host run median < 1 s. A missed goal prints FAIL; with
# BENCH_STRICT=1 the exit status is 3.
#
#   scripts/bench-extension.sh Server/.build/release/tandem Server/.build-widget/release/tandem-widget
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[ $# -eq 2 ] || { echo "usage: scripts/bench-extension.sh PATH/TO/tandem PATH/TO/tandem-widget" >&2; exit 2; }
[ -x "$1" ] || { echo "bench-extension: $1 is not an executable tandem binary" >&2; exit 1; }
[ -x "$2" ] || { echo "bench-extension: $2 is not an executable tandem-widget binary (make bench builds it)" >&2; exit 1; }
tandem="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
widget_binary="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
"$here/ensure-deps.sh" --bench

workdir="$(mktemp -d "${TMPDIR:-/tmp}/tandem-bench-extension.XXXXXX")"
# shellcheck source=lib/tandem-serve.sh
source "$here/lib/tandem-serve.sh"
cleanup() { serve_stop; rm -rf "$workdir"; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

database="sqlite:$workdir/server.sqlite"
"$tandem" admin seed-demo --database "$database" >"$workdir/seed.out" 2>&1 || { cat "$workdir/seed.out" >&2; exit 1; }
serve_start "$tandem" "$workdir/serve.out" "$workdir/serve.log" --database "$database" --log-level warning \
  --rate-limit-per-second 1000000 || exit 1
TANDEM_PASSWORD=demo-password TANDEM_PASSCODE=bench-passcode-7 \
  "$tandem" host onboard --dir "$workdir/app" --server "$server_base" --client-id tandem-demo --username demo --fast-kdf >/dev/null
python3 "$here/bench/refresh_race.py" "$tandem" "$workdir/app" | tee "$workdir/table.txt"

# The widget process: a warm snapshot first (the widget requests it, the host fulfils it).
page=(--destination sales --entity-set SalesOrders --limit 10)
"$tandem" widget timeline --dir "$workdir/app" --family systemLarge "${page[@]}" >/dev/null
"$tandem" host fulfil --dir "$workdir/app" >/dev/null
echo 'print("ready")' >"$workdir/floor.swift"
swiftc -O -static-stdlib "$workdir/floor.swift" -o "$workdir/floor" 2>"$workdir/floor.err" || { cat "$workdir/floor.err" >&2; exit 1; }
echo
python3 "$here/bench/widget_process.py" "$tandem" "$widget_binary" "$workdir/floor" "$workdir/app" | tee -a "$workdir/table.txt"
echo
# The long-running host: a widget's request fulfilled through its watch, not its timer.
python3 "$here/bench/host_run_latency.py" "$tandem" "$workdir/app" bench-passcode-7 20 | tee -a "$workdir/table.txt"
if [ "${BENCH_STRICT:-0}" = 1 ] && grep -q FAIL "$workdir/table.txt"; then exit 3; fi
