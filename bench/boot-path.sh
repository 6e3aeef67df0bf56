#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark, not a test: rng-health.service's boot path in the container,
# start -> READY=1, over several boots.
#
#   bench/boot-path.sh [--boots N] [--variants]     (default 10 boots)
#
# Boots the image N times as tests/harness/boot-test boots it
# (systemd-nspawn, read-only root with a volatile overlay), each boot running
# only the guest side tests/guest/bench-boot-path, and prints per boot:
#   blame     rng-health.service's line in `systemd-analyze blame`
#   mono      ActiveEnterTimestampMonotonic - InactiveExitTimestampMonotonic
#             (what blame computes, from the µs timestamps: the cross-check)
#   sandbox   ExecMainHandoffTimestampMonotonic - InactiveExitTimestampMonotonic:
#             systemd's part, the fork and systemd-executor's sandbox set-up
#   daemon    ActiveEnterTimestampMonotonic - ExecMainHandoffTimestampMonotonic:
#             the daemon's own part, from its exec to READY=1
#             (both "-", and said to be not measured, where the guest's
#             systemd has no ExecMainHandoffTimestamp, before 257; the
#             statistics of a column count only its measured boots)
#   probe     the boot probe's own wall time, RNG_PROBE_USEC of its event
#   exposure  `systemd-analyze security` of the running unit
# then the median, minimum and maximum of each column.
#
# --variants also boots N times with each drop-in of bench/boot-path/
# (minimal.conf: the least hardening the unit must have, by its cheapest
# options; none.conf: no hardening, the floor) and ends with the medians of
# the unit as shipped and of each variant side by side.
#
# Holds $RNG_HEALTH_CACHE/vm.lock alone for the whole run: every other boot
# (tests/harness/boot-test takes it shared) waits, and none is running when
# the first boot starts. Do not wrap it in another flock on that file.
# Needs the image (tools/image-build); each boot's logs stay in
# .build/bench/boot-path/.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tools/lib.sh"

boots=10 variants=0
while [ $# -gt 0 ]; do
	case "$1" in
	--boots) boots=${2:-}; shift 2 ;;
	--variants) variants=1; shift ;;
	-h|--help) sed -n '3,31p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown argument '$1'" ;;
	esac
done
[[ $boots =~ ^[1-9][0-9]*$ ]] || die "--boots '$boots' is not a positive number"

outroot=$BUILD_ROOT/bench/boot-path
mkdir -p "$outroot" "$CACHE_ROOT"
exec 9>"$CACHE_ROOT/vm.lock"
flock 9
export RNG_HEALTH_VM_LOCK_HELD=1 # its own boots: the lock is held for them

# "35ms", "1.204s", "1min 2.500s" -> ms
blame_ms() {
	awk '{ ms = 0
		for (i = 1; i <= NF; i++) {
			v = $i
			if (v ~ /min$/) { sub(/min$/, "", v); ms += v * 60000 }
			else if (v ~ /ms$/) { sub(/ms$/, "", v); ms += v }
			else if (v ~ /us$/ || v ~ /µs$/) { sub(/(us|µs)$/, "", v); ms += v / 1000 }
			else if (v ~ /s$/) { sub(/s$/, "", v); ms += v * 1000 }
		}
		printf "%.0f\n", ms }' <<<"$1"
}

# One variant: NAME, DROPIN ("": the unit as shipped). Prints its boots and
# their median, minimum and maximum; appends "NAME medians... exposure" to
# summary.
summary=()
run_variant() {
	local name=$1 dropin=$2 i out line blame b row rows=() unsplit=() exposure="" want=0 stats
	local -a extra=()
	if [ -n "$dropin" ]; then
		extra=(--unit-dropin "rng-health.service:$dropin")
		want=1
	fi
	echo "== $name${dropin:+ (${dropin#"$top"/})}"
	printf '%-5s %9s %9s %10s %9s %9s %9s\n' boot blame/ms mono/ms sandbox/ms daemon/ms probe/ms exposure
	for ((i = 1; i <= boots; i++)); do
		out=$outroot/$name/$i
		mkdir -p "$outroot/$name"
		if ! "$top/tests/harness/boot-test" --target container --name "bench-boot-path-$name-$i" \
			--tests bench-boot-path --outdir "$out" "${extra[@]}" >"$out.log" 2>&1; then
			cat "$out.log" >&2
			die "$name: boot $i failed; logs in $out"
		fi
		line=$(grep -m1 '^boot-path: ' "$out/results.log") || die "$name: boot $i printed no figures; see $out/results.log"
		declare -A f=()
		for kv in ${line#boot-path: }; do f[${kv%%=*}]=${kv#*=}; done
		# The variant's drop-in was in effect, and only then.
		[ "${f[credential_dropins]:-}" = "$want" ] ||
			die "$name: boot $i: ${f[credential_dropins]:-no} credential drop-ins in effect, expected $want"
		exposure=${f[exposure]}
		blame=$(sed -n 's/.*blame=\(.*\) start_ready_us=.*/\1/p' <<<"$line")
		b=$(blame_ms "$blame")
		# sandbox and daemon: "-" where the guest could not split
		# (exec_ready_us=not-measured), never a figure made up.
		row="$b $(awk -v a="${f[start_ready_us]}" -v b="${f[exec_ready_us]}" -v c="${f[probe_us]}" \
			'BEGIN { if (b ~ /^[0-9]+$/) printf "%.1f %.1f %.1f %.1f", a / 1000, (a - b) / 1000, b / 1000, c / 1000
				 else printf "%.1f - - %.1f", a / 1000, c / 1000 }')"
		rows+=("$row")
		[[ $row != *" - "* ]] || unsplit+=("$i")
		# shellcheck disable=SC2086
		printf '%-5s %9s %9s %10s %9s %9s %9s\n' "$i" $row "$exposure"
	done
	stats=$(printf '%s\n' "${rows[@]}" | awk '
		{ for (c = 1; c <= 5; c++) if ($c != "-") v[c, ++n[c]] = $c }
		function fmt(c, x) { return n[c] ? sprintf("%.1f", x) : "-" }
		END {
			for (c = 1; c <= 5; c++) {
				# insertion sort of column c over its measured boots
				k = n[c]
				for (i = 1; i <= k; i++) s[i] = v[c, i]
				for (i = 2; i <= k; i++) { x = s[i]; j = i - 1
					while (j >= 1 && s[j] + 0 > x + 0) { s[j + 1] = s[j]; j-- }
					s[j + 1] = x }
				med[c] = fmt(c, (k % 2) ? s[(k + 1) / 2] : (s[k / 2] + s[k / 2 + 1]) / 2)
				min[c] = fmt(c, s[1]); max[c] = fmt(c, s[k])
			}
			printf "%-5s %9s %9s %10s %9s %9s\n", "med", med[1], med[2], med[3], med[4], med[5]
			printf "%-5s %9s %9s %10s %9s %9s\n", "min", min[1], min[2], min[3], min[4], min[5]
			printf "%-5s %9s %9s %10s %9s %9s\n", "max", max[1], max[2], max[3], max[4], max[5]
		}')
	printf '%s\n' "$stats"
	[ ${#unsplit[@]} = 0 ] || echo "sandbox/ms, daemon/ms (\"-\"): not measured in boot(s) ${unsplit[*]}: the guest's" \
		"systemd has no ExecMainHandoffTimestamp (systemd < 257); med/min/max over the measured boots only"
	summary+=("$name $(awk '$1 == "med" { print $2, $3, $4, $5, $6 }' <<<"$stats") $exposure")
}

run_variant shipped ""
if [ "$variants" = 1 ]; then
	for d in "$top"/bench/boot-path/*.conf; do
		run_variant "$(basename "$d" .conf)" "$d"
	done
	echo "== medians side by side (ms; blame relative to the unit as shipped)"
	printf '%-9s %9s %9s %10s %9s %9s %9s %7s\n' variant blame/ms mono/ms sandbox/ms daemon/ms probe/ms exposure ratio
	# shellcheck disable=SC2086
	base=$(set -- ${summary[0]}; echo "$2")
	for l in "${summary[@]}"; do
		# shellcheck disable=SC2086
		set -- $l
		printf '%-9s %9s %9s %10s %9s %9s %9s %7s\n' "$1" "$2" "$3" "$4" "$5" "$6" "$7" \
			"$(awk -v a="$2" -v b="$base" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')"
	done
fi
echo "rng-health.service start -> READY=1 over $boots container boots per variant (systemd-analyze blame);" \
	"logs in $outroot"
