#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# check-binary.py must fail on code whose 32-bit loop is an alias of the
# 16-bit one, or runs the 16-bit form (fixtures/folded.S), naming exactly
# those two functions.
set -eu
checker=$1 fixture=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -c "$fixture" -o "$tmp/folded.o"
rc=0
python3 "$checker" "$tmp/folded.o" >"$tmp/out" || rc=$?
cat "$tmp/out"
[ "$rc" -eq 1 ] || { echo "FAIL: check-binary.py exited $rc on folded code, expected 1"; exit 1; }
grep -q 'batch_rdseed32 runs rdseed16' "$tmp/out" || { echo "FAIL: the alias batch_rdseed32 -> batch_rdseed16 was not reported"; exit 1; }
grep -q 'draw_rdrand32 runs rdrand16' "$tmp/out" || { echo "FAIL: the 16-bit form in draw_rdrand32 was not reported"; exit 1; }
n=$(grep -c '^FAIL:' "$tmp/out")
[ "$n" -eq 2 ] || { echo "FAIL: $n problems reported, expected 2 (a correct function was rejected)"; exit 1; }
echo "ok: folded code rejected"
