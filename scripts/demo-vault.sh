#!/usr/bin/env bash
# `make demo`: the Vault from the command line, each step a separate `tandem` process, as a host
# app and its widget would be. Usage: scripts/demo-vault.sh PATH-TO-TANDEM
set -euo pipefail

tandem=${1:?usage: demo-vault.sh PATH-TO-TANDEM}
[ -x "$tandem" ] || { echo "demo: $tandem is not an executable; build it with: cd Server && swift build --product tandem" >&2; exit 1; }
home=$(mktemp -d "${TMPDIR:-/tmp}/tandem-demo.XXXXXX")
trap 'rm -rf "$home"' EXIT

step() { printf '\n\033[1m▸ %s\033[0m\n' "$*"; }
run() { printf '  $ tandem %s\n' "$*"; "$tandem" "$@" 2>&1 | sed -e 's/^/    /' -e '$a\'; }
fingerprint() { printf '%s' "$1" | sha256sum | cut -c1-16; }

token="rt_$(head -c 24 /dev/urandom | base64 | tr -d '/+=')"
profile='{"name":"Ada Lovelace","company":"Analytical Engines Ltd","roles":["sales","approver"]}'
export TANDEM_PASSCODE="first-Passcode-1"

step "The host app creates its vault with the user's passcode (scrypt calibrated to ≥ 100 ms here)"
run vault create --dir "$home"
step "…and stores the session: a refresh token and the user's profile"
# Values go in on standard input: on the command line `ps` would show them to every account.
printf '%s' "$token" | "$tandem" vault put --dir "$home" refresh-token >/dev/null
printf '%s' "$profile" | run vault put --dir "$home" profile
echo "    refresh token stored (sha256 $(fingerprint "$token")…, never printed)"

step "An app update adds a widget: extension access is enabled with one unlock, no passcode change"
run vault enable-extension-access --dir "$home"
run vault status --dir "$home"

step "Where the secrets are: the widget's side holds only the auxiliary share"
( cd "$home" && find . -type f -not -name '.*' | sort | sed 's/^/    /' )
if grep -rqF "$token" "$home"; then echo "    !! the token is readable in a file" >&2; exit 1; fi
echo "    the refresh token appears in no file (every item is sealed with AES-GCM)"

step "A widget request, in a new process, without any passcode: the host opens the vault with the shares"
unset TANDEM_PASSCODE
run vault get-paired --dir "$home" profile
read_back=$("$tandem" vault get-paired --dir "$home" refresh-token)
echo "    refresh token read back through the paired key: sha256 $(fingerprint "$read_back")… ($([ "$read_back" = "$token" ] && echo intact || echo CHANGED))"

step "The user changes the passcode: only the passcode's key slot is rewrapped"
TANDEM_PASSCODE="first-Passcode-1" TANDEM_NEW_PASSCODE="second-Passcode-2" run vault change-passcode --dir "$home"

step "The old passcode no longer opens the vault (and counts as a failed attempt)"
printf '  $ tandem vault get --dir … profile   (old passcode)\n'
if TANDEM_PASSCODE="first-Passcode-1" "$tandem" vault get --dir "$home" profile 2>&1 | sed 's/^/    /'; then
  echo "    !! the old passcode still works" >&2; exit 1
fi

step "The new passcode does, and the data is intact; the widget's share still works too"
TANDEM_PASSCODE="second-Passcode-2" run vault get --dir "$home" profile
read_back=$(TANDEM_PASSCODE="second-Passcode-2" "$tandem" vault get --dir "$home" refresh-token)
echo "    refresh token: sha256 $(fingerprint "$read_back")… ($([ "$read_back" = "$token" ] && echo intact || echo CHANGED))"
read_back=$("$tandem" vault get-paired --dir "$home" refresh-token)
echo "    through the paired key: ($([ "$read_back" = "$token" ] && echo intact || echo CHANGED))"
[ "$read_back" = "$token" ] || exit 1

step "Rotating the paired key retires the widget's old share; the new one is already in place"
TANDEM_PASSCODE="second-Passcode-2" run vault rotate-paired-key --dir "$home"
run vault get-paired --dir "$home" profile

printf '\nDemo complete. The vault lived in %s (removed now).\n' "$home"
