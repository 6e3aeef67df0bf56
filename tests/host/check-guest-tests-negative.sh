#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# check-guest-tests must fail, naming each, on a test installed but run by
# no boot, a boot naming a test that is not installed, and an executable in
# tests/guest/ that is not installed; and pass the same lists without them.
#
#   check-guest-tests-negative.sh CHECKER GUEST-DIR --installed NAME... --boots LIST...
set -uo pipefail
checker=$1 dir=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
"$checker" "$dir" "$@" >"$tmp/clean" || { cat "$tmp/clean"; echo "FAIL: the unchanged lists do not pass"; exit 1; }
# A copy of the guest directory with one more executable, one more
# installed name, one more name in a boot.
cp -a "$dir" "$tmp/guest"
printf '#!/bin/sh\n' >"$tmp/guest/not-installed" && chmod +x "$tmp/guest/not-installed"
args=()
for a in "$@"; do
	args+=("$a")
	[ "$a" = --installed ] && args+=(never-run)
	[ "$a" = --boots ] && args+=(not-a-test)
done
rc=0
"$checker" "$tmp/guest" "${args[@]}" >"$tmp/out" || rc=$?
sed 's/^/  /' "$tmp/out"
[ "$rc" = 1 ] || { echo "FAIL: check-guest-tests exited $rc, expected 1"; bad=1; }
for l in "guest test 'never-run' is installed but no boot runs it" \
	 "a boot runs 'not-a-test' (not-a-test), which is not an installed guest test" \
	 "tests/guest/not-installed is executable but not installed (guest_tests in tests/guest/meson.build)"; do
	grep -qxF "FAIL: $l" "$tmp/out" || { echo "FAIL: not named: $l"; bad=1; }
done
[ "$(grep -c '^FAIL:' "$tmp/out")" = 3 ] || { echo "FAIL: other problems reported too"; bad=1; }
[ "$bad" = 0 ] || exit 1
echo "ok: an orphan guest test, a boot naming no test and an executable not installed are each named"
