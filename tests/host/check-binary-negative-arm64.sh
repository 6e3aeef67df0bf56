#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# check-binary.py must fail on arm64 code whose RNDRRS loop is a branch to
# the RNDR loop, and whose RNDRRS draw reads RNDR (fixtures/folded-arm64.S),
# naming exactly those two functions.
set -eu
checker=$1 fixture=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
aarch64-linux-gnu-gcc -c "$fixture" -o "$tmp/folded.o"
rc=0
python3 "$checker" "$tmp/folded.o" >"$tmp/out" || rc=$?
cat "$tmp/out"
[ "$rc" -eq 1 ] || { echo "FAIL: check-binary.py exited $rc on folded code, expected 1"; exit 1; }
grep -q 'batch_rndrrs64 runs rndr64' "$tmp/out" || { echo "FAIL: the branch batch_rndrrs64 -> batch_rndr64 was not reported"; exit 1; }
grep -q 'draw_rndrrs64 runs rndr64' "$tmp/out" || { echo "FAIL: RNDR's register in draw_rndrrs64 was not reported"; exit 1; }
n=$(grep -c '^FAIL:' "$tmp/out")
[ "$n" -eq 2 ] || { echo "FAIL: $n problems reported, expected 2 (a correct function was rejected)"; exit 1; }
echo "ok: folded arm64 code rejected"
