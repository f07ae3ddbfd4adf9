#!/usr/bin/env bash
# Measures pushes on loopback with real processes (scripts/bench/push_delivery.py): a data
# change's way to the widget's new entry through `tandem serve`, the local APNs stand-in and a
# widget following its pushes (goal: median < 500 ms), and the provider's pushes per second to
# the stand-in with BENCH_PUSH_DEVICES devices registered (default 500).
#
#   scripts/bench-push.sh Server/.build/release/tandem
#
# A missed goal prints FAIL; with BENCH_STRICT=1 the exit status is 3.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[ $# -eq 1 ] || { echo "usage: scripts/bench-push.sh PATH/TO/tandem" >&2; exit 2; }
[ -x "$1" ] || { echo "bench-push: $1 is not an executable tandem binary" >&2; exit 1; }
tandem="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
"$here/ensure-deps.sh" --bench
"$here/ensure-deps.sh" --demo  # curl, jq, openssl

workdir="$(mktemp -d "${TMPDIR:-/tmp}/tandem-bench-push.XXXXXX")"
# shellcheck source=lib/tandem-serve.sh
source "$here/lib/tandem-serve.sh"  # exports a system secret for this run
trap 'rm -rf "$workdir"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

"$tandem" admin seed-demo --database "sqlite:$workdir/server.sqlite" >"$workdir/seed.out" 2>&1 || { cat "$workdir/seed.out" >&2; exit 1; }
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$workdir/AuthKey.p8" 2>/dev/null
python3 "$here/bench/push_delivery.py" "$tandem" "$workdir" "${BENCH_PUSH_ROUNDS:-20}" "${BENCH_PUSH_DEVICES:-500}" | tee "$workdir/table.txt"
if [ "${BENCH_STRICT:-0}" = 1 ] && grep -q FAIL "$workdir/table.txt"; then exit 3; fi
