#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Bad arguments: exit 2, exactly one line on stderr naming the argument,
# nothing on stdout. --help lists the exit codes.
set -u

bin=$1
fail=0

bad() {
	local name=$1; shift
	local out err rc
	out=$("$bin" "$@" 2>/tmp/rng-health-args.$$) && rc=0 || rc=$?
	err=$(cat /tmp/rng-health-args.$$)
	rm -f /tmp/rng-health-args.$$
	if [ "$rc" -ne 2 ]; then
		echo "FAIL: '$*': exit $rc, expected 2"; fail=1
	fi
	if [ -n "$out" ]; then
		echo "FAIL: '$*': wrote to stdout: $out"; fail=1
	fi
	if [ "$(printf '%s\n' "$err" | wc -l)" -ne 1 ] || [ -z "$err" ]; then
		echo "FAIL: '$*': expected one line on stderr, got: $err"; fail=1
	fi
	case $err in
	*"$name"*) ;;
	*) echo "FAIL: '$*': message does not name '$name': $err"; fail=1 ;;
	esac
}

bad --instruction probe --instruction rdtsc
bad --width probe --width 8
bad --width probe --width=abc
bad --threads probe --threads 0
bad --threads probe --threads -1
bad --duration probe --duration soon
bad --duration probe --duration 0
bad --count probe --count 0
bad --count probe --count 12abc
bad --width probe --width
bad --bogus probe --bogus
bad extra probe extra
bad frobnicate frobnicate
bad --threads probe --threads 1024

help=$("$bin" probe --help) || { echo "FAIL: probe --help exit $?"; fail=1; }
for code in "0  worst verdict ok" "1  runtime error" "2  usage error" "3  worst verdict exhausted" "4  worst verdict broken"; do
	case $help in
	*"$code"*) ;;
	*) echo "FAIL: --help does not list exit code '$code'"; fail=1 ;;
	esac
done
"$bin" --version | grep -q '^rng-health ' || { echo "FAIL: --version"; fail=1; }

[ $fail -eq 0 ] && echo "all checks passed"
exit $fail
