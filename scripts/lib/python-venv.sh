# shellcheck shell=bash
# Sourced by scripts/pytest.sh and scripts/demo-story.sh: a Python virtualenv in the user's cache
# holding exactly the packages of a requirements file, rebuilt only when that file changes. Two
# callers at once (make test runs the pytest suites beside the demo story) take turns on a lock
# file beside it: the second finds the first's virtualenv made, never half made.
#
#   venv_ensure NAME REQUIREMENTS
#       makes sure ${XDG_CACHE_HOME:-~/.cache}/tandem/NAME holds what REQUIREMENTS pins (a stamp
#       file records the file's checksum), installing it with pip if not, and sets `venv` to its
#       path. On failure it prints why to stderr, removes the half-made virtualenv and returns 1.

venv_ensure() {
  local name="$1" requirements="$2" status=0
  venv="${XDG_CACHE_HOME:-$HOME/.cache}/tandem/$name"
  mkdir -p "$(dirname "$venv")" || return 1
  # The lock is held on a descriptor of this subshell only: it ends with it, whatever happens.
  (
    flock 9 || { echo "cannot lock $venv.lock" >&2; exit 1; }
    venv_make "$venv" "$requirements"
  ) 9>"$venv.lock" || status=$?
  return "$status"
}

# venv_make VENV REQUIREMENTS: venv_ensure's work, under its lock.
venv_make() {
  local venv="$1" requirements="$2" stamp
  stamp="$(sha256sum <"$requirements" | cut -d ' ' -f 1)" || return 1
  if [ -x "$venv/bin/python" ] && [ "$(cat "$venv/.tandem-stamp" 2>/dev/null)" = "$stamp" ]; then
    return 0
  fi
  echo "installing $requirements into $venv" >&2
  rm -rf "$venv"
  python3 -m venv "$venv" || { echo "python3 -m venv $venv failed (is python3-venv installed?)" >&2; return 1; }
  "$venv/bin/pip" install --quiet --disable-pip-version-check --requirement "$requirements" \
    || { rm -rf "$venv"; echo "pip could not install $requirements" >&2; return 1; }
  echo "$stamp" >"$venv/.tandem-stamp"
}
