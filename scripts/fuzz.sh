#!/usr/bin/env bash
# Fuzzes every target of the fuzz package (Fuzz/) for a set time each: builds `tandem-fuzz` with
# libFuzzer, AddressSanitizer and coverage instrumentation (every Swift module of the build, the
# SDK's too), runs each target on its committed seeds (Fuzz/Corpus/<target>/, never written) plus
# a working corpus kept between runs (Fuzz/.build-fuzz/corpus/<target>/), and prints executions,
# corpus size and crashes per target. Crashing inputs are saved in Fuzz/.build-fuzz/crashes/<target>/;
# the script fails if any target crashed.
#
# Each target also runs with its libFuzzer dictionary, Fuzz/Dictionaries/<target>.dict: the tokens
# its parser compares (JSON keys and values, URL schemes, hosts and query names, magic bytes and
# versions). Comparisons made inside the uninstrumented standard library and Foundation
# (Data.starts(with:), JSONDecoder's key matching) give libFuzzer no guidance of their own, so
# without them it rarely finds such a token. A target without a dictionary is an error, checked
# before any target runs.
#
#   scripts/fuzz.sh SECONDS [TARGET…]       (make fuzz FUZZ_SECONDS=600)
set -euo pipefail

fail() { echo "fuzz: $*" >&2; exit 1; }

[ $# -ge 1 ] || fail "usage: scripts/fuzz.sh SECONDS [TARGET…]"
seconds="$1"
shift

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
scratch="$root/Fuzz/.build-fuzz"

# libFuzzer's driver without its main (the package's @main calls LLVMFuzzerRunDriver), from the
# toolchain that builds the package.
toolchain="$(dirname "$(readlink -f "$(command -v swift)")")/.."
runtime="$(compgen -G "$toolchain/lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-$(uname -m).a" | head -n 1 || true)"
[ -n "$runtime" ] || fail "no libclang_rt.fuzzer_no_main in $toolchain/lib/clang/*/lib/linux/"

swift build --package-path "$root/Fuzz" --scratch-path "$scratch" --product tandem-fuzz \
  -Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp \
  -Xswiftc -DFUZZ_ENGINE -Xswiftc -gnone \
  -Xlinker "$runtime" -Xlinker -lstdc++
fuzzer="$scratch/debug/tandem-fuzz"

if [ $# -gt 0 ]; then targets=("$@"); else mapfile -t targets < <("$fuzzer" --list | cut -d: -f1); fi
for target in "${targets[@]}"; do
  [ -d "$root/Fuzz/Corpus/$target" ] || fail "no seed corpus Fuzz/Corpus/$target (tandem-fuzz --write-seeds Fuzz/Corpus)"
  [ -f "$root/Fuzz/Dictionaries/$target.dict" ] ||
    fail "no dictionary Fuzz/Dictionaries/$target.dict: list the tokens $target's parser compares, one name=\"value\" a line"
done

# The Swift runtime keeps caches for the process's life, which LeakSanitizer would call leaks.
export ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}"
# A trap goes straight to libFuzzer's handler, which saves the input: the Swift runtime's own
# backtracer would hold the crashing process for as long as it takes to symbolicate.
export SWIFT_BACKTRACE="enable=no"
summary=()
crashed=0
for target in "${targets[@]}"; do
  corpus="$scratch/corpus/$target"
  crashes="$scratch/crashes/$target"
  log="$scratch/logs/$target.log"
  mkdir -p "$corpus" "$crashes" "$(dirname "$log")"
  echo "fuzz: $target for ${seconds}s (log: ${log#"$root"/})"
  status=0
  "$fuzzer" "$target" -max_total_time="$seconds" -print_final_stats=1 -detect_leaks=0 -timeout=10 \
    -dict="$root/Fuzz/Dictionaries/$target.dict" -artifact_prefix="$crashes/" "$corpus" "$root/Fuzz/Corpus/$target" >"$log" 2>&1 || status=$?
  executions="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)"
  found="$(find "$crashes" -type f | wc -l)"
  summary+=("$(printf '%-16s %12s executions %7s corpus files %4s crashes' "$target" "${executions:-?}" "$(find "$corpus" -type f | wc -l)" "$found")")
  if [ "$found" -gt 0 ] || [ "$status" -ne 0 ]; then
    crashed=1
    echo "fuzz: $target failed (exit $status); its inputs are in ${crashes#"$root"/}, the report in ${log#"$root"/}:" >&2
    grep -m 5 -E 'invariant broken|Fatal error|ERROR: (AddressSanitizer|libFuzzer)' "$log" >&2 || tail -n 20 "$log" >&2
  fi
done

printf '%s\n' "fuzz: ${seconds}s per target" "${summary[@]}"
[ "$crashed" -eq 0 ] || fail "a target crashed: fix it, add the input to its Fuzz/Corpus folder, and run again"
