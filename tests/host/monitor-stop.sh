#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `rng-health monitor` stops when asked while it probes: SIGTERM or SIGINT
# during the boot probe, and SIGTERM during the re-probe a SIGHUP started,
# with a probe configured to take at least 4 s (BudgetSec=1s per run,
# MaxAttempts=2^32). The daemon must exit 0, say once that the probe
# stopped early and that its measurements are discarded, and report no
# verdict from it.
#
# The bound is the behaviour here, not a performance figure: systemd gives
# a stop TimeoutStopSec=, and shutdown waits for it. rng-health(8) states
# that a probe stops within a millisecond of its next poll (a device's read
# within its budget); this test allows 1 s from the signal to the exit, a
# quarter of what the probe had left, so a daemon that finishes its probe
# first (>= 4 s) fails it on any machine, and a loaded one passes. The
# timing figures themselves are not asserted anywhere else.
. "$(dirname "$0")/monitor-lib.sh"

long_probe() {
	printf '[Probe]\nBudgetSec=1s\nMaxAttempts=4294967296\nMinAttempts=1\nInstructions=all\nWidths=all\n' \
		>"$dropins/20-long.conf"
}

# stop_now SIG WHAT: sends SIG to the running daemon, waits for it; it
# must exit 0 within the bound. Sets ms (from the signal to the exit).
stop_now() {
	local sig=$1 what=$2 t0 t1 rc
	kill -0 "$pid" 2>/dev/null || fail "$what: the daemon ended before SIG$sig"
	t0=$(date +%s%N)
	kill -"$sig" "$pid"
	wait "$pid"
	rc=$?
	t1=$(date +%s%N)
	pid=
	ms=$(((t1 - t0) / 1000000))
	[ "$rc" = 0 ] || fail "SIG$sig during $what: exit $rc, expected 0"
	[ "$ms" -lt 1000 ] || fail "SIG$sig during $what: exited $ms ms after it"
}

# stop_during_boot SIG
stop_during_boot() {
	local sig=$1
	rm -rf "$root"
	short_probe_root
	long_probe
	env -u NOTIFY_SOCKET -u JOURNAL_STREAM -u STATE_DIRECTORY "$rh" monitor --root "$root" 2>"$tmp/err" &
	pid=$!
	sleep 0.5
	stop_now "$sig" "the boot probe"
	[ "$(grep -c 'boot probe stopped early: SIGTERM or SIGINT received; what it measured so far is discarded' "$tmp/err")" = 1 ] ||
		fail "SIG$sig: the stop is not said once"
	grep -q "verdict at boot" "$tmp/err" && fail "SIG$sig: a verdict from a probe that was stopped"
	echo "ok: SIG$sig during the boot probe: exit 0, $ms ms after the signal; $(cat "$tmp/err")"
}

stop_during_boot TERM
stop_during_boot INT

# SIGTERM during the re-probe of a SIGHUP: the boot probe short, the
# reloaded configuration long.
rm -rf "$root"
short_probe_root
env -u NOTIFY_SOCKET -u JOURNAL_STREAM -u STATE_DIRECTORY "$rh" monitor --root "$root" 2>"$tmp/err" &
pid=$!
for ((i = 0; i < 200; i++)); do
	grep -q "verdict at boot" "$tmp/err" && break
	kill -0 "$pid" 2>/dev/null || fail "the daemon ended before its boot verdict"
	sleep 0.1
done
grep -q "verdict at boot" "$tmp/err" || fail "no boot verdict within 20 s"
long_probe
kill -HUP "$pid"
sleep 0.5
stop_now TERM "the reload's probe"
[ "$(grep -c 'reload probe stopped early' "$tmp/err")" = 1 ] || fail "the reload probe's stop is not said once: $(cat "$tmp/err")"
echo "ok: SIGTERM during the probe of a SIGHUP: exit 0, $ms ms after the signal"
echo "all checks passed"
