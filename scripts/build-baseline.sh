#!/usr/bin/env bash
# Builds the release `tandem` of an earlier commit of this repository, for `make bench
# BASELINE=<commit>`, and prints the folder it is kept in (progress goes to stderr):
# FOLDER/tandem is the binary and FOLDER/source the commit's tree.
#
#   scripts/build-baseline.sh COMMIT        e.g. main, cddc7f9, HEAD~5
#
# The commit's whole tree (the server package depends on the SDK by the relative path `..`) is
# taken with `git archive` into Server/.build-baseline/<full commit hash>/source, and built there
# with its own scratch folder (…/scratch), under `nice` so other work on the machine keeps its
# share. A finished build is kept: the same commit again prints the kept binary without building
# (delete the folder to rebuild, e.g. after a toolchain change). Packages resolve as the current
# tree's do; no Package.resolved is copied in.
#
# Fails with a message when COMMIT names no commit, when its tree has no server package, or when
# its build fails (the build's log is kept in the folder and its tail printed).
set -euo pipefail

fail() { echo "build-baseline: FAILED: $*" >&2; exit 1; }
note() { echo "build-baseline: $*" >&2; }

if [ $# -ne 1 ] || [ -z "$1" ]; then echo "usage: scripts/build-baseline.sh COMMIT" >&2; exit 2; fi

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
commit="$(git -C "$root" rev-parse --verify --quiet "$1^{commit}")" \
  || fail "'$1' does not name a commit of this repository (git rev-parse found none; fetch it, or give a hash, branch or tag)"
folder="$root/Server/.build-baseline/$commit"
source_tree="$folder/source"
scratch="$folder/scratch"
binary="$scratch/release/tandem"
stamp="$folder/built"
log="$folder/build.log"

mkdir -p "$folder"
# One build per commit at a time: a second run waits for the first and then finds its binary.
exec 9>"$folder/lock"
if ! flock -n 9; then
  note "another build of $commit is under way; waiting for it"
  flock 9
fi

if [ -f "$stamp" ] && [ -x "$binary" ]; then
  ln -sfn scratch/release/tandem "$folder/tandem"
  note "baseline $(git -C "$root" log -1 --format='%h %s' "$commit" | cut -c 1-100)"
  note "using the build kept in ${folder#"$root"/} (built $(cat "$stamp"))"
  echo "$folder"
  exit 0
fi

note "baseline $(git -C "$root" log -1 --format='%h %s' "$commit" | cut -c 1-100)"
rm -rf "$source_tree" "$stamp"
mkdir -p "$source_tree"
git -C "$root" archive --format=tar "$commit" | tar -x -C "$source_tree" || fail "git archive $commit failed"
[ -f "$source_tree/Server/Package.swift" ] || fail "commit $commit has no Server/Package.swift: it predates the server package"

note "building its release tandem in ${folder#"$root"/} (a first build takes tens of minutes; log: ${log#"$root"/})"
started=$SECONDS
nice -n 10 swift build -c release --product tandem --package-path "$source_tree/Server" --scratch-path "$scratch" >"$log" 2>&1 &
build_pid=$!
trap 'kill -TERM "$build_pid" 2>/dev/null || true' EXIT
while kill -0 "$build_pid" 2>/dev/null; do
  for _ in $(seq 1 60); do
    kill -0 "$build_pid" 2>/dev/null || break
    sleep 1
  done
  if kill -0 "$build_pid" 2>/dev/null; then
    step="$(grep -o '^\[[0-9]*/[0-9]*\]' "$log" | tail -n 1 || true)"
    note "still building after $(( (SECONDS - started) / 60 )) min ${step:+(step ${step//[][]/})}"
  fi
done
status=0
wait "$build_pid" || status=$?
trap - EXIT
if [ "$status" -ne 0 ] || [ ! -x "$binary" ]; then
  tail -n 30 "$log" >&2
  fail "the release build of $commit failed (exit $status); the whole log is ${log#"$root"/}"
fi
ln -sfn scratch/release/tandem "$folder/tandem"
date -u '+%Y-%m-%d %H:%M UTC' >"$stamp"
note "built in $(( (SECONDS - started) / 60 )) min $(( (SECONDS - started) % 60 )) s"
echo "$folder"
