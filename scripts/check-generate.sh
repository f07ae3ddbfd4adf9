#!/usr/bin/env bash
# `tandem generate` end to end, as a team would use it: against the running demo server it writes
# a new app (host app, widget extension, AppCore package, project.yml) and a widget for an app
# already in the store, then
#   - every generated Swift file parses (`swiftc -parse`; the iOS type-check needs an SDK CI lacks;
#     project.yml and TandemWidget.yml are read with Yams by Server/Tests/TandemGeneratorTests),
#   - without --team-id, generate warns; the placeholder icon decodes with a real PNG decoder and
#     the privacy manifests are property lists,
#   - AppCore builds and its tests pass on Linux against this SDK by path: a real build, real tests,
#   - a second run into the same directory is refused and changes nothing.
#
#   scripts/check-generate.sh PATH/TO/tandem
#
# TANDEM_GENERATE_KEEP=DIR keeps the generated projects in DIR (default: a temporary directory,
# removed). TANDEM_SCRATCH_PATH=DIR builds AppCore in that scratch folder (make test passes the one
# the SDK and the server were built in, so the SDK's modules are reused); without it AppCore's
# build compiles the SDK again and is the slow part (about 2 minutes on two cores).
set -euo pipefail

fail() { echo "check-generate: FAILED: $*" >&2; exit 1; }
note() { echo "check-generate: $*" >&2; }

[ $# -eq 1 ] || { echo "usage: scripts/check-generate.sh PATH/TO/tandem" >&2; exit 2; }
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
tandem="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
[ -x "$tandem" ] || fail "$tandem is not an executable tandem binary"

if [ -n "${TANDEM_GENERATE_KEEP:-}" ]; then
  mkdir -p "$TANDEM_GENERATE_KEEP"
  dir="$(cd "$TANDEM_GENERATE_KEEP" && pwd)"
else
  dir="$(mktemp -d)"
fi
# shellcheck source=lib/tandem-serve.sh
source "$here/lib/tandem-serve.sh"
cleanup() {
  serve_stop
  [ -n "${TANDEM_GENERATE_KEEP:-}" ] || rm -rf "$dir"
}
trap cleanup EXIT

"$tandem" admin seed-demo --database "sqlite:$dir/server.sqlite" --fast-password-hashing >/dev/null 2>"$dir/seed.log" || fail "seed-demo: $(tail -n 3 "$dir/seed.log")"
serve_start "$tandem" "$dir/server.out" "$dir/server.log" --database "sqlite:$dir/server.sqlite" --log-level warning \
  || fail "the demo server did not start"
note "demo server at $server_base"

app="$dir/Sales"
"$tandem" generate app --server "$server_base" --client-id tandem-demo --bundle-id com.example.sales --name Sales \
  --sdk-path "$root" --output "$app" >"$dir/app.json" 2>"$dir/app.err" || fail "generate app: $(cat "$dir/app.err")"
grep -q "warning: no --team-id" "$dir/app.err" || fail "generate app without --team-id did not warn: $(cat "$dir/app.err")"
note "generated $(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["files"]))' "$dir/app.json") files in $app"
grep -q "serverAddress: \"$server_base\"" "$app/AppCore/Sources/AppCore/AppSettings.swift" \
  || fail "AppSettings does not name the server the configuration came from"

# The placeholder icon, read by a real PNG decoder (Python's zlib): 1024 x 1024, opaque, a white
# card on a colour; and the privacy manifests are property lists (plistlib).
python3 - "$app" <<'PY' || fail "the generated icon or privacy manifests do not decode"
import plistlib, struct, sys, zlib
app = sys.argv[1]
png = open(f"{app}/App/Assets.xcassets/AppIcon.appiconset/AppIcon.png", "rb").read()
assert png[:8] == b"\x89PNG\r\n\x1a\n"
chunks, at = {}, 8
while at < len(png):
    length, kind = struct.unpack(">I4s", png[at:at + 8])
    body = png[at + 8:at + 8 + length]
    assert zlib.crc32(kind + body) == struct.unpack(">I", png[at + 8 + length:at + 12 + length])[0], kind
    chunks[kind] = chunks.get(kind, b"") + body
    at += 12 + length
width, height, depth, colour = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
assert (width, height, colour) == (1024, 1024, 3) and b"tRNS" not in chunks, (width, height, colour)
rows = zlib.decompress(chunks[b"IDAT"])
stride = (width * depth + 7) // 8 + 1
palette = [chunks[b"PLTE"][i:i + 3] for i in range(0, len(chunks[b"PLTE"]), 3)]
def pixel(x, y):
    byte = rows[y * stride + 1 + x * depth // 8]
    return palette[(byte >> (8 - depth - x * depth % 8)) & ((1 << depth) - 1)]
assert pixel(250, 250) == b"\xff\xff\xff" and pixel(10, 10) != b"\xff\xff\xff"
for manifest in ("App/PrivacyInfo.xcprivacy", "Widget/PrivacyInfo.xcprivacy"):
    assert plistlib.load(open(f"{app}/{manifest}", "rb"))["NSPrivacyTracking"] is False, manifest
PY
note "the placeholder icon decodes (1024 x 1024, opaque) and the privacy manifests are property lists"

existing="$dir/Existing"
mkdir -p "$existing"
printf 'name: Existing\n' >"$existing/project.yml"
"$tandem" generate widget --server "$server_base" --client-id tandem-demo --bundle-id com.example.existing --name Existing \
  --sdk-path "$root" --into "$existing" >"$dir/widget.json" || fail "generate widget"
[ "$(cat "$existing/project.yml")" = "name: Existing" ] || fail "generate widget changed the app's own project.yml"

# A second run is refused with a typed error and leaves the project as it was.
before="$(cd "$app" && find . -type f -exec sha256sum {} + | sort | sha256sum)"
if "$tandem" generate app --server "$server_base" --client-id tandem-demo --bundle-id com.example.sales --sdk-path "$root" \
  --output "$app" >/dev/null 2>"$dir/again.err"; then
  fail "a second generate into $app succeeded"
fi
grep -q "exists and is not empty" "$dir/again.err" || fail "the refusal did not say why: $(cat "$dir/again.err")"
after="$(cd "$app" && find . -type f -exec sha256sum {} + | sort | sha256sum)"
[ "$before" = "$after" ] || fail "a refused generate changed the project"
# An unknown client id is the server's 404, and writes nothing.
if "$tandem" generate app --server "$server_base" --client-id no-such-app --bundle-id com.example.none --sdk-path "$root" \
  --output "$dir/None" >/dev/null 2>"$dir/unknown.err"; then
  fail "generate for an unknown client id succeeded"
fi
[ ! -e "$dir/None" ] || fail "a failed generate left $dir/None"

count=0
while IFS= read -r -d '' file; do
  swiftc -parse "$file" 2>"$dir/parse.err" || fail "$file does not parse: $(cat "$dir/parse.err")"
  count=$((count + 1))
done < <(find "$app" "$existing" -name '*.swift' -not -path '*/.build/*' -print0)
note "$count generated Swift files parse"

note "building and testing AppCore on Linux (swift test) …"
start=$(date +%s)
# TANDEM_SCRATCH_PATH: a scratch folder shared with the SDK's own build (make test passes the
# server's), so the SDK's modules are not compiled again for AppCore.
scratch=()
[ -n "${TANDEM_SCRATCH_PATH:-}" ] && scratch=(--scratch-path "$TANDEM_SCRATCH_PATH")
# TANDEM_SWIFT_BUILD_FLAGS: the flags of the build whose scratch folder is shared (make test's).
read -r -a build_flags <<<"${TANDEM_SWIFT_BUILD_FLAGS:-}"
test_flags=()
case " ${build_flags[*]} " in *" --disable-xctest "*) test_flags=(--disable-xctest) ;; esac
(cd "$app/AppCore" && swift build --build-tests "${scratch[@]}" "${build_flags[@]}" >"$dir/appcore-build.log" 2>&1) || { tail -n 40 "$dir/appcore-build.log" >&2; fail "AppCore does not build"; }
(cd "$app/AppCore" && swift test --skip-build "${scratch[@]}" "${test_flags[@]}" >"$dir/appcore-test.log" 2>&1) || { tail -n 60 "$dir/appcore-test.log" >&2; fail "AppCore's tests fail"; }
passed="$(grep -Eo 'Test run with [0-9]+ tests? (in [0-9]+ suites? )?passed' "$dir/appcore-test.log" | tail -n 1)"
[ -n "$passed" ] || { tail -n 30 "$dir/appcore-test.log" >&2; fail "no passing test run reported"; }
note "AppCore: $passed ($(( $(date +%s) - start )) s with its build)"
echo "check-generate: OK: generate app and generate widget from $server_base; $count Swift files parse; AppCore: $passed"
