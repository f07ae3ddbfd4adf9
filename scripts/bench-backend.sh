#!/usr/bin/env bash
# Measures Tandem as the way to a customer's backend, on loopback (scripts/bench/backend_proxy.py):
# a widget's page of the Django REST Framework service through `tandem serve`, against the same
# page from the service directly, in the same run — a cache miss (goal: Tandem's p50 within 5 ms
# of the backend's) and a cache hit answered 304 from Tandem's cache (goal: ≥ 70 % of /health's
# rate, wrk on both, alternating).
#
#   scripts/bench-backend.sh Server/.build/release/tandem
#
# The service runs in the pytest suites' virtualenv (Server/Tests/requirements.txt, from PyPI).
# Environment: BENCH_BACKEND_USERS [40], BENCH_ROUNDS [2], BENCH_DURATION [10s], BENCH_WARMUP [2s],
# BENCH_CONNECTIONS [64], BENCH_THREADS [2], BENCH_STRICT [0; 1: exit 3 on a missed goal].
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[ $# -eq 1 ] || { echo "usage: scripts/bench-backend.sh PATH/TO/tandem" >&2; exit 2; }
[ -x "$1" ] || { echo "bench-backend: $1 is not an executable tandem binary" >&2; exit 1; }
tandem="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
"$here/ensure-deps.sh" --bench
"$here/ensure-deps.sh" --demo  # python3 with venv
# shellcheck source=lib/python-venv.sh
source "$here/lib/python-venv.sh"
venv_ensure pytest-venv "$here/../Server/Tests/requirements.txt" || { echo "bench-backend: no virtualenv" >&2; exit 1; }

workdir="$(mktemp -d "${TMPDIR:-/tmp}/tandem-bench-backend.XXXXXX")"
trap 'rm -rf "$workdir"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
"$venv/bin/python" "$here/bench/backend_proxy.py" "$tandem" "$workdir"
