#!/usr/bin/env bash
# Installs what `make test`, `make demo` and `make bench` need on a fresh Debian machine, or says
# clearly what is missing. Idempotent: it does nothing when everything is already there.
#
#   scripts/ensure-deps.sh              the Swift toolchain check, the build's system packages, zbar
#                                       and shellcheck
#   scripts/ensure-deps.sh --bench      only wrk, curl, time, python3 and SQLCipher, for make bench
#   scripts/ensure-deps.sh --demo       only curl, jq, openssl and python3 with venv, for
#                                       scripts/demo-story.sh (its customer backend is a Django
#                                       service, installed from PyPI into a virtualenv)
#   scripts/ensure-deps.sh --python     python3 with venv, Chromium, chromedriver and zbar, for
#                                       scripts/pytest.sh (the server's pytest suites)
set -euo pipefail

want_build=1
want_bench=0
want_demo=0
want_python=0
for argument in "$@"; do
  case "$argument" in
    --bench) want_bench=1; want_build=0 ;;
    --demo) want_demo=1; want_build=0 ;;
    --python) want_python=1; want_build=0 ;;
    *) echo "ensure-deps: unknown option $argument (known: --bench, --demo, --python)" >&2; exit 2 ;;
  esac
done

fail() { echo "ensure-deps: $*" >&2; exit 1; }

missing=()
if [ "$want_build" -eq 1 ]; then
  command -v swift >/dev/null 2>&1 || fail "the Swift toolchain (6.1 or newer) is not on PATH; install it from swift.org"

  # Debian packages: GRDB links the system SQLite; the server draws SSO QR codes with
  # libqrencode; zbarimg reads them back (`tandem host onboard --qr-image` and the tests);
  # `make test` runs shellcheck over every shell script.
  packages=(libsqlite3-dev libqrencode-dev zbar-tools shellcheck)
  for package in "${packages[@]}"; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
  done
fi
# The server benchmark's load generator, curl for its probes and python3 for its report and the
# process benchmarks; SQLCipher, which the vault benchmark (Benchmarks/) measures the vault against.
if [ "$want_bench" -eq 1 ]; then
  dpkg -s libsqlcipher-dev >/dev/null 2>&1 || missing+=(libsqlcipher-dev)
  command -v wrk >/dev/null 2>&1 || missing+=(wrk)
  command -v curl >/dev/null 2>&1 || missing+=(curl)
  [ -x /usr/bin/time ] || missing+=(time)
  command -v python3 >/dev/null 2>&1 || missing+=(python3)
fi
# The server demo's HTTP client and JSON reader.
if [ "$want_demo" -eq 1 ]; then
  command -v curl >/dev/null 2>&1 || missing+=(curl)
  command -v jq >/dev/null 2>&1 || missing+=(jq)
  # The demo app's APNs auth key (a .p8 file, as Apple issues one) is made with openssl.
  command -v openssl >/dev/null 2>&1 || missing+=(openssl)
  # The customer's backend of the per-user stage: Django REST Framework in a virtualenv.
  command -v python3 >/dev/null 2>&1 || missing+=(python3)
  python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || missing+=(python3-venv)
fi
# The pytest suites' virtualenv (their packages come from PyPI into it), the browser suite's
# headless Chromium and its driver, and zbarimg to read the SSO page's QR code.
if [ "$want_python" -eq 1 ]; then
  command -v python3 >/dev/null 2>&1 || missing+=(python3)
  python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || missing+=(python3-venv)
  command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || missing+=(chromium)
  command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
  command -v zbarimg >/dev/null 2>&1 || missing+=(zbar-tools)
fi
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
