#!/usr/bin/env bash
# The server's CPU time per refresh grant, by kind of thread: a measure that stays comparable on
# a machine shared with other work, where requests/s and p99 swing with the neighbours' load.
#
#   scripts/bench/refresh-cpu.sh Server/.build/release/tandem [RUNS]
#
# Seeds a SQLite database in a temporary directory (a user, an app, 60,000 refresh tokens),
# starts `tandem serve` on loopback, loads it with scripts/bench/refresh.lua (wrk, 64
# connections, 2 threads, 8 s) and reads the server's per-thread CPU time from /proc over 4 s
# in the middle of the load. Prints one line per run:
#   rps=… p99=… cpu_us_per_req=… dbqueue=… nio=… swiftpool=… other=…
# dbqueue is the SQLite connection's queue (libdispatch overcommit threads), swiftpool the Swift
# global executor, nio the event loops. Compare two binaries by alternating their runs.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[ $# -ge 1 ] || { echo "usage: scripts/bench/refresh-cpu.sh PATH/TO/tandem [RUNS]" >&2; exit 2; }
bin="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
runs="${2:-1}"
command -v wrk >/dev/null 2>&1 || "$here/../ensure-deps.sh" --bench
dir="$(mktemp -d "${TMPDIR:-/tmp}/tandem-cpu.XXXXXX")"
pid=""
cleanup() { [ -z "$pid" ] || { kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; }; rm -rf "$dir"; }
trap cleanup EXIT

snapshot() {   # snapshot PID: "KIND TICKS" per kind of thread
  for task in /proc/"$1"/task/*; do
    local fields
    read -r -a fields <<<"$(sed 's/.*) //' "$task/stat")"
    echo "$(cat "$task/comm") $(( fields[11] + fields[12] ))"
  done | awk '{ kind = "other"
                if ($1 ~ /overcommit/) kind = "dbqueue"; else if ($1 ~ /default-qos/) kind = "swiftpool"; else if ($1 ~ /NIO-/) kind = "nio"
                ticks[kind] += $NF }
              END { for (kind in ticks) print kind, ticks[kind] }' | sort
}

for _ in $(seq 1 "$runs"); do
  rm -rf "$dir"/*
  db="sqlite:$dir/bench.sqlite"
  TANDEM_PASSWORD=bench-password-1 "$bin" admin create-user --database "$db" --username bench-user >/dev/null
  "$bin" admin create-app --database "$db" --client-id bench-app --name Bench --redirect-uri bench://callback --security-mode oauth >/dev/null
  "$bin" admin issue-refresh-token --database "$db" --username bench-user --client-id bench-app \
    --scope "data.read offline_access" --count 60000 >"$dir/tokens"
  "$bin" serve --host 127.0.0.1 --port 0 --database "$db" --rate-limit-per-second 1000000 --log-level warning >"$dir/out" 2>"$dir/log" &
  pid=$!
  base=""
  for _ in $(seq 1 100); do
    base="$(sed -n 's|^listening on \(http://[^ ]*\).*|\1|p' "$dir/out" | head -n 1)"
    [ -n "$base" ] && break
    sleep 0.1
  done
  [ -n "$base" ] || { cat "$dir/log" >&2; echo "refresh-cpu: the server did not start" >&2; exit 1; }
  wrk -t2 -c64 -d8s -s "$here/refresh.lua" "$base" -- "$dir/tokens" bench-app 2 >"$dir/wrk.out" &
  wrk_pid=$!
  sleep 2; snapshot "$pid" >"$dir/before"; started=$(date +%s.%N)
  sleep 4; snapshot "$pid" >"$dir/after"; ended=$(date +%s.%N)
  wait "$wrk_pid"
  kill -TERM "$pid"; wait "$pid" 2>/dev/null || true; pid=""
  rps="$(sed -n 's/.*rps=\([0-9.]*\).*/\1/p' "$dir/wrk.out")"
  p99="$(sed -n 's/.*p99_ms=\([0-9.]*\).*/\1/p' "$dir/wrk.out")"
  [ -n "$rps" ] || { cat "$dir/wrk.out" >&2; echo "refresh-cpu: wrk printed no BENCH line" >&2; exit 1; }
  join "$dir/before" "$dir/after" | awk -v rps="$rps" -v p99="$p99" -v seconds="$(awk -v a="$started" -v b="$ended" 'BEGIN { print b - a }')" \
      -v tick="$(getconf CLK_TCK)" '
    { used = ($3 - $2) / tick; total += used; per[$1] = used / (rps * seconds) * 1e6 }
    END { printf "rps=%.0f p99=%s cpu_us_per_req=%.0f", rps, p99, total / (rps * seconds) * 1e6
          for (kind in per) printf " %s=%.0f", kind, per[kind]; printf "\n" }'
done
