#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# check-binary.py must fail on folded code, naming exactly the two functions
# that run another form and nothing else:
#   check-binary-negative.sh CHECKER FIXTURE CC REPORTED1 REPORTED2
# x86-64 (fixtures/folded.S, cc): the 32-bit loop is an alias of the 16-bit
# one, and a 32-bit draw runs the 16-bit form. arm64 (fixtures/folded-arm64.S,
# aarch64-linux-gnu-gcc): the RNDRRS loop is a branch to the RNDR loop, and
# the RNDRRS draw reads RNDR.
set -eu
checker=$1 fixture=$2 cc=$3 want1=$4 want2=$5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$cc" -c "$fixture" -o "$tmp/folded.o"
rc=0
python3 "$checker" "$tmp/folded.o" >"$tmp/out" || rc=$?
cat "$tmp/out"
[ "$rc" -eq 1 ] || { echo "FAIL: check-binary.py exited $rc on folded code, expected 1"; exit 1; }
for w in "$want1" "$want2"; do
	grep -q "$w" "$tmp/out" || { echo "FAIL: '$w' was not reported"; exit 1; }
done
n=$(grep -c '^FAIL:' "$tmp/out")
[ "$n" -eq 2 ] || { echo "FAIL: $n problems reported, expected 2 (a correct function was rejected)"; exit 1; }
echo "ok: folded code rejected ($fixture)"
