#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL 15 server: a fresh data directory under mktemp, a free
# loopback port, a `tandem_test` database. Exports TANDEM_TEST_POSTGRES_URL for the command, and
# always stops the server and deletes the directory afterwards, whatever the command did.
#
#   scripts/with-postgres.sh swift test
set -euo pipefail

fail() { echo "with-postgres: $*" >&2; exit 1; }

[ $# -gt 0 ] || fail "usage: scripts/with-postgres.sh COMMAND [ARGUMENTS…]"

find_bin() {
  if [ -n "${TANDEM_POSTGRES_BIN:-}" ] && [ -x "$TANDEM_POSTGRES_BIN/initdb" ]; then echo "$TANDEM_POSTGRES_BIN"; return; fi
  for dir in /usr/lib/postgresql/15/bin /usr/lib/postgresql/*/bin; do
    if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ]; then echo "$dir"; return; fi
  done
}

bin="$(find_bin || true)"
if [ -z "$bin" ]; then
  command -v apt-get >/dev/null 2>&1 || fail "PostgreSQL is not installed (no initdb under /usr/lib/postgresql/*/bin) and apt-get is missing; install PostgreSQL 15 or set TANDEM_POSTGRES_BIN"
  [ "$(id -u)" -eq 0 ] || fail "PostgreSQL is not installed; run as root or: sudo apt-get install -y postgresql"
  echo "with-postgres: installing PostgreSQL with apt-get" >&2
  apt-get update -qq >&2 || fail "apt-get update failed"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2 || fail "apt-get install postgresql failed"
  bin="$(find_bin || true)"
  [ -n "$bin" ] || fail "PostgreSQL was installed but initdb is still missing under /usr/lib/postgresql/*/bin"
fi

# initdb refuses to run as root: as root the server runs as the `postgres` system user.
as_owner=()
if [ "$(id -u)" -eq 0 ]; then
  id postgres >/dev/null 2>&1 || fail "running as root needs the 'postgres' system user to own the server"
  as_owner=(runuser -u postgres --)
fi

workdir="$(mktemp -d "${TMPDIR:-/tmp}/tandem-postgres.XXXXXX")"
datadir="$workdir/data"
socketdir="$workdir/socket"
logfile="$workdir/postgres.log"
mkdir -p "$datadir" "$socketdir"
chmod 0755 "$workdir"
[ ${#as_owner[@]} -eq 0 ] || chown -R postgres: "$workdir"

started=0
# shellcheck disable=SC2317  # reached through the EXIT trap, which shellcheck does not follow
cleanup() {
  status=$?
  if [ "$started" -eq 1 ]; then
    "${as_owner[@]}" "$bin/pg_ctl" -D "$datadir" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$workdir"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# A free loopback port: ask the kernel for one, then hand it to PostgreSQL.
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()' 2>/dev/null || true)"
if [ -z "$port" ]; then
  port=$(( 20000 + RANDOM % 20000 ))
fi

"${as_owner[@]}" "$bin/initdb" -D "$datadir" -U tandem --auth=trust --encoding=UTF8 --no-locale >"$workdir/initdb.log" 2>&1 \
  || { cat "$workdir/initdb.log" >&2; fail "initdb failed"; }

# max_connections: the server suite runs many tests at once, each server (in process or
# `tandem serve`) with a pool of 8 connections per core; at 200 a clean clone refused
# connections ("sorry, too many clients already", SQLSTATE 53300) in ConcurrentRefreshTests.
"${as_owner[@]}" "$bin/pg_ctl" -D "$datadir" -l "$logfile" -w -t 60 \
  -o "-c listen_addresses=127.0.0.1 -p $port -k $socketdir -c max_connections=1000 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
  start >/dev/null || { cat "$logfile" >&2; fail "PostgreSQL did not start on port $port"; }
started=1

"$bin/createdb" -h 127.0.0.1 -p "$port" -U tandem tandem_test || fail "createdb tandem_test failed"

export TANDEM_TEST_POSTGRES_URL="postgres://tandem@127.0.0.1:$port/tandem_test"
echo "with-postgres: PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port ($TANDEM_TEST_POSTGRES_URL)" >&2

set +e
"$@"
status=$?
set -e
exit "$status"
