#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark, not a test: the probe's RDRAND rate against a tight loop, and
# the output checks' throughput against the fastest RDRAND rate.
#
#   bench/probe-bench.sh [BUILD_DIR]     (default: build, set up if missing)
#
# Builds bench/probe-bench.c against the engine library of BUILD_DIR with the
# same optimisation as the project (buildtype debugoptimized: -O2 -g).
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build}

[ -d "$build" ] || meson setup "$build" "$src" >/dev/null
ninja -C "$build" service/engine/librnghealth-engine.a service/shared/librnghealth-shared.a >/dev/null

out=$build/probe-bench
# shellcheck disable=SC2046
cc -std=gnu11 -O2 -g -D_GNU_SOURCE -I"$src/service/engine" -I"$src/service/shared" $(pkg-config --cflags json-c) \
	-o "$out" "$src/bench/probe-bench.c" "$build/service/engine/librnghealth-engine.a" "$build/service/shared/librnghealth-shared.a" \
	$(pkg-config --libs json-c) -lm -pthread
"$out"
