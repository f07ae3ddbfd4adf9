#!/usr/bin/env bash
# `make demo`: the whole story of an app and its widget, for a person watching. A real server,
# a host app and widget processes that share only one folder, in eleven stages:
#
#   1 the server starts on SQLite with the seeded demo app (and the local APNs stand-in, which plays
#     Apple's push service: Linux cannot reach Apple's)
#   2 a widget shows "signed out"
#   3 the host onboards through its flow, then keeps running (`tandem host run`)
#   4 the widget is configured from the server's listing, asks for rows, the host's background flow fulfils
#   5 time moves on: the rows age past their lifetime, the widget shows stale, the background flow runs, fresh again
#   6 a direct-mode widget refreshes its own grant; eight processes race a refresh and exactly one reaches the server
#   7 a tap on the widget is routed by the host and appears in the server's analytics summary
#   8 the server's data changes: it pushes the widget (WidgetKit push update) through the APNs
#     stand-in, only because a placed widget shows that set and fetches for itself (so the host gets
#     no background push), and the widget shows the new rows within 2 s, the host not asked
#   9 the session is revoked at the server: the widget says "open the app", the host's restore
#     flow signs in again, the widget is fresh again
#  10 a tap on the widget's Approve button: the host executes it with its own grant, the server's
#     item changes, the widget shows it done; a high-value item needs the app, where the host
#     executes it with a step-up proof
#  11 the customer's own backend, per user: a Django REST Framework ERP (in a virtualenv from PyPI)
#     that trusts Tandem's tokens; ada's and bob's phones show each one's own approvals through the
#     same widget, ada approves one and the ERP records it under her name with the ETag she saw,
#     bob's widget never shows her rows, and carol, whom the ERP refuses, sees "not allowed"
#
# Each stage shows a progress line while it runs (on a terminal), then what happened and how long
# it took; the run ends with a table. Every stage checks what it printed, so the story is also a
# test (Server/Tests/TandemCLITests/Story/DemoStoryTests.swift runs this script). Exit status 0,
# or 1 naming the stage that failed.
#
# Usage: scripts/demo-story.sh PATH-TO-TANDEM PATH-TO-TANDEM-WIDGET
#   TANDEM_DEMO_SUMMARY=FILE   also write one JSON line per stage to FILE
#   TANDEM_DEMO_KEEP=1         keep the temporary directory (its path is printed)
#   TANDEM_DEMO_TIMING_GOALS=0 print a missed timing goal (the push stage's 2 s, the action's 300 ms)
#                              instead of failing on it: make test runs the story beside other
#                              suites, and speed goals are make bench's to check (the stage still
#                              fails past 10 s)
#   TANDEM_DEMO_FAST_PASSWORD_HASHING=1
#                              seed and serve with --fast-password-hashing (the test does: a debug
#                              build's scrypt at the real cost takes seconds of CPU per password)
set -euo pipefail

tandem_bin=${1:?usage: demo-story.sh PATH-TO-TANDEM PATH-TO-TANDEM-WIDGET}
widget_bin=${2:?usage: demo-story.sh PATH-TO-TANDEM PATH-TO-TANDEM-WIDGET}
for binary in "$tandem_bin" "$widget_bin"; do
  [ -x "$binary" ] || { echo "demo: $binary is not an executable; build it with: cd Server && swift build --product tandem && swift build --product tandem-widget" >&2; exit 1; }
done
"$(dirname "$0")/ensure-deps.sh" --demo

dir=$(mktemp -d "${TMPDIR:-/tmp}/tandem-story.XXXXXX")
app="$dir/app"
# shellcheck source=lib/tandem-serve.sh
source "$(dirname "$0")/lib/tandem-serve.sh"

readonly passcode="Story-passcode-42"  # meets the demo app's policy: six characters or more, a digit
readonly lifetime=5                     # seconds the host's fetched rows stay fresh (15 min in an app)
readonly stage_count=11
readonly bundle_id=com.example.tandem-demo  # the demo app's bundle id: its pushes' topic
readonly apns_key_id=DEMOKEY001 apns_team_id=DEMOTEAM01
printf 'demo-password\n' >"$dir/password" && chmod 600 "$dir/password"

# ---------------------------------------------------------------------------------------------
# Stages: a title, a function, a progress line while it runs, its output and duration after.

names=()
results=()
seconds=()
current=0
failure=""
host_pid=""
apns_pid=""
follow_pid=""
erp_pid=""     # the customer's ERP (stage 11)
erp_base=""
spinner_pid=""
kiosk_key=""  # the back office's API key (stage 8 makes it a writer of sales, stage 10 reads with it)
stage_start=""
interactive=0
[ -t 1 ] && interactive=1
if [ "$interactive" -eq 1 ]; then
  bold=$'\033[1m' dim=$'\033[2m' red=$'\033[31m' green=$'\033[32m' cyan=$'\033[36m' plain=$'\033[0m'
else
  bold="" dim="" red="" green="" cyan="" plain=""
fi

now_ms() { date +%s%3N; }
# note TEXT: what the running stage is doing now, shown on its progress line.
note() { printf '%s' "$*" >"$dir/note"; }
fail() { failure="$*"; return 1; }

spin() {
  local title=$1 start=$2 frames=(⠋ ⠙ ⠹ ⠸ ⠼ ⠴ ⠦ ⠧ ⠇ ⠏) i=0 elapsed line width
  width=$(tput cols 2>/dev/null || echo 100)
  while :; do
    elapsed=$(( $(now_ms) - start ))
    line=$(printf '%d/%d %s — %s  %d.%d s' "$current" "$stage_count" "$title" "$(cat "$dir/note" 2>/dev/null)" \
      $((elapsed / 1000)) $((elapsed % 1000 / 100)))
    # One line, never wrapped: a wrapped line could not be redrawn in place.
    printf '\r\033[K  %s%s%s %s' "$cyan" "${frames[i % 10]}" "$plain" "${line:0:width-5}"
    i=$((i + 1))
    sleep 0.1
  done
}

stop_spinner() {
  [ -n "$spinner_pid" ] || return 0
  kill "$spinner_pid" 2>/dev/null || true
  wait "$spinner_pid" 2>/dev/null || true
  spinner_pid=""
  printf '\r\033[K'
}

# stage TITLE FUNCTION: runs FUNCTION with its output in a file, then prints it indented. A
# failing command ends the script (errexit), and `finish` reports the stage as failed.
stage() {
  local title=$1 function=$2
  current=$((current + 1))
  names+=("$title")
  note "starting"
  stage_start=$(now_ms)
  if [ "$interactive" -eq 1 ]; then
    spin "$title" "$stage_start" &
    spinner_pid=$!
  else
    printf '\n▸ %d/%d %s …\n' "$current" "$stage_count" "$title"
  fi
  "$function" >"$dir/stage.out" 2>&1
  end_stage ok
}

# end_stage RESULT: records the running stage's result and duration and prints its output.
end_stage() {
  local took=$(( $(now_ms) - stage_start ))
  stop_spinner
  results+=("$1")
  seconds+=("$(printf '%d.%02d' $((took / 1000)) $((took % 1000 / 10)))")
  stage_start=""
  if [ "$1" = ok ]; then
    printf '%s✓%s %s%d/%d %s%s %s(%s s)%s\n' "$green" "$plain" "$bold" "$current" "$stage_count" "${names[-1]}" "$plain" "$dim" "${seconds[-1]}" "$plain"
    sed 's/^/    /' "$dir/stage.out"
  else
    printf '%s✗ %d/%d %s%s %s(%s s)%s\n' "$red" "$current" "$stage_count" "${names[-1]}" "$plain" "$dim" "${seconds[-1]}" "$plain"
    sed 's/^/    /' "$dir/stage.out" | tail -n 40
  fi
}

summary() {
  local i result
  printf '\n  %s%-3s %-66s %-8s %8s%s\n' "$bold" "" "stage" "result" "seconds" "$plain"
  for i in $(seq 0 $((stage_count - 1))); do
    result=${results[i]:-"not run"}
    printf '  %-3s %-66s %-8s %8s\n' "$((i + 1))" "${names[i]:-${titles[i]}}" "$result" "${seconds[i]:-}"
    if [ -n "${TANDEM_DEMO_SUMMARY:-}" ]; then
      jq -cn --argjson stage $((i + 1)) --arg name "${names[i]:-${titles[i]}}" --arg result "$result" --arg seconds "${seconds[i]:-}" \
        '{stage: $stage, name: $name, result: $result, seconds: (if $seconds == "" then null else ($seconds | tonumber) end)}' \
        >>"$TANDEM_DEMO_SUMMARY"
    fi
  done
}

finish() {
  local status=$?
  exec 1>&3 2>&4  # a stage that failed may have left its output redirected
  [ -z "${stage_start:-}" ] || end_stage FAILED
  if [ -n "$host_pid" ] && kill -0 "$host_pid" 2>/dev/null; then
    kill -TERM "$host_pid" 2>/dev/null || true
    wait "$host_pid" 2>/dev/null || true
  fi
  [ -z "$follow_pid" ] || { kill "$follow_pid" 2>/dev/null || true; wait "$follow_pid" 2>/dev/null || true; }
  [ -z "$erp_pid" ] || { kill -TERM "$erp_pid" 2>/dev/null || true; wait "$erp_pid" 2>/dev/null || true; }
  serve_stop
  [ -z "$apns_pid" ] || { kill -TERM "$apns_pid" 2>/dev/null || true; wait "$apns_pid" 2>/dev/null || true; }
  summary
  if [ "$status" -eq 0 ]; then
    printf '  %-3s %-66s %-8s %8s\n' "" "total" "" "$(total_seconds)"
    printf '\n%sThe story ran through: %d stages in %s s.%s\n' "$green" "$stage_count" "$(total_seconds)" "$plain"
  else
    printf '\n%sThe demo failed at stage %d, "%s": %s%s\n' "$red" "$current" "${names[-1]:-setup}" "${failure:-a command failed (exit status $status)}" "$plain" >&2
  fi
  if [ "${TANDEM_DEMO_KEEP:-0}" = 1 ]; then echo "kept: $dir"; else rm -rf "$dir"; fi
  exit "$status"
}
exec 3>&1 4>&2
trap finish EXIT
trap 'failure="interrupted"; exit 130' INT
trap 'failure="terminated"; exit 143' TERM

total_seconds() { printf '%s\n' "${seconds[@]}" | awk '{ total += $1 } END { printf "%.1f", total }'; }

# ---------------------------------------------------------------------------------------------
# What the stages share.

# say COMMAND…: prints the command as a person would type it (without --dir), runs it with
# --dir, prints what it printed; its standard output lands in $out.
say() {
  local program=$1 shown=$1 subcommand=$2
  shift 2
  case "$program" in tandem) program=$tandem_bin ;; tandem-widget) program=$widget_bin ;; esac
  printf '$ %s %s %s\n' "$shown" "$subcommand" "$*"
  if [ "$shown" = tandem ]; then
    out=$("$program" "$subcommand" "${@:1:1}" --dir "$app" "${@:2}" 2>"$dir/stderr") || fail "$shown $subcommand $1 failed: $(tail -n 3 "$dir/stderr")"
  else
    out=$("$program" "$subcommand" --dir "$app" "$@" 2>"$dir/stderr") || fail "$shown $subcommand failed: $(tail -n 3 "$dir/stderr")"
  fi
  printf '%s\n' "$out" | cut -c1-200 | sed 's/^/  /'
}
# expect JQ-FILTER VALUE: the last JSON answer ($out) has VALUE there.
expect() {
  local got
  got=$(jq -r "$1" <<<"$out" 2>/dev/null) || fail "the answer is not JSON: $out"
  [ "$got" = "$2" ] || fail "$1 is '$got', expected '$2'"
}
# The state the widget's box shows: the label in brackets on its title line.
badge() { sed -n '2s/.*\[\(.*\)\] *│$/\1/p' <<<"$out"; }
# look_at INSTANCE EXPECTED…: the widget process draws INSTANCE's timeline; its badge must be one
# of EXPECTED.
look_at() {
  local instance=$1 shown state
  shift
  say tandem-widget timeline --instance "$instance"
  shown=$(badge)
  for state in "$@"; do [ "$shown" = "$state" ] && return 0; done
  fail "the widget shows '$shown', expected $*"
}
# look EXPECTED…: the same for the orders widget.
look() { look_at orders "$@"; }
# What a host run's line is shown as: its trigger, result, fulfilled requests and executed actions.
run_summary='{run, trigger, result, outcomes: [.outcomes[].result]} + if .actions then {actions: [.actions[] | {item, outcome}]} else {} end'
# runs_done: how many background runs the running host has reported.
runs_done() { grep -c '"run":' "$dir/host.out" || true; }
# await_run AFTER: waits (60 s at most: a debug build beside every other suite of make test has
# taken more than 10 s) until the host reports a run after the AFTERth, and prints it.
await_run() {
  local after=$1 deadline=$(( $(now_ms) + 60000 ))
  note "waiting for the host's background flow"
  while [ "$(runs_done)" -le "$after" ]; do
    [ "$(now_ms)" -lt "$deadline" ] || fail "the host ran no background flow within 60 s: $(tail -n 3 "$dir/host.err")"
    kill -0 "$host_pid" 2>/dev/null || fail "tandem host run exited: $(tail -n 3 "$dir/host.err")"
    sleep 0.05
  done
  out=$(grep '"run":' "$dir/host.out" | tail -n 1)
  printf '  host run: %s\n' "$(jq -c "$run_summary" <<<"$out")"
}
# await_start PID NAME CHECK…: waits (60 s at most: the ERP migrates its database and starts gunicorn first, which beside every other suite of make test can take longer than 15 s) until the command CHECK… succeeds, while the
# background process PID (NAME, its stderr in $dir/NAME.err) is still running.
await_start() {
  local pid=$1 name=$2 deadline=$(( $(now_ms) + 60000 ))
  shift 2
  until "$@"; do
    kill -0 "$pid" 2>/dev/null || fail "$name exited: $(tail -n 3 "$dir/$name.err")"
    [ "$(now_ms)" -lt "$deadline" ] || fail "$name did not start within 60 s"
    sleep 0.05
  done
}

# tick SECONDS TEXT: waits, counting down on the progress line.
tick() {
  local left
  for left in $(seq "$1" -1 1); do note "$2: ${left} s"; sleep 1; done
}
token_requests() {
  curl -fsS -H "Authorization: Bearer $TANDEM_METRICS_TOKEN" "$server_base/metrics" | awk '/^hb_requests(_total)?\{/ && /http_request_method="POST"/ && /http_route="\/oauth\/token"/ { total += $NF } END { print total + 0 }'
}

# ---------------------------------------------------------------------------------------------
# The ten stages.

titles=(
  "The server starts on SQLite with the seeded demo app"
  "A widget shows \"signed out\""
  "The host onboards through its flow and keeps running"
  "The widget is configured; the background flow fulfils its request"
  "Time moves on: stale, the background flow runs, fresh again"
  "Direct mode: the widget's own grant; eight processes, one refresh"
  "A tap is routed by the host and counted by the server"
  "The data changes; a push brings the new rows to the widget"
  "The session is revoked; restore signs in again; fresh again"
  "Approve from the widget: the host executes, the item changes"
  "Your backend, per user: two phones, each user's own approvals"
)

server_starts() {
  local hashing=()
  [ "${TANDEM_DEMO_FAST_PASSWORD_HASHING:-0}" = 1 ] && hashing=(--fast-password-hashing)
  note "seeding the demo database"
  printf '$ tandem admin seed-demo --database sqlite:server.sqlite\n'
  "$tandem_bin" admin seed-demo --database "sqlite:$dir/server.sqlite" "${hashing[@]}" 2>"$dir/stderr" | sed 's/^/  /' || fail "seed-demo failed: $(tail -n 3 "$dir/stderr")"
  note "starting the APNs stand-in"
  # The app's APNs auth key, as Apple hands one out (a .p8 file: a P-256 key in PKCS #8).
  openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$dir/AuthKey.p8" 2>"$dir/stderr" || fail "openssl made no key"
  printf '$ tandem apns-standin --devices apns --ca-certificate apns-ca.pem --bundle-id %s --provider-key %s:%s:AuthKey.p8\n' \
    "$bundle_id" "$apns_key_id" "$apns_team_id"
  "$tandem_bin" apns-standin --port 0 --devices "$dir/apns" --ca-certificate "$dir/apns-ca.pem" --bundle-id "$bundle_id" \
    --provider-key "$apns_key_id:$apns_team_id:$dir/AuthKey.p8" >"$dir/apns.out" 2>"$dir/apns.err" &
  apns_pid=$!
  await_start "$apns_pid" apns grep -q '"apns":"listening"' "$dir/apns.out"
  apns_port=$(jq -r 'select(.apns == "listening") | .port' "$dir/apns.out")
  printf '  %s   (it stands in for Apple'"'"'s push service, which Linux cannot reach)\n' "$(head -n 1 "$dir/apns.out")"
  printf '$ tandem admin set-apns-key --client-id tandem-demo --key-id %s --team-id %s --bundle-id %s --key-file AuthKey.p8\n' \
    "$apns_key_id" "$apns_team_id" "$bundle_id"
  "$tandem_bin" admin set-apns-key --database "sqlite:$dir/server.sqlite" --client-id tandem-demo --key-id "$apns_key_id" \
    --team-id "$apns_team_id" --bundle-id "$bundle_id" --key-file "$dir/AuthKey.p8" 2>"$dir/stderr" | sed 's/^/  /' \
    || fail "set-apns-key failed: $(tail -n 3 "$dir/stderr")"
  note "starting tandem serve"
  # The token /metrics asks for (the story counts the server's token requests there).
  TANDEM_METRICS_TOKEN=$(head -c 30 /dev/urandom | base64 | tr '+/' '-_')
  export TANDEM_METRICS_TOKEN
  serve_start "$tandem_bin" "$dir/server.out" "$dir/server.log" --database "sqlite:$dir/server.sqlite" --log-level warning "${hashing[@]}" \
    --apns-url "https://localhost:$apns_port" --apns-trust-roots "$dir/apns-ca.pem" --backend-allow-loopback \
    || fail "tandem serve did not start"
  printf '$ tandem serve --database sqlite:server.sqlite --apns-url https://localhost:%s --apns-trust-roots apns-ca.pem --backend-allow-loopback\n  listening on %s   (--backend-allow-loopback: stage 11'"'"'s ERP is on this machine; in production a backend is HTTPS)\n' \
    "$apns_port" "$server_base"
  out=$(curl -fsS "$server_base/v1/apps/tandem-demo/configuration") || fail "the demo app's configuration is not served"
  expect .client_id tandem-demo
  printf '  the app: %s\n' "$(jq -c '{name, security_mode, url_scheme, passcode_policy: {minimum_length: .passcode_policy.minimum_length, classes: .passcode_policy.required_character_classes}}' <<<"$out")"
}

widget_signed_out() {
  note "the widget draws its timeline"
  # Before the app was ever opened there is no saved configuration: the scheme comes from the
  # extension's Info.plist on a phone, from --scheme here.
  say tandem-widget timeline --destination sales --entity-set SalesOrders --scheme tandem-demo
  [ "$(badge)" = "Signed out" ] || fail "the widget shows '$(badge)', expected Signed out"
}

host_onboards() {
  note "onboarding: configuration, vault, sign-in, extension access, settings"
  printf '$ tandem host onboard --server %s --username demo   (password and passcode from the environment)\n' "$server_base"
  out=$(TANDEM_PASSWORD=demo-password TANDEM_PASSCODE=$passcode TANDEM_LOG_LEVEL=info \
    "$tandem_bin" host onboard --dir "$app" --server "$server_base" --username demo --fast-kdf 2>"$dir/stderr") \
    || fail "host onboard failed: $(tail -n 3 "$dir/stderr")"
  grep '^flow: ' "$dir/stderr" | sed 's/^flow: /  /'
  printf '  %s\n' "$out"
  expect .state ready
  expect .extension_grant true
  printf '  shared with the widgets: %s\n' "$(cd "$app/shared" && find . -type f | sed 's|^\./||' | sort | tr '\n' ' ')"
  note "starting the long-running host"
  printf '$ tandem host run --snapshot-lifetime %s --apns-devices apns   (restore with the passcode, register for pushes, then the background flow on each widget request and each push)\n' "$lifetime"
  TANDEM_PASSCODE=$passcode "$tandem_bin" host run --dir "$app" --interval 3600 --snapshot-lifetime "$lifetime" --apns-devices "$dir/apns" \
    >"$dir/host.out" 2>"$dir/host.err" &
  host_pid=$!
  await_start "$host_pid" host grep -q '"host":"running"' "$dir/host.out"
  printf '  %s\n' "$(head -n 1 "$dir/host.out")"
}

widget_fulfilled() {
  note "the widget's configuration, from the host's listing"
  say tandem widget configure --instance orders
  expect '[.options[] | select(.destination == "sales" and .entitySet == "SalesOrders")] | length' 1
  say tandem widget configure --instance orders --destination sales --entity-set SalesOrders --limit 4
  local before
  before=$(runs_done)
  note "the widget asks for rows"
  look Unavailable
  await_run "$before"
  expect '.outcomes[0].result' fulfilled
  look Fresh
}

time_moves_on() {
  local before
  tick "$((lifetime + 1))" "the rows age past their ${lifetime} s lifetime"
  note "the widget looks again"
  before=$(runs_done)
  look Stale
  await_run "$before"
  expect '.outcomes[0].result' fulfilled
  look Fresh
}

direct_and_race() {
  local before after pids=() role index=0 refreshed tokens
  note "direct mode: the widget refreshes its own grant"
  before=$(token_requests)
  say tandem widget refresh
  expect .result ok
  after=$(token_requests)
  printf '  token requests at the server: %d → %d\n' "$before" "$after"
  [ "$after" -eq $((before + 1)) ] || fail "the widget's refresh did not reach the server exactly once"
  # The rows it fetches (when the host's are stale by now) stay fresh as long as the host's do.
  say tandem widget timeline --instance orders --mode direct --freshness "$lifetime"
  [ "$(badge)" = Fresh ] || fail "the direct-mode widget shows '$(badge)', expected Fresh"

  note "eight processes race one refresh"
  before=$(token_requests)
  # They meet at a barrier once each has read the token it holds, so that however slowly the
  # machine starts them, none joins after another has already refreshed.
  mkdir -p "$dir/barrier"
  printf '$ tandem host race & 7 × tandem widget race   (all start together, at a barrier)\n'
  for role in host widget widget widget widget widget widget widget; do
    "$tandem_bin" "$role" race --dir "$app" --rounds 1 --barrier-dir "$dir/barrier" --participants 8 >"$dir/race-$index.out" 2>>"$dir/race.err" &
    pids+=($!)
    index=$((index + 1))
  done
  for pid in "${pids[@]}"; do wait "$pid" || fail "a race process failed: $(tail -n 3 "$dir/race.err")"; done
  after=$(token_requests)
  refreshed=$(cat "$dir"/race-*.out | jq -s '[.[] | select(.refreshed)] | length')
  tokens=$(cat "$dir"/race-*.out | jq -rs '[.[].token] | unique | length')
  printf '  %d of 8 processes redeemed the refresh token; all 8 hold the same new token (%d distinct)\n' "$refreshed" "$tokens"
  printf '  token requests at the server: %d → %d\n' "$before" "$after"
  if [ "$refreshed" != 1 ] || [ "$tokens" != 1 ]; then fail "the race was not single-flight"; fi
  [ "$after" -eq $((before + 1)) ] || fail "$((after - before)) token requests reached the server, expected exactly 1"
}

tap_counted() {
  local url before now
  note "the person taps a row"
  say tandem widget tap --instance orders --target SO500001
  url=$out
  case "$url" in tandem-demo://*) ;; *) fail "the tap gave no tandem-demo:// link: $url" ;; esac
  out=$("$tandem_bin" host analytics-summary --dir "$app" 2>"$dir/stderr") || fail "analytics-summary failed: $(tail -n 3 "$dir/stderr")"
  before=$(jq .total <<<"$out")
  note "the host routes the link"
  say tandem host open-url "$url"
  expect .result routed
  expect .sent 1
  note "the server's analytics summary"
  say tandem host analytics-summary
  now=$(jq .total <<<"$out")
  [ "$now" -eq $((before + 1)) ] || fail "the server counted $now widget taps, expected $((before + 1))"
  expect '[.groups[] | select(.kind == "business-data" and .family == "systemMedium")][0].count' "$now"
}

# follower_reloads: how many timelines the following widget has printed.
follower_reloads() { grep -c '"reload":' "$dir/follow.out" || true; }

push_brings_rows() {
  local before elapsed started deadline status version host_pushes
  note "the widget extension gets its push token"
  printf '$ tandem widget timeline --instance orders --mode direct --freshness %s --revalidate 0 --follow-pushes apns &   (WidgetKit, with a push handler)\n' "$lifetime"
  "$tandem_bin" widget timeline --dir "$app" --instance orders --mode direct --freshness "$lifetime" --revalidate 0 --follow-pushes "$dir/apns" \
    >"$dir/follow.out" 2>"$dir/follow.err" &
  follow_pid=$!
  before=$(runs_done)
  await_start "$follow_pid" follow grep -q '"reload":1' "$dir/follow.out"
  printf '  push token %s…, sealed in the shared container for the host\n' "$(jq -r 'select(.widget == "following") | .push_token[0:12]' "$dir/follow.out")"
  printf '  the widget shows %s\n' "$(jq -c 'select(.reload == 1) | [.entries[0].rows[].key]' "$dir/follow.out")"
  note "the host registers the widgets' token with the server"
  await_run "$before"
  expect .trigger push-token

  note "a back office replaces the orders"
  printf '$ tandem admin set-writer --client-id tandem-demo-kiosk --destination sales\n'
  "$tandem_bin" admin set-writer --database "sqlite:$dir/server.sqlite" --client-id tandem-demo-kiosk --destination sales 2>"$dir/stderr" \
    | sed 's/^/  /' || fail "set-writer failed: $(tail -n 3 "$dir/stderr")"
  kiosk_key=$("$tandem_bin" admin create-api-key --database "sqlite:$dir/server.sqlite" --client-id tandem-demo-kiosk 2>"$dir/stderr") \
    || fail "create-api-key failed: $(tail -n 3 "$dir/stderr")"
  jq -n '{title: "Sales (demo)", rows: [range(1; 5) | {SalesOrderID: "SO60000\(.)", CustomerName: "Pushed Customer \(.)", Status: "New",
          GrossAmount: "\(. * 100).00", Currency: "EUR"}]}' >"$dir/orders.json"
  # A write is conditional: the back office does not know the set's version, so its first PUT is
  # refused (428, nothing written) with the version in ETag, and it sends the write again with
  # If-Match, knowingly replacing that version.
  printf '$ curl -X PUT -H "X-API-Key: tdk_…" -d @orders.json %s/v1/destinations/sales/SalesOrders\n' "$server_base"
  status=$(curl -sS -o "$dir/put.json" -D "$dir/put.headers" -w '%{http_code}' -X PUT -H "X-API-Key: $kiosk_key" \
    -H "Content-Type: application/json" --data-binary @"$dir/orders.json" "$server_base/v1/destinations/sales/SalesOrders") \
    || fail "the write did not reach the server"
  [ "$status" = 428 ] || fail "a write without If-Match answered $status, expected 428: $(cat "$dir/put.json")"
  version=$(tr -d '\r' <"$dir/put.headers" | sed -n 's/^etag: *//Ip')
  [ -n "$version" ] || fail "the 428 named no version (ETag)"
  printf '  428 %s: the set exists, at version %s…\n' "$(jq -r .error "$dir/put.json")" "${version:1:12}"
  before=$(follower_reloads)
  host_pushes=$(grep -c '"trigger":"push"' "$dir/host.out" || true)
  printf '$ curl -X PUT -H "X-API-Key: tdk_…" -H '"'"'If-Match: "%s…"'"'"' -d @orders.json %s/v1/destinations/sales/SalesOrders\n' \
    "${version:1:12}" "$server_base"
  started=$(now_ms)
  out=$(curl -fsS -X PUT -H "X-API-Key: $kiosk_key" -H "If-Match: $version" -H "Content-Type: application/json" \
    --data-binary @"$dir/orders.json" "$server_base/v1/destinations/sales/SalesOrders") || fail "the write was refused"
  printf '  %s\n' "$(jq -c '{row_count, changed}' <<<"$out")"
  expect .changed true
  deadline=$(( started + 60000 ))
  until [ "$(follower_reloads)" -gt "$before" ] && \
        [ "$(tail -n 1 "$dir/follow.out" | jq -r '.entries[0].rows[0].key')" = SO600001 ]; do
    [ "$(now_ms)" -lt "$deadline" ] || fail "the widget did not show the new rows within 60 s: $(tail -n 1 "$dir/follow.out")"
    sleep 0.02
  done
  elapsed=$(( $(now_ms) - started ))
  out=$(tail -n 1 "$dir/follow.out")
  printf '  the widget shows %s   (reload %s, trigger %s)\n' "$(jq -c '[.entries[0].rows[].key]' <<<"$out")" "$(jq .reload <<<"$out")" "$(jq -r .trigger <<<"$out")"
  printf '  the push'"'"'s path: the write'"'"'s transaction owes a push per token (outbox) → the server sends it to the APNs stand-in\n'
  printf '    (HTTP/2, TLS, provider token ES256) → the stand-in checks it as Apple does and drops it in the device'"'"'s inbox\n'
  printf '    → WidgetKit (here the follower) reloads the timeline → direct mode fetches with the widget'"'"'s own grant\n'
  printf '  data change to new rows on the widget: %d ms (goal: under 2000 ms)\n' "$elapsed"
  if [ "$elapsed" -ge 2000 ]; then
    [ "${TANDEM_DEMO_TIMING_GOALS:-1}" = 0 ] || fail "the widget took $elapsed ms to show the new rows (goal: under 2000 ms)"
    printf '  goal missed on this machine now; make bench measures it\n'
  fi
  # The phone's registration said its widget fetches for itself: the change owed it a WidgetKit
  # push and no background push: the host is not woken.
  [ "$(grep -c '"trigger":"push"' "$dir/host.out" || true)" = "$host_pushes" ] \
    || fail "the host was woken by a background push, though its widget fetches for itself"
  printf '  the host was not woken: the registration says the widget fetches for itself, so the server owed the phone\n'
  printf '    one WidgetKit push and no background push (pushes go only where a placed widget shows what changed)\n'
  kill "$follow_pid" 2>/dev/null || true
  wait "$follow_pid" 2>/dev/null || true
  follow_pid=""
}

session_revoked() {
  local token before
  note "the session is revoked at the server"
  token=$(TANDEM_PASSCODE=$passcode "$tandem_bin" vault get --dir "$app" oauth.tokens 2>"$dir/stderr" | jq -r .refreshToken) \
    || fail "cannot read the session to revoke: $(tail -n 3 "$dir/stderr")"
  printf '$ curl -d token=… -d client_id=tandem-demo %s/oauth/revoke   (as signing out on another device does)\n' "$server_base"
  curl -fsS -o /dev/null -d "token=$token" -d client_id=tandem-demo "$server_base/oauth/revoke" || fail "the revocation failed"
  printf '  revoked: the whole family ends, the widgets'"'"' grant with it\n'
  tick "$((lifetime + 1))" "the rows age past their lifetime"
  note "the widget looks again"
  before=$(runs_done)
  look Stale "Open app"
  await_run "$before"
  look "Open app"
  note "the person opens the app: the restore flow"
  printf '$ tandem host unlock --username demo --password-file password   (passcode from the environment)\n'
  out=$(TANDEM_PASSCODE=$passcode TANDEM_LOG_LEVEL=info "$tandem_bin" host unlock --dir "$app" --username demo --password-file "$dir/password" \
    2>"$dir/stderr") || fail "host unlock failed: $(tail -n 3 "$dir/stderr")"
  grep '^flow: ' "$dir/stderr" | sed 's/^flow: /  /'
  printf '  %s\n' "$out"
  expect .signed_in_again true
  before=$(runs_done)
  note "the widget looks again"
  look Stale Unavailable Fresh
  # Fresh already when the running host fulfilled the request the widget left while signed out
  # as soon as the session was back: on a busy machine its run can come before this look.
  if [ "$(badge)" != Fresh ]; then
    await_run "$before"
    expect '.outcomes[0].result' fulfilled
    look Fresh
  fi
}

# approval ITEM: the approval ITEM as the back office reads it from the server (with its key).
approval() {
  printf '$ curl -H "X-API-Key: tdk_…" %s/v1/destinations/sales/Approvals   (the back office reads %s)\n' "$server_base" "$1"
  out=$(curl -fsS -H "X-API-Key: $kiosk_key" "$server_base/v1/destinations/sales/Approvals?limit=50" \
    | jq -c --arg item "$1" '.items[] | select(.ApprovalID == $item) | {ApprovalID, Amount, Status, ETag}') \
    || fail "the back office cannot read the approvals"
  [ -n "$out" ] || fail "the server has no approval $1"
  printf '  %s\n' "$out"
}
# act ITEM: the widget process taps ITEM's Approve button and waits (10 s at most) for the host's
# result; prints the row as the widget shows it after the tap and after the result. $out is the
# second.
act() {
  local item=$1 lines
  note "the person taps Approve on $item"
  printf '$ tandem-widget act --instance approvals --row %s --action approve --wait 10\n' "$item"
  lines=$("$widget_bin" act --dir "$app" --instance approvals --row "$item" --action approve --wait 10 2>"$dir/stderr") \
    || fail "tandem-widget act on $item failed: $(tail -n 3 "$dir/stderr")"
  jq -c '{widget, state, "label": .label} + if .seconds then {ms: (.seconds * 1000 | floor)} else {} end' <<<"$lines" | sed 's/^/  /'
  out=$(head -n 1 <<<"$lines")
  expect .state pending
  out=$(tail -n 1 <<<"$lines")
  expect .widget reloaded
}
# await_action ITEM: waits (60 s at most, for a busy machine) for the host's run that acted on
# ITEM, and prints it.
await_action() {
  local deadline=$(( $(now_ms) + 60000 ))
  note "waiting for the host's run line"
  until grep '"actions":' "$dir/host.out" | grep -q "\"item\":\"$1\""; do
    [ "$(now_ms)" -lt "$deadline" ] || fail "the host reported no run that acted on $1 within 60 s: $(tail -n 3 "$dir/host.err")"
    sleep 0.05
  done
  printf '  host run: %s\n' "$(grep '"actions":' "$dir/host.out" | grep "\"item\":\"$1\"" | tail -n 1 | jq -c "$run_summary")"
}

approve_from_widget() {
  local before shown_etag ms
  note "an approvals widget"
  say tandem widget configure --instance approvals --destination sales --entity-set Approvals --limit 4
  before=$(runs_done)
  note "the widget asks for rows"
  look_at approvals Unavailable
  await_run "$before"
  look_at approvals Fresh Stale
  grep -q 'PR-1001 .*\[Approve\] \[Reject\]' <<<"$out" || fail "the widget offers no [Approve] [Reject] on PR-1001"
  approval PR-1001
  expect .Status pending
  shown_etag=$(jq -r .ETag <<<"$out")

  act PR-1001
  expect .state "done"
  ms=$(jq '.seconds * 1000 | floor' <<<"$out")
  await_action PR-1001
  printf '  the tap'"'"'s path: the widget seals a request in the shared container (the item, the ETag it showed, an\n'
  printf '    idempotency key, a nonce, an expiry) → the host wakes on it, opens it with the paired key and POSTs with its own\n'
  printf '    grant (If-Match, Idempotency-Key; the widgets'"'"' read-only grant may not act) → the server commits the decision\n'
  printf '    → the host seals the result back → the widget reloads\n'
  printf '  tap to result on the widget: %d ms (goal: under 300 ms)\n' "$ms"
  if [ "$ms" -ge 300 ]; then
    [ "${TANDEM_DEMO_TIMING_GOALS:-1}" = 0 ] || fail "the result took $ms ms to reach the widget (goal: under 300 ms)"
    printf '  goal missed on this machine now; make bench measures it\n'
  fi
  approval PR-1001
  expect .Status approved
  [ "$(jq -r .ETag <<<"$out")" != "$shown_etag" ] || fail "the approved item kept its ETag $shown_etag"
  printf '  a new ETag: a tap on the old one would get 412 and show the item changed\n'

  note "a high-value item"
  act PR-1002
  expect .state "needs app"
  expect .label "Open the app to approve"
  await_action PR-1002
  printf '  above the approvals'"'"' threshold (1000.00, a rule of the set) the host in the background may not approve: the app must, the user present\n'
  note "the person opens the app"
  printf '$ tandem host unlock --username demo --password-file password   (the passcode: the user is present)\n'
  out=$(TANDEM_PASSCODE=$passcode TANDEM_LOG_LEVEL=info "$tandem_bin" host unlock --dir "$app" --username demo --password-file "$dir/password" \
    2>"$dir/stderr") || fail "host unlock failed: $(tail -n 3 "$dir/stderr")"
  grep '^flow: restore widget actions' "$dir/stderr" | sed 's/^flow: /  /'
  printf '  %s\n' "$out"
  grep -q '^flow: restore widget actions: 1 of 1 action done' "$dir/stderr" \
    || fail "the app did not execute the waiting approval: $(grep '^flow: restore widget actions' "$dir/stderr" || tail -n 3 "$dir/stderr")"
  printf '  executed with a step-up proof: signed for this very request by the key the app enrolled with this sign-in\n'
  look_at approvals Fresh Stale
  out=$("$widget_bin" timeline --dir "$app" --instance approvals --json 2>"$dir/stderr") || fail "tandem-widget timeline failed: $(tail -n 3 "$dir/stderr")"
  expect '[.entries[0].rows[] | select(.item == "PR-1001" or .item == "PR-1002") | .action_state] | join(",")' "done,done"
  approval PR-1002
  expect .Status approved
}

# ---------------------------------------------------------------------------------------------
# Stage 11: the customer's own backend, per user. Its people and their approvals; the ERP knows
# ada and bob as approvers, carol as someone who may not see approvals.
readonly erp_audience=https://erp.example.test/api
erp_data() {
  jq -n '
    def approval($id; $approver; $title; $amount; $currency):
      {id: $id, approver: $approver, requester: "carol", title: $title, amount: $amount, currency: $currency,
       status: "pending", createdAt: "2026-12-07T08:00:00Z"};
    {users: [{username: "ada", approver: true}, {username: "bob", approver: true}, {username: "carol", approver: false}],
     approvals: [approval("A-1001"; "ada"; "Laptop"; "1299.00"; "EUR"), approval("A-1002"; "ada"; "Monitor"; "349.90"; "CHF"),
                 approval("A-1003"; "ada"; "Train ticket"; "120.00"; "EUR"), approval("B-2001"; "bob"; "Team offsite"; "4805.00"; "EUR"),
                 approval("B-2002"; "bob"; "Conference pass"; "690.00"; "EUR")],
     orders: []}'
}
# The ERP's approvals as a REST destination: DRF's LimitOffsetPagination page, each item's ETag in
# its "etag" member, decided by POSTs that only the demo app may make.
erp_destination() {
  jq -n --arg base "$1" --arg audience "$erp_audience" '
    {name: "erp", title: "ERP approvals", protocolKind: "rest", baseURL: $base,
     authentication: {mode: "user-token", audience: $audience},
     entitySets: [{name: "Approvals", path: "approvals/", query: [{name: "limit", value: "20"}],
       mapping: {protocolKind: "rest", items: "/results", id: {pointer: "/id"}, title: {pointer: "/title"},
                 subtitle: {pointer: "/requester"}, amount: {pointer: "/amount", type: "string"}, currency: {pointer: "/currency"},
                 status: {pointer: "/status"}, date: {pointer: "/createdAt", type: "iso8601"},
                 paging: {kind: "nextURL", pointer: "/next"}, itemETag: "/etag"},
       actions: {apps: ["tandem-demo"], approve: {method: "POST", path: "approvals/{id}/approve/"},
                 reject: {method: "POST", path: "approvals/{id}/reject/"}, stepUpAbove: "1000.00"}}]}'
}
# phone_of USER: the phone of USER (its own app folder: host, vault, shared container). The
# helpers below run `say` there: `say` reads $app, which these make local.
phone_of() { printf '%s/phone-%s' "$dir" "$1"; }
# onboard_phone USER: USER signs in on their own phone (the host's onboarding flow).
onboard_phone() {
  local app
  app=$(phone_of "$1")
  note "$1 signs in on their phone"
  printf '$ tandem host onboard --dir phone-%s --server %s --username %s\n' "$1" "$server_base" "$1"
  out=$(TANDEM_PASSWORD=demo-password TANDEM_PASSCODE=$passcode "$tandem_bin" host onboard --dir "$app" --server "$server_base" \
    --username "$1" --fast-kdf 2>"$dir/stderr") || fail "host onboard of $1 failed: $(tail -n 3 "$dir/stderr")"
  expect .state ready
}
# erp_widget USER: USER's approvals widget asks for rows, the host's background flow fulfils, the
# widget shows them; $out is the widget's timeline as JSON.
erp_widget() {
  local app
  app=$(phone_of "$1")
  note "$1's widget"
  printf '  — %s'"'"'s phone —\n' "$1"
  say tandem widget configure --instance approvals --destination erp --entity-set Approvals --limit 4
  say tandem-widget timeline --instance approvals
  [ "$(badge)" = Unavailable ] || fail "$1's new widget shows '$(badge)', expected Unavailable"
  say tandem host fulfil
  expect '.outcomes[0].result' fulfilled
  say tandem-widget timeline --instance approvals
  out=$("$widget_bin" timeline --dir "$app" --instance approvals --json 2>"$dir/stderr") || fail "tandem-widget timeline failed: $(tail -n 3 "$dir/stderr")"
}
# shown_items: the items of the widget's first entry ($out, a timeline as JSON), sorted, on one line.
shown_items() { jq -r '[.entries[0].rows[]?.item // empty] | sort | join(" ")' <<<"$out"; }

per_user_backend() {
  local venv helper issuer jwks_uri ada_rows bob_rows stored
  note "the customer's backend: a Django REST Framework service"
  # shellcheck source=lib/python-venv.sh
  source "$(dirname "$0")/lib/python-venv.sh"
  venv_ensure pytest-venv "$(dirname "$0")/../Server/Tests/requirements.txt" >"$dir/venv.log" 2>&1 \
    || fail "no Python virtualenv for the ERP service: $(tail -n 3 "$dir/venv.log")"
  helper="$(cd "$(dirname "$0")/.." && pwd)/Server/Tests/PythonSupport/drf_backend.py"
  out=$(curl -fsS "$server_base/.well-known/oauth-authorization-server") || fail "no discovery document"
  issuer=$(jq -r .issuer <<<"$out") jwks_uri=$(jq -r .jwks_uri <<<"$out")
  erp_data >"$dir/erp-data.json"
  printf '$ gunicorn erp_site.wsgi   (the customer'"'"'s ERP: Django REST Framework; simplejwt trusts tokens of %s, checked with %s)\n' \
    "$issuer" "$jwks_uri"
  "$venv/bin/python" "$helper" serve "$dir/erp" --jwks-url "$jwks_uri" --issuer "$issuer" --audience "$erp_audience" \
    --data "$dir/erp-data.json" >"$dir/erp.out" 2>"$dir/erp.err" &
  erp_pid=$!
  await_start "$erp_pid" erp grep -q '"backend": "listening"' "$dir/erp.out"
  erp_base=$(jq -r .base "$dir/erp.out")
  printf '  listening on %s: ada and bob approve (3 and 2 approvals), carol may not see approvals\n' "$erp_base"

  note "the ERP as a destination of Tandem"
  erp_destination "$erp_base" >"$dir/erp.json"
  printf '$ tandem admin destination set --file erp.json   (REST, the user'"'"'s identity as a token for %s; Approve and Reject as POSTs)\n' "$erp_audience"
  "$tandem_bin" admin destination set --database "sqlite:$dir/server.sqlite" --file "$dir/erp.json" 2>"$dir/stderr" | sed 's/^/  /' \
    || fail "destination set failed: $(tail -n 3 "$dir/stderr")"
  local hashing=() user
  [ "${TANDEM_DEMO_FAST_PASSWORD_HASHING:-0}" = 1 ] && hashing=(--fast-password-hashing)
  for user in ada bob carol; do
    TANDEM_PASSWORD=demo-password "$tandem_bin" admin create-user --database "sqlite:$dir/server.sqlite" --username "$user" "${hashing[@]}" \
      >/dev/null 2>"$dir/stderr" || fail "create-user $user failed: $(tail -n 3 "$dir/stderr")"
  done
  printf '$ tandem admin create-user --username ada|bob|carol\n'

  onboard_phone ada
  onboard_phone bob
  erp_widget ada
  ada_rows=$(shown_items)
  erp_widget bob
  bob_rows=$(shown_items)
  printf '  ada'"'"'s widget: %s; bob'"'"'s widget: %s (the same widget, the same server, each one'"'"'s own rows)\n' "$ada_rows" "$bob_rows"
  [ "$ada_rows" = "A-1001 A-1002 A-1003" ] || fail "ada's widget shows '$ada_rows', expected A-1001 A-1002 A-1003"
  [ "$bob_rows" = "B-2001 B-2002" ] || fail "bob's widget shows '$bob_rows', expected B-2001 B-2002"

  note "ada taps Approve on A-1002"
  local app
  app=$(phone_of ada)
  printf '  — ada'"'"'s phone —\n'
  printf '$ tandem-widget act --instance approvals --row A-1002 --action approve\n'
  out=$("$widget_bin" act --dir "$app" --instance approvals --row A-1002 --action approve 2>"$dir/stderr") \
    || fail "tandem-widget act failed: $(tail -n 3 "$dir/stderr")"
  printf '  %s\n' "$(jq -c '{widget, state, "label": .label}' <<<"$out")"
  expect .state pending
  say tandem host fulfil
  expect '[.actions[]? | select(.item == "A-1002") | .outcome] | join(",")' "done"
  printf '$ drf_backend.py approval erp A-1002   (the ERP'"'"'s own record)\n'
  stored=$("$venv/bin/python" "$helper" approval "$dir/erp" A-1002 2>"$dir/stderr") || fail "the ERP has no A-1002: $(tail -n 3 "$dir/stderr")"
  out=$stored
  printf '  %s\n' "$(jq -c '{id, status, decided_by, decided_via, last_if_match}' <<<"$out")"
  expect .status approved
  expect .decided_by ada
  [ "$(jq -r .last_if_match <<<"$out")" != null ] || fail "the ERP's decision came without If-Match"
  printf '  decided at the ERP under ada'"'"'s name, with the ETag her widget showed (If-Match): Tandem minted her token for the ERP;\n'
  printf '  bob'"'"'s phone was not asked, and his widget never held a row of hers\n'

  say tandem-widget timeline --instance approvals
  out=$("$widget_bin" timeline --dir "$app" --instance approvals --json 2>"$dir/stderr") || fail "tandem-widget timeline failed: $(tail -n 3 "$dir/stderr")"
  expect '[.entries[0].rows[] | select(.item == "A-1002") | .action_state] | join(",")' "done"

  note "carol, whom the ERP does not let see approvals"
  onboard_phone carol
  app=$(phone_of carol)
  printf '  — carol'"'"'s phone —\n'
  say tandem widget configure --instance approvals --destination erp --entity-set Approvals --limit 4
  say tandem-widget timeline --instance approvals
  say tandem host fulfil
  say tandem-widget timeline --instance approvals
  grep -q 'not allowed to see this' <<<"$out" || fail "carol's widget does not say 'not allowed to see this'"
  out=$("$widget_bin" timeline --dir "$app" --instance approvals --json 2>"$dir/stderr") || fail "tandem-widget timeline failed: $(tail -n 3 "$dir/stderr")"
  [ -z "$(shown_items)" ] || fail "carol's widget shows rows: $(shown_items)"
  printf '  the ERP answered 403: the widget says so, and shows no rows\n'
}

printf '%sTandem: an app and its widget, the whole story%s  (in %s)\n' "$bold" "$plain" "$dir"
stage "${titles[0]}" server_starts
stage "${titles[1]}" widget_signed_out
stage "${titles[2]}" host_onboards
stage "${titles[3]}" widget_fulfilled
stage "${titles[4]}" time_moves_on
stage "${titles[5]}" direct_and_race
stage "${titles[6]}" tap_counted
stage "${titles[7]}" push_brings_rows
stage "${titles[8]}" session_revoked
stage "${titles[9]}" approve_from_widget
stage "${titles[10]}" per_user_backend
