#!/usr/bin/env bash
# Writes the widget gallery (`tandem widget gallery`: every state × family as SVG, one HTML page)
# and opens the page in headless Chromium through chromedriver: no console error, every card
# drawn. The screenshot is saved as Server/.build/widget-gallery/gallery.png.
#
#   scripts/check-gallery.sh PATH/TO/tandem
#
# Chromium and chromedriver are installed with apt-get if missing; selenium comes from PyPI
# into a cached virtualenv.
set -euo pipefail

SELENIUM_VERSION=4.27.1

fail() { echo "check-gallery: FAILED: $*" >&2; exit 1; }
note() { echo "check-gallery: $*" >&2; }

[ $# -eq 1 ] || { echo "usage: scripts/check-gallery.sh PATH/TO/tandem" >&2; exit 2; }
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tandem="$1"
[ -x "$tandem" ] || fail "$tandem is not an executable tandem binary"

"$here/ensure-deps.sh" --browser
# shellcheck source=lib/python-venv.sh
source "$here/lib/python-venv.sh"
venv_ensure gallery-venv "selenium==$SELENIUM_VERSION" || fail "cannot set up the Selenium virtualenv"

out="$here/../Server/.build/widget-gallery"
rm -rf "$out"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
summary="$("$tandem" widget gallery --out "$out")" || fail "tandem widget gallery failed"
cards="$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["svgFiles"])' "$summary")"
# Selenium must use the installed chromedriver, never download one.
SE_OFFLINE=true "$venv/bin/python" "$here/check_gallery.py" "$out/index.html" "$out/gallery.png" "$cards" \
  || fail "the gallery page did not pass in Chromium (above)"
