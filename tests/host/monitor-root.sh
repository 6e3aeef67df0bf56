#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `rng-health monitor --root DIR` with the configuration, state and metrics
# paths an adversary (or a careless admin) leaves there: each is refused
# with a one-line reason that names the file, or taken as documented
# (rng-health.conf(5), rng-health(8)). A short probe: this is about inputs,
# not the CPU.
set -uo pipefail
rh=$1
tmp=$(mktemp -d)
pid=
cleanup() {
	[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; [ -f "$tmp/err" ] && sed 's/^/  stderr: /' "$tmp/err"; exit 1; }
root=$tmp/root
dropins=$root/etc/rng-health/rng-health.conf.d

# A fresh root with only the short probe's drop-in.
reset_root() {
	rm -rf "$root" "$tmp/state"
	mkdir -p "$dropins" "$tmp/state"
	printf '[Probe]\nWidths=64\nThreads=1\nMaxAttempts=64\nMinAttempts=1\n[Metrics]\nPath=\n' >"$dropins/10-short.conf"
}

# Runs the daemon once to its end: at start it either exits (a bad
# configuration, a FailOn= match) or is stopped with SIGTERM once its boot
# verdict is out. Sets rc (124: it ran until stopped) and leaves stderr in
# $tmp/err. Extra arguments: environment assignments.
run_monitor() {
	local i
	env -u NOTIFY_SOCKET -u JOURNAL_STREAM -u STATE_DIRECTORY "$@" "$rh" monitor --root "$root" \
		2>"$tmp/err" >/dev/null &
	pid=$!
	for ((i = 0; i < 200; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		if grep -q "Hardware RNG verdict at boot" "$tmp/err" && grep -q "Kernel watch" "$tmp/err"; then
			sleep 0.2
			kill -TERM "$pid" 2>/dev/null
			wait "$pid"
			pid=
			rc=124
			return
		fi
		sleep 0.1
	done
	kill -0 "$pid" 2>/dev/null && fail "monitor did not exit nor report a boot verdict within 20 s"
	wait "$pid"
	rc=$?
	pid=
}

# expect_config_error FILE REASON: exit 78 and one line naming the file and
# the reason.
expect_config_error() {
	[ "$rc" = 78 ] || fail "$1: exit $rc, expected 78"
	grep -qF -- "$1: $2" "$tmp/err" || fail "$1: the reason '$2' is not given"
}

# --- a socket as a drop-in: "not a regular file", not ENXIO -----------------
reset_root
python3 -c "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])" "$dropins/50-x.conf" ||
	fail "cannot create a socket"
run_monitor
expect_config_error "$dropins/50-x.conf" "is not a regular file (a FIFO, socket or device node); refusing to start"
grep -q "No such device or address" "$tmp/err" && fail "a socket drop-in: ENXIO's text"
echo "ok: a socket as a drop-in: exit 78, $(grep -F 50-x.conf "$tmp/err")"

echo "all checks passed"
