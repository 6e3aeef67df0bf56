#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `rng-health report` where there is nothing it could read is an error
# that says which, never "No rng-health events in the journal." (exit 0):
# no journal files at all: exit 66; files this user may not read: exit 77.
# The monitor's kernel watch tells the two apart in the same words.
# This host has no journald: the first case as root and as nobody; the
# second in a mount namespace with a system journal file only root may
# read (unshare -m, tmpfs on /run: nothing outside the test changes).
set -uo pipefail
rh=$1
fail() { echo "FAIL: $*"; exit 1; }
nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
none="rng-health report: no journal files in /run/log/journal or /var/log/journal (is systemd-journald running?)"
denied="rng-health report: the journal's files in /run/log/journal or /var/log/journal are not readable by this user (root or the systemd-journal group can read them)"

# expect RC LINE ARGS...: the exit status, exactly LINE on stderr, nothing on stdout
expect() {
	local want=$1 line=$2 out err rc
	shift 2
	out=$("$@" 2>/tmp/report-no-journal.$$) && rc=0 || rc=$?
	err=$(cat /tmp/report-no-journal.$$)
	rm -f /tmp/report-no-journal.$$
	[ "$rc" = "$want" ] || fail "'$*': exit $rc, expected $want: $err"
	[ "$err" = "$line" ] || fail "'$*': stderr '$err', expected '$line'"
	[ -z "$out" ] || fail "'$*': wrote '$out'"
	echo "ok: '$*': exit $rc, $err"
}

if [ -d /run/systemd/system ] ||
   [ -n "$(find /run/log/journal /var/log/journal -name '*.journal*' 2>/dev/null | head -n1)" ]; then
	echo "SKIP: this machine has a journal"
	exit 77
fi
expect 66 "$none" "$rh" report
expect 66 "$none" "$rh" report --json
expect 66 "$none" "$rh" report --boot
expect 66 "$none" nobody "$rh" report

mid=$(cat /etc/machine-id 2>/dev/null)
if [ -z "$mid" ] || [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
	echo "SKIP-PART: no machine ID, not root or no mount namespace: a journal this user may not read"
	exit 0
fi
# In the namespace: a system journal file (empty: sd-journal skips it) only
# root may read. As nobody: 77; as root: no error (there is a journal, it
# holds no events).
export rh mid none denied
unshare -m bash -euo pipefail -c '
	mount -t tmpfs tmpfs /run
	mkdir -p "/run/log/journal/$mid"
	: >"/run/log/journal/$mid/system.journal"
	chmod 0640 "/run/log/journal/$mid/system.journal"
	err=$(setpriv --reuid=nobody --regid=nogroup --clear-groups "$rh" report --json 2>&1 >/dev/null) && rc=0 || rc=$?
	[ "$rc" = 77 ] && [ "$err" = "$denied" ] || { echo "FAIL: as nobody: exit $rc, $err"; exit 1; }
	echo "ok: a system journal only root may read, as nobody: exit 77, $err"
	out=$("$rh" report 2>&1) && rc=0 || rc=$?
	[ "$rc" = 0 ] && [ "$out" = "No rng-health events in the journal." ] || { echo "FAIL: as root: exit $rc, $out"; exit 1; }
	echo "ok: the same as root: exit 0, $out"
	# the daemon says the same of its kernel watch
	err=$(timeout -s TERM 3 setpriv --reuid=nobody --regid=nogroup --clear-groups \
		env -u NOTIFY_SOCKET -u STATE_DIRECTORY -u JOURNAL_STREAM "$rh" monitor --root /nonexistent 2>&1 >/dev/null) || :
	grep -qF "Kernel watch: ${denied#rng-health report: }: the kernel'"'"'s RNG messages are not followed" <<<"$err" ||
		{ echo "FAIL: monitor as nobody: $err"; exit 1; }
	echo "ok: monitor as nobody: the kernel watch says the journal is not readable by this user"
	# the directory itself closed to others: no permission either
	chmod 0700 "/run/log/journal/$mid"
	err=$(setpriv --reuid=nobody --regid=nogroup --clear-groups "$rh" report 2>&1 >/dev/null) && rc=0 || rc=$?
	[ "$rc" = 77 ] || { echo "FAIL: a closed directory, as nobody: exit $rc, $err"; exit 1; }
	echo "ok: the machine'"'"'s journal directory closed, as nobody: exit 77"
' || fail "in the mount namespace"
echo "all checks passed"
