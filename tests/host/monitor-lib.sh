# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the host tests that run `rng-health monitor --root` (sourced):
# the temporary directory and its cleanup, fail(), and a root whose only
# drop-in is a short probe (these tests are about inputs, not the CPU).
#   rh      the rng-health binary (the test's first argument)
#   tmp     the temporary directory, removed on exit
#   pid     a running daemon's pid, killed on exit (set by the test)
#   root    the --root directory; dropins its rng-health.conf.d
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

# Writes the short probe's drop-in (and nothing else) into $dropins.
short_probe_root() {
	mkdir -p "$dropins" "$tmp/state"
	printf '[Probe]\nWidths=64\nThreads=1\nMaxAttempts=64\nMinAttempts=1\n[Metrics]\nPath=\n' >"$dropins/10-short.conf"
}
