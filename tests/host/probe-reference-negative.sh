#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Negative controls of probe-reference: a test that cannot fail proves
# nothing. probe-reference runs on a probe altered the way a defect would
# alter it (probe-tamper.py), one instruction form at a time to keep it
# short, and must fail naming what is wrong:
#   - an erratic probe (every other run reports 12 % more failed tries):
#     its failure fraction is judged with the fixed tolerance, which its own
#     scatter no longer widens;
#   - a sweep point with no tries in its window, and one with no values/s:
#     a missing measurement fails instead of skipping the check.
# The unaltered probe through the same wrapper passes the same runs.
#
#   probe-reference-negative.sh PROBE-REFERENCE.PY TAMPER.PY RNG-HEALTH RNG-REFERENCE
set -uo pipefail
script=$1 tamper=$2 rh=$3 ref=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0

# run NAME MODE EXPECTED-RC FAIL-LINE-REGEX ARGS...
run() {
	local name=$1 mode=$2 want=$3 line=$4 rc=0
	shift 4
	rm -f "$tmp/state"
	RNG_PROBE_REAL=$rh RNG_PROBE_TAMPER=$mode RNG_PROBE_TAMPER_STATE=$tmp/state \
		python3 "$script" "$tamper" "$ref" "$@" >"$tmp/$name.out" 2>&1 || rc=$?
	sed "s/^/  $name: /" "$tmp/$name.out"
	if [ "$rc" != "$want" ]; then
		echo "FAIL: $name: probe-reference exited $rc, expected $want"
		bad=1
	elif [ -n "$line" ] && ! grep -qE "$line" "$tmp/$name.out"; then
		echo "FAIL: $name: no line matching '$line'"
		bad=1
	else
		echo "ok: $name: exit $rc${line:+, '$line'}"
	fi
}

# Only instructions that execute here can be run (the reference's CPUID).
insn=$("$ref" cpuid | sed -n 's/^\(rdrand\|rdseed\)_executes=1$/\1/p' | head -n1)
if [ -z "$insn" ]; then
	echo "SKIP: neither RDRAND nor RDSEED executes on this CPU"
	exit 77
fi
run unaltered none 0 '^all checks passed$' --instruction "$insn" --width 64
run erratic erratic 1 "^FAIL: $insn 64-bit single \(1 thread\): failure fraction probe" \
	--instruction "$insn" --width 64 --no-sweep
run no-window no-window 1 "^FAIL: sweep $insn 64-bit, 1 thread: no tries in the window" \
	--instruction "$insn" --sweep-only
run no-rate no-rate 1 "^FAIL: sweep $insn 64-bit, 1 thread: values/s not measured" \
	--instruction "$insn" --sweep-only
[ "$bad" = 0 ] || exit 1
echo "ok: probe-reference fails an erratic probe and a missing measurement, and passes the unaltered one"
