#!/usr/bin/env bash
# `make demo`, the extension half: a host app and its widget as separate `tandem host` and
# `tandem widget` processes that share only one folder, against a real server. The widget gets
# data without ever knowing the passcode: brokered through the host's background task, then
# directly with its own read-only grant, refreshed once across many processes. Every step checks
# what it printed, so the demo doubles as a smoke test. Usage: scripts/demo-extension.sh PATH-TO-TANDEM
set -euo pipefail

tandem=${1:?usage: demo-extension.sh PATH-TO-TANDEM}
[ -x "$tandem" ] || { echo "demo: $tandem is not an executable; build it with: cd Server && swift build --product tandem" >&2; exit 1; }
"$(dirname "$0")/ensure-deps.sh" --demo

dir=$(mktemp -d "${TMPDIR:-/tmp}/tandem-extension-demo.XXXXXX")
# shellcheck source=lib/tandem-serve.sh
source "$(dirname "$0")/lib/tandem-serve.sh"
cleanup() { serve_stop; rm -rf "$dir"; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

current_step="setup"
step() { current_step="$1"; printf '\n\033[1m▸ %s\033[0m\n' "$1"; }
die() { printf '\n\033[31mdemo failed at step "%s": %s\033[0m\n' "$current_step" "$*" >&2; exit 1; }
# run ROLE SUBCOMMAND [ARGS…]: prints the command and its JSON answer; the answer lands in $out.
run() {
  local role=$1 sub=$2; shift 2
  printf '  $ tandem %s %s %s\n' "$role" "$sub" "$*"
  out=$("$tandem" "$role" "$sub" --dir "$dir/app" "$@" 2>"$dir/stderr") || die "tandem $role $sub failed: $(tail -3 "$dir/stderr")"
  printf '%s\n' "$out" | cut -c1-220 | sed 's/^/    /'
}
expect() { local got; got=$(jq -r "$1" <<<"$out"); [ "$got" = "$2" ] || die "$1 is '$got', expected '$2'"; }
page=(--destination sales --entity-set SalesOrders --limit 3)

step "Start a seeded server"
"$tandem" admin seed-demo --database "sqlite:$dir/server.sqlite" >/dev/null 2>&1 || die "seed-demo failed"
serve_start "$tandem" "$dir/server.out" "$dir/server.log" --database "sqlite:$dir/server.sqlite" --log-level warning || die "tandem serve did not start"
echo "    $server_base"

step "The host app onboards: configuration, vault with a passcode, sign-in with PKCE, extension access, the widget's grant"
TANDEM_PASSWORD=demo-password TANDEM_PASSCODE=demo-Passcode-7 run host onboard --server "$server_base" --username demo --fast-kdf
expect .state ready
echo "    shared with the widget:"; ( cd "$dir/app/shared" && find . -type f | sort | sed 's/^/      /' )

step "Brokered: the widget asks for sales orders; the request carries its share, sealed"
run widget request "${page[@]}"
run widget read "${page[@]}"
expect .snapshot null

step "The host's background task — no passcode, no user — fulfils it through the paired key"
run host fulfil
expect '.outcomes[0].result' fulfilled
run widget read "${page[@]}"
expect .snapshot.freshness fresh
jq -r '.snapshot.payload.items[] | "      \(.SalesOrderID)  \(.CustomerName)  \(.GrossAmount) \(.Currency)"' <<<"$out"

step "Direct: the widget refreshes its own read-only grant and fetches with it"
run widget refresh
expect .result ok
run widget fetch --destination sales --entity-set Customers --limit 5
expect .status 200

step "Single flight: the host and four widgets refresh the same grant at the same moment, three times"
start=$(( $(date +%s%3N) + 1500 ))
pids=()
for role in host widget widget widget widget; do
  "$tandem" "$role" race --dir "$dir/app" --rounds 3 --start-at-ms "$start" --period-ms 500 >"$dir/race-${#pids[@]}.out" 2>>"$dir/stderr" &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid" || die "a race process failed: $(tail -3 "$dir/stderr")"; done
for round in 0 1 2; do
  refreshed=$(cat "$dir"/race-*.out | jq -s "[.[] | select(.round == $round and .refreshed)] | length")
  tokens=$(cat "$dir"/race-*.out | jq -rs "[.[] | select(.round == $round) | .token] | unique | length")
  echo "    round $round: $refreshed of 5 processes redeemed the refresh token, all 5 hold the same new token ($tokens distinct)"
  [ "$refreshed" = 1 ] && [ "$tokens" = 1 ] || die "round $round was not single-flight"
done

step "Widgets queue analytics; their grant cannot send them (read-only), the host can"
run widget track --kind sales-orders --family systemSmall --configuration sales/SalesOrders
run widget send-events
expect .status 403
run host flush-events
expect .sent 1

step "The host's status, as the widget sees the session"
run host status
expect .session ready
