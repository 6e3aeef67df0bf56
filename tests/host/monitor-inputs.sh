#!/bin/bash
# No input can keep `rng-health monitor` from its
# signals. A FIFO as a configuration drop-in blocked open() with SIGTERM,
# SIGINT and SIGHUP blocked (only SIGKILL ended it), at start, on a reload
# (SIGHUP) and as the kernel watch's state file. Now each is refused at
# once, named with a one-line reason: at start exit 78 within a second; on
# a reload the previous configuration is kept; the state is ignored; and
# SIGTERM ends the daemon (exit 0) within two seconds after either.
. "$(dirname "$0")/monitor-lib.sh"
ms() { echo $(($(date +%s%N) / 1000000)); }
short_probe_root

# Waits up to $2 seconds for $1 (a fixed string) in the daemon's stderr.
wait_err() {
	local i
	for ((i = 0; i < $2 * 10; i++)); do
		grep -qF -- "$1" "$tmp/err" && return 0
		kill -0 "$pid" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}
# Sends SIGTERM; the daemon must exit 0 within two seconds.
term_within() {
	local i rc
	kill -TERM "$pid"
	for ((i = 0; i < 20; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$pid" 2>/dev/null && fail "$1: SIGTERM not honoured within 2 s"
	wait "$pid"
	rc=$?
	pid=
	[ "$rc" = 0 ] || fail "$1: exit $rc after SIGTERM, expected 0"
}
start() {
	env -u NOTIFY_SOCKET -u JOURNAL_STREAM "$@" "$rh" monitor --root "$tmp/root" 2>"$tmp/err" >/dev/null &
	pid=$!
}

# 1. A FIFO drop-in at start: exit 78, the file named. An open that
# waited for a writer would never return: the daemon would be killed at
# 10 s (exit 137). What is asserted is that it exited by itself with 78,
# not how fast (the time is printed, not judged: no timed assertion).
mkfifo "$dropins/50-fifo.conf"
t0=$(ms)
timeout -s KILL 10 env -u NOTIFY_SOCKET -u STATE_DIRECTORY -u JOURNAL_STREAM "$rh" monitor --root "$tmp/root" \
	2>"$tmp/err" >/dev/null
rc=$? t=$(($(ms) - t0))
[ "$rc" = 137 ] && fail "FIFO drop-in at start: still inside open() after 10 s (killed)"
[ "$rc" = 78 ] || fail "FIFO drop-in at start: exit $rc after $t ms, expected 78"
grep -qF "$dropins/50-fifo.conf: is not a regular file (a FIFO, socket or device node)" "$tmp/err" ||
	fail "FIFO drop-in at start: the file and the reason are not named"
echo "ok: a FIFO drop-in at start: exit 78 after $t ms: $(grep -F 50-fifo.conf "$tmp/err" | head -n1)"
rm -f "$dropins/50-fifo.conf"

# A directory named like a drop-in: named as one (it was "Input/output error").
mkdir "$dropins/50-dir.conf"
timeout -s KILL 10 env -u NOTIFY_SOCKET -u STATE_DIRECTORY -u JOURNAL_STREAM "$rh" monitor --root "$tmp/root" \
	2>"$tmp/err" >/dev/null
rc=$?
[ "$rc" = 78 ] && grep -qF "$dropins/50-dir.conf: is a directory, not a file" "$tmp/err" ||
	fail "a directory as a drop-in: exit $rc"
echo "ok: a directory as a drop-in: exit 78, named as a directory"
rmdir "$dropins/50-dir.conf"

# 2. A FIFO appearing before a reload: the previous configuration is kept,
#    and SIGTERM still ends the daemon.
start env -u STATE_DIRECTORY
wait_err "Hardware RNG verdict at boot" 20 || fail "reload: the daemon did not start"
mkfifo "$dropins/50-fifo.conf"
kill -HUP "$pid"
wait_err "50-fifo.conf: is not a regular file (a FIFO, socket or device node); kept the previous configuration" 5 ||
	fail "reload with a FIFO drop-in: not refused within 5 s"
term_within "reload with a FIFO drop-in"
echo "ok: a FIFO drop-in on reload: refused, previous configuration kept, SIGTERM honoured"
rm -f "$dropins/50-fifo.conf"

# 3. A FIFO as the kernel watch's state file: ignored and said, the daemon
#    runs, SIGTERM ends it.
mkfifo "$tmp/state/kernel-watch.state"
start env STATE_DIRECTORY="$tmp/state"
wait_err "Kernel watch: ignoring $tmp/state/kernel-watch.state: is not a regular file" 20 ||
	fail "a FIFO as the state file: not ignored within 20 s"
sleep 0.5
kill -0 "$pid" 2>/dev/null || fail "a FIFO as the state file: the daemon exited"
term_within "a FIFO as the state file"
echo "ok: a FIFO as the kernel watch's state file: ignored, SIGTERM honoured"
