# Helpers for guest tests (sourced).  A guest test is an executable that
# exits 0 on success; it prints what it checked and, on failure, why.
set -u

fail() { echo "FAIL: $*" >&2; exit 1; }
pass() { echo "ok: $*"; }

# The kernel log of this boot (journal, kernel transport).
kernel_log() { journalctl -b -k --no-pager -o cat; }

# Wait until boot has finished; fail with the list of failed units otherwise.
wait_system_running() {
	local state
	state=$(timeout 120 systemctl is-system-running --wait 2>&1)
	[ "$state" = running ] || {
		systemctl --no-pager --failed >&2
		fail "system state is '$state', expected 'running'"
	}
	pass "systemctl is-system-running: running"
}

# rng-health's kernel-watch MESSAGE_IDs (service/monitor/journal-ids.h).
MID_KERNEL_EXHAUSTED=6afb1a83c7bc4980acdc39cf56eda719
MID_KERNEL_FAILED=afc3fa1e389d4fd09025eccfbafec529
MID_KERNEL_DISABLED=5f601626a168491082d4dbeb04f2e135
MID_KERNEL_DEFECTIVE=e6f45ebba3664214908f96a4b5d070c3

# The one wait loop: up to $2 seconds (default 30) until the command in $1
# succeeds.
wait_for() {
	local cmd=$1 t=${2:-30} i
	for ((i = 0; i < t * 10; i++)); do
		eval "$cmd" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	return 1
}

# Whether rng-health's daemon (pid $1) has no CLOCK_MONOTONIC timer due
# within $2 seconds. Its sd-event loop arms one timerfd for all of them, and
# /proc/PID/fdinfo says when that expires (it_value, relative; (0, 0):
# disarmed). The kernel watch's window (1 s) and its settle re-check (6 s
# after the last kernel activity) are such timers: once none is due within
# 7 s, the re-check has run. (sd-event's watchdog timerfd is re-armed 90 s
# or more ahead each time it fires.)
daemon_timers_quiet() {
	local pid=$1 max=$2 f
	for f in /proc/"$pid"/fdinfo/*; do
		awk -v max="$max" '
			/^clockid:/ { c = $2 }
			/^it_value:/ { gsub(/[(),]/, " "); s = $2; ns = $3 }
			END { exit !(c == 1 && (s > 0 || ns > 0) && s + ns / 1e9 <= max) }' "$f" 2>/dev/null && return 1
	done
	return 0
}

# Wait, up to 20 s, until the kernel watch of rng-health's daemon (pid $1)
# has made its settle re-check after the kernel failures it recorded.
wait_watch_settled() {
	wait_for "daemon_timers_quiet $1 7" 20 || fail "rng-health's settle re-check did not run within 20 s"
}

# Wait until rng-health.service has sent READY=1.
wait_rng_health_active() {
	wait_for '[ "$(systemctl is-active rng-health.service)" = active ]' 60 || {
		systemctl --no-pager status rng-health.service >&2
		fail "rng-health.service is not active"
	}
}

# Sum of RNG_COUNT over this boot's kernel-exhausted events for $1.
kernel_event_count_sum() {
	journalctl -b -o json MESSAGE_ID=$MID_KERNEL_EXHAUSTED RNG_INSTRUCTION="$1" |
		jq -s '[.[].RNG_COUNT | tonumber] | add // 0'
}

# The value of the sample NAME{LABELS} ($1, exactly as written) in the
# Prometheus text on stdin, "" if it is absent: the one way the tests read
# a metric (the metrics file, or node_exporter's scrape).
metric_value() { awk -v k="$1" '$1 == k { print $2 }'; }

# Record routine kernel failures (RDSEED's) at once instead of once per
# interval (KernelRoutineIntervalSec=0, applied by a reload): for tests that
# compare the RNG_COUNT sum with the counter while failures keep coming.
routine_at_once() {
	mkdir -p /etc/rng-health/rng-health.conf.d
	printf '[Monitor]\nKernelRoutineIntervalSec=0\n' >/etc/rng-health/rng-health.conf.d/40-routine-at-once.conf
	systemctl reload rng-health.service || fail "systemctl reload rng-health failed"
}
