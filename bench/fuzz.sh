#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark, not a test: run the libFuzzer targets for as long as asked.
#
#   bench/fuzz.sh [SECONDS [TARGET...]]
#       SECONDS  per target (default 600); the targets run at once, each
#                under nice -n 19, so the wall time is about SECONDS
#       TARGET   fuzz-duration, fuzz-config, ... (default: all of them)
#   FUZZ_JOBS=N  run at most N targets at a time (default: all)
#   FUZZ_BUILD=DIR  an existing -Dfuzz=true build to use as it is (the
#                   suite fuzz's fuzz-bench test); default: builds
#                   $RNG_HEALTH_BUILD/meson-fuzz (CC=clang, -Dfuzz=true)
#   FUZZ_OUT=DIR    where the outputs go (default $RNG_HEALTH_BUILD/fuzz-bench)
#
# The targets are every service/*/fuzz-*.c, built by service/meson.build
# as service/fuzz-NAME. Each starts from a copy of its seed corpus
# (tests/fuzz/corpus/); what it adds, its log and any crash input stay
# outside the tree, in the output directory's TARGET/. Prints per target
# the executions, exec/s, the corpus size at the end and whether it
# crashed, or why it did not run; exits 1 if one crashed, did not run or
# reported no executions.
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
root=${RNG_HEALTH_BUILD:-$src/.build}
build=${FUZZ_BUILD:-$root/meson-fuzz}
seconds=${1:-600}
[ $# -gt 0 ] && shift
case $seconds in '' | *[!0-9]*) echo "fuzz.sh: SECONDS must be a number: $seconds" >&2; exit 2 ;; esac

if [ -z "${FUZZ_BUILD:-}" ]; then
	[ -e "$build/build.ninja" ] || CC=clang meson setup "$build" "$src" -Dfuzz=true >/dev/null
	ninja -C "$build" >/dev/null
fi

mapfile -t all < <(cd "$src/service" && ls ./*/fuzz-*.c | sed 's|^\./||; s|\.c$||')
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]##*/}")

out=${FUZZ_OUT:-$root/fuzz-bench}
jobs=${FUZZ_JOBS:-${#targets[@]}}
export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

run_one() {
	local t=$1 exe dir
	dir=$out/$t
	rm -rf "$dir"
	mkdir -p "$dir/corpus" "$dir/crashes"
	# service/meson.build builds every target in service/ (not in its layer)
	exe=$build/service/$t
	if [ ! -x "$exe" ]; then
		echo "no executable $exe (is $build a -Dfuzz=true build?)" >"$dir/not-run"
		return
	fi
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
	if [ ! -f "$dir/rc" ]; then
		printf '%-26s %s\n' "$t" "NOT RUN: $(cat "$dir/not-run" 2>/dev/null || echo "no result")"
		crashed=1
		continue
	fi
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log" | tail -n 1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$dir/log" | tail -n 1)
	files=$(find "$dir/corpus" -type f | wc -l)
	rc=$(cat "$dir/rc")
	result=ok
	if [ "$rc" -ne 0 ] || [ -n "$(ls -A "$dir/crashes")" ]; then
		result="CRASHED (rc $rc; $(ls "$dir/crashes" | tr '\n' ' ')see $dir/log)"
		crashed=1
	elif [ -z "$execs" ] || [ "$execs" = 0 ]; then
		result="NO EXECUTIONS (see $dir/log)"
		crashed=1
	fi
	printf '%-26s %14s %10s %8s  %s\n' "$t" "${execs:-?}" "${rate:-?}" "$files" "$result"
done
exit "$crashed"
