#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark, not a test: the probe's rate of the table's first CPU
# instruction (RDRAND; RNDR in an arm64 build) against a tight loop, in
# one process and as whole processes (the rng-health CLI against a
# tight-loop process, paired and interleaved), and the output checks'
# throughput against the fastest RDRAND rate.
#
# Why paired: a rate taken from one process and compared with another's
# taken at another time measures the machine's load as much as the program
# (a 75 ms run preempted for 15 ms reads 20 % slow). Unpaired runs during
# builds on a 2-vCPU Zen5 gave the CLI 0.75-0.87 of a tight loop; paired on
# the same machine when quiet, the CLI at HEAD and at b6a5826 both gave
# 0.97-0.98 (see the closing note of the "truth on the article's own
# hardware" issue).
#
#   bench/probe-bench.sh [BUILD_DIR]     (default: build, set up if missing)
#
# Both sides of each ratio are timed by the same outside clock (the
# benchmark's CLOCK_MONOTONIC); the programs' own figures are printed beside,
# not judged, and a figure it could not measure reads "not measured".
#
# Runs the meson target bench/probe-bench of BUILD_DIR (bench/meson.build:
# built on demand, with the project's flags and optimisation).
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build}

[ -d "$build" ] || meson setup "$build" "$src" >/dev/null
ninja -C "$build" bench/probe-bench service/cli/rng-health >/dev/null
# An arm64 build (cross/arm64-linux-gnu.ini) on another machine runs under
# QEMU's user-mode emulator, invoked by name, with FEAT_RNG (-cpu max): the
# benchmark and both processes it starts (RNG_HEALTH_EXE_WRAPPER), which
# it says, with what emulation hides.
wrapper=()
if [ "$(od -An -tu2 -j18 -N2 "$build/bench/probe-bench" | tr -d ' ')" = 183 ] && [ "$(uname -m)" != aarch64 ]; then
	wrapper=(qemu-aarch64 -cpu max)
	export RNG_HEALTH_EXE_WRAPPER="${wrapper[*]}"
fi
"${wrapper[@]}" "$build/bench/probe-bench" "$build/service/cli/rng-health"
