#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `rng-health probe`'s exit status on the shapes measured in the field
# (rng-health-shaped SHAPE probe: the probe on scripted sources), against
# what the running kernel does about each verdict (rng-health(8), EXIT
# STATUS), not the verdict's name:
#   xeon              RDSEED exhausted, RDRAND ok: routine (the kernel seeds
#                     from RDRAND), exit 0; --fail-on exhausted: 3
#   rdrand-exhausted  RDRAND exhausted: no fallback, exit 3
#   zen5-zeros        RDSEED broken (zeros with CF=1): exit 4
#   hwrng-stuck       the device's bytes stuck: broken, exit 4
#   zen3, hwrng-healthy  ok: exit 0; --fail-on ok: 7
# --json's exit_code is the status, each time. Catches: an exit status by
# the worst verdict's name (xeon would exit 3), a --fail-on that is not
# applied, and a JSON exit_code that differs from the status.
set -uo pipefail
shaped=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# expect SHAPE STATUS [OPTIONS...]
expect() {
	local shape=$1 want=$2 rc jrc code
	shift 2
	"$shaped" "$shape" probe "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	"$shaped" "$shape" probe --json "$@" >"$tmp/json" 2>>"$tmp/err"
	jrc=$?
	code=$(jq -r .exit_code "$tmp/json" 2>/dev/null)
	if [ "$rc" != "$want" ] || [ "$jrc" != "$want" ] || [ "$code" != "$want" ]; then
		fail "$shape $*: exit $rc (--json: $jrc, exit_code $code), expected $want; $(head -1 "$tmp/out")"
		sed 's/^/  stderr: /' "$tmp/err"
		return 1
	fi
	echo "ok: $shape $*: exit $rc, exit_code $code: $(head -1 "$tmp/out")"
}

expect xeon 0 && {
	grep -q "^Verdict: exhausted, routine: RDSEED: the kernel seeds from RDRAND instead" "$tmp/out" ||
		fail "xeon: the headline does not say why exhausted is routine: $(head -1 "$tmp/out")"
	[ "$(jq -r '.instructions[] | select(.name == "rdseed") | .verdict' "$tmp/json")" = exhausted ] ||
		fail "xeon: RDSEED's verdict is not exhausted (the shape did not take)"
}
expect xeon 3 --fail-on exhausted
expect xeon 3 --fail-on rdseed:exhausted
expect xeon 0 --fail-on rdrand:exhausted
expect rdrand-exhausted 3
expect zen5-zeros 4
expect zen5-zeros 4 --fail-on broken,exhausted
expect hwrng-stuck 4
expect zen3 0
expect zen3 7 --fail-on ok
expect hwrng-healthy 0

# --fail-on's bad input: one line, exit 2, the word named.
for bad in "rdrand:host-fed" "boot-seed:exhausted" "hwrng:hidden" "frob" "none" ","; do
	"$shaped" zen3 probe --fail-on "$bad" >/dev/null 2>"$tmp/err"
	rc=$?
	[ "$rc" = 2 ] || fail "--fail-on '$bad': exit $rc, expected 2"
	[ "$(wc -l <"$tmp/err")" = 1 ] || fail "--fail-on '$bad': not one line: $(cat "$tmp/err")"
	echo "ok: --fail-on '$bad': exit 2, $(cat "$tmp/err")"
done

[ "$fails" = 0 ] || { echo "$fails check(s) failed"; exit 1; }
echo "all checks passed"
