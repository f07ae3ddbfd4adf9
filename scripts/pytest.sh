#!/usr/bin/env bash
# Runs the server's Python test suites (Server/Tests: the HTTP contract in HTTPConformance, the
# pages in headless Chromium in Browser) against a built `tandem`, in a virtualenv pinned by
# Server/Tests/requirements.txt and cached under ${XDG_CACHE_HOME:-~/.cache}/tandem/.
#
#   scripts/pytest.sh PATH/TO/tandem [PYTEST ARGUMENTS…]     e.g. … -k destinations, … Browser
#
# Exits with pytest's status: non-zero on a failure, and 5 when no test was collected.
set -euo pipefail

[ $# -ge 1 ] || { echo "usage: scripts/pytest.sh PATH/TO/tandem [PYTEST ARGUMENTS…]" >&2; exit 2; }
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
tandem="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
shift

"$here/ensure-deps.sh" --python
# shellcheck source=lib/python-venv.sh
source "$here/lib/python-venv.sh"
venv_ensure pytest-venv "$here/../Server/Tests/requirements.txt" || { echo "pytest: no virtualenv" >&2; exit 1; }

cd "$here/../Server/Tests"
# Selenium must use the installed chromedriver, never download one.
SE_OFFLINE=true exec "$venv/bin/python" -m pytest -c pytest.ini --tandem="$tandem" "$@"
