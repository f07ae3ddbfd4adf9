#!/usr/bin/env bash
# Runs two commands at once and fails if either fails: BACKGROUND with its output in LOG, and
# FOREGROUND with its output on the terminal as usual. When both are done, the background
# command's summary (its last lines, or the whole log when it failed) follows.
#
#   scripts/run-beside.sh LOG BACKGROUND… -- FOREGROUND…
#
# make test runs the pytest suites (mostly waiting on a browser and on HTTP) beside the Swift
# test runs (which take the build folder's lock one after the other), so neither waits for the
# other on a two-core machine.
set -euo pipefail

usage() { echo "usage: scripts/run-beside.sh LOG BACKGROUND… -- FOREGROUND…" >&2; exit 2; }
[ $# -ge 4 ] || usage
log=$1
shift
background=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  background+=("$1")
  shift
done
if [ $# -lt 2 ] || [ ${#background[@]} -eq 0 ]; then usage; fi
shift

mkdir -p "$(dirname "$log")"
echo "run-beside: ${background[*]} runs in the background; its output goes to $log"
"${background[@]}" >"$log" 2>&1 &
pid=$!
# Stop the background command if this script is interrupted or the foreground one cannot start.
trap 'kill "$pid" 2>/dev/null || true' INT TERM

foreground_status=0
"$@" || foreground_status=$?
background_status=0
wait "$pid" || background_status=$?
trap - INT TERM

if [ "$background_status" -eq 0 ]; then
  echo "run-beside: ${background[*]} passed; its last lines:"
  tail -n 5 "$log"
else
  echo "run-beside: ${background[*]} FAILED (status $background_status); its output:"
  cat "$log"
fi
if [ "$foreground_status" -ne 0 ]; then
  echo "run-beside: $* FAILED (status $foreground_status)" >&2
fi
[ "$foreground_status" -eq 0 ] && [ "$background_status" -eq 0 ]
