#!/usr/bin/env bash
# Measures the server with wrk on loopback, on SQLite and on PostgreSQL: refresh-grant throughput
# and p99, a JWT-protected resource GET, and GET /health as the ceiling.
#
#   scripts/bench-server.sh Server/.build/release/tandem
#
# For each database it seeds a user and an app, pre-issues refresh tokens, starts
# `tandem serve` (log level warning, rate limiter raised out of the way), warms up, then runs wrk
# (64 connections, 2 threads, 10 s) against:
#   refresh   POST /oauth/token grant_type=refresh_token, every request with its own token
#   refresh, DPoP-bound   the same with grants bound to a DPoP key (RFC 9449), every request
#             with its own proof (made beforehand by Benchmarks' DPoPProofs, the SDK's proof code,
#             with the server's nonce): what binding costs, reported beside the bearer figure
#   resource  GET /v1/destinations/sales/Customers?limit=20 with a Bearer access token
#   health    GET /health
# It prints one table with requests/s and p99 per endpoint and database, the resource/health
# ratio, and the goals: ≥ 4,000 refresh grants/s on SQLite with p99 < 25 ms; the protected GET at
# ≥ 50% of /health. Any non-200 response is an error: the script says which and exits 1.
# A missed goal is reported as FAIL; with BENCH_STRICT=1 it also makes the exit status 3.
#
# PostgreSQL comes from scripts/with-postgres.sh (a throwaway server, installed with apt-get if
# missing); if TANDEM_TEST_POSTGRES_URL is already set, a fresh database is created on that
# server instead and dropped afterwards. Servers and databases are removed on every exit path.
#
# Environment (defaults in brackets):
#   BENCH_DATABASES [sqlite postgres]   BENCH_DURATION [10s]   BENCH_WARMUP [2s]
#   BENCH_CONNECTIONS [64]   BENCH_THREADS [2]   BENCH_RATE_LIMIT [1000000]
#   BENCH_REFRESH_TOKENS [tokens pre-issued per database: 6,000 per second of load; past them
#     the load redeems the successors the server returns, and the script says so]
#   BENCH_STRICT [0]   BENCH_DPOP [1: also measure DPoP-bound refreshes]
#   BENCH_DPOP_PROOFS [Benchmarks/.build/release/DPoPProofs, built if missing]
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
fail() { echo "bench-server: FAILED: $*" >&2; exit 1; }
note() { echo "bench-server: $*" >&2; }

[ $# -eq 1 ] || { echo "usage: scripts/bench-server.sh PATH/TO/tandem" >&2; exit 2; }

databases="${BENCH_DATABASES:-sqlite postgres}"
duration="${BENCH_DURATION:-10s}"
warmup="${BENCH_WARMUP:-2s}"
connections="${BENCH_CONNECTIONS:-64}"
threads="${BENCH_THREADS:-2}"
rate_limit="${BENCH_RATE_LIMIT:-1000000}"
strict="${BENCH_STRICT:-0}"
dpop="${BENCH_DPOP:-1}"
proofs_tool="${BENCH_DPOP_PROOFS:-$here/../Benchmarks/.build/release/DPoPProofs}"
seconds_of() { local value="${1%s}"; [[ "$value" =~ ^[0-9]+$ ]] || fail "durations are whole seconds like 10s, not $1"; echo "$value"; }
load_seconds=$(( $(seconds_of "$duration") + $(seconds_of "$warmup") ))
refresh_tokens="${BENCH_REFRESH_TOKENS:-$(( load_seconds * 6000 ))}"

# PostgreSQL: rerun this script under a throwaway server unless one is already provided.
if [[ " $databases " == *" postgres "* ]] && [ -z "${TANDEM_TEST_POSTGRES_URL:-}" ] && [ -z "${TANDEM_BENCH_UNDER_POSTGRES:-}" ]; then
  export TANDEM_BENCH_UNDER_POSTGRES=1
  exec "$here/with-postgres.sh" "$0" "$@"
fi

for _ in $(seq 1 30); do   # the binary may be rebuilt under us: give it a moment to reappear
  [ -x "$1" ] && break
  sleep 1
done
[ -x "$1" ] || fail "$1 is not an executable tandem binary"
tandem="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"

"$here/ensure-deps.sh" --bench
if [ "$dpop" = 1 ] && [ ! -x "$proofs_tool" ]; then
  note "building the DPoP proof maker (Benchmarks' DPoPProofs)"
  swift build -c release --package-path "$here/../Benchmarks" --product DPoPProofs >&2 || fail "cannot build DPoPProofs"
  proofs_tool="$here/../Benchmarks/.build/release/DPoPProofs"
fi
command -v wrk >/dev/null 2>&1 || fail "wrk is not installed"
command -v curl >/dev/null 2>&1 || fail "curl is not installed"

workdir="$(mktemp -d "${TMPDIR:-/tmp}/tandem-bench.XXXXXX")"
# shellcheck source=lib/tandem-serve.sh
source "$here/lib/tandem-serve.sh"
child_pid=""
created_postgres_db=""
postgres_admin_url=""

postgres_tool() {   # createdb/dropdb/psql from PATH or from PostgreSQL's bin directory
  local name="$1"
  command -v "$name" 2>/dev/null && return
  for dir in "${TANDEM_POSTGRES_BIN:-/nonexistent}" /usr/lib/postgresql/15/bin /usr/lib/postgresql/*/bin; do
    [ -x "$dir/$name" ] && { echo "$dir/$name"; return; }
  done
  return 1
}
cleanup() {
  status=$?
  trap - EXIT INT TERM
  [ -z "$child_pid" ] || { kill -TERM "$child_pid" 2>/dev/null || true; wait "$child_pid" 2>/dev/null || true; }
  serve_stop
  if [ -n "$created_postgres_db" ]; then
    "$(postgres_tool psql)" -q "$postgres_admin_url" -c "DROP DATABASE IF EXISTS \"$created_postgres_db\" WITH (FORCE)" >/dev/null 2>&1 || true
  fi
  rm -rf "$workdir"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM


username="bench-user"
client_id="bench-app"
resource_path="/v1/destinations/sales/Customers?limit=20"

# ── Per database ────────────────────────────────────────────────────────────────────────────────
# Results: results[DB:ENDPOINT]="rps p99 status", status being ok or a reason it was not measured.
declare -A results=()
errors=()

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

bench_line=""
run_wrk() {   # run_wrk LABEL DURATION SCRIPT URL [-- ARGS…]; sets bench_line to the BENCH line's fields
  local label="$1" length="$2" script="$3" url="$4"
  shift 4
  local out="$workdir/wrk-$label.out"
  if ! run_child timeout $(( $(seconds_of "$length") + 60 )) wrk -t "$threads" -c "$connections" -d "$length" --timeout 5s \
      -s "$script" "$url" "$@" >"$out" 2>&1; then
    cat "$out" >&2
    fail "wrk failed for $label"
  fi
  grep -q '^BENCH ' "$out" || { cat "$out" >&2; fail "wrk printed no BENCH line for $label"; }
  if grep -q '^BENCH_FIRST_FAILURE' "$out"; then note "$label: first non-200: $(sed -n 's/^BENCH_FIRST_FAILURE //p' "$out" | head -n 1)"; fi
  bench_line="$(sed -n 's/^BENCH //p' "$out" | head -n 1)"
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

bench_database() {
  local db="$1" url
  case "$db" in
    sqlite) url="sqlite:$workdir/bench.sqlite" ;;
    postgres)
      [ -n "${TANDEM_TEST_POSTGRES_URL:-}" ] || fail "no PostgreSQL (TANDEM_TEST_POSTGRES_URL is empty)"
      postgres_admin_url="$TANDEM_TEST_POSTGRES_URL"
      created_postgres_db="tandem_bench_$$"
      "$(postgres_tool psql || fail "psql not found")" -q "$postgres_admin_url" -c "CREATE DATABASE \"$created_postgres_db\"" >/dev/null \
        || fail "could not create database $created_postgres_db on $postgres_admin_url"
      url="${postgres_admin_url%/*}/$created_postgres_db"
      ;;
    *) fail "unknown database '$db' in BENCH_DATABASES (sqlite, postgres)" ;;
  esac
  note "[$db] seeding $url"
  # The URL goes to every command through the environment: a password in it stays out of ps.
  export TANDEM_DATABASE_URL="$url"

  local admin_log="$workdir/admin-$db.log"
  TANDEM_PASSWORD="bench-password-1" "$tandem" admin create-user --username "$username" >/dev/null 2>>"$admin_log" \
    || { cat "$admin_log" >&2; fail "[$db] tandem admin create-user failed"; }
  "$tandem" admin create-app --client-id "$client_id" --name "Bench" \
    --redirect-uri bench://callback --security-mode oauth >/dev/null 2>>"$admin_log" \
    || { cat "$admin_log" >&2; fail "[$db] tandem admin create-app failed"; }
  if "$tandem" admin --help 2>&1 | grep -q '^ *seed-demo '; then
    "$tandem" admin seed-demo >/dev/null 2>>"$admin_log" || note "[$db] warning: tandem admin seed-demo failed (see $admin_log)"
  fi

  # Refresh tokens: one for the resource GET's access token, one for a probe, a warm-up pool and
  # the measured pool, in separate files so no token is offered twice.
  local tokens="$workdir/tokens-$db.txt" wanted=$(( refresh_tokens + 2 )) started=$SECONDS
  local scope="data.read data.write events.write offline_access"
  note "[$db] issuing $wanted refresh tokens"
  run_child "$tandem" admin issue-refresh-token --username "$username" --client-id "$client_id" \
    --scope "$scope" --count "$wanted" >"$tokens" 2>>"$admin_log" \
    || { cat "$admin_log" >&2; fail "[$db] tandem admin issue-refresh-token --count failed"; }
  local have
  have="$(grep -c . "$tokens" || true)"
  [ "$have" -ge "$wanted" ] || fail "[$db] asked for $wanted refresh tokens, got $have"
  note "[$db] $have tokens in $(( SECONDS - started )) s"
  local pool=$(( have - 2 ))
  # The warm-up's share, but at least two per connection (fewer would run dry at once) and at
  # most half of the pool.
  local warm_count=$(( pool * $(seconds_of "$warmup") / load_seconds ))
  [ "$warm_count" -ge $(( 2 * connections )) ] || warm_count=$(( 2 * connections ))
  [ "$warm_count" -le $(( pool / 2 )) ] || warm_count=$(( pool / 2 ))
  sed -n '1p' "$tokens" >"$workdir/token-access-$db"
  sed -n '2p' "$tokens" >"$workdir/token-probe-$db"
  sed -n "3,$(( 2 + warm_count ))p" "$tokens" >"$workdir/tokens-warmup-$db"
  sed -n "$(( 3 + warm_count )),\$p" "$tokens" >"$workdir/tokens-run-$db"

  # The server.
  local server_out="$workdir/server-$db.out" server_log="$workdir/server-$db.log"
  serve_start "$tandem" "$server_out" "$server_log" --rate-limit-per-second "$rate_limit" --log-level warning \
    || fail "[$db] tandem serve did not start"
  local base="$server_base" answer
  for _ in $(seq 1 100); do
    answer="$(probe GET "$base/health")"
    [ "${answer%% *}" = "200" ] && break
    sleep 0.1
  done
  [ "${answer%% *}" = "200" ] || fail "[$db] GET /health answers $answer"
  note "[$db] server at $base"

  # Probes: each endpoint must answer 200 once before it is loaded; one that does not is reported
  # (e.g. 404 while it is not implemented) and skipped instead of measured.
  local refresh_ok=1 resource_ok=1 authorization=""
  answer="$(probe POST "$base/oauth/token" -H 'Content-Type: application/x-www-form-urlencoded' \
    --data "grant_type=refresh_token&client_id=$client_id&refresh_token=$(cat "$workdir/token-access-$db")")"
  if [ "${answer%% *}" = "200" ]; then
    authorization="Bearer $(sed -n 's/.*"access_token":"\([^"]*\)".*/\1/p' <<<"${answer#* }")"
  else
    refresh_ok=0
    results["$db:refresh"]="- - POST /oauth/token answered ${answer:0:120}"
    errors+=("[$db] refresh grant: POST /oauth/token answered ${answer%% *}")
  fi
  if [ "$refresh_ok" -eq 1 ]; then
    answer="$(probe POST "$base/oauth/token" -H 'Content-Type: application/x-www-form-urlencoded' \
      --data "grant_type=refresh_token&client_id=$client_id&refresh_token=$(cat "$workdir/token-probe-$db")")"
    [ "${answer%% *}" = "200" ] || { refresh_ok=0; results["$db:refresh"]="- - second probe answered ${answer:0:120}"; errors+=("[$db] refresh grant probe answered ${answer%% *}"); }
  fi
  if [ -n "$authorization" ]; then
    answer="$(probe GET "$base$resource_path" -H "Authorization: $authorization")"
  else
    answer="000 no access token (the refresh grant failed)"
  fi
  if [ "${answer%% *}" != "200" ]; then
    resource_ok=0
    local why="GET $resource_path answered ${answer%% *}"
    [ "${answer%% *}" = "404" ] && why="$why (not implemented yet, or no demo data: is 'tandem admin seed-demo' there?)"
    results["$db:resource"]="- - $why"
    errors+=("[$db] resource GET: $why")
  fi

  # Load: warm-up, then the measured run.
  local line
  if [ "$refresh_ok" -eq 1 ]; then
    note "[$db] refresh grant: warm-up $warmup, then $duration"
    run_wrk "$db-refresh-warmup" "$warmup" "$here/bench/refresh.lua" "$base" -- "$workdir/tokens-warmup-$db" "$client_id" "$threads"; line="$bench_line"
    run_wrk "$db-refresh" "$duration" "$here/bench/refresh.lua" "$base" -- "$workdir/tokens-run-$db" "$client_id" "$threads"; line="$bench_line"
    record "$db" refresh "$line"
    local successors
    successors="$(field successors_used "$line")"
    [ "${successors:-0}" -eq 0 ] || note "[$db] note: the pre-issued tokens ran out; $successors requests redeemed successors (raise BENCH_REFRESH_TOKENS)"
  fi
  if [ "$refresh_ok" -eq 1 ] && [ "$dpop" = 1 ]; then bench_dpop_refresh "$db" "$base"; fi
  if [ "$resource_ok" -eq 1 ]; then
    note "[$db] protected GET: warm-up $warmup, then $duration"
    run_wrk "$db-resource-warmup" "$warmup" "$here/bench/get.lua" "$base$resource_path" -- "$authorization"; line="$bench_line"
    run_wrk "$db-resource" "$duration" "$here/bench/get.lua" "$base$resource_path" -- "$authorization"; line="$bench_line"
    record "$db" resource "$line"
  fi
  note "[$db] GET /health: warm-up $warmup, then $duration"
  run_wrk "$db-health-warmup" "$warmup" "$here/bench/get.lua" "$base/health"; line="$bench_line"
  run_wrk "$db-health" "$duration" "$here/bench/get.lua" "$base/health"; line="$bench_line"
  record "$db" health "$line"

  kill -0 "$server_pid" 2>/dev/null || { tail -n 40 "$server_log" >&2; fail "[$db] the server died under load"; }
  if grep -Eq ' (error|critical) ' "$server_log"; then
    note "[$db] the server logged errors:"
    grep -E ' (error|critical) ' "$server_log" | tail -n 5 >&2
  fi
  serve_stop
  if [ "$db" = postgres ]; then
    "$(postgres_tool psql)" -q "$postgres_admin_url" -c "DROP DATABASE IF EXISTS \"$created_postgres_db\" WITH (FORCE)" >/dev/null 2>&1 || true
    created_postgres_db=""
  fi
}

# The refresh grant again, on grants bound to one DPoP key, each request with its own proof.
bench_dpop_refresh() {   # bench_dpop_refresh DB BASE
  local db="$1" base="$2"
  local key="$workdir/dpop-key-$db" jkt token_url nonce line
  jkt="$("$proofs_tool" key "$key")" || fail "[$db] DPoPProofs key failed"
  local tokens="$workdir/dpop-tokens-$db.txt" wanted="$refresh_tokens" admin_log="$workdir/admin-$db.log"
  note "[$db] issuing $wanted refresh tokens bound to a DPoP key"
  run_child "$tandem" admin issue-refresh-token --username "$username" --client-id "$client_id" \
    --scope "data.read offline_access" --count "$wanted" --dpop-jkt="$jkt" >"$tokens" 2>>"$admin_log" \
    || { cat "$admin_log" >&2; fail "[$db] tandem admin issue-refresh-token --dpop-jkt failed"; }
  local warm_count=$(( wanted * $(seconds_of "$warmup") / load_seconds ))
  [ "$warm_count" -ge $(( 2 * connections )) ] || warm_count=$(( 2 * connections ))
  [ "$warm_count" -le $(( wanted / 2 )) ] || warm_count=$(( wanted / 2 ))
  sed -n "1,${warm_count}p" "$tokens" >"$workdir/dpop-tokens-warmup-$db"
  sed -n "$(( warm_count + 1 )),\$p" "$tokens" >"$workdir/dpop-tokens-run-$db"
  # The proofs name the token endpoint as the server's metadata does, and carry its nonce (every
  # answer of the token endpoint sends it).
  token_url="$(curl -s --max-time 10 "$base/.well-known/oauth-authorization-server" | sed -n 's/.*"token_endpoint":"\([^"]*\)".*/\1/p' | sed 's#\\/#/#g')"
  [ -n "$token_url" ] || fail "[$db] no token_endpoint in the server's metadata"
  nonce="$(curl -s --max-time 10 -D - -o /dev/null -X POST "$base/oauth/token" --data "grant_type=none" | tr -d '\r' | sed -n 's/^[Dd][Pp][Oo][Pp]-[Nn]once: *//p' | head -n 1)"
  [ -n "$nonce" ] || fail "[$db] the token endpoint sent no DPoP-Nonce"
  # Twice as many proofs as tokens: requests that redeem successors need proofs too.
  note "[$db] making $(( 2 * wanted )) DPoP proofs"
  run_child "$proofs_tool" proofs "$key" "$token_url" "$nonce" "$(( 2 * wanted ))" >"$workdir/dpop-proofs-$db" \
    || fail "[$db] DPoPProofs proofs failed"
  sed -n "1,$(( 2 * warm_count ))p" "$workdir/dpop-proofs-$db" >"$workdir/dpop-proofs-warmup-$db"
  sed -n "$(( 2 * warm_count + 1 )),\$p" "$workdir/dpop-proofs-$db" >"$workdir/dpop-proofs-run-$db"
  note "[$db] DPoP-bound refresh grant: warm-up $warmup, then $duration"
  run_wrk "$db-dpop-warmup" "$warmup" "$here/bench/refresh.lua" "$base" -- \
    "$workdir/dpop-tokens-warmup-$db" "$client_id" "$threads" "$workdir/dpop-proofs-warmup-$db"
  run_wrk "$db-dpop" "$duration" "$here/bench/refresh.lua" "$base" -- \
    "$workdir/dpop-tokens-run-$db" "$client_id" "$threads" "$workdir/dpop-proofs-run-$db"; line="$bench_line"
  record "$db" refresh-dpop "$line"
}

record() {   # record DB ENDPOINT BENCH-LINE
  local db="$1" endpoint="$2" line="$3" rps p99 bad
  rps="$(field rps "$line")"
  p99="$(field p99_ms "$line")"
  bad=$(( $(field non200 "$line") + $(field socket_errors "$line") ))
  local exhausted
  exhausted="$(field exhausted "$line")"
  if [ "$bad" -gt 0 ]; then
    results["$db:$endpoint"]="$rps $p99 $(field non200 "$line") non-200 responses, $(field socket_errors "$line") socket errors"
    errors+=("[$db] $endpoint: $(field non200 "$line") non-200 responses and $(field socket_errors "$line") socket errors out of $(field requests "$line") requests${exhausted:+ ($exhausted sent after the refresh tokens ran out)}")
  else
    results["$db:$endpoint"]="$rps $p99 ok"
  fi
}

for db in $databases; do
  bench_database "$db"
done

# ── Report ──────────────────────────────────────────────────────────────────────────────────────
misses=0
verdict() {   # verdict CONDITION-TEXT PASSED(0/1): sets goal
  if [ "$2" -eq 1 ]; then goal="PASS ($1)"; else misses=$(( misses + 1 )); goal="FAIL ($1)"; fi
}
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 >= b + 0) }'; }
lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 < b + 0) }'; }

echo
echo "Tandem server on loopback: wrk, $connections connections, $threads threads, $duration per run after a $warmup warm-up"
echo "binary: $tandem"
printf '%-10s %-44s %12s %10s  %s\n' database endpoint "requests/s" "p99 ms" "goal"
printf '%-10s %-44s %12s %10s  %s\n' -------- -------- ---------- ------ ----
for db in $databases; do
  for endpoint in refresh refresh-dpop resource health; do
    [ "$endpoint" != refresh-dpop ] || [ "$dpop" = 1 ] || continue
    read -r rps p99 state <<<"${results[$db:$endpoint]:-- - not measured}"
    goal=""
    case "$endpoint" in
      refresh)
        label="POST /oauth/token refresh"
        if [ "$db" = sqlite ] && [ "$state" = ok ]; then
          passed=0; ge "$rps" 4000 && lt "$p99" 25 && passed=1
          verdict "≥ 4000/s and p99 < 25 ms" "$passed"
        fi ;;
      refresh-dpop)
        label="POST /oauth/token refresh, DPoP-bound"
        bearer_rps="$(awk '{print $1}' <<<"${results[$db:refresh]:-- }")"
        if [ "$state" = ok ] && [ "$bearer_rps" != "-" ]; then
          goal="$(awk -v a="$rps" -v b="$bearer_rps" 'BEGIN { printf "%.0f%% of the bearer refresh (reported, no goal)", (b > 0 ? 100 * a / b : 0) }')"
        fi ;;
      resource)
        label="GET $resource_path"
        health_rps="$(awk '{print $1}' <<<"${results[$db:health]:-- }")"
        if [ "$state" = ok ] && [ "$health_rps" != "-" ]; then
          ratio="$(awk -v a="$rps" -v b="$health_rps" 'BEGIN { printf "%.0f", (b > 0 ? 100 * a / b : 0) }')"
          passed=0; [ "$ratio" -ge 50 ] && passed=1
          verdict "$ratio% of /health, goal ≥ 50%" "$passed"
        fi ;;
      health) label="GET /health (ceiling)" ;;
    esac
    [ "$state" = ok ] || goal="ERROR: $state"
    [ "$rps" = "-" ] || rps="$(printf '%.0f' "$rps")"
    [ "$p99" = "-" ] || p99="$(printf '%.2f' "$p99")"
    printf '%-10s %-44s %12s %10s  %s\n' "$db" "$label" "$rps" "$p99" "$goal"
  done
done
echo

if [ ${#errors[@]} -gt 0 ]; then
  for error in "${errors[@]}"; do echo "bench-server: ERROR: $error" >&2; done
  fail "${#errors[@]} measurement(s) failed or could not run (above)"
fi
if [ "$misses" -gt 0 ]; then
  note "$misses goal(s) missed"
  [ "$strict" != 1 ] || exit 3
else
  note "all goals met"
fi
