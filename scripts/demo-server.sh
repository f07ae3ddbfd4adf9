#!/usr/bin/env bash
# `make demo`, the server half: seeds a throwaway SQLite database, starts `tandem serve` on a free
# port and walks through the product over real HTTP with curl, as an app, its widget and a kiosk
# would use it. Every step checks its status, so the demo doubles as a smoke test: any surprise
# stops it with a message naming the step. Usage: scripts/demo-server.sh PATH-TO-TANDEM
set -euo pipefail

tandem=${1:?usage: demo-server.sh PATH-TO-TANDEM}
[ -x "$tandem" ] || { echo "demo: $tandem is not an executable; build it with: cd Server && swift build --product tandem" >&2; exit 1; }
"$(dirname "$0")/ensure-deps.sh" --demo

dir=$(mktemp -d "${TMPDIR:-/tmp}/tandem-server-demo.XXXXXX")
# shellcheck source=lib/tandem-serve.sh
source "$(dirname "$0")/lib/tandem-serve.sh"
cleanup() {
  serve_stop
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

client="tandem-demo"
redirect=http://127.0.0.1/callback
current_step="setup"
step() { current_step="$1"; printf '\n\033[1m▸ %s\033[0m\n' "$1"; }
say() { printf '    %s\n' "$*"; }
short() { printf '%s…' "${1:0:10}"; }
die() {
  printf '\n\033[31mdemo failed at step "%s": %s\033[0m\n' "$current_step" "$*" >&2
  if [ -s "$dir/server.log" ]; then sed 's/^/    server: /' "$dir/server.log" | tail -20 >&2; fi
  exit 1
}
# call EXPECTED METHOD PATH [curl options…]: the body lands in $dir/body, the headers in $dir/headers.
call() {
  local expected=$1 method=$2 path=$3; shift 3
  : >"$dir/body"   # curl writes no file for a response without a body
  status=$(curl -sS -o "$dir/body" -D "$dir/headers" -w '%{http_code}' -X "$method" "$@" "$base$path") \
    || die "$method $path: curl could not reach the server"
  local shown=$path; [ ${#shown} -le 90 ] || shown="${path:0:70}…"
  printf '  %s %s → %s\n' "$method" "$shown" "$status"
  [ "$status" = "$expected" ] || die "$method $path answered $status, expected $expected: $(head -c 300 "$dir/body")"
}
field() { jq -r "$1" "$dir/body"; }
header() { grep -i "^$1:" "$dir/headers" | head -1 | cut -d' ' -f2- | tr -d '\r'; }
expect() { [ "$1" = "$2" ] || die "$3: got '$1', expected '$2'"; }
base64url() { base64 | tr '+/' '-_' | tr -d '=\n'; }
sha256() { if command -v sha256sum >/dev/null; then sha256sum; else shasum -a 256; fi; }
uuid() { od -An -tx1 -N16 /dev/urandom | tr -d ' \n' | sed -E 's/(.{8})(.{4})(.{4})(.{4})(.{12})/\1-\2-\3-\4-\5/'; }
token_request() { call "$1" POST /oauth/token -d client_id="$client" "${@:2}"; }

seed_and_start() {
  step "Seed a throwaway database and start the server"
  "$tandem" admin seed-demo --database "sqlite:$dir/demo.sqlite" >"$dir/seed.txt" 2>&1 || { cat "$dir/seed.txt" >&2; die "seed-demo failed"; }
  kiosk_key=$(sed -n 's/.*tandem-demo-kiosk (shown once): \(tdk_[A-Za-z0-9_-]*\).*/\1/p' "$dir/seed.txt")
  [ -n "$kiosk_key" ] || die "seed-demo printed no API key for tandem-demo-kiosk"
  sed -E 's/(tdk_.{6})[A-Za-z0-9_-]+/\1…/; s/^/    /' "$dir/seed.txt"
  # Introspection answers registered resource servers only (never a key shipped inside an app).
  "$tandem" admin create-app --database "sqlite:$dir/demo.sqlite" --client-id tandem-demo-api --name "Demo API" \
    --security-mode apiKey >/dev/null 2>&1 || die "create-app tandem-demo-api failed"
  "$tandem" admin set-resource-server --database "sqlite:$dir/demo.sqlite" --client-id tandem-demo-api \
    --audience tandem --audience tandem-extension >/dev/null 2>&1 || die "set-resource-server failed"
  resource_key=$("$tandem" admin create-api-key --database "sqlite:$dir/demo.sqlite" --client-id tandem-demo-api 2>/dev/null) \
    || die "create-api-key for tandem-demo-api failed"
  say "resource server tandem-demo-api registered for audiences tandem, tandem-extension (it alone may introspect)"
  serve_start "$tandem" "$dir/server.out" "$dir/server.log" --database "sqlite:$dir/demo.sqlite" --log-level warning \
    || die "tandem serve did not start"
  base="$server_base"
  say "tandem serve --database sqlite:…/demo.sqlite --port 0 → listening on $base"
}

onboarding() {
  step "a. What an app needs to onboard: its public configuration"
  call 200 GET "/v1/apps/$client/configuration"
  say "$(field '"name: \(.name) · security: \(.security_mode) · scopes: \(.default_scope)"')"
  say "$(field '"redirect URIs: \(.redirect_uris | join(", ")) · passcode: ≥ \(.passcode_policy.minimum_length) characters"')"
  say "token endpoint: $(field .endpoints.token)"
  case "$(field .endpoints.token)" in "$base"/*) ;; *) say "(note: not the bound address $base: with --port 0 the default issuer keeps the port asked for)" ;; esac
}

sign_in() {
  step "b. Sign in: authorization code with PKCE S256, through the HTML sign-in form"
  local verifier digest challenge state query csrf location code name value form=()
  verifier=$(head -c 32 /dev/urandom | base64url)
  digest=$(printf '%s' "$verifier" | sha256 | cut -c1-64)
  # shellcheck disable=SC2001,SC2059  # the hex digest becomes \xNN escapes: printf writes its bytes
  challenge=$(printf "$(sed 's/../\\x&/g' <<<"$digest")" | base64url)
  state=$(head -c 9 /dev/urandom | base64url)
  query="response_type=code&client_id=$client&redirect_uri=http%3A%2F%2F127.0.0.1%2Fcallback"
  query+="&scope=data.read%20events.write%20offline_access&state=$state&code_challenge=$challenge&code_challenge_method=S256"
  say "PKCE verifier $(short "$verifier") → S256 challenge $(short "$challenge")"
  call 200 GET "/oauth/authorize?$query" -c "$dir/cookies"
  while IFS=$'\t' read -r name value; do
    value=$(printf '%s' "$value" | sed -e 's/&quot;/"/g; s/&#39;/'"'"'/g; s/&lt;/</g; s/&gt;/>/g; s/&amp;/\&/g')
    form+=(--data-urlencode "$name=$value")
    [ "$name" = csrf_token ] && csrf=$value
  done < <(sed -n 's/.*<input type="hidden" name="\([^"]*\)" value="\([^"]*\)".*/\1\t\2/p' "$dir/body")
  [ -n "${csrf:-}" ] || die "the sign-in form has no csrf_token"
  grep -q tandem_form "$dir/cookies" || die "no tandem_form cookie came with the form"
  say "the sign-in form: $(( ${#form[@]} / 2 )) hidden fields, csrf_token $(short "$csrf"), tandem_form cookie kept"
  say "the user signs in as 'demo' with the seed's default password"
  call 302 POST /oauth/authorize -b "$dir/cookies" -c "$dir/cookies" "${form[@]}" \
    --data-urlencode username=demo --data-urlencode password=demo-password
  location=$(header Location)
  code=$(printf '%s' "$location" | sed -n 's/.*[?&]code=\([^&]*\).*/\1/p')
  [ -n "$code" ] || die "the redirect has no code: $location"
  expect "$(printf '%s' "$location" | sed -n 's/.*[?&]state=\([^&]*\).*/\1/p')" "$state" "the redirect's state"
  say "redirected to ${location%%\?*} with code $(short "$code") and the same state"
  token_request 200 -d grant_type=authorization_code -d code="$code" -d code_verifier="$verifier" \
    --data-urlencode redirect_uri="$redirect"
  access=$(field .access_token); refresh=$(field .refresh_token)
  say "access token $(short "$access") ($(field .token_type), $(field .expires_in) s) · refresh token $(short "$refresh")"
  say "scope: $(field .scope)"
}

business_data() {
  step "c. Business data: destinations, a page of sales orders, and revalidation with its ETag"
  call 200 GET /v1/destinations -H "Authorization: Bearer $access"
  say "$(field '.destinations[] | "\(.name) (\(.title)): " + ([.entity_sets[] | "\(.name) \(.count)"] | join(", "))')"
  call 200 GET "/v1/destinations/sales/SalesOrders?limit=3" -H "Authorization: Bearer $access"
  field '.items[] | "    \(.SalesOrderID)  \(.OrderDate)  \(.CustomerName) · \(.Quantity) × \(.ProductName) · \(.GrossAmount) \(.Currency) · \(.Status)"'
  local etag; etag=$(header ETag)
  say "$(field '"\(.items | length) of \(.total); next page: \(.next)"') · ETag $etag"
  call 304 GET "/v1/destinations/sales/SalesOrders?limit=3" -H "Authorization: Bearer $access" -H "If-None-Match: $etag"
  say "unchanged: 304 with no body, the client keeps its copy"
}

rotate() {
  step "d. Refresh with rotation, and a retry inside the grace window"
  local old=$refresh successor
  token_request 200 -d grant_type=refresh_token -d refresh_token="$old"
  successor=$(field .refresh_token); access=$(field .access_token)
  say "refresh token $(short "$old") → $(short "$successor") (the old one is spent)"
  token_request 200 -d grant_type=refresh_token -d refresh_token="$old"
  expect "$(field .refresh_token)" "$successor" "the replayed refresh token's successor"
  say "replaying $(short "$old") within the grace window (5 s) gets the same successor $(short "$successor")"
  say "(after the window, a replay would be treated as theft and revoke the whole grant)"
  refresh=$successor
}

extension_grant() {
  step "e. Token exchange (RFC 8693): a read-only grant for the widget extension"
  token_request 200 -d grant_type=urn:ietf:params:oauth:grant-type:token-exchange -d subject_token="$access" \
    -d subject_token_type=urn:ietf:params:oauth:token-type:access_token -d audience=tandem-extension
  extension_access=$(field .access_token); extension_refresh=$(field .refresh_token)
  expect "$(field .scope)" data.read "the extension grant's scope"
  say "extension access token $(short "$extension_access") · refresh token $(short "$extension_refresh") · scope $(field .scope)"
  call 200 GET "/v1/destinations/sales/Customers?limit=1" -H "Authorization: Bearer $extension_access"
  say "the widget reads: $(field '.items[0] | "\(.CustomerID) \(.CompanyName), \(.City)"')"
  call 403 POST /v1/events -H "Authorization: Bearer $extension_access" -H 'Content-Type: application/json' -d '{"events":[]}'
  say "but it cannot write events: $(field .error_description)"
}

analytics() {
  step "f. Analytics: a batch of widget taps, sent twice, and the summary"
  local now batch; now=$(date -u +%Y-%m-%dT%H:%M:%SZ)
  batch=$(jq -cn --arg a "$(uuid)" --arg b "$(uuid)" --arg t "$now" '{events: [
    {id: $a, name: "widget.tap", timestamp: $t, properties: {kind: "orders", family: "systemMedium", configuration: "open-orders"}},
    {id: $b, name: "widget.tap", timestamp: $t, properties: {kind: "orders", family: "systemSmall", configuration: "open-orders"}}]}')
  call 200 POST /v1/events -H "Authorization: Bearer $access" -H 'Content-Type: application/json' -d "$batch"
  expect "$(field '"\(.accepted)/\(.duplicates)"')" 2/0 "accepted/duplicates of the first batch"
  say "accepted $(field .accepted), duplicates $(field .duplicates)"
  call 200 POST /v1/events -H "Authorization: Bearer $access" -H 'Content-Type: application/json' -d "$batch"
  expect "$(field '"\(.accepted)/\(.duplicates)"')" 0/2 "accepted/duplicates of the resent batch"
  say "resent (say, after a lost response): accepted $(field .accepted), duplicates $(field .duplicates)"
  call 200 GET /v1/analytics/summary -H "Authorization: Bearer $access"
  expect "$(field .total)" 2 "the summary's total"
  say "$(field '"\(.name) for \(.client_id), last 7 days: \(.total) in all"')"
  field '.groups[] | "      \(.count) × \(.kind) · \(.family) · \(.configuration)"'
}

kiosk() {
  step "g. A kiosk app with an API key instead of a user sign-in"
  call 200 GET "/v1/destinations/sales/Products?limit=2" -H "X-API-Key: $kiosk_key"
  say "X-API-Key $(short "$kiosk_key") reads: $(field '[.items[] | "\(.Name) (\(.UnitPrice) \(.Currency))"] | join(", ")')"
}

revocation() {
  step "h. Introspection and revocation"
  call 401 POST /oauth/introspect -H "X-API-Key: $kiosk_key" -d token="$access"
  say "the kiosk's key, shipped inside an app, may not introspect: $(field .error)"
  call 200 POST /oauth/introspect -H "X-API-Key: $resource_key" -d token="$access"
  expect "$(field .active)" true "the access token's introspection"
  say "$(field '"active: \(.active) · user \(.username) · audience \(.aud) · scope \(.scope)"')"
  call 200 POST /oauth/revoke -d client_id="$client" -d token="$refresh" -d token_type_hint=refresh_token
  say "the user signs out: refresh token $(short "$refresh") revoked, and its grant with it"
  call 200 POST /oauth/introspect -H "X-API-Key: $resource_key" -d token="$access"
  expect "$(field .active)" false "the access token's introspection after revocation"
  say "active: $(field .active)"
  token_request 400 -d grant_type=refresh_token -d refresh_token="$extension_refresh"
  expect "$(field .error)" invalid_grant "the extension's refresh after revocation"
  say "the extension's grant went with it: $(field .error) ($(field .error_description))"
}

operations() {
  step "i. Operations: Prometheus metrics and the health check"
  call 200 GET /metrics
  { grep -E '^(tandem_|hb_requests)' "$dir/body" || true; } | sort -t' ' -k2 -nr | head -4 | sed 's/^/    /'
  call 200 GET /health
  expect "$(field .status)" ok "the health status"
  say "$(jq -c . "$dir/body")"
}

started=$(date +%s)
seed_and_start
onboarding
sign_in
business_data
rotate
extension_grant
analytics
kiosk
revocation
operations
current_step="summary"
printf '\n\033[1mServer demo complete\033[0m in %s s; every status was as expected.\n' "$(( $(date +%s) - started ))"
cat <<'EOF' | fold -s -w 100
A client fetched its public configuration, signed the demo user in through the HTML form with an authorization code and PKCE S256, and read business data with its access token, revalidating a page with its ETag (304). Its refresh token rotated, and a retry inside the grace window got the same successor. A token exchange gave the widget extension its own read-only grant, which can read data but not write events. Analytics events were ingested once even though the batch was sent twice, and summarised. A kiosk app read data with an API key, but could not introspect tokens; the registered resource server did: the user's token was active before the sign-out, inactive after, and the extension's grant was revoked with it. Metrics and health are there for operations. The database and the server are gone now.
EOF
