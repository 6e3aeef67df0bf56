#!/bin/bash
# `rng-health monitor` on a machine without a journal says that the kernel
# watch follows nothing, once, and keeps running; also with --root
# /nonexistent (no sysfs, no /proc under the root), which a clang UBSan
# build aborted on NULL + 0: tools/test runs this in that build too.
#
# "Without a journal" on any host: the test re-runs itself in a private
# mount namespace with empty tmpfs over the journal's directories
# (/run/log/journal, /var/log/journal) and /run/systemd/system, so a host
# with systemd and journald runs it too instead of skipping. As root that
# is unshare --mount; as another user a user namespace (--map-root-user).
# It skips only where neither can be made, saying why.
set -uo pipefail
rh=$1
if [ -z "${RH_PRIVATE_MOUNTS:-}" ]; then
	how=(--mount --propagation private)
	[ "$(id -u)" = 0 ] || how+=(--map-root-user)
	if ! out=$(unshare "${how[@]}" true 2>&1); then
		echo "SKIP: cannot make a private mount namespace (unshare ${how[*]}: $out)"
		exit 77
	fi
	exec unshare "${how[@]}" env RH_PRIVATE_MOUNTS=1 "$0" "$@"
fi
for d in /run/log/journal /var/log/journal /run/systemd/system; do
	[ -d "$d" ] || continue
	mount -t tmpfs -o mode=0755 tmpfs "$d" || { echo "FAIL: cannot hide $d (mount tmpfs)"; exit 1; }
done
# Positive control: what the monitor is told below is what it sees here.
left=$(find /run/log/journal /var/log/journal -name '*.journal' 2>/dev/null | head -n1)
[ -z "$left" ] || { echo "FAIL: a journal file is still visible: $left"; exit 1; }
echo "ok: journal directories hidden in a private mount namespace"
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
