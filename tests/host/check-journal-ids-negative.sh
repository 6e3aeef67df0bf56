#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# check-journal-ids must fail on a copy of the tree whose shell library has
# a wrong MESSAGE_ID, a missing one, and a field the list lacks, naming
# each: a check that cannot fail proves nothing.
set -euo pipefail
checker=$1 top=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/service/monitor" "$tmp/tests/guest"
cp -r "$top/service/monitor/." "$tmp/service/monitor/"
cp "$top/tests/guest/lib.sh" "$top/tests/guest/rng-health-lib.sh" "$tmp/tests/guest/"
"$checker" "$tmp" >/dev/null || { echo "FAIL: the unchanged copy does not pass"; exit 1; }
# One id changed, one removed, one field written that the list lacks.
sed -i 's/^MID_KERNEL_FAILED=\(.\)/MID_KERNEL_FAILED=0\1/' "$tmp/tests/guest/lib.sh"
sed -i '/^MID_CONFIG_INVALID=/d' "$tmp/tests/guest/rng-health-lib.sh"
printf 'static const char *x = "RNG_NOT_LISTED=1";\n' >"$tmp/service/monitor/zz-extra.c"
rc=0
"$checker" "$tmp" >"$tmp/out" || rc=$?
cat "$tmp/out"
[ "$rc" = 1 ] || { echo "FAIL: check-journal-ids exited $rc on a broken copy, expected 1"; exit 1; }
grep -q 'MID_KERNEL_FAILED=0' "$tmp/out" || { echo "FAIL: the changed id was not named"; exit 1; }
grep -q 'RNG_MID_CONFIG_INVALID_STR has no MID_CONFIG_INVALID' "$tmp/out" || { echo "FAIL: the missing id was not named"; exit 1; }
grep -q 'RNG_NOT_LISTED is written' "$tmp/out" || { echo "FAIL: the unlisted field was not named"; exit 1; }
[ "$(grep -c '^FAIL:' "$tmp/out")" = 3 ] || { echo "FAIL: other problems reported too"; exit 1; }
echo "ok: a wrong id, a missing id and an unlisted field are each named"
