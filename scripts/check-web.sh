#!/usr/bin/env bash
# The server's pages in a real browser, against a seeded server. First cross-context SSO
# (scripts/check_sso.py): headless Chromium signs in as the demo user on a seeded
# server, opens the SSO page, saves a screenshot, and zbarimg decodes the QR code from it; a
# `tandem host` process onboards with that picture, the browser clicks Approve, and the host
# reads data, with no password typed on the "phone". Then the same with a phone's browser: the
# "Next" link goes to `tandem host open-url`. No console error on any page; screenshots at
# 1280 px and 390 px are saved under Server/.build/web-pages/ for a person to look at. Then the
# cockpit (scripts/check_cockpit.py): an administrator creates an app, switches SSO, creates an
# API key, uses it, revokes it and sees it refused, and sees the SSO host's widget tap in the
# chart; a user who is no administrator is refused; a form without its token is refused.
#
#   scripts/check-web.sh PATH/TO/tandem
#
# Chromium, chromedriver and zbar-tools are installed with apt-get if missing; selenium comes
# from PyPI into a cached virtualenv.
set -euo pipefail

SELENIUM_VERSION=4.27.1

fail() { echo "check-web: FAILED: $*" >&2; exit 1; }

[ $# -eq 1 ] || { echo "usage: scripts/check-web.sh PATH/TO/tandem" >&2; exit 2; }
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tandem="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
[ -x "$tandem" ] || fail "$tandem is not an executable tandem binary"

"$here/ensure-deps.sh" --browser
"$here/ensure-deps.sh"
command -v zbarimg >/dev/null 2>&1 || fail "zbarimg is missing (Debian package zbar-tools)"
# shellcheck source=lib/python-venv.sh
source "$here/lib/python-venv.sh"
venv_ensure gallery-venv "selenium==$SELENIUM_VERSION" || fail "cannot set up the Selenium virtualenv"

out="$here/../Server/.build/web-pages"
rm -rf "$out"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/tandem-check-web.XXXXXX")"
# shellcheck source=lib/tandem-serve.sh
source "$here/lib/tandem-serve.sh"
trap 'serve_stop; rm -rf "$work"' EXIT

"$tandem" admin seed-demo --database "sqlite:$work/server.sqlite" >/dev/null 2>&1 || fail "seed-demo failed"
serve_start "$tandem" "$work/server.out" "$work/server.log" --database "sqlite:$work/server.sqlite" --log-level warning \
  --sso-passcode-lifetime 90 \
  || fail "tandem serve did not start"
# Selenium must use the installed chromedriver, never download one.
SE_OFFLINE=true "$venv/bin/python" "$here/check_sso.py" "$tandem" "$server_base" "sqlite:$work/server.sqlite" "$work" "$out" \
  || fail "the SSO pages did not pass in Chromium (above); the server's log: $(tail -n 5 "$work/server.log")"
SE_OFFLINE=true "$venv/bin/python" "$here/check_cockpit.py" "$tandem" "$server_base" "$work" "$out" \
  || fail "the cockpit did not pass in Chromium (above); the server's log: $(tail -n 5 "$work/server.log")"
