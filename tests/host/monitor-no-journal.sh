#!/bin/bash
# `rng-health monitor` on a machine without a journal (this host: no systemd
# as PID 1, no journald) says that the kernel watch follows nothing, once,
# and keeps running; also with --root /nonexistent
# (no sysfs, no /proc under the root), which a clang UBSan build aborted on
# NULL + 0: tools/test runs this in that build too.
set -uo pipefail
rh=$1
if [ -d /run/systemd/system ] ||
   [ -n "$(find /run/log/journal /var/log/journal -name '*.journal' 2>/dev/null | head -n1)" ]; then
	echo "SKIP: this machine has a journal"
	exit 77
fi
err=$(mktemp)
trap 'rm -f "$err"' EXIT
for args in "" "--root /nonexistent"; do
	# shellcheck disable=SC2086
	timeout -s TERM 3 env -u STATE_DIRECTORY -u NOTIFY_SOCKET "$rh" monitor $args 2>"$err" >/dev/null
	rc=$?
	[ "$rc" = 124 ] || { echo "FAIL: monitor $args exited with $rc before SIGTERM:"; cat "$err"; exit 1; }
	n=$(grep -c "Kernel watch: no journal files in /run/log/journal or /var/log/journal (is systemd-journald running?): the kernel's RNG messages are not followed" "$err")
	[ "$n" = 1 ] || { echo "FAIL: monitor $args: expected the no-journal warning once, got $n:"; cat "$err"; exit 1; }
	grep -q "Hardware RNG verdict at boot" "$err" || { echo "FAIL: monitor $args: no boot verdict:"; cat "$err"; exit 1; }
	! grep -q "runtime error" "$err" || { echo "FAIL: monitor $args: sanitizer report:"; cat "$err"; exit 1; }
	echo "ok: monitor $args: $(grep 'Kernel watch' "$err")"
done
