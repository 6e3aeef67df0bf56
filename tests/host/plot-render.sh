#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The figure of fixed data (test-plot DIR: three panels, 12 threads, points
# that coincide) rendered by rsvg-convert and checked pixel by pixel
# (check-svg.py); a point moved in the expectation fails the check.
#   plot-render.sh TEST_PLOT CHECK_SVG
set -uo pipefail
test_plot=$1 check=$2
if ! command -v rsvg-convert >/dev/null; then
	[ -n "${RNG_HEALTH_HOST_SETUP:-}" ] && { echo "FAIL: no rsvg-convert (tools/setup-host installs librsvg2-bin)"; exit 1; }
	echo "SKIP: no rsvg-convert (librsvg2-bin)"
	exit 77
fi
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
"$test_plot" "$d" || exit 1
"$check" "$d/fixture.svg" "$d/fixture.json" || exit 1
# negative control: the third panel's S1 at 4 threads drawn at 0.45, expected at 0.95
jq '.panels[2].series[1].points[1][1] = 0.95' "$d/fixture.json" >"$d/moved.json"
rc=0; out=$("$check" "$d/fixture.svg" "$d/moved.json") || rc=$?
[ "$rc" = 1 ] && grep -q "^FAIL: panel 2 (model 2), S1 32-bit: no .* for 4 threads, ratio 0.9500" <<<"$out" ||
	{ echo "FAIL: a moved point passed check-svg (exit $rc): $out"; exit 1; }
echo "ok: a moved point fails: $(head -n1 <<<"$out")"
