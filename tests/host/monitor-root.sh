#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `rng-health monitor --root DIR` with the configuration, state and metrics
# paths an adversary (or a careless admin) leaves there: each is refused
# with a one-line reason that names the file, or taken as documented
# (rng-health.conf(5), rng-health(8)). A short probe: this is about inputs,
# not the CPU.
. "$(dirname "$0")/monitor-lib.sh"

# A fresh root with only the short probe's drop-in.
reset_root() {
	rm -rf "$root" "$tmp/state"
	short_probe_root
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

# --- a lone unknown section is an error (inih never calls back for it) ----
reset_root
printf '[Frob]\n' >"$dropins/50-x.conf"
run_monitor
expect_config_error "$dropins/50-x.conf:1" "unknown section [Frob]; refusing to start"
echo "ok: a drop-in holding only [Frob]: exit 78, $(grep -F 50-x.conf "$tmp/err")"

# --- a byte-order mark hides no line from the checks (it once made inih's
# reader see 0xef instead of '[') -------------------------------------------
reset_root
printf '\xef\xbb\xbf[Frob]\n' >"$dropins/50-x.conf"
run_monitor
expect_config_error "$dropins/50-x.conf:1" "unknown section [Frob]; refusing to start"
printf '\xef\xbb\xbf[Policy] junk\nFailOn=ok\n' >"$dropins/50-x.conf"
run_monitor
expect_config_error "$dropins/50-x.conf:1" "text after ']' of the section header; refusing to start"
echo "ok: a BOM before [Frob] and before '[Policy] junk': exit 78 each, as without it"

# --- the kernel's strings are escaped: an hwrng device's name with an ESC
# sequence and invalid UTF-8 (a driver's, or a file mounted over sysfs) ----
reset_root
mkdir -p "$root/sys/class/misc/hw_random"
printf 'virtio_rng.0\033[31mEVIL\n' >"$root/sys/class/misc/hw_random/rng_current"
printf 'xx\377\376 none\n' >"$root/sys/class/misc/hw_random/rng_available"
printf '1024\n' >"$root/sys/class/misc/hw_random/rng_quality"
printf '[Probe]\nInstructions=hwrng\n' >"$dropins/50-x.conf"
run_monitor
[ "$rc" = 124 ] || fail "an escaped device name: exit $rc, expected to run until stopped"
LC_ALL=C grep -q $'\033' "$tmp/err" && fail "an ESC byte from rng_current reached stderr"
grep -qF 'virtio_rng.0\x1b[31mEVIL' "$tmp/err" || fail "rng_current is not shown escaped"
echo "ok: rng_current with ESC: shown as $(grep -oF 'virtio_rng.0\x1b[31mEVIL' "$tmp/err" | head -1)"

# --- FailOn=: systemd's rule for lists ------------------------------------
# Every verdict listed: this fails on any CPU, whatever its verdicts are.
all_verdicts="ok degraded exhausted broken hidden unsupported"
reset_root
printf '[Policy]\nFailOn=none hidden\n' >"$dropins/50-x.conf"
run_monitor
expect_config_error "$dropins/50-x.conf:2" "[Policy] FailOn=: 'none' combined with verdicts"
echo "ok: FailOn=none hidden: exit 78, $(grep -F 50-x.conf "$tmp/err")"
reset_root
printf '[Policy]\nFailOn=%s\n' "$all_verdicts" >"$dropins/50-strict.conf"
run_monitor
case $rc in 3 | 4 | 5 | 6 | 7 | 8) ;; *) fail "FailOn= every verdict: exit $rc, expected a FailOn= exit (3-8)" ;; esac
strict_rc=$rc
# rng-health.conf(5)'s "only warn" drop-in after its strict one: only warns
printf '[Policy]\nFailOn=none\n' >"$dropins/60-local.conf"
run_monitor
[ "$rc" = 124 ] || fail "50-strict.conf FailOn=$all_verdicts, 60-local.conf FailOn=none: exit $rc, expected to run"
# and the confidential VM's default stays off: FailOn=none is given
printf '[Policy]\nConfidentialVM=yes\n' >"$dropins/70-cvm.conf"
run_monitor
[ "$rc" = 124 ] || fail "FailOn=none with ConfidentialVM=yes: exit $rc, expected to run"
echo "ok: FailOn= every verdict exits $strict_rc; a later drop-in's FailOn=none runs (also as a confidential VM)"

# --- a drop-in directory that is a regular file is an error ---------------
reset_root
mkdir -p "$root/run/rng-health"
printf '[Probe]\nWidths=16\n' >"$root/run/rng-health/rng-health.conf.d"
run_monitor
expect_config_error "$root/run/rng-health/rng-health.conf.d" "is not a directory"
echo "ok: rng-health.conf.d as a regular file (in /run): exit 78, $(grep -F 'not a directory' "$tmp/err")"

# --- Threads=, MaxAttempts=, KernelRetries=: the command line's bounds and words
for kv in "Probe Widths 8 16, 32, 64 or all" "Probe Instructions rdtsc rdrand, rdseed, hwrng, boot-seed or all" \
	"Probe Threads 1025 all or a number of threads from 1 to 1024" \
	"Probe MaxAttempts 0 a number of tries from 1 to 4294967296" \
	"Thresholds KernelRetries 1001 a number of tries from 1 to 1000"; do
	read -r section key value words <<<"$kv"
	reset_root
	printf '[%s]\n%s=%s\n' "$section" "$key" "$value" >"$dropins/50-x.conf"
	run_monitor
	expect_config_error "$dropins/50-x.conf:2" "[$section] $key=: invalid "
	grep -qF "'$value' (expected $words)" "$tmp/err" || fail "$key=$value: not the command line's words '$words'"
done
echo "ok: Widths=8, Instructions=rdtsc, Threads=1025, MaxAttempts=0, KernelRetries=1001: the command line's words"

# --- a time finer than a microsecond: said so, not a range it meets --------
reset_root
printf '[Monitor]\nKernelRoutineIntervalSec=1.0000001s\n' >"$dropins/50-x.conf"
run_monitor
expect_config_error "$dropins/50-x.conf:2" "[Monitor] KernelRoutineIntervalSec=: invalid interval '1.0000001s' (finer than a microsecond, the smallest step)"
grep -q "1s to 365d" "$tmp/err" && fail "KernelRoutineIntervalSec=1.0000001s: the range is given as the reason"
echo "ok: KernelRoutineIntervalSec=1.0000001s: $(grep -F 50-x.conf "$tmp/err")"

# --- the kernel watch's state is checked against what it summarises -------
# The root has no /sys: a kernel without counters. This host has no
# journal: no kernel message either.
boot=$(tr -d - </proc/sys/kernel/random/boot_id)
state() { # boot, serial, cursor line (or ""), then KEY=VALUE overrides of the zero counts
	local b=$1 serial=$2 cursor=$3 i k
	shift 3
	{
		echo "boot=$b"
		[ -z "$cursor" ] || echo "cursor=$cursor"
		echo "serial=$serial"
		for i in rdrand rdseed; do
			echo "reported_$i=0"
			for k in exhausted failed disabled defective; do echo "recorded_${k}_$i=0"; done
		done
	} | awk -v set="$*" 'BEGIN { n = split(set, a, " "); for (j = 1; j <= n; j++) { split(a[j], kv, "="); v[kv[1]] = kv[2] } }
		{ split($0, kv, "="); if (kv[1] in v) print kv[1] "=" v[kv[1]]; else print }' >"$tmp/state/kernel-watch.state"
}
reset_root
printf '[Policy]\nConfidentialVM=yes\n' >"$dropins/20-cvm.conf"
state "$boot" 1 "" reported_rdrand=18446744073709551615 recorded_exhausted_rdrand=18446744073709551615
run_monitor STATE_DIRECTORY="$tmp/state"
[ "$rc" = 124 ] || fail "an absurd state on a kernel without counters: exit $rc, expected to run (not 3)"
grep -q "exhausted 18446744073709551615x" "$tmp/err" && fail "the absurd state's count was believed"
n=$(grep -cF "Kernel watch: ignoring $tmp/state/kernel-watch.state: it has 18446744073709551615 RDRAND exhaustions counted by the kernel, but this kernel has no counters" "$tmp/err")
[ "$n" = 1 ] || fail "the absurd state: refusal said $n times, expected once"
echo "ok: a state with 2^64-1 RDRAND exhaustions on a kernel without counters: ignored, said once, no verdict from it"
reset_root
state "$boot" 1 "s=0;i=1" recorded_exhausted_rdrand=5
run_monitor STATE_DIRECTORY="$tmp/state"
[ "$rc" = 124 ] || fail "a state with messages the journal lacks: exit $rc"
grep -qF "ignoring $tmp/state/kernel-watch.state: it has 5 RDRAND exhausted messages recorded, but this boot's journal holds 0 up to its position" "$tmp/err" ||
	fail "a state with messages the journal lacks: not refused"
grep -q "RDRAND exhausted 5x" "$tmp/err" && fail "a state with messages the journal lacks: believed"
echo "ok: a state with 5 RDRAND messages recorded, none in the journal: ignored"
reset_root
state 0123456789abcdef0123456789abcdef 1 "s=0;i=1" recorded_exhausted_rdrand=5
run_monitor STATE_DIRECTORY="$tmp/state"
[ "$rc" = 124 ] || fail "another boot's state: exit $rc"
n=$(grep -cF "ignoring $tmp/state/kernel-watch.state: it is of another boot (0123456789abcdef0123456789abcdef); this boot is counted from its start" "$tmp/err")
[ "$n" = 1 ] || fail "another boot's state: said $n times, expected once"
echo "ok: another boot's state: not used, said once"

# --- [Metrics] Path=: only a regular file (or nothing) is replaced --------
# A device node (made here, never in /dev: the daemon replaced /dev/full
# with a regular file), a FIFO, a socket, a symbolic link and a directory
# at Path= are each refused, said once with the reason, and left as they
# were; the daemon runs on.
out=$tmp/out
metrics_at() {
	reset_root
	printf '[Metrics]\nPath=%s\n' "$1" >"$dropins/20-metrics.conf"
	run_monitor
	[ "$rc" = 124 ] || fail "Path=$1: exit $rc, expected the daemon to run until stopped"
}
mkdir -p "$out"
if mknod "$out/full.prom" c 1 7 2>/dev/null; then
	metrics_at "$out/full.prom"
	[ -c "$out/full.prom" ] || fail "Path= a device node: replaced by $(stat -c %F "$out/full.prom")"
	n=$(grep -cF "metrics: cannot write $out/full.prom: it is not a regular file (a FIFO, socket or device node)" "$tmp/err")
	[ "$n" = 1 ] || fail "Path= a device node: the refusal said $n times, expected once"
	echo "ok: Path= a device node: left as it was: $(grep -F 'metrics:' "$tmp/err")"
else
	echo "SKIP-PART: not root: Path= a device node"
fi
mkfifo "$out/fifo.prom"
metrics_at "$out/fifo.prom"
[ -p "$out/fifo.prom" ] || fail "Path= a FIFO: replaced"
grep -qF "metrics: cannot write $out/fifo.prom: it is not a regular file" "$tmp/err" || fail "Path= a FIFO: no reason"
python3 -c "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])" "$out/socket.prom"
metrics_at "$out/socket.prom"
[ -S "$out/socket.prom" ] || fail "Path= a socket: replaced"
grep -qF "metrics: cannot write $out/socket.prom: it is not a regular file" "$tmp/err" || fail "Path= a socket: no reason"
echo keep >"$out/target"
ln -s "$out/target" "$out/link.prom"
metrics_at "$out/link.prom"
[ -L "$out/link.prom" ] && [ "$(cat "$out/target")" = keep ] || fail "Path= a symbolic link: replaced, or its target written"
grep -qF "metrics: cannot write $out/link.prom: it is a symbolic link" "$tmp/err" || fail "Path= a symbolic link: no reason"
mkdir "$out/dir.prom"
metrics_at "$out/dir.prom"
[ -d "$out/dir.prom" ] || fail "Path= a directory: replaced"
grep -qF "metrics: cannot write $out/dir.prom: it is a directory, not a file" "$tmp/err" || fail "Path= a directory: no reason"
[ -z "$(find "$out" -name '.*')" ] || fail "a temporary file was left: $(find "$out" -name '.*')"
echo "ok: Path= a FIFO, a socket, a symbolic link, a directory: each left as it was, the reason said once"
metrics_at "$out/new.prom"
grep -q '^rng_health_verdict{' "$out/new.prom" || fail "Path= a new file: not written"
echo "ok: Path= a file that does not exist yet: written"
# /proc takes no new file (ENOENT): that is not a missing directory
metrics_at /proc/x.prom
grep -qF "metrics: cannot write /proc/x.prom: its directory takes no new file (No such file or directory)" "$tmp/err" ||
	fail "Path=/proc/x.prom: wrong reason"
grep -q "does not exist" "$tmp/err" && fail "Path=/proc/x.prom: 'its directory does not exist'"
echo "ok: Path=/proc/x.prom: $(grep -F 'metrics:' "$tmp/err" | head -n1)"
metrics_at "$out/missing/x.prom"
grep -qF "metrics: cannot write $out/missing/x.prom: its directory does not exist" "$tmp/err" ||
	fail "Path= in a missing directory: wrong reason"
echo "ok: Path= in a missing directory: still 'its directory does not exist'"

echo "all checks passed"
