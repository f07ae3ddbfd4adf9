#!/usr/bin/env bash
# Checks the server against its OpenAPI document (Server/openapi.yaml) with schemathesis.
#
#   scripts/check-openapi.sh Server/.build/debug/tandem [EXTRA SCHEMATHESIS OPTIONS…]
#
# Validates the document, then starts `tandem serve` on a throwaway SQLite database seeded with
# `tandem admin seed-demo` (the demo user, the OAuth app `tandem-demo`, the API-key app
# `tandem-demo-kiosk` with its key, and the demo business data of destination `sales`) plus a user,
# an OAuth app with an API key and grants of its own. It walks the success paths with real
# credentials (sign-in, tokens, introspection, revocation, the business data with ETag/304, app
# configuration, analytics events and their summary), checking each response against the
# document, and runs schemathesis: every documented operation, positive and negative inputs, and
# for every response the checks
# not_a_server_error, status_code_conformance, content_type_conformance,
# response_schema_conformance and response_headers_conformance. A response the document does not
# describe is a failure. The server is stopped and the database deleted on every exit path.
#
# schemathesis lives in a virtualenv cached under ${XDG_CACHE_HOME:-~/.cache}/tandem/, created
# on first use from PyPI (python3 with venv is installed with apt-get if missing).
#
# Environment:
#   TANDEM_OPENAPI_MAX_EXAMPLES   test cases per operation and phase (default 25)
#   TANDEM_OPENAPI_SEED           schemathesis seed, to replay a run
#   TANDEM_OPENAPI_WORKERS        schemathesis worker threads (default 1: on CPython 3.11, concurrent
#                                 ast.parse calls inside hypothesis fail now and then with
#                                 "SystemError: AST constructor recursion depth mismatch", CPython
#                                 gh-106905, failing the run for nothing)
#   TANDEM_OPENAPI_REPORT_DIR     keep a JUnit report and the server log there
# Extra options go to `schemathesis run`, e.g. --include-path-regex '^/oauth' or
# --exclude-tag analytics.
set -euo pipefail

SCHEMATHESIS_VERSION=4.32.5
SPEC_VALIDATOR_VERSION=0.9.0

fail() { echo "check-openapi: FAILED: $*" >&2; exit 1; }
note() { echo "check-openapi: $*" >&2; }

[ $# -ge 1 ] || { echo "usage: scripts/check-openapi.sh PATH/TO/tandem [SCHEMATHESIS OPTIONS…]" >&2; exit 2; }
tandem_arg="$1"
shift
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
spec="$here/../Server/openapi.yaml"
[ -f "$spec" ] || fail "no OpenAPI document at $spec"
spec="$(cd "$(dirname "$spec")" && pwd)/$(basename "$spec")"

# The binary may be rebuilt under us: wait a little for it to reappear.
for _ in $(seq 1 30); do
  [ -x "$tandem_arg" ] && break
  sleep 1
done
[ -x "$tandem_arg" ] || fail "$tandem_arg is not an executable tandem binary"
tandem="$(cd "$(dirname "$tandem_arg")" && pwd)/$(basename "$tandem_arg")"

# ── The virtualenv ──────────────────────────────────────────────────────────────────────────────
"$here/ensure-deps.sh" --openapi
# shellcheck source=lib/python-venv.sh
source "$here/lib/python-venv.sh"
venv_ensure openapi-venv "schemathesis==$SCHEMATHESIS_VERSION openapi-spec-validator==$SPEC_VALIDATOR_VERSION" \
  || fail "cannot set up the schemathesis virtualenv"
py="$venv/bin/python"

note "validating $spec"
"$venv/bin/openapi-spec-validator" "$spec" >/dev/null || fail "the OpenAPI document is not valid (openapi-spec-validator above)"

# ── A throwaway server ──────────────────────────────────────────────────────────────────────────
workdir="$(mktemp -d "${TMPDIR:-/tmp}/tandem-openapi.XXXXXX")"
# shellcheck source=lib/tandem-serve.sh
source "$here/lib/tandem-serve.sh"
child_pid=""
cleanup() {
  status=$?
  trap - EXIT INT TERM
  [ -z "$child_pid" ] || { kill -TERM "$child_pid" 2>/dev/null || true; wait "$child_pid" 2>/dev/null || true; }
  serve_stop
  if [ -n "${TANDEM_OPENAPI_REPORT_DIR:-}" ] && [ -f "$workdir/server.log" ]; then
    mkdir -p "$TANDEM_OPENAPI_REPORT_DIR" && cp "$workdir/server.log" "$TANDEM_OPENAPI_REPORT_DIR/" || true
  fi
  rm -rf "$workdir"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

database="sqlite:$workdir/tandem.sqlite"
client_id="example-app"
redirect_uri="com.example.app:/oauth/callback"
username="ada"
password="correct-horse-battery-staple"

admin() { "$tandem" admin "$@" --database "$database" 2>>"$workdir/admin.log"; }

# (`tandem admin UNKNOWN --help` prints admin's help and succeeds: look for the command in it.)
"$tandem" admin --help 2>&1 | grep -q '^ *seed-demo ' || fail "$tandem has no 'admin seed-demo' command (too old?)"
note "seeding the demo data (tandem admin seed-demo)"
admin seed-demo >"$workdir/seed.out" || { cat "$workdir/admin.log" >&2; fail "tandem admin seed-demo failed"; }
# The kiosk app's key is printed once, on a fresh database: "API key for tandem-demo-kiosk (shown once): tdk_…".
kiosk_client_id="tandem-demo-kiosk"
kiosk_key="$(sed -n "s/^API key for $kiosk_client_id ([^)]*): *\(tdk_[^ ]*\)\$/\1/p" "$workdir/seed.out" | head -n 1)"
[ -n "$kiosk_key" ] || { cat "$workdir/seed.out" >&2; fail "tandem admin seed-demo printed no API key for $kiosk_client_id"; }
TANDEM_PASSWORD="$password" admin create-user --username "$username" >/dev/null \
  || { cat "$workdir/admin.log" >&2; fail "tandem admin create-user failed"; }
admin create-app --client-id "$client_id" --name "Example" --redirect-uri "$redirect_uri" \
  --url-scheme com.example.app --security-mode oauth >/dev/null \
  || { cat "$workdir/admin.log" >&2; fail "tandem admin create-app failed"; }
api_key="$(admin create-api-key --client-id "$client_id")" || { cat "$workdir/admin.log" >&2; fail "tandem admin create-api-key failed"; }
# Its key introspects in the success walk: only a registered resource server's key may.
admin set-resource-server --client-id "$client_id" --audience tandem --audience tandem-extension >/dev/null \
  || { cat "$workdir/admin.log" >&2; fail "tandem admin set-resource-server failed"; }
issue() {  # issue SCOPE: a fresh refresh token of $username for $client_id
  admin issue-refresh-token --username "$username" --client-id "$client_id" --scope "$1" | head -n 1
}
refresh_token="$(issue "data.read data.write events.write offline_access")" \
  || { cat "$workdir/admin.log" >&2; fail "tandem admin issue-refresh-token failed"; }
# For the walk: a full grant, and two narrow ones for the 403 paths.
walk_refresh_token="$(issue "data.read data.write events.write offline_access")" \
  && read_only_refresh_token="$(issue "data.read offline_access")" \
  && events_only_refresh_token="$(issue "events.write offline_access")" \
  && v1_refresh_token="$(issue "data.read data.write events.write offline_access")" \
  || { cat "$workdir/admin.log" >&2; fail "tandem admin issue-refresh-token failed"; }

# The rate limiter raised out of the way of the generated traffic.
serve_start "$tandem" "$workdir/server.out" "$workdir/server.log" --database "$database" \
  --rate-limit-per-second 100000 --log-level warning || fail "tandem serve did not start"
base="$server_base"

# Small HTTP helper: prints the status code, then the body.
http() {
  "$py" - "$@" <<'PY'
import sys, urllib.request, urllib.error
method, url = sys.argv[1], sys.argv[2]
data = sys.argv[3].encode() if len(sys.argv) > 3 else None
req = urllib.request.Request(url, data=data, method=method)
if data is not None:
    req.add_header("Content-Type", "application/x-www-form-urlencoded")
try:
    with urllib.request.urlopen(req, timeout=10) as r:
        print(r.status); print(r.read().decode("utf-8", "replace"))
except urllib.error.HTTPError as e:
    print(e.code); print(e.read().decode("utf-8", "replace"))
except Exception as e:
    print(0); print(e)
PY
}

healthy=0
for _ in $(seq 1 100); do
  answer="$(http GET "$base/health")"
  if [ "${answer%%$'\n'*}" = "200" ]; then healthy=1; break; fi
  sleep 0.1
done
[ "$healthy" -eq 1 ] || { tail -n 20 "$workdir/server.log" >&2; fail "GET $base/health never answered 200"; }
note "server up at $base (database $database)"

# A live access token for the operations that need a bearer.
access_token="not-a-token"
grant="$(http POST "$base/oauth/token" "grant_type=refresh_token&client_id=$client_id&refresh_token=$refresh_token")"
if [ "${grant%%$'\n'*}" = "200" ]; then
  access_token="$(tail -n +2 <<<"$grant" | "$py" -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')"
else
  note "warning: the refresh grant failed (${grant//$'\n'/ }); bearer operations run with an invalid token"
fi

config="$workdir/schemathesis.toml"
cat >"$config" <<EOF
# The kiosk's key: accepted at /v1 (an apiKey-mode app); refused (401) at /oauth/introspect, which
# answers registered resource servers only.
[auth.openapi.ApiKeyAuth]
api_key = "$kiosk_key"

[auth.openapi.ClientBasicAuth]
username = "$kiosk_client_id"
password = "$kiosk_key"

[auth.openapi.BearerAuth]
bearer = "$access_token"
EOF

report_args=()
if [ -n "${TANDEM_OPENAPI_REPORT_DIR:-}" ]; then
  mkdir -p "$TANDEM_OPENAPI_REPORT_DIR"
  report_args+=(--report junit --report-dir "$TANDEM_OPENAPI_REPORT_DIR")
fi
seed_args=()
[ -z "${TANDEM_OPENAPI_SEED:-}" ] || seed_args+=(--seed "$TANDEM_OPENAPI_SEED")

# ── The success paths ───────────────────────────────────────────────────────────────────────────
# Generated requests carry made-up tokens and codes, so they reach the error paths only. These
# requests walk the success paths with real credentials and check each response against the
# document too: sign-in with PKCE, code redemption, refresh, introspection (both ways of
# authenticating), token exchange, revocation; then on the demo data: the destinations, paging an
# entity set, 304 with If-None-Match, app configuration (200/304/404), events (bearer and
# X-API-Key) and their summary, with the 400/401/403/404/413/415 answers along the way.
note "walking the success paths"
set +e
WALK_SPEC="$spec" WALK_BASE="$base" WALK_CLIENT_ID="$client_id" WALK_REDIRECT_URI="$redirect_uri" \
WALK_USERNAME="$username" WALK_PASSWORD="$password" WALK_API_KEY="$api_key" WALK_ACCESS_TOKEN="$access_token" \
WALK_REFRESH_TOKEN="$walk_refresh_token" WALK_READ_ONLY_REFRESH_TOKEN="$read_only_refresh_token" \
WALK_EVENTS_ONLY_REFRESH_TOKEN="$events_only_refresh_token" WALK_V1_REFRESH_TOKEN="$v1_refresh_token" \
WALK_KIOSK_CLIENT_ID="$kiosk_client_id" \
WALK_KIOSK_KEY="$kiosk_key" "$py" - <<'PY'
import base64, datetime, hashlib, http.cookiejar, json, os, re, secrets, sys, uuid
import urllib.error, urllib.parse, urllib.request
import jsonschema, yaml

env = lambda name: os.environ["WALK_" + name]
spec_path, base, client_id, redirect_uri = env("SPEC"), env("BASE"), env("CLIENT_ID"), env("REDIRECT_URI")
username, password, api_key, access_token, refresh_token = (
    env("USERNAME"), env("PASSWORD"), env("API_KEY"), env("ACCESS_TOKEN"), env("REFRESH_TOKEN"))
kiosk_client_id, kiosk_key = env("KIOSK_CLIENT_ID"), env("KIOSK_KEY")
spec = yaml.safe_load(open(spec_path))
failures = []

def resolve(node):
    """Inlines $refs and turns OpenAPI 3.0's `nullable` into JSON Schema's type lists."""
    if isinstance(node, dict):
        if "$ref" in node:
            target = spec
            for part in node["$ref"].lstrip("#/").split("/"):
                target = target[part]
            return resolve(target)
        resolved = {k: resolve(v) for k, v in node.items() if k != "nullable"}
        if node.get("nullable") is True:
            if "type" in resolved:
                resolved["type"] = [resolved["type"], "null"]
            if "enum" in resolved:
                resolved["enum"] = resolved["enum"] + [None]
        return resolved
    if isinstance(node, list):
        return [resolve(v) for v in node]
    return node

class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None

jar = http.cookiejar.CookieJar()
opener = urllib.request.build_opener(NoRedirect, urllib.request.HTTPCookieProcessor(jar))

def call(step, method, path, operation_path, form=None, headers=None, expect=200, json_body=None, raw=None):
    """Sends one request, checks status, content type, headers and body against the document.

    The body is `form` (form-encoded), `json_body` (JSON) or `raw` (bytes, Content-Type from `headers`)."""
    headers = dict(headers or {})
    data = None
    if form is not None:
        data = urllib.parse.urlencode(form).encode()
        headers.setdefault("Content-Type", "application/x-www-form-urlencoded")
    elif json_body is not None:
        data = json.dumps(json_body).encode()
        headers.setdefault("Content-Type", "application/json")
    elif raw is not None:
        data = raw
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    try:
        response = opener.open(request, timeout=10)
        status, body, response_headers = response.status, response.read(), response.headers
    except urllib.error.HTTPError as error:
        status, body, response_headers = error.code, error.read(), error.headers
    except Exception as error:
        failures.append(f"{step}: {method} {path}: {error}")
        return None, None, None
    problems = []
    if status != expect:
        problems.append(f"status {status}, expected {expect}: {body[:300]!r}")
    documented = resolve(spec["paths"][operation_path][method.lower()])["responses"].get(str(status))
    if documented is None:
        problems.append(f"status {status} is not documented")
    else:
        for name, header in (documented.get("headers") or {}).items():
            value = response_headers.get(name)
            if value is None:
                if header.get("required"):
                    problems.append(f"header {name} is missing")
                continue
            schema = header["schema"]
            if schema.get("type") == "integer":
                value = int(value) if value.isdigit() else value
            for error in jsonschema.Draft4Validator(schema).iter_errors(value):
                problems.append(f"header {name}: {error.message}")
        content = documented.get("content") or {}
        content_type = (response_headers.get("Content-Type") or "").split(";")[0].strip().lower()
        if content:
            if content_type not in content:
                problems.append(f"content type {content_type or '(none)'} is not one of {sorted(content)}")
            elif content_type == "application/json":
                try:
                    document = json.loads(body)
                except ValueError as error:
                    problems.append(f"the body is not JSON: {error}")
                else:
                    for error in jsonschema.Draft4Validator(content[content_type]["schema"]).iter_errors(document):
                        problems.append(f"body: {error.message} at {list(error.absolute_path)}")
    if problems:
        failures.extend(f"{step}: {method} {path} → {p}" for p in problems)
    else:
        print(f"  ok  {step}: {method} {path.split('?')[0]} → {status}")
    return status, body, response_headers

def json_of(body):
    try:
        return json.loads(body)
    except Exception:
        return {}

# Sign-in with PKCE and the code's redemption.
verifier = base64.urlsafe_b64encode(secrets.token_bytes(32)).rstrip(b"=").decode()
challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
query = urllib.parse.urlencode({
    "response_type": "code", "client_id": client_id, "redirect_uri": redirect_uri, "scope": "data.read offline_access",
    "state": "st-123", "code_challenge": challenge, "code_challenge_method": "S256"})
status, body, _ = call("login form", "GET", "/oauth/authorize?" + query, "/oauth/authorize")
csrf = re.search(rb'name="csrf_token" value="([^"]*)"', body or b"")
call("unknown client", "GET", "/oauth/authorize?" + query.replace(f"client_id={client_id}", "client_id=no-such-app"),
     "/oauth/authorize", expect=400)
call("plain PKCE refused by redirect", "GET", "/oauth/authorize?" + query.replace("S256", "plain"), "/oauth/authorize", expect=302)
code = None
if csrf:
    fields = dict(urllib.parse.parse_qsl(query))
    call("bad CSRF token", "POST", "/oauth/authorize", "/oauth/authorize",
         form={**fields, "username": username, "password": password, "csrf_token": "tdf_wrong"}, expect=403)
    # The form's token is single-use in some designs: fetch a fresh form for each submission.
    _, body, _ = call("login form again", "GET", "/oauth/authorize?" + query, "/oauth/authorize")
    csrf = re.search(rb'name="csrf_token" value="([^"]*)"', body or b"")
    call("wrong password", "POST", "/oauth/authorize", "/oauth/authorize",
         form={**fields, "username": username, "password": "wrong-password", "csrf_token": csrf.group(1).decode()}, expect=401)
    _, body, _ = call("login form again", "GET", "/oauth/authorize?" + query, "/oauth/authorize")
    csrf = re.search(rb'name="csrf_token" value="([^"]*)"', body or b"")
    status, _, headers = call("sign in", "POST", "/oauth/authorize", "/oauth/authorize",
         form={**fields, "username": username, "password": password, "csrf_token": csrf.group(1).decode()}, expect=302)
    if status == 302:
        location = urllib.parse.urlsplit(headers.get("Location", ""))
        params = dict(urllib.parse.parse_qsl(location.query))
        if params.get("state") != "st-123":
            failures.append(f"sign in: the redirect {headers.get('Location')} does not carry state=st-123")
        code = params.get("code")
        if not any(c.name == "tandem_session" for c in jar):
            failures.append("sign in: no tandem_session cookie was set")
else:
    failures.append("login form: no csrf_token hidden field in the form")
if code:
    status, body, _ = call("code redemption", "POST", "/oauth/token", "/oauth/token", form={
        "grant_type": "authorization_code", "code": code, "redirect_uri": redirect_uri, "client_id": client_id,
        "code_verifier": verifier})
    call("code replay refused", "POST", "/oauth/token", "/oauth/token", form={
        "grant_type": "authorization_code", "code": code, "redirect_uri": redirect_uri, "client_id": client_id,
        "code_verifier": verifier}, expect=400)

# Refresh, introspection, token exchange, revocation.
status, body, _ = call("refresh", "POST", "/oauth/token", "/oauth/token",
                       form={"grant_type": "refresh_token", "client_id": client_id, "refresh_token": refresh_token})
tokens = json_of(body) if status == 200 else {}
fresh_access, successor = tokens.get("access_token", access_token), tokens.get("refresh_token", "")
call("introspect an access token (X-API-Key)", "POST", "/oauth/introspect", "/oauth/introspect",
     form={"token": fresh_access}, headers={"X-API-Key": api_key})
basic = base64.b64encode(f"{client_id}:{api_key}".encode()).decode()
call("introspect a refresh token (Basic)", "POST", "/oauth/introspect", "/oauth/introspect",
     form={"token": successor, "token_type_hint": "refresh_token"}, headers={"Authorization": f"Basic {basic}"})
call("introspect without a key", "POST", "/oauth/introspect", "/oauth/introspect", form={"token": fresh_access}, expect=401)
status, body, _ = call("token exchange", "POST", "/oauth/token", "/oauth/token", form={
    "grant_type": "urn:ietf:params:oauth:grant-type:token-exchange", "client_id": client_id,
    "subject_token": fresh_access, "subject_token_type": "urn:ietf:params:oauth:token-type:access_token",
    "requested_token_type": "urn:ietf:params:oauth:token-type:refresh_token"})
extension_access = json_of(body).get("access_token") if status == 200 else None
call("revoke", "POST", "/oauth/revoke", "/oauth/revoke",
     form={"token": successor, "token_type_hint": "refresh_token", "client_id": client_id})
call("revoke an unknown token", "POST", "/oauth/revoke", "/oauth/revoke", form={"token": "tdr_unknown", "client_id": client_id})
call("refresh with a revoked token", "POST", "/oauth/token", "/oauth/token",
     form={"grant_type": "refresh_token", "client_id": client_id, "refresh_token": successor}, expect=400)
status, body, _ = call("introspect a revoked token", "POST", "/oauth/introspect", "/oauth/introspect",
                       form={"token": successor}, headers={"X-API-Key": api_key})
if status == 200 and json_of(body).get("active") is not False:
    failures.append("introspect a revoked token: it is still active")

# ── /v1 on the demo data (tandem admin seed-demo) ──────────────────────────────────────────────
def bearer(token):
    return {"Authorization": f"Bearer {token}"}

def access_token_of(step, refresh):
    status, body, _ = call(step, "POST", "/oauth/token", "/oauth/token",
                           form={"grant_type": "refresh_token", "client_id": client_id, "refresh_token": refresh})
    return json_of(body).get("access_token", "not-a-token") if status == 200 else "not-a-token"

def check(step, condition, message):
    if not condition:
        failures.append(f"{step}: {message}")

# The walk revoked its grant above, and /v1 refuses that grant's access tokens at once: the /v1
# part uses a live grant and an extension grant exchanged from it.
fresh_access = access_token_of("refresh a live grant for /v1", env("V1_REFRESH_TOKEN"))
status, body, _ = call("token exchange for /v1", "POST", "/oauth/token", "/oauth/token", form={
    "grant_type": "urn:ietf:params:oauth:grant-type:token-exchange", "client_id": client_id,
    "subject_token": fresh_access, "subject_token_type": "urn:ietf:params:oauth:token-type:access_token"})
extension_access = json_of(body).get("access_token") if status == 200 else None
read_only_access = access_token_of("refresh a data.read grant", env("READ_ONLY_REFRESH_TOKEN"))
events_only_access = access_token_of("refresh an events.write grant", env("EVENTS_ONLY_REFRESH_TOKEN"))
kiosk = {"X-API-Key": kiosk_key}
demo_sets = {"Customers": 60, "Products": 40, "SalesOrders": 240}

# The destinations.
LIST = "/v1/destinations"
status, body, headers = call("list destinations", "GET", LIST, LIST, headers=bearer(fresh_access))
if status == 200:
    sales = [d for d in json_of(body).get("destinations", []) if d.get("name") == "sales"]
    check("list destinations", len(sales) == 1, "no destination sales")
    if sales:
        found = {s["name"]: s["count"] for s in sales[0]["entity_sets"]}
        check("list destinations", found == demo_sets, f"sales has {found}, expected {demo_sets}")
        check("list destinations", [s["href"] for s in sales[0]["entity_sets"]]
              == [f"/v1/destinations/sales/{name}" for name in sorted(demo_sets)], "hrefs or order differ")
    call("list destinations, not modified", "GET", LIST, LIST,
         headers={**bearer(fresh_access), "If-None-Match": headers.get("ETag", "")}, expect=304)
call("list destinations (X-API-Key)", "GET", LIST, LIST, headers=kiosk)
if extension_access:
    call("list destinations (extension token)", "GET", LIST, LIST, headers=bearer(extension_access))
else:
    failures.append("token exchange: no extension access token to read with")
call("list destinations without a credential", "GET", LIST, LIST, expect=401)
call("list destinations with an OAuth app's key", "GET", LIST, LIST, headers={"X-API-Key": api_key}, expect=401)
call("list destinations with a garbage token", "GET", LIST, LIST, headers=bearer("a.b.c"), expect=401)
call("list destinations without data.read", "GET", LIST, LIST, headers=bearer(events_only_access), expect=403)

# Paging an entity set: follow `next` to the end.
PAGE = "/v1/destinations/{destination}/{entitySet}"
path, seen, pages, first = "/v1/destinations/sales/SalesOrders?limit=100", [], 0, None
while path and pages < 10:
    status, body, headers = call(f"page SalesOrders #{pages + 1}", "GET", path, PAGE, headers=bearer(fresh_access))
    if status != 200:
        break
    page = json_of(body)
    first = first or (path, headers.get("ETag"))
    check(f"page SalesOrders #{pages + 1}", page["offset"] == len(seen) and page["limit"] == 100 and page["total"] == 240,
          f"limit/offset/total {page['limit']}/{page['offset']}/{page['total']}")
    seen += [item.get("SalesOrderID") for item in page["items"]]
    path, pages = page["next"], pages + 1
check("page SalesOrders", len(seen) == 240 and len(set(seen)) == 240, f"{len(seen)} rows ({len(set(seen))} distinct) in {pages} pages")
if first:
    call("page, not modified", "GET", first[0], PAGE, headers={**bearer(fresh_access), "If-None-Match": first[1]}, expect=304)
    call("page, not modified (weak comparison)", "GET", first[0], PAGE,
         headers={**bearer(fresh_access), "If-None-Match": f'"nope", W/{first[1]}'}, expect=304)
    call("page, modified", "GET", first[0], PAGE,
         headers={**bearer(fresh_access), "If-None-Match": '"00000000000000000000000000000000"'})
status, body, _ = call("page with defaults (X-API-Key)", "GET", "/v1/destinations/sales/Customers", PAGE, headers=kiosk)
if status == 200:
    page = json_of(body)
    check("page with defaults", (page["limit"], page["offset"], len(page["items"])) == (50, 0, 50)
          and page["next"] == "/v1/destinations/sales/Customers?limit=50&offset=50", f"limit/offset/next {page['limit']}/{page['offset']}/{page['next']}")
status, body, _ = call("page past the end", "GET", "/v1/destinations/sales/Products?offset=1000", PAGE, headers=bearer(fresh_access))
if status == 200:
    check("page past the end", json_of(body)["items"] == [] and json_of(body)["next"] is None, "items or next not empty")
if extension_access:
    call("page (extension token)", "GET", "/v1/destinations/sales/Products?limit=5", PAGE, headers=bearer(extension_access))
for query in ["limit=0", "limit=501", "limit=ten", "limit=5&limit=6", "offset=-1", "offset=1000000001", "offset=1.5"]:
    call(f"page with {query}", "GET", f"/v1/destinations/sales/Customers?{query}", PAGE, headers=bearer(fresh_access), expect=400)
call("page of an unknown destination", "GET", "/v1/destinations/nowhere/Customers", PAGE, headers=bearer(fresh_access), expect=404)
call("page of an unknown entity set", "GET", "/v1/destinations/sales/Nothing", PAGE, headers=kiosk, expect=404)
call("page without a credential", "GET", "/v1/destinations/sales/Customers", PAGE, expect=401)
call("page without data.read", "GET", "/v1/destinations/sales/Customers", PAGE, headers=bearer(events_only_access), expect=403)

# App configuration (public).
CONFIG = "/v1/apps/{clientId}/configuration"
status, body, headers = call("configuration", "GET", "/v1/apps/tandem-demo/configuration", CONFIG)
if status == 200:
    document = json_of(body)
    check("configuration", document["client_id"] == "tandem-demo" and document["security_mode"] == "oauth"
          and document["sso_enabled"] is True and document["url_scheme"] == "tandem-demo", "not the demo app's")
    check("configuration", document["passcode_policy"]["required_character_classes"] == ["digit"], "not the demo passcode policy")
    check("configuration", all(url.startswith(document["issuer"]) for url in document["endpoints"].values()),
          "an endpoint is not under the issuer")
    call("configuration, not modified", "GET", "/v1/apps/tandem-demo/configuration", CONFIG,
         headers={"If-None-Match": headers.get("ETag", "")}, expect=304)
status, body, _ = call("configuration of the kiosk", "GET", f"/v1/apps/{kiosk_client_id}/configuration", CONFIG)
if status == 200:
    document = json_of(body)
    check("configuration of the kiosk", document["security_mode"] == "apiKey" and document["url_scheme"] is None
          and document["redirect_uris"] == [], "not the kiosk's")
call("configuration of an unknown app", "GET", "/v1/apps/no-such-app/configuration", CONFIG, expect=404)

# Events and their summary.
EVENTS, SUMMARY = "/v1/events", "/v1/analytics/summary"
now = datetime.datetime.now(datetime.timezone.utc)
stamp = lambda minutes: (now - datetime.timedelta(minutes=minutes)).isoformat(timespec="milliseconds").replace("+00:00", "Z")
batch = {"events": [
    {"id": str(uuid.uuid4()), "name": "widget.tap", "timestamp": stamp(5),
     "properties": {"kind": "orders", "family": "systemMedium", "configuration": "open-orders", "extra": {"n": 1}}},
    {"id": str(uuid.uuid4()), "name": "widget.tap", "timestamp": stamp(4),
     "properties": {"kind": "orders", "family": "systemMedium", "configuration": "open-orders"}},
    {"id": str(uuid.uuid4()), "name": "widget.tap", "timestamp": stamp(3), "properties": {"kind": "kpi", "family": None}},
    {"id": str(uuid.uuid4()), "name": "app.open", "timestamp": stamp(2)},
]}
status, body, _ = call("send events", "POST", EVENTS, EVENTS, headers=bearer(fresh_access), json_body=batch)
check("send events", status != 200 or json_of(body) == {"accepted": 4, "duplicates": 0}, f"answer {body!r}")
status, body, _ = call("send events again", "POST", EVENTS, EVENTS, headers=bearer(fresh_access), json_body=batch)
check("send events again", status != 200 or json_of(body) == {"accepted": 0, "duplicates": 4}, f"answer {body!r}")
kiosk_batch = {"events": [{"id": str(uuid.uuid4()), "name": "widget.tap", "timestamp": stamp(1), "properties": {"kind": "kiosk"}}]}
status, body, _ = call("send events (X-API-Key)", "POST", EVENTS, EVENTS, headers=kiosk, json_body=kiosk_batch)
check("send events (X-API-Key)", status != 200 or json_of(body) == {"accepted": 1, "duplicates": 0}, f"answer {body!r}")
bad_batches = {
    "no events": {"events": []},
    "a bad id": {"events": [{**batch["events"][0], "id": "not-a-uuid"}]},
    "a bad name": {"events": [{**batch["events"][0], "id": str(uuid.uuid4()), "name": "widget tap"}]},
    "a timestamp without a zone": {"events": [{**batch["events"][0], "id": str(uuid.uuid4()), "timestamp": "2025-03-14T09:30:00"}]},
    "a numeric kind": {"events": [{**batch["events"][0], "id": str(uuid.uuid4()), "properties": {"kind": 7}}]},
    "501 events": {"events": [{"id": str(uuid.uuid4()), "name": "x", "timestamp": stamp(1)} for _ in range(501)]},
    # A valid event before an invalid one: nothing may be written.
    "one bad event of two": {"events": [{"id": str(uuid.uuid4()), "name": "widget.tap", "timestamp": stamp(1)},
                                        {"id": "bad", "name": "widget.tap", "timestamp": stamp(1)}]},
}
for what, bad in bad_batches.items():
    call(f"send events with {what}", "POST", EVENTS, EVENTS, headers=kiosk, json_body=bad, expect=400)
call("send events that are not JSON", "POST", EVENTS, EVENTS, headers={**kiosk, "Content-Type": "application/json"}, raw=b"{", expect=400)
call("send events as text/plain", "POST", EVENTS, EVENTS, headers={**kiosk, "Content-Type": "text/plain"},
     raw=json.dumps(kiosk_batch).encode(), expect=415)
call("send too large a batch", "POST", EVENTS, EVENTS, headers={**kiosk, "Content-Type": "application/json"},
     raw=b'{"events":[' + b" " * 70_000 + b"]}", expect=413)
call("send events without a credential", "POST", EVENTS, EVENTS, json_body=kiosk_batch, expect=401)
if extension_access:
    call("send events with an extension token", "POST", EVENTS, EVENTS, headers=bearer(extension_access), json_body=kiosk_batch, expect=403)
call("send events without events.write", "POST", EVENTS, EVENTS, headers=bearer(read_only_access), json_body=kiosk_batch, expect=403)

status, body, _ = call("summary", "GET", SUMMARY, SUMMARY, headers=bearer(fresh_access))
if status == 200:
    summary = json_of(body)
    groups = {(g["kind"], g["family"], g["configuration"]): g["count"] for g in summary["groups"]}
    check("summary", summary["client_id"] == client_id and summary["name"] == "widget.tap" and summary["total"] == 3
          and groups == {("orders", "systemMedium", "open-orders"): 2, ("kpi", None, None): 1}
          and summary["groups"][0]["count"] == 2, f"unexpected summary {summary}")
status, body, _ = call("summary of app.open in a period", "GET",
                       f"{SUMMARY}?name=app.open&from={urllib.parse.quote(stamp(60))}&to={urllib.parse.quote(stamp(0))}", SUMMARY,
                       headers=bearer(read_only_access))
check("summary of app.open", status != 200 or json_of(body).get("total") == 1, f"answer {body!r}")
status, body, _ = call("summary (X-API-Key)", "GET", SUMMARY, SUMMARY, headers=kiosk)
check("summary (X-API-Key)", status != 200 or (json_of(body).get("client_id"), json_of(body).get("total")) == (kiosk_client_id, 1),
      f"answer {body!r}")
if extension_access:
    call("summary (extension token)", "GET", SUMMARY, SUMMARY, headers=bearer(extension_access))
for query in ["from=yesterday", "to=2025-03-14T09:30:00", f"from={urllib.parse.quote(stamp(0))}&to={urllib.parse.quote(stamp(10))}",
              "name=a&name=b", "name=widget%20tap"]:
    call(f"summary with {query}", "GET", f"{SUMMARY}?{query}", SUMMARY, headers=kiosk, expect=400)
call("summary without a credential", "GET", SUMMARY, SUMMARY, expect=401)
call("summary without data.read", "GET", SUMMARY, SUMMARY, headers=bearer(events_only_access), expect=403)

for failure in failures:
    print(f"  FAIL {failure}", file=sys.stderr)
sys.exit(1 if failures else 0)
PY
happy_status=$?
set -e

note "running schemathesis $SCHEMATHESIS_VERSION (${TANDEM_OPENAPI_MAX_EXAMPLES:-25} examples per operation and phase)"
set +e
# In the background with `wait`, so that a TERM or INT sent to this script stops the run at once.
(
  cd "$workdir"   # schemathesis writes its example database to the working directory
  exec "$venv/bin/schemathesis" --no-color --config-file "$config" run "$spec" \
    --url "$base" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,response_headers_conformance \
    --phases examples,coverage,fuzzing,stateful \
    --max-examples "${TANDEM_OPENAPI_MAX_EXAMPLES:-25}" \
    --request-timeout 10 \
    --generation-database none \
    --workers "${TANDEM_OPENAPI_WORKERS:-1}" \
    "${seed_args[@]}" "${report_args[@]}" "$@"
) &
child_pid=$!
wait "$child_pid"
status=$?
child_pid=""
set -e

if ! kill -0 "$server_pid" 2>/dev/null; then
  tail -n 40 "$workdir/server.log" >&2
  fail "the server died during the run (its log above)"
fi
if [ "$status" -ne 0 ] || [ "$happy_status" -ne 0 ]; then
  if grep -Eq ' (error|critical)' "$workdir/server.log"; then
    echo "--- server log (errors) ---" >&2
    grep -E ' (error|critical)' "$workdir/server.log" | tail -n 20 >&2
  fi
  [ "$happy_status" -eq 0 ] || note "the success paths failed (FAIL lines above)"
  [ "$status" -eq 0 ] || note "schemathesis found failures (exit $status; above)"
  fail "the server does not conform to $spec"
fi
note "OK: the server conforms to $spec"
