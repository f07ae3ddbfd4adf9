#!/usr/bin/env bash
# `make bench BASELINE=<commit>`: the server's measurements (scripts/bench-server.sh) for this
# tree's release `tandem` and for that commit's, alternately in one run, side by side.
#
#   scripts/bench-baseline.sh COMMIT          e.g. main, cddc7f9
#
# Builds the commit's release tandem once (scripts/build-baseline.sh keeps it in
# Server/.build-baseline/<full hash>/), this tree's into Server/.build, and the current
# Benchmarks' helpers (DPoPProofs for bound refreshes, RefreshWriteLimit for the write limit),
# then runs bench-server.sh with both binaries: BENCH_ROUNDS rounds (default 2), every
# measurement for one binary then the other, each figure with its ratio and a verdict against
# BENCH_TOLERANCE (percent, default 5), then issue 43's goal ratios for both. The rest of
# bench-server.sh's settings apply (BENCH_DATABASES, BENCH_DURATION, BENCH_STRICT, …).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
fail() { echo "bench-baseline: FAILED: $*" >&2; exit 1; }
note() { echo "bench-baseline: $*" >&2; }

if [ $# -ne 1 ] || [ -z "$1" ]; then echo "usage: scripts/bench-baseline.sh COMMIT (make bench BASELINE=COMMIT)" >&2; exit 2; fi
started=$SECONDS

"$here/ensure-deps.sh" --bench
for tool in wrk curl python3 swift git; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool is not installed (scripts/ensure-deps.sh --bench installs what the benchmark needs)"
done

baseline_folder="$("$here/build-baseline.sh" "$1")" || fail "no baseline binary for '$1' (above)"
baseline_commit="$(basename "$baseline_folder")"

note "building this tree's release tandem (Server/.build)"
(cd "$root/Server" && nice -n 10 swift build -c release --product tandem) >&2 || fail "the release build of this tree failed"
for product in DPoPProofs RefreshWriteLimit; do
  note "building Benchmarks' $product"
  nice -n 10 swift build -c release --package-path "$root/Benchmarks" --product "$product" >&2 || fail "cannot build $product"
done
note "builds ready after $(( SECONDS - started )) s"

current="$(git -C "$root" rev-parse --short HEAD)"
git -C "$root" diff --quiet HEAD -- . ':!Server/.build-baseline' 2>/dev/null || current="$current with uncommitted changes"
echo "current:  this tree ($current)"
echo "baseline: $(git -C "$root" log -1 --format='%h %s' "$baseline_commit" | cut -c 1-110)"
status=0
BENCH_ROUNDS="${BENCH_ROUNDS:-2}" BENCH_SOURCE="$root" BENCH_BASELINE_SOURCE="$baseline_folder/source" \
  "$here/bench-server.sh" "$root/Server/.build/release/tandem" "$baseline_folder/tandem" || status=$?
note "done in $(( (SECONDS - started) / 60 )) min $(( (SECONDS - started) % 60 )) s"
exit "$status"
