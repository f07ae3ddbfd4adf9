#!/usr/bin/env bash
# Measures the server with wrk on loopback, on SQLite and on PostgreSQL: refresh-grant throughput
# and p99, a JWT-protected resource GET, and GET /health as the ceiling; on SQLite also the
# refresh grant's write limit. Given a second binary, measures both in the same run and
# compares them.
#
#   scripts/bench-server.sh Server/.build/release/tandem
#   scripts/bench-server.sh Server/.build/release/tandem BASELINE/tandem     (make bench BASELINE=…)
#
# For each database and binary it seeds a user and an app with that binary's own `tandem admin`
# commands (each binary has its own database: an older one may not open a newer one's schema),
# pre-issues refresh tokens, starts `tandem serve` (log level warning, rate limiter raised out of
# the way), then runs wrk (64 connections, 2 threads, 10 s, after a warm-up) against:
#   refresh   POST /oauth/token grant_type=refresh_token, every request with its own token
#   refresh, DPoP-bound   the same with grants bound to a DPoP key (RFC 9449), every request
#             with its own proof (made just before the load by Benchmarks' DPoPProofs, the SDK's
#             proof code, with the server's nonce): what binding costs, reported beside the bearer
#             figure ("n/a" for a binary that cannot bind grants: `admin issue-refresh-token` has
#             no --dpop-jkt)
#   resource  GET /v1/destinations/sales/Customers?limit=20 with a Bearer access token
#   health    GET /health
#   write limit (SQLite only)   the server's rotation statement alone, redeeming tokens in a
#             loop on a copy of the seeded database with the server's durability settings, one
#             commit per rotation and in shared commits of 64 (Benchmarks' RefreshWriteLimit,
#             which reads the statement from the binary's source tree)
# Measurements go in rounds (BENCH_ROUNDS); within a round every measurement runs for each
# binary in turn (A B, then the next measurement), so the machine's drift falls on both alike.
# scripts/bench/server_report.py prints the table: with one binary, requests/s and p99 per
# endpoint and database and the goals (≥ 4,000 refresh grants/s on SQLite with p99 < 25 ms; the
# protected GET at ≥ 50% of /health); with two, each figure for both, their ratio and a verdict
# against BENCH_TOLERANCE, then issue 43's goal ratios for both. Figures are medians over the
# rounds, and ratios are taken within each round. Any non-200 response is an error: the script
# says which and exits 1. A missed goal (or, with two binaries, a figure worse than the
# baseline's beyond the tolerance) is reported as FAIL or SLOWER; with BENCH_STRICT=1 it also
# makes the exit status 3.
#
# PostgreSQL comes from scripts/with-postgres.sh (a throwaway server, installed with apt-get if
# missing); if TANDEM_TEST_POSTGRES_URL is already set, fresh databases are created on that
# server instead and dropped afterwards. Servers and databases are removed on every exit path.
#
# Environment (defaults in brackets):
#   BENCH_DATABASES [sqlite postgres]   BENCH_DURATION [10s]   BENCH_WARMUP [2s]
#   BENCH_CONNECTIONS [64]   BENCH_THREADS [2]   BENCH_RATE_LIMIT [1000000]
#   BENCH_ROUNDS [1 with one binary, 2 with two]   BENCH_TOLERANCE [5, percent]
#   BENCH_REFRESH_TOKENS [tokens pre-issued per database and round: 6,000 per second of load;
#     past them the load redeems the successors the server returns, and the script says so]
#   BENCH_STRICT [0]   BENCH_DPOP [1: also measure DPoP-bound refreshes]
#   BENCH_DPOP_PROOFS [Benchmarks/.build/release/DPoPProofs, built if missing]
#   BENCH_WRITE_LIMIT [1: also measure the write limit on SQLite]   BENCH_WRITE_LIMIT_SECONDS [3]
#   BENCH_WRITE_LIMIT_TOOL [Benchmarks/.build/release/RefreshWriteLimit, built if missing]
#   BENCH_SOURCE [this repository], BENCH_BASELINE_SOURCE [none]: the trees the binaries were
#     built from, where the write limit reads the rotation statement (none: not measured)
#   BENCH_PERF_DIR [none]: record each measured run with `perf record -g` (software clock
#     sampling at BENCH_PERF_FREQUENCY [499] Hz) into DIR/<database>-<endpoint>-<binary>-r<round>.perf.data,
#     for `perf report -i FILE --no-children | swift demangle`
#
# Beside requests/s and p99 each measured run reports the server process's CPU time (user and
# system, from /proc) per request: what a request costs the server whatever else the machine is
# doing, which moves far less with the machine's load than throughput does.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
fail() { echo "bench-server: FAILED: $*" >&2; exit 1; }
note() { echo "bench-server: $*" >&2; }

[ $# -eq 1 ] || [ $# -eq 2 ] || { echo "usage: scripts/bench-server.sh PATH/TO/tandem [PATH/TO/BASELINE/tandem]" >&2; exit 2; }

databases="${BENCH_DATABASES:-sqlite postgres}"
duration="${BENCH_DURATION:-10s}"
warmup="${BENCH_WARMUP:-2s}"
connections="${BENCH_CONNECTIONS:-64}"
threads="${BENCH_THREADS:-2}"
rate_limit="${BENCH_RATE_LIMIT:-1000000}"
strict="${BENCH_STRICT:-0}"
dpop="${BENCH_DPOP:-1}"
rounds="${BENCH_ROUNDS:-$([ $# -eq 2 ] && echo 2 || echo 1)}"
tolerance="${BENCH_TOLERANCE:-5}"
write_limit="${BENCH_WRITE_LIMIT:-1}"
write_limit_seconds="${BENCH_WRITE_LIMIT_SECONDS:-3}"
proofs_tool="${BENCH_DPOP_PROOFS:-$here/../Benchmarks/.build/release/DPoPProofs}"
limit_tool="${BENCH_WRITE_LIMIT_TOOL:-$here/../Benchmarks/.build/release/RefreshWriteLimit}"
perf_dir="${BENCH_PERF_DIR:-}"
perf_frequency="${BENCH_PERF_FREQUENCY:-499}"
seconds_of() { local value="${1%s}"; [[ "$value" =~ ^[0-9]+$ ]] || fail "durations are whole seconds like 10s, not $1"; echo "$value"; }
load_seconds=$(( $(seconds_of "$duration") + $(seconds_of "$warmup") ))
refresh_tokens="${BENCH_REFRESH_TOKENS:-$(( load_seconds * 6000 ))}"
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || fail "BENCH_ROUNDS must be a whole number of rounds, not '$rounds'"
[ $# -eq 1 ] || [ "$rounds" -ge 2 ] || fail "comparing two binaries takes at least two rounds (BENCH_ROUNDS=$rounds)"
[[ "$tolerance" =~ ^[0-9]+(\.[0-9]+)?$ ]] || fail "BENCH_TOLERANCE is a percentage like 5, not '$tolerance'"
[[ "$write_limit_seconds" =~ ^[1-9][0-9]*$ ]] || fail "BENCH_WRITE_LIMIT_SECONDS is whole seconds, not '$write_limit_seconds'"
if [ -n "$perf_dir" ]; then
  command -v perf >/dev/null 2>&1 || fail "BENCH_PERF_DIR needs perf (Debian: apt-get install linux-perf)"
  mkdir -p "$perf_dir" && perf_dir="$(cd "$perf_dir" && pwd)"
fi

# PostgreSQL: rerun this script under a throwaway server unless one is already provided.
if [[ " $databases " == *" postgres "* ]] && [ -z "${TANDEM_TEST_POSTGRES_URL:-}" ] && [ -z "${TANDEM_BENCH_UNDER_POSTGRES:-}" ]; then
  export TANDEM_BENCH_UNDER_POSTGRES=1
  exec "$here/with-postgres.sh" "$0" "$@"
fi

# The binaries under test: side 0 is the current one, side 1 (if given) the baseline.
sides=(current)
[ $# -eq 1 ] || sides+=(baseline)
declare -a binary=() source_tree=()
paths=("$@")
for side in "${!sides[@]}"; do
  path="${paths[side]}"
  for _ in $(seq 1 30); do   # the binary may be rebuilt under us: give it a moment to reappear
    [ -x "$path" ] && break
    sleep 1
  done
  [ -x "$path" ] || fail "$path is not an executable tandem binary"
  binary[side]="$(cd "$(dirname "$path")" && pwd)/$(basename "$path")"
done
source_tree[0]="${BENCH_SOURCE:-$here/..}"
source_tree[1]="${BENCH_BASELINE_SOURCE:-}"

"$here/ensure-deps.sh" --bench
command -v wrk >/dev/null 2>&1 || fail "wrk is not installed (scripts/ensure-deps.sh --bench installs it)"
command -v curl >/dev/null 2>&1 || fail "curl is not installed (scripts/ensure-deps.sh --bench installs it)"
command -v python3 >/dev/null 2>&1 || fail "python3 is not installed: it prints the report (scripts/bench/server_report.py)"
if [ "$dpop" = 1 ] && [ ! -x "$proofs_tool" ]; then
  note "building the DPoP proof maker (Benchmarks' DPoPProofs)"
  swift build -c release --package-path "$here/../Benchmarks" --product DPoPProofs >&2 || fail "cannot build DPoPProofs"
  proofs_tool="$here/../Benchmarks/.build/release/DPoPProofs"
fi
if [ "$write_limit" = 1 ] && [[ " $databases " == *" sqlite "* ]] && [ ! -x "$limit_tool" ]; then
  note "building the write-limit loop (Benchmarks' RefreshWriteLimit)"
  swift build -c release --package-path "$here/../Benchmarks" --product RefreshWriteLimit >&2 || fail "cannot build RefreshWriteLimit"
  limit_tool="$here/../Benchmarks/.build/release/RefreshWriteLimit"
fi

workdir="$(mktemp -d "${TMPDIR:-/tmp}/tandem-bench.XXXXXX")"
results="$workdir/results.tsv"
: >"$results"
# shellcheck source=lib/tandem-serve.sh
source "$here/lib/tandem-serve.sh"
child_pid=""
postgres_admin_url="${TANDEM_TEST_POSTGRES_URL:-}"
declare -a created_postgres_dbs=()
declare -a side_pid=() side_base=() side_grant=() side_authorization=() side_refresh=() side_resource=() side_dpop=()

postgres_tool() {   # createdb/dropdb/psql from PATH or from PostgreSQL's bin directory
  local name="$1"
  command -v "$name" 2>/dev/null && return
  for dir in "${TANDEM_POSTGRES_BIN:-/nonexistent}" /usr/lib/postgresql/15/bin /usr/lib/postgresql/*/bin; do
    [ -x "$dir/$name" ] && { echo "$dir/$name"; return; }
  done
  return 1
}
drop_postgres_dbs() {
  local db
  for db in "${created_postgres_dbs[@]}"; do
    "$(postgres_tool psql)" -q "$postgres_admin_url" -c "DROP DATABASE IF EXISTS \"$db\" WITH (FORCE)" >/dev/null 2>&1 || true
  done
  created_postgres_dbs=()
}
stop_sides() {
  local side
  for side in "${!side_pid[@]}"; do
    server_pid="${side_pid[side]}"
    serve_stop
    side_pid[side]=""
  done
}
cleanup() {
  status=$?
  trap - EXIT INT TERM
  [ -z "$child_pid" ] || { kill -TERM "$child_pid" 2>/dev/null || true; wait "$child_pid" 2>/dev/null || true; }
  stop_sides
  drop_postgres_dbs
  rm -rf "$workdir"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM


username="bench-user"
client_id="bench-app"
resource_path="/v1/destinations/sales/Customers?limit=20"

# Runs a command in the background and waits for it, so that TERM or INT reaches the cleanup at
# once instead of after the command (bash runs traps only between foreground commands).
run_child() {
  "$@" &
  child_pid=$!
  local status=0
  wait "$child_pid" || status=$?
  child_pid=""
  return "$status"
}

# The CPU time (user and system, in clock ticks) a process has used so far.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }
clock_ticks="$(getconf CLK_TCK 2>/dev/null || echo 100)"

bench_line=""
measured_pid=""   # set around a measured run: the server whose CPU time it reports
run_wrk() {   # run_wrk LABEL DURATION SCRIPT URL [-- ARGS…]; sets bench_line to the BENCH line's fields
  local label="$1" length="$2" script="$3" url="$4" ticks=0 perf_pid=""
  shift 4
  local out="$workdir/wrk-$label.out"
  if [ -n "$measured_pid" ]; then
    ticks="$(cpu_ticks "$measured_pid")"
    if [ -n "$perf_dir" ]; then
      perf record -q -F "$perf_frequency" -g -p "$measured_pid" -o "$perf_dir/$label.perf.data" -- sleep "$(seconds_of "$length")" \
        >/dev/null 2>"$perf_dir/$label.perf.log" &
      perf_pid=$!
    fi
  fi
  if ! run_child timeout $(( $(seconds_of "$length") + 60 )) wrk -t "$threads" -c "$connections" -d "$length" --timeout 5s \
      -s "$script" "$url" "$@" >"$out" 2>&1; then
    cat "$out" >&2
    fail "wrk failed for $label"
  fi
  [ -n "$measured_pid" ] && ticks=$(( $(cpu_ticks "$measured_pid") - ticks ))
  [ -z "$perf_pid" ] || wait "$perf_pid" || note "$label: perf record failed (see $perf_dir/$label.perf.log)"
  grep -q '^BENCH ' "$out" || { cat "$out" >&2; fail "wrk printed no BENCH line for $label"; }
  if grep -q '^BENCH_FIRST_FAILURE' "$out"; then note "$label: first non-200: $(sed -n 's/^BENCH_FIRST_FAILURE //p' "$out" | head -n 1)"; fi
  bench_line="$(sed -n 's/^BENCH //p' "$out" | head -n 1)"
  [ -z "$measured_pid" ] || bench_line="$bench_line cpu_ticks=$ticks"
}
field() { tr ' ' '\n' <<<"$2" | sed -n "s/^$1=//p"; }

probe() {   # probe METHOD URL [CURL ARGS…]: prints "STATUS BODY…" of one request
  local method="$1" url="$2"
  shift 2
  local body status
  body="$workdir/probe.body"
  status="$(curl -s -o "$body" -w '%{http_code}' --max-time 10 -X "$method" "$@" "$url" || echo 000)"
  echo "$status $(head -c 8000 "$body" 2>/dev/null | tr '\n' ' ')"
}

# One line of results: database, endpoint, side, round, requests/s, p99 ms, "ok" or why the
# figure is missing ("n/a …" for what a binary cannot do, anything else is an error), and the
# server's CPU time per request in microseconds ("-" where not measured).
put() { printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "$6" "$7" "${8:--}" >>"$results"; }
cpu_per_request() {   # cpu_per_request BENCH-LINE: the server's CPU microseconds per request, or -
  local ticks requests
  ticks="$(field cpu_ticks "$1")"
  requests="$(field requests "$1")"
  if [ -n "$ticks" ] && [ "${requests:-0}" -gt 0 ]; then
    awk -v t="$ticks" -v n="$requests" -v hz="$clock_ticks" 'BEGIN { printf "%.1f", t * 1000000 / hz / n }'
  else
    echo -
  fi
}

record() {   # record DB ENDPOINT SIDE ROUND BENCH-LINE
  local db="$1" endpoint="$2" side="$3" round="$4" line="$5" bad exhausted
  bad=$(( $(field non200 "$line") + $(field socket_errors "$line") ))
  exhausted="$(field exhausted "$line")"
  if [ "$bad" -gt 0 ]; then
    put "$db" "$endpoint" "${sides[side]}" "$round" "$(field rps "$line")" "$(field p99_ms "$line")" \
      "$(field non200 "$line") non-200 responses and $(field socket_errors "$line") socket errors out of $(field requests "$line") requests${exhausted:+ ($exhausted sent after the refresh tokens ran out)}"
  else
    put "$db" "$endpoint" "${sides[side]}" "$round" "$(field rps "$line")" "$(field p99_ms "$line")" ok "$(cpu_per_request "$line")"
  fi
}
# The same state for every round: a measurement that could not run at all.
record_all_rounds() {   # record_all_rounds DB ENDPOINT SIDE STATE
  local round
  for round in $(seq 1 "$rounds"); do put "$1" "$2" "${sides[$3]}" "$round" - - "$4"; done
}

# Splits FILE (after its first SKIP lines) into ROUNDS equal shares, each into a warm-up part
# (its share of the load's seconds, at least two per connection, at most half) and a measured
# part: PREFIX-rN-warmup and PREFIX-rN-run.
split_pool() {   # split_pool FILE SKIP PREFIX
  local file="$1" skip="$2" prefix="$3" total share round first warm_count
  total=$(( $(grep -c . "$file" || true) - skip ))
  share=$(( total / rounds ))
  warm_count=$(( share * $(seconds_of "$warmup") / load_seconds ))
  [ "$warm_count" -ge $(( 2 * connections )) ] || warm_count=$(( 2 * connections ))
  [ "$warm_count" -le $(( share / 2 )) ] || warm_count=$(( share / 2 ))
  for round in $(seq 1 "$rounds"); do
    first=$(( skip + (round - 1) * share + 1 ))
    sed -n "${first},$(( first + warm_count - 1 ))p" "$file" >"$prefix-r$round-warmup"
    sed -n "$(( first + warm_count )),$(( first + share - 1 ))p" "$file" >"$prefix-r$round-run"
  done
}

# Redeems the refresh token kept for SIDE's protected GET, for a fresh access token (they live
# 5 minutes, less than a run), and keeps its successor for the next time.
renew_answer=""
renew_authorization() {   # renew_authorization SIDE; sets renew_answer to the "STATUS BODY" of the refresh
  local side="$1"
  renew_answer="$(probe POST "${side_base[side]}/oauth/token" -H 'Content-Type: application/x-www-form-urlencoded' \
    --data "grant_type=refresh_token&client_id=$client_id&refresh_token=${side_grant[side]}")"
  [ "${renew_answer%% *}" = "200" ] || return 1
  side_authorization[side]="Bearer $(sed -n 's/.*"access_token":"\([^"]*\)".*/\1/p' <<<"${renew_answer#* }")"
  side_grant[side]="$(sed -n 's/.*"refresh_token":"\([^"]*\)".*/\1/p' <<<"${renew_answer#* }")"
}

# ── Setting up one binary on one database ───────────────────────────────────────────────────────
prepare_side() {   # prepare_side DB SIDE: its database, seeded, its tokens, its server started
  local db="$1" side="$2" name="${sides[$2]}" tandem="${binary[$2]}" url
  case "$db" in
    sqlite) url="sqlite:$workdir/bench-$name.sqlite" ;;
    postgres)
      [ -n "$postgres_admin_url" ] || fail "no PostgreSQL (TANDEM_TEST_POSTGRES_URL is empty)"
      local database="tandem_bench_$$_$name"
      "$(postgres_tool psql || fail "psql not found")" -q "$postgres_admin_url" -c "CREATE DATABASE \"$database\"" >/dev/null \
        || fail "could not create database $database on $postgres_admin_url"
      created_postgres_dbs+=("$database")
      url="${postgres_admin_url%/*}/$database"
      ;;
    *) fail "unknown database '$db' in BENCH_DATABASES (sqlite, postgres)" ;;
  esac
  note "[$db/$name] seeding $url"
  # The URL goes to every command through the environment: a password in it stays out of ps.
  export TANDEM_DATABASE_URL="$url"

  local admin_log="$workdir/admin-$db-$name.log"
  TANDEM_PASSWORD="bench-password-1" "$tandem" admin create-user --username "$username" >/dev/null 2>>"$admin_log" \
    || { cat "$admin_log" >&2; fail "[$db/$name] tandem admin create-user failed"; }
  "$tandem" admin create-app --client-id "$client_id" --name "Bench" \
    --redirect-uri bench://callback --security-mode oauth >/dev/null 2>>"$admin_log" \
    || { cat "$admin_log" >&2; fail "[$db/$name] tandem admin create-app failed"; }
  # (Help texts are read whole before grep looks: grep -q stopping early would fail the pipe.)
  local help
  help="$("$tandem" admin --help 2>&1 || true)"
  if grep -q '^ *seed-demo ' <<<"$help"; then
    "$tandem" admin seed-demo >/dev/null 2>>"$admin_log" || note "[$db/$name] warning: tandem admin seed-demo failed (see $admin_log)"
  fi

  # Refresh tokens: one for the resource GET's access token, one for a probe, then each round's
  # warm-up and measured pools, in separate files so no token is offered twice.
  local tokens="$workdir/tokens-$db-$name.txt" wanted=$(( rounds * refresh_tokens + 2 )) started=$SECONDS
  local scope="data.read data.write events.write offline_access"
  note "[$db/$name] issuing $wanted refresh tokens"
  run_child "$tandem" admin issue-refresh-token --username "$username" --client-id "$client_id" \
    --scope "$scope" --count "$wanted" >"$tokens" 2>>"$admin_log" \
    || { cat "$admin_log" >&2; fail "[$db/$name] tandem admin issue-refresh-token --count failed"; }
  local have
  have="$(grep -c . "$tokens" || true)"
  [ "$have" -ge "$wanted" ] || fail "[$db/$name] asked for $wanted refresh tokens, got $have"
  note "[$db/$name] $have tokens in $(( SECONDS - started )) s"
  sed -n '1p' "$tokens" >"$workdir/token-access-$db-$name"
  sed -n '2p' "$tokens" >"$workdir/token-probe-$db-$name"
  split_pool "$tokens" 2 "$workdir/tokens-$db-$name"

  # The write limit's seed: this database as seeded, before any load (nothing has it open now).
  if [ "$db" = sqlite ]; then
    local file="$workdir/bench-$name.sqlite" suffix
    for suffix in "" -wal; do [ ! -f "$file$suffix" ] || cp "$file$suffix" "$workdir/limit-seed-$name.sqlite$suffix"; done
  fi

  # DPoP-bound grants, for a binary that can bind them.
  side_dpop[side]=0
  if [ "$dpop" = 1 ]; then
    help="$("$tandem" admin issue-refresh-token --help 2>&1 || true)"
    if grep -q -- '--dpop-jkt' <<<"$help"; then
      local jkt dpop_tokens="$workdir/dpop-tokens-$db-$name.txt"
      jkt="$("$proofs_tool" key "$workdir/dpop-key-$db-$name")" || fail "[$db/$name] DPoPProofs key failed"
      note "[$db/$name] issuing $(( rounds * refresh_tokens )) refresh tokens bound to a DPoP key"
      run_child "$tandem" admin issue-refresh-token --username "$username" --client-id "$client_id" \
        --scope "data.read offline_access" --count "$(( rounds * refresh_tokens ))" --dpop-jkt="$jkt" >"$dpop_tokens" 2>>"$admin_log" \
        || { cat "$admin_log" >&2; fail "[$db/$name] tandem admin issue-refresh-token --dpop-jkt failed"; }
      split_pool "$dpop_tokens" 0 "$workdir/dpop-tokens-$db-$name"
      side_dpop[side]=1
    else
      note "[$db/$name] this binary cannot bind grants to a DPoP key (no issue-refresh-token --dpop-jkt): its DPoP row is n/a"
      record_all_rounds "$db" refresh-dpop "$side" "n/a: this binary has no DPoP-bound grants"
    fi
  fi

  # The server.
  local server_out="$workdir/server-$db-$name.out" server_log="$workdir/server-$db-$name.log"
  serve_start "$tandem" "$server_out" "$server_log" --rate-limit-per-second "$rate_limit" --log-level warning \
    || fail "[$db/$name] tandem serve did not start"
  side_pid[side]="$server_pid"
  side_base[side]="$server_base"
  server_pid=""   # serve_start keeps one server; this script keeps one per binary
  local base="${side_base[side]}" answer
  for _ in $(seq 1 100); do
    answer="$(probe GET "$base/health")"
    [ "${answer%% *}" = "200" ] && break
    sleep 0.1
  done
  [ "${answer%% *}" = "200" ] || fail "[$db/$name] GET /health answers $answer"
  note "[$db/$name] server at $base"

  # Probes: each endpoint must answer 200 once before it is loaded; one that does not is reported
  # (e.g. 404 while it is not implemented) and skipped instead of measured.
  side_refresh[side]=1
  side_resource[side]=1
  side_authorization[side]=""
  side_grant[side]="$(cat "$workdir/token-access-$db-$name")"
  if ! renew_authorization "$side"; then
    answer="$renew_answer"
  else
    answer="$(probe POST "$base/oauth/token" -H 'Content-Type: application/x-www-form-urlencoded' \
      --data "grant_type=refresh_token&client_id=$client_id&refresh_token=$(cat "$workdir/token-probe-$db-$name")")"
    [ "${answer%% *}" = "200" ] || answer="$answer (the second probe)"
  fi
  if [ "${answer%% *}" != "200" ]; then
    side_refresh[side]=0
    record_all_rounds "$db" refresh "$side" "POST /oauth/token answered ${answer:0:120}"
    [ "${side_dpop[side]}" = 0 ] || { side_dpop[side]=0; record_all_rounds "$db" refresh-dpop "$side" "not measured: the refresh grant failed"; }
  fi
  if [ -n "${side_authorization[side]}" ]; then
    answer="$(probe GET "$base$resource_path" -H "Authorization: ${side_authorization[side]}")"
  else
    answer="000 no access token (the refresh grant failed)"
  fi
  if [ "${answer%% *}" != "200" ]; then
    side_resource[side]=0
    local why="GET $resource_path answered ${answer%% *}"
    [ "${answer%% *}" = "404" ] && why="$why (not implemented yet, or no demo data: is 'tandem admin seed-demo' there?)"
    record_all_rounds "$db" resource "$side" "$why"
  fi
}

# ── One measurement of one binary ───────────────────────────────────────────────────────────────
measure() {   # measure DB ENDPOINT SIDE ROUND
  local db="$1" endpoint="$2" side="$3" round="$4" name="${sides[$3]}"
  local base="${side_base[side]}" label="$db-$2-${sides[$3]}-r$4" line
  case "$endpoint" in
    refresh)
      [ "${side_refresh[side]}" = 1 ] || return 0
      note "[$db/$name] round $round: refresh grant, warm-up $warmup, then $duration"
      run_wrk "$label-warmup" "$warmup" "$here/bench/refresh.lua" "$base" -- "$workdir/tokens-$db-$name-r$round-warmup" "$client_id" "$threads"
      measured_pid="${side_pid[side]}"
      run_wrk "$label" "$duration" "$here/bench/refresh.lua" "$base" -- "$workdir/tokens-$db-$name-r$round-run" "$client_id" "$threads"
      measured_pid=""
      line="$bench_line"
      record "$db" refresh "$side" "$round" "$line"
      local successors
      successors="$(field successors_used "$line")"
      [ "${successors:-0}" -eq 0 ] || note "[$db/$name] note: the pre-issued tokens ran out; $successors requests redeemed successors (raise BENCH_REFRESH_TOKENS)"
      ;;
    refresh-dpop)
      [ "${side_dpop[side]}" = 1 ] || return 0
      measure_dpop_refresh "$db" "$side" "$round" "$label"
      ;;
    resource)
      [ "${side_resource[side]}" = 1 ] || return 0
      renew_authorization "$side" || fail "[$db/$name] renewing the protected GET's access token: POST /oauth/token answered ${renew_answer:0:120}"
      note "[$db/$name] round $round: protected GET, warm-up $warmup, then $duration"
      run_wrk "$label-warmup" "$warmup" "$here/bench/get.lua" "$base$resource_path" -- "${side_authorization[side]}"
      measured_pid="${side_pid[side]}"
      run_wrk "$label" "$duration" "$here/bench/get.lua" "$base$resource_path" -- "${side_authorization[side]}"
      measured_pid=""
      line="$bench_line"
      record "$db" resource "$side" "$round" "$line"
      ;;
    health)
      note "[$db/$name] round $round: GET /health, warm-up $warmup, then $duration"
      run_wrk "$label-warmup" "$warmup" "$here/bench/get.lua" "$base/health"
      measured_pid="${side_pid[side]}"
      run_wrk "$label" "$duration" "$here/bench/get.lua" "$base/health"
      measured_pid=""
      line="$bench_line"
      record "$db" health "$side" "$round" "$line"
      ;;
    write-limit)
      measure_write_limit "$db" "$side" "$round"
      ;;
  esac
}

# The refresh grant again, on grants bound to one DPoP key, each request with its own proof. The
# proofs are made now, with the server's current nonce: they are good for the server's proof
# window (300 s) only.
measure_dpop_refresh() {   # measure_dpop_refresh DB SIDE ROUND LABEL
  local db="$1" side="$2" round="$3" label="$4" name="${sides[$2]}"
  local base="${side_base[side]}" token_url nonce line count prefix="$workdir/dpop-tokens-$db-$name-r$round"
  # The proofs name the token endpoint as the server's metadata does, and carry its nonce (every
  # answer of the token endpoint sends it).
  token_url="$(curl -s --max-time 10 "$base/.well-known/oauth-authorization-server" | sed -n 's/.*"token_endpoint":"\([^"]*\)".*/\1/p' | sed 's#\\/#/#g')"
  [ -n "$token_url" ] || fail "[$db/$name] no token_endpoint in the server's metadata"
  nonce="$(curl -s --max-time 10 -D - -o /dev/null -X POST "$base/oauth/token" --data "grant_type=none" | tr -d '\r' | sed -n 's/^[Dd][Pp][Oo][Pp]-[Nn]once: *//p' | head -n 1)"
  if [ -z "$nonce" ]; then
    note "[$db/$name] the token endpoint sends no DPoP-Nonce: its DPoP row is n/a"
    put "$db" refresh-dpop "$name" "$round" - - "n/a: the token endpoint sends no DPoP-Nonce"
    return 0
  fi
  # Twice as many proofs as tokens: requests that redeem successors need proofs too.
  local part
  for part in warmup run; do
    count=$(( 2 * $(grep -c . "$prefix-$part" || true) ))
    run_child "$proofs_tool" proofs "$workdir/dpop-key-$db-$name" "$token_url" "$nonce" "$count" >"$prefix-$part-proofs" \
      || fail "[$db/$name] DPoPProofs proofs failed"
  done
  note "[$db/$name] round $round: DPoP-bound refresh grant, warm-up $warmup, then $duration"
  run_wrk "$label-warmup" "$warmup" "$here/bench/refresh.lua" "$base" -- "$prefix-warmup" "$client_id" "$threads" "$prefix-warmup-proofs"
  measured_pid="${side_pid[side]}"
  run_wrk "$label" "$duration" "$here/bench/refresh.lua" "$base" -- "$prefix-run" "$client_id" "$threads" "$prefix-run-proofs"
  measured_pid=""
  line="$bench_line"
  record "$db" refresh-dpop "$side" "$round" "$line"
}

# The rotation statement alone, on this binary's seeded database (see RefreshWriteLimit).
measure_write_limit() {   # measure_write_limit DB SIDE ROUND
  local db="$1" side="$2" round="$3" name="${sides[$2]}" commit line
  local out="$workdir/limit-$name-r$round.out"
  note "[$db/$name] round $round: the rotation statement alone, ${write_limit_seconds} s one commit each, ${write_limit_seconds} s in shared commits"
  if ! run_child "$limit_tool" "$workdir/limit-seed-$name.sqlite" "${source_tree[side]}/Server/Sources/TandemServer" \
      "$client_id" "$write_limit_seconds" >"$out" 2>"$out.err"; then
    cat "$out.err" >&2
    for commit in each shared64; do put "$db" "write-limit-$commit" "$name" "$round" - - "RefreshWriteLimit failed: $(tail -n 1 "$out.err")"; done
    return 0
  fi
  for commit in each shared64; do
    line="$(sed -n "s/^WRITE_LIMIT commit=$commit //p" "$out")"
    [ -n "$line" ] || fail "RefreshWriteLimit printed no $commit line"
    put "$db" "write-limit-$commit" "$name" "$round" "$(field rps "$line")" - ok
  done
}

# ── The run ─────────────────────────────────────────────────────────────────────────────────────
endpoints=(refresh)
[ "$dpop" = 1 ] && endpoints+=(refresh-dpop)
endpoints+=(resource health)
for db in $databases; do
  for side in "${!sides[@]}"; do prepare_side "$db" "$side"; done
  db_endpoints=("${endpoints[@]}")
  if [ "$db" = sqlite ] && [ "$write_limit" = 1 ]; then
    db_endpoints+=(write-limit)
    for side in "${!sides[@]}"; do
      [ -n "${source_tree[side]}" ] || record_all_rounds "$db" write-limit-each "$side" "n/a: no source tree given (BENCH_BASELINE_SOURCE)"
      [ -n "${source_tree[side]}" ] || record_all_rounds "$db" write-limit-shared64 "$side" "n/a: no source tree given (BENCH_BASELINE_SOURCE)"
    done
  fi
  for round in $(seq 1 "$rounds"); do
    for endpoint in "${db_endpoints[@]}"; do
      for side in "${!sides[@]}"; do
        [ "$endpoint" != write-limit ] || [ -n "${source_tree[side]}" ] || continue
        measure "$db" "$endpoint" "$side" "$round"
      done
    done
  done
  for side in "${!sides[@]}"; do
    kill -0 "${side_pid[side]}" 2>/dev/null || { tail -n 40 "$workdir/server-$db-${sides[side]}.log" >&2; fail "[$db/${sides[side]}] the server died under load"; }
    if grep -Eq ' (error|critical) ' "$workdir/server-$db-${sides[side]}.log"; then
      note "[$db/${sides[side]}] the server logged errors:"
      grep -E ' (error|critical) ' "$workdir/server-$db-${sides[side]}.log" | tail -n 5 >&2
    fi
  done
  stop_sides
  drop_postgres_dbs
done

# ── Report ──────────────────────────────────────────────────────────────────────────────────────
report=(python3 "$here/bench/server_report.py" "$results" --databases "$databases" --rounds "$rounds"
  --tolerance "$tolerance" --connections "$connections" --threads "$threads" --duration "$duration" --warmup "$warmup"
  --strict "$strict" --binary "current=${binary[0]}")
[ "${#sides[@]}" -eq 1 ] || report+=(--binary "baseline=${binary[1]}")
"${report[@]}"
