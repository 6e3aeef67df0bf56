#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# check-journal-ids must fail on copies of the tree broken each way it
# checks, naming each disagreement: a check that cannot fail proves
# nothing. Every branch that reports a disagreement has its case:
#   - a shell MESSAGE_ID that differs from journal-ids.h's,
#   - a shell MESSAGE_ID that journal-ids.h does not have,
#   - a journal-ids.h id without its shell copy,
#   - a field written that journal-event.h's list lacks,
#   - a field in the list that is never written,
#   - a journal-ids.h with no RNG_MID_*_STR at all (a renamed macro).
set -euo pipefail
checker=$1 top=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
fail() { echo "FAIL: $*"; bad=1; }

# A fresh copy of the parts the checker reads, in $tmp/$1.
copy() {
	mkdir -p "$tmp/$1/service/monitor" "$tmp/$1/tests/guest"
	cp -r "$top/service/monitor/." "$tmp/$1/service/monitor/"
	cp "$top/tests/guest/lib.sh" "$top/tests/guest/rng-health-lib.sh" "$tmp/$1/tests/guest/"
}

# expect NAME LINE...: the checker exits 1 on copy NAME and prints exactly
# these FAIL lines (fixed strings), no others.
expect() {
	local name=$1 rc=0 line
	shift
	"$checker" "$tmp/$name" >"$tmp/$name.out" 2>&1 || rc=$?
	sed "s/^/  $name: /" "$tmp/$name.out"
	[ "$rc" = 1 ] || { fail "$name: check-journal-ids exited $rc, expected 1"; return; }
	for line in "$@"; do
		grep -qxF "FAIL: $line" "$tmp/$name.out" || fail "$name: not named: '$line'"
	done
	[ "$(grep -c '^FAIL:' "$tmp/$name.out")" = $# ] || fail "$name: other problems reported too"
}

copy clean
"$checker" "$tmp/clean" >/dev/null || { echo "FAIL: the unchanged copy does not pass"; exit 1; }

# One id changed, one removed, one added that the code lacks; one field
# written that the list lacks, one listed that is never written.
copy broken
id=$(sed -n 's/^MID_KERNEL_FAILED=//p' "$top/tests/guest/lib.sh")
cfg=$(sed -n 's/^MID_CONFIG_INVALID=//p' "$top/tests/guest/rng-health-lib.sh")
sed -i "s/^MID_KERNEL_FAILED=.*/MID_KERNEL_FAILED=0${id:1}/" "$tmp/broken/tests/guest/lib.sh"
sed -i '/^MID_CONFIG_INVALID=/d' "$tmp/broken/tests/guest/rng-health-lib.sh"
echo "MID_NOT_IN_CODE=0123456789abcdef0123456789abcdef" >>"$tmp/broken/tests/guest/rng-health-lib.sh"
printf 'static const char *x = "RNG_NOT_LISTED=1";\n' >"$tmp/broken/service/monitor/zz-extra.c"
sed -i 's/^ \*   RNG_TRIGGER /&RNG_NEVER_WRITTEN /' "$tmp/broken/service/monitor/journal-event.h"
grep -q RNG_NEVER_WRITTEN "$tmp/broken/service/monitor/journal-event.h" || fail "could not add a field to the list"
expect broken \
	"tests/guest/lib.sh: MID_KERNEL_FAILED=0${id:1}, journal-ids.h says $id" \
	"RNG_MID_CONFIG_INVALID_STR has no MID_CONFIG_INVALID in the guest tests' shell libraries" \
	"tests/guest/rng-health-lib.sh: MID_NOT_IN_CODE has no RNG_MID_NOT_IN_CODE_STR in journal-ids.h" \
	"RNG_NOT_LISTED is written (service/monitor/**/*.c) but not in journal-event.h's field list" \
	"RNG_NEVER_WRITTEN is in journal-event.h's field list but never written"
[ -n "$cfg" ] || fail "no MID_CONFIG_INVALID in rng-health-lib.sh to remove"

# A journal-ids.h whose macros were renamed: nothing to compare with is a
# failure, not an empty agreement (each shell id is then unknown too).
copy renamed
sed -i 's/RNG_MID_\([A-Z_]*\)_STR/RNG_MSGID_\1_STR/' "$tmp/renamed/service/monitor/journal-ids.h"
n=$(grep -cE '^MID_[A-Z_]+=' "$top/tests/guest/lib.sh" "$top/tests/guest/rng-health-lib.sh" | awk -F: '{ s += $2 } END { print s }')
"$checker" "$tmp/renamed" >"$tmp/renamed.out" 2>&1 && fail "renamed: check-journal-ids passed"
sed 's/^/  renamed: /' "$tmp/renamed.out"
grep -qxF "FAIL: no RNG_MID_*_STR in $tmp/renamed/service/monitor/journal-ids.h" "$tmp/renamed.out" ||
	fail "renamed: the missing macros are not named"
[ "$(grep -c 'has no RNG_MID_.*_STR in journal-ids.h' "$tmp/renamed.out")" = "$n" ] ||
	fail "renamed: not each of the $n shell ids named as unknown"

[ "$bad" = 0 ] || exit 1
echo "ok: a wrong, a missing and an unknown id, an unlisted and an unwritten field, and renamed macros are each named"
