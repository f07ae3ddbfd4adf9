# shellcheck shell=bash
# Sourced by scripts/pytest.sh: a Python virtualenv in the user's cache holding exactly the
# packages of a requirements file, rebuilt only when that file changes.
#
#   venv_ensure NAME REQUIREMENTS
#       makes sure ${XDG_CACHE_HOME:-~/.cache}/tandem/NAME holds what REQUIREMENTS pins (a stamp
#       file records the file's checksum), installing it with pip if not, and sets `venv` to its
#       path. On failure it prints why to stderr, removes the half-made virtualenv and returns 1.

venv_ensure() {
  local name="$1" requirements="$2" stamp
  venv="${XDG_CACHE_HOME:-$HOME/.cache}/tandem/$name"
  stamp="$(sha256sum <"$requirements" | cut -d ' ' -f 1)" || return 1
  if [ -x "$venv/bin/python" ] && [ "$(cat "$venv/.tandem-stamp" 2>/dev/null)" = "$stamp" ]; then
    return 0
  fi
  echo "installing $requirements into $venv" >&2
  rm -rf "$venv"
  mkdir -p "$(dirname "$venv")"
  python3 -m venv "$venv" || { echo "python3 -m venv $venv failed (is python3-venv installed?)" >&2; return 1; }
  "$venv/bin/pip" install --quiet --disable-pip-version-check --requirement "$requirements" \
    || { rm -rf "$venv"; echo "pip could not install $requirements" >&2; return 1; }
  echo "$stamp" >"$venv/.tandem-stamp"
}
