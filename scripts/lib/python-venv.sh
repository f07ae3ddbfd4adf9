# Sourced by check-openapi.sh and check-gallery.sh: a Python virtualenv per tool, in the user's
# cache, rebuilt only when the pinned packages change.
#
#   venv_ensure NAME "PACKAGE==VERSION …"
#       makes sure ${XDG_CACHE_HOME:-~/.cache}/tandem/NAME holds exactly these packages (a stamp
#       file records them), installing them with pip if not, and sets `venv` to its path. On
#       failure it prints why to stderr, removes the half-made virtualenv and returns 1.

venv_ensure() {
  local name="$1" stamp="$2"
  venv="${XDG_CACHE_HOME:-$HOME/.cache}/tandem/$name"
  if [ -x "$venv/bin/python" ] && [ "$(cat "$venv/.tandem-stamp" 2>/dev/null)" = "$stamp" ]; then
    return 0
  fi
  echo "installing $stamp into $venv" >&2
  rm -rf "$venv"
  mkdir -p "$(dirname "$venv")"
  python3 -m venv "$venv" || { echo "python3 -m venv $venv failed (is python3-venv installed?)" >&2; return 1; }
  # shellcheck disable=SC2086
  "$venv/bin/pip" install --quiet --disable-pip-version-check $stamp \
    || { rm -rf "$venv"; echo "pip could not install $stamp" >&2; return 1; }
  echo "$stamp" >"$venv/.tandem-stamp"
}
