#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Bad arguments: exit 2, exactly one line on stderr naming the argument
# (escaped: no control byte reaches the terminal), nothing on stdout.
# --help lists the exit codes; --help and --version to /dev/full fail.
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
	# the argument is shown escaped
	if printf '%s' "$err" | LC_ALL=C grep -q '[[:cntrl:]]'; then
		echo "FAIL: '$*': a control byte on stderr: $(printf '%s' "$err" | od -c | head -n 3)"; fail=1
	fi
}

bad --instruction probe --instruction rdtsc
bad "--width: invalid value '8' (expected 16, 32, 64 or all)" probe --width 8
bad "--instruction: invalid value 'rdtsc' (expected rdrand, rdseed, hwrng, boot-seed or all)" probe --instruction rdtsc
bad --width probe --width=abc
bad --threads probe --threads 0
bad --threads probe --threads -1
bad --duration probe --duration soon
bad --duration probe --duration 0
bad "'1.0000001s' (finer than a microsecond" probe --duration 1.0000001s
bad --count probe --count 0
bad --count probe --count 12abc
bad --width probe --width
bad --bogus probe --bogus
bad extra probe extra
bad frobnicate frobnicate
# long options given a value they do not take, and
# control bytes in arguments, are named as given, escaped
bad "--json=1: the option takes no value" probe --json=1
bad "--help=x: the option takes no value" probe --help=x
bad "--json=1: the option takes no value" report --json=1
bad "--help=x: the option takes no value" monitor --help=x
bad '-\x05: unknown option' probe "$(printf -- '-\005')"
bad '--\x1b[8m: unknown option' probe "$(printf -- '--\033[8m')"
bad '-\xc2: unknown option' report "$(printf -- '-\302\233')"
bad "'\xe2\x80\xae1' (expected rdrand" probe --instruction "$(printf '\342\200\2561')"
bad "invalid time '\xff\xfe'" report --since "$(printf '\377\376')"
bad 'frob\x1b[2Jnicate: unknown command' "$(printf 'frob\033[2Jnicate')"
bad 'a\nb: unexpected argument' monitor "$(printf 'a\nb')"

# --threads above the CPU count is what Threads= in
# rng-health.conf is: all CPUs, and one warning line (not a usage error)
threads=$(($(nproc --all) + 7))
err=$("$bin" probe --threads "$threads" --count 16 --width 64 2>&1 >/dev/null) && rc=0 || rc=$?
case $rc in
0 | 3 | 4) ;;
*) echo "FAIL: probe --threads $threads: exit $rc, expected a verdict's (0, 3, 4): $err"; fail=1 ;;
esac
case $err in
"rng-health probe: --threads: $threads requested but only "*" online and allowed: the contention run uses all of them") ;;
*) echo "FAIL: probe --threads $threads: no one-line warning: $err"; fail=1 ;;
esac
# ... up to the bound that Threads= has, in the same words
bad "--threads: invalid value '1025' (expected all or a number of threads from 1 to 1024)" probe --threads 1025
bad "--count: invalid value '0' (expected a number of tries from 1 to 4294967296)" probe --count 0
bad "--kernel-retries: invalid value '1001' (expected a number of tries from 1 to 1000)" probe --kernel-retries 1001
# a value option given twice: said, not the last one silently
bad "--count: given twice" probe --count 1 --count 64
bad "--threads: given twice" probe --threads 1 --threads all
# a top-level option is no command
bad "--frob: unknown option (try --help)" --frob
bad "frob: unknown command (try --help)" frob
# an empty --root is not the real root
bad "--root: empty path" monitor --root ''
bad "--root: empty path" monitor --root=

# output that cannot be written is an error (exit 1)
for args in --help --version "probe --help" "report --help" "monitor --help"; do
	# shellcheck disable=SC2086
	err=$("$bin" $args 2>&1 >/dev/full) && rc=0 || rc=$?
	if [ "$rc" != 1 ] || [[ $err != *"failed to write output"* ]]; then
		echo "FAIL: '$args' >/dev/full: exit $rc, '$err' (expected 1, failed to write output)"; fail=1
	fi
done

help=$("$bin" probe --help) || { echo "FAIL: probe --help exit $?"; fail=1; }
for code in "0  no verdict that fails it" "1  runtime error" "2  usage error" "3  worst failing verdict exhausted" \
	"4  worst failing verdict broken" "exhausted is routine (the kernel falls back to " "With --fail-on, the worst verdict it matches"; do
	case $help in
	*"$code"*) ;;
	*) echo "FAIL: --help does not list exit code '$code'"; fail=1 ;;
	esac
done
"$bin" --version | grep -q '^rng-health ' || { echo "FAIL: --version"; fail=1; }

[ $fail -eq 0 ] && echo "all checks passed"
exit $fail
