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
# Builds bench/false-alarm.c against the engine library of BUILD_DIR with the
# same optimisation as the project (buildtype debugoptimized: -O2 -g).
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
build=${RNG_HEALTH_BUILD:-$src/.build}/meson
if [ $# -gt 0 ] && [ "$1" != "--" ] && [ "${1#-}" = "$1" ]; then
	build=$1
	shift
fi
[ "${1:-}" = "--" ] && shift

[ -d "$build" ] || meson setup "$build" "$src" >/dev/null
ninja -C "$build" service/engine/librnghealth-engine.a service/shared/librnghealth-shared.a >/dev/null

out=$build/false-alarm
# shellcheck disable=SC2046
cc -std=gnu11 -O2 -g -D_GNU_SOURCE -Wall -I"$src/service/engine" -I"$src/service/shared" $(pkg-config --cflags json-c) \
	-o "$out" "$src/bench/false-alarm.c" "$build/service/engine/librnghealth-engine.a" "$build/service/shared/librnghealth-shared.a" \
	$(pkg-config --libs json-c) -lm -pthread
"$out" "$@"
