#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# `rng-health probe --instruction hwrng` with the hwrng core's sysfs
# attributes an adversary (or a driver) leaves, on this machine's kernel: a
# file mounted over /sys/class/misc/hw_random/rng_current in a private
# mount namespace (unshare -m; nothing outside the test changes), and the
# device read as nobody.
#   - an ESC sequence and invalid UTF-8: escaped in the table and in
#     --json (valid UTF-8, no control byte);
#   - 5,000 bytes, or a NUL in it: "unknown", with why, once; not
#     "unsupported" (not there);
#   - /dev/hwrng not readable (nobody): "unreadable", THERE yes, why once.
# Needs root, unshare -m and an hwrng core; skips, saying which, without.
set -uo pipefail
rh=$1
cur=/sys/class/misc/hw_random/rng_current
if [ "$(id -u)" != 0 ] || ! unshare -m true 2>/dev/null; then
	echo "SKIP: needs root and unshare -m (a private mount namespace) to mount over $cur"
	exit 77
fi
if [ ! -e "$cur" ]; then
	echo "SKIP: this kernel has no hwrng core ($cur)"
	exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# probe_with FILE ARGS...: the probe with FILE mounted over rng_current
probe_with() {
	local file=$1
	shift
	unshare -m sh -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' sh "$file" "$cur" \
		"$rh" probe --instruction hwrng "$@"
}

printf 'virtio_rng.0\033[31mEVIL\n' >"$tmp/esc"
printf 'xx\377\376\n' >"$tmp/utf8"
probe_with "$tmp/esc" >"$tmp/out" 2>&1
LC_ALL=C grep -q $'\033' "$tmp/out" && fail "an ESC byte from rng_current reached the table"
grep -qF 'virtio_rng.0\x1b[31mEVIL' "$tmp/out" || fail "the table does not show rng_current escaped: $(cat "$tmp/out")"
probe_with "$tmp/utf8" --json >"$tmp/json" 2>"$tmp/err"
python3 -c 'import json, sys; json.loads(open(sys.argv[1], "rb").read().decode("utf-8", "strict"))' "$tmp/json" ||
	fail "--json with invalid UTF-8 in rng_current is not valid UTF-8 JSON"
dev=$(jq -r '.instructions[] | select(.name == "hwrng") | .kernel.credit.device' "$tmp/json")
[ "$dev" = 'xx\xff\xfe' ] || fail "--json: device '$dev', expected 'xx\\xff\\xfe'"
echo "ok: rng_current with ESC and with invalid UTF-8: escaped in the table and in --json ($dev)"

head -c 5000 /dev/zero | tr '\0' a >"$tmp/long"
printf 'virtio\0x\n' >"$tmp/nul"
for f in long nul; do
	probe_with "$tmp/$f" >"$tmp/out" 2>&1
	row=$(grep '^[a-z]* *HWRNG' "$tmp/out")
	[[ $row == "unknown      HWRNG     ?"*"unknown (rng_current not readable: "* ]] ||
		fail "rng_current $f: row '$row'"
	[ "$(grep -o 'unknown' <<<"$row" | wc -l)" = 2 ] || fail "rng_current $f: 'unknown' said more than in the verdict and the why: $row"
	head -1 "$tmp/out" | grep -q '^Verdict: unknown ' || fail "rng_current $f: headline $(head -1 "$tmp/out")"
	probe_with "$tmp/$f" --json >"$tmp/json" 2>/dev/null
	[ "$(jq -r '.instructions[] | select(.name == "hwrng") | .unavailable' "$tmp/json")" = unknown ] ||
		fail "rng_current $f: --json's unavailable is not unknown"
	echo "ok: rng_current $f: $row"
done

[ -c /dev/hwrng ] || fail "an hwrng core ($cur) without /dev/hwrng"
if [ -c /dev/hwrng ]; then
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$rh" probe --instruction hwrng >"$tmp/out" 2>&1
	row=$(grep '^[a-z]* *HWRNG' "$tmp/out")
	[[ $row == "unreadable   HWRNG     yes"* ]] || fail "/dev/hwrng as nobody: row '$row'"
	[ "$(grep -c 'cannot be read (Permission denied)' "$tmp/out")" = 1 ] ||
		fail "/dev/hwrng as nobody: why not said once: $(cat "$tmp/out")"
	echo "ok: /dev/hwrng as nobody: $row; $(grep 'cannot be read' "$tmp/out")"
fi

[ "$fails" = 0 ] || { echo "$fails check(s) failed"; exit 1; }
echo "all checks passed"
