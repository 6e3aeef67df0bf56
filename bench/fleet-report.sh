#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark, not a test: `rng-health report --fleet` over a central journal
# of 1,000 machines' worth of entries.
#
# The journal is written the way a central systemd-journal-remote stores
# what its machines upload: each machine's entries in journal export format
# (every field its journald recorded, trusted ones included) fed to
# systemd-journal-remote (tests/host/fleet-journal.py; package
# systemd-journal-remote, which tools/setup-host installs). Per machine: 2
# boots, each with the boot verdict, 4 probes (a probe result per source
# every 6 h, with the CPU, microcode, erratum status and each run's
# ratio) and 20 entries of another unit; 10 machines with a verdict forged
# by another user, 5 with a malformed entry; spread over 10 journal files.
#
#   bench/fleet-report.sh [BUILD_DIR [MACHINES [FILES]]]
#                         (default: build, 1000 machines, 10 files)
#
# Prints the whole command's wall time (this script's clock, 5 runs: min
# and median), its peak memory (GNU time, where installed), and the phases
# as bench/fleet-bench measures them in one process (its own clock).
# Runs the meson target bench/fleet-bench of BUILD_DIR (built on demand).
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build}
machines=${2:-1000}
files=${3:-10}
jr=/lib/systemd/systemd-journal-remote
[ -x "$jr" ] || { echo "fleet-report: no $jr (package systemd-journal-remote; tools/setup-host installs it)" >&2; exit 1; }

[ -d "$build" ] || meson setup "$build" "$src" >/dev/null
ninja -C "$build" bench/fleet-bench service/cli/rng-health >/dev/null
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

t0=$(date +%s.%N)
python3 "$src/tests/host/fleet-journal.py" --out "$d/remote" --machines "$machines" --files "$files" \
	--boots 2 --probes 4 --noise 20 --forged 10 --malformed 5 --expect "$d/expect.json"
echo "fleet-report: journal written in $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s," \
	"$(du -sh "$d/remote" | cut -f1) on disk"

prog=$build/service/cli/rng-health
"$prog" report -D "$d/remote" --fleet >"$d/fleet.txt" 2>/dev/null
[ "$(grep -c '^[0-9a-f]\{12\}  node-' "$d/fleet.txt")" = "$machines" ] ||
	{ echo "fleet-report: report --fleet did not list $machines machines" >&2; exit 1; }
times=()
for i in 1 2 3 4 5; do
	a=$(date +%s%N)
	"$prog" report -D "$d/remote" --fleet >/dev/null 2>&1
	b=$(date +%s%N)
	times+=($(((b - a) / 1000000)))
done
sorted=($(printf '%s\n' "${times[@]}" | sort -n))
echo "fleet-report: rng-health report -D DIR --fleet, $machines machines: min ${sorted[0]} ms, median ${sorted[2]} ms (wall, 5 runs: ${times[*]} ms)"
if [ -x /usr/bin/time ]; then
	/usr/bin/time -f "fleet-report: peak memory %M KiB" "$prog" report -D "$d/remote" --fleet >/dev/null 2>"$d/time" || true
	tail -n1 "$d/time"
fi
"$build/bench/fleet-bench" "$d/remote" 5
echo "fleet-report: the table's head:"
head -n 4 "$d/fleet.txt"
