#!/bin/bash
# `rng-health monitor` on a machine without a journal (this host: no systemd
# as PID 1, no journald) says that the kernel watch follows nothing, once,
# and keeps running (issue 11, finding 9).
set -uo pipefail
rh=$1
if [ -d /run/systemd/system ] ||
   [ -n "$(find /run/log/journal /var/log/journal -name '*.journal' 2>/dev/null | head -n1)" ]; then
	echo "SKIP: this machine has a journal"
	exit 77
fi
err=$(mktemp)
trap 'rm -f "$err"' EXIT
timeout -s TERM 3 env -u STATE_DIRECTORY -u NOTIFY_SOCKET "$rh" monitor 2>"$err" >/dev/null
rc=$?
[ "$rc" = 124 ] || { echo "FAIL: monitor exited with $rc before SIGTERM:"; cat "$err"; exit 1; }
n=$(grep -c "Kernel watch: no journal files in /run/log/journal or /var/log/journal (is systemd-journald running?): the kernel's RNG messages are not followed" "$err")
[ "$n" = 1 ] || { echo "FAIL: expected the no-journal warning once, got $n:"; cat "$err"; exit 1; }
grep -q "Hardware RNG verdict at boot" "$err" || { echo "FAIL: no boot verdict:"; cat "$err"; exit 1; }
echo "ok: $(grep 'Kernel watch' "$err")"
