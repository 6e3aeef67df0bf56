#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark, not a test: false alarms and power of the daemon's default
# probe, measured (bench/false-alarm.c), on the real CPU and on scripted
# software sources.
#
#   bench/false-alarm.sh [BUILD_DIR] [-- false-alarm options]
#       BUILD_DIR default: $RNG_HEALTH_BUILD/meson (.build/meson), set up if missing
#       options: --hw N --sw N --power N --budget-runs N --quick (see --help)
#
# The full run (the defaults: 10,000 probes on the CPU, 100,000 on getrandom,
# 1,000 per power case) takes several minutes and keeps every CPU busy.
#
# Runs the meson target bench/false-alarm of BUILD_DIR (bench/meson.build:
# built on demand, with the project's flags and optimisation).
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
build=${RNG_HEALTH_BUILD:-$src/.build}/meson
if [ $# -gt 0 ] && [ "$1" != "--" ] && [ "${1#-}" = "$1" ]; then
	build=$1
	shift
fi
[ "${1:-}" = "--" ] && shift

[ -d "$build" ] || meson setup "$build" "$src" >/dev/null
ninja -C "$build" bench/false-alarm >/dev/null
"$build/bench/false-alarm" "$@"
