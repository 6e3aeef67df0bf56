#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark, not a test: run the libFuzzer targets for as long as asked.
#
#   bench/fuzz.sh [SECONDS [TARGET...]]
#       SECONDS  per target (default 600); the targets run at once, each
#                under nice -n 19, so the wall time is about SECONDS
#       TARGET   fuzz-duration, fuzz-config, ... (default: all of them)
#   FUZZ_JOBS=N  run at most N targets at a time (default: all)
#
# Builds $RNG_HEALTH_BUILD/meson-fuzz (CC=clang, -Dfuzz=true) if missing.
# Each target starts from a copy of its seed corpus (tests/fuzz/corpus/);
# what it adds, its log and any crash input stay outside the tree, in
# $RNG_HEALTH_BUILD/fuzz-bench/TARGET/. Prints per target the executions,
# exec/s, the corpus size at the end and whether it crashed; exits 1 if
# one did.
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
root=${RNG_HEALTH_BUILD:-$src/.build}
build=$root/meson-fuzz
seconds=${1:-600}
[ $# -gt 0 ] && shift
case $seconds in '' | *[!0-9]*) echo "fuzz.sh: SECONDS must be a number: $seconds" >&2; exit 2 ;; esac

[ -e "$build/build.ninja" ] || CC=clang meson setup "$build" "$src" -Dfuzz=true >/dev/null
ninja -C "$build" >/dev/null

mapfile -t all < <(cd "$src/service" && ls ./*/fuzz-*.c | sed 's|^\./||; s|\.c$||')
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]##*/}")

out=$root/fuzz-bench
jobs=${FUZZ_JOBS:-${#targets[@]}}
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

run_one() {
	local t=$1 exe dir
	exe=$(ls "$build"/service/*/"$t" 2>/dev/null | head -n 1)
	[ -x "$exe" ] || { echo "fuzz.sh: no such target: $t" >&2; return 2; }
	dir=$out/$t
	rm -rf "$dir"
	mkdir -p "$dir/corpus" "$dir/crashes"
	cp -r "$src/tests/fuzz/corpus/$t/." "$dir/corpus/" 2>/dev/null || true
	local args=(-max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -max_len=4096
		    -print_final_stats=1 -artifact_prefix="$dir/crashes/")
	[ -f "$src/tests/fuzz/dict/$t.dict" ] && args+=(-dict="$src/tests/fuzz/dict/$t.dict")
	set +e
	nice -n 19 "$exe" "${args[@]}" "$dir/corpus" >"$dir/log" 2>&1
	echo $? >"$dir/rc"
	set -e
}

echo "fuzz.sh: ${#targets[@]} target(s), ${seconds}s each, $jobs at a time, outputs in $out" >&2
running=0
for t in "${targets[@]}"; do
	run_one "$t" &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait -n || true
		running=$((running - 1))
	fi
done
wait || true

crashed=0
printf '%-26s %14s %10s %8s  %s\n' target executions exec/s corpus result
for t in "${targets[@]}"; do
	dir=$out/$t
	[ -f "$dir/rc" ] || { printf '%-26s %s\n' "$t" "not run"; crashed=1; continue; }
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log" | tail -n 1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$dir/log" | tail -n 1)
	files=$(find "$dir/corpus" -type f | wc -l)
	rc=$(cat "$dir/rc")
	result=ok
	if [ "$rc" -ne 0 ] || [ -n "$(ls -A "$dir/crashes")" ]; then
		result="CRASHED (rc $rc; $(ls "$dir/crashes" | tr '\n' ' ')see $dir/log)"
		crashed=1
	fi
	printf '%-26s %14s %10s %8s  %s\n' "$t" "${execs:-?}" "${rate:-?}" "$files" "$result"
done
exit "$crashed"
