#!/usr/bin/env bash
# Installs what `make test`, `make demo` and `make bench` need on a fresh Debian machine, or says
# clearly what is missing. Idempotent: it does nothing when everything is already there.
set -euo pipefail

fail() { echo "ensure-deps: $*" >&2; exit 1; }

command -v swift >/dev/null 2>&1 || fail "the Swift toolchain (6.1 or newer) is not on PATH; install it from swift.org"

# Debian packages: GRDB links the system SQLite.
packages=(libsqlite3-dev)
missing=()
for package in "${packages[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  command -v apt-get >/dev/null 2>&1 || fail "missing ${missing[*]} and no apt-get to install it; install them with your package manager"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || fail "missing ${missing[*]}: run as root or install them: apt-get install ${missing[*]}"
    sudo="sudo"
  fi
  echo "ensure-deps: installing ${missing[*]}"
  $sudo apt-get update -qq || fail "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null || fail "apt-get install ${missing[*]} failed"
fi
