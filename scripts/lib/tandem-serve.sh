# shellcheck shell=bash
# Sourced by demo-story.sh, check-generate.sh and the bench scripts: start and stop one
# `tandem serve` on a free loopback port.
#
#   serve_start BINARY OUT LOG [SERVE OPTIONS…]
#       starts `BINARY serve --host 127.0.0.1 --port 0 OPTIONS…` (stdout to OUT, stderr to LOG),
#       waits up to 30 s for its "listening on" line and sets server_pid and server_base
#       (http://127.0.0.1:PORT). On failure it prints the log's tail and the reason to stderr
#       and returns 1.
#   serve_stop
#       SIGTERM (a graceful shutdown), up to 5 s, then SIGKILL; does nothing if none is running.

#
# The server's keys are sealed under a system secret (TANDEM_SYSTEM_SECRET). PostgreSQL needs
# one, and every command of one script run must use the same: unless the caller set one, a
# random secret is exported for this run (the databases these scripts make are throwaway).

server_pid=""
server_base=""

if [ -z "${TANDEM_SYSTEM_SECRET:-}" ]; then
  TANDEM_SYSTEM_SECRET="$(head -c 32 /dev/urandom | base64 | tr -d '\n=')"
  export TANDEM_SYSTEM_SECRET
fi

serve_start() {
  local binary="$1" out="$2" log="$3"
  shift 3
  "$binary" serve --host 127.0.0.1 --port 0 "$@" >"$out" 2>"$log" &
  server_pid=$!
  server_base=""
  for _ in $(seq 1 300); do
    server_base="$(sed -n 's|^listening on \(http://[^ ]*\).*|\1|p' "$out" | head -n 1)"
    [ -n "$server_base" ] && return 0
    if ! kill -0 "$server_pid" 2>/dev/null; then
      tail -n 20 "$log" >&2
      echo "tandem serve exited before listening" >&2
      return 1
    fi
    sleep 0.1
  done
  tail -n 20 "$log" >&2
  echo "tandem serve did not print 'listening on …' within 30 s" >&2
  return 1
}

serve_stop() {
  [ -n "$server_pid" ] || return 0
  if kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null || true
    for _ in $(seq 1 50); do
      kill -0 "$server_pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$server_pid" 2>/dev/null || true
  fi
  wait "$server_pid" 2>/dev/null || true
  server_pid=""
}
