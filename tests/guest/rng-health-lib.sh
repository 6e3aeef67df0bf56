# Helpers for the rng-health service's guest tests (sourced after lib.sh).

# MESSAGE_IDs (service/monitor/journal-ids.h).
MID_PROBE_RESULT=a1d8857c7f454436bd2b315b0afb813c
MID_VERDICT_BOOT=967e48a8dd4b4e31a946aa9d2f554e9f
MID_VERDICT_CHANGED=78c178913bfa4de781820d76fbaf7dcd
MID_OUTPUT_CHECK=40c58cd78a8941649f51fb936030cc44
MID_UNAVAILABLE=94cb13611d724332a1c9276f6334ee76
MID_CONFIG_INVALID=c232ae4933f44c0c83cb4a44843234c4
MID_POLICY_FAILURE=24ba1f2b793047dc8ce6d83d30881331
MID_VM_FORK=504eb1b2351e4f26a462276ba20dfb60
MID_CRNG_READY=8f33b8d7721d4274b5ad919a2af46d7f

# Fields every probe result carries (rng-health(8), JOURNAL FIELDS).
PROBE_RESULT_FIELDS="RNG_INSTRUCTION RNG_VERDICT RNG_WIDTH RNG_MODE RNG_THREADS RNG_ATTEMPTS RNG_FAILURES
RNG_FAILURE_RATE RNG_MAX_FAIL_STREAK RNG_RETRY_EXHAUSTED RNG_RUNS RNG_TOTAL_ATTEMPTS RNG_TOTAL_FAILURES
RNG_TOTAL_FAILURE_RATE RNG_TOTAL_RETRY_EXHAUSTED RNG_KERNEL_RETRIES RNG_PROBE_USEC RNG_KERNEL_STATE RNG_TRIGGER"
VERDICT_FIELDS="RNG_VERDICT RNG_RDRAND_VERDICT RNG_RDSEED_VERDICT RNG_FAIL_ON RNG_CONFIDENTIAL_VM RNG_TRIGGER"

# Entries of this boot from the unit, one JSON object per line.
# Usage: rh_journal [journalctl matches...]
rh_journal() { journalctl -b -u rng-health.service -o json --no-pager "$@"; }

# The journal's newest cursor: pass it as --after-cursor to see only what
# came after this point (not --since a wall-clock second, which needs a
# sleep and misses or repeats entries of the same second).
journal_cursor() { journalctl --sync; journalctl -n 1 -o export --no-pager | sed -n 's/^__CURSOR=//p'; }

# The newest entry with MESSAGE_ID $1 (and further matches), as JSON.
rh_last() { local mid=$1; shift; rh_journal MESSAGE_ID="$mid" "$@" | tail -n1; }

rh_status() { systemctl show -P StatusText rng-health.service; }

# The exposure figure from `systemd-analyze security` output on stdin
# ("" if there is none): of the unit file with --offline=yes, of the
# running unit without.
rh_exposure() { sed -n 's/.*Overall exposure level for rng-health.service: \([0-9.]*\).*/\1/p'; }

# Wait until the unit is in state $1 (active, failed, ...) for up to 30 s.
rh_wait_state() {
	wait_for "[ \"\$(systemctl show -P ActiveState rng-health.service)\" = '$1' ]" 30 ||
		fail "rng-health.service is '$(systemctl show -P ActiveState rng-health.service)', expected '$1'"
}

# Restart the service and wait for it to be active. A test that restarts
# it more often than the unit's start limit allows (StartLimitBurst= in
# StartLimitIntervalSec=, systemd's defaults 5 in 10 s) is not testing
# that limit: the failed-start counter is reset first.
rh_restart() {
	systemctl reset-failed rng-health.service 2>/dev/null
	systemctl restart rng-health.service || fail "systemctl restart rng-health failed"
	rh_wait_state active
}

# Remove test configuration and start the service afresh.
rh_reset() {
	rm -rf /etc/rng-health/rng-health.conf.d/* /run/rng-health
	rh_restart
}

# The independent reference (tests/host/rng-reference.c: its own CPUID
# read, its own guarded try and draw loops, no code of the daemon's).
RNG_REFERENCE=/usr/lib/rng-health/tests/rng-reference

# The reference's `cpuid` key $1 (rdrand, rdseed, rdrand_executes, ...).
rh_reference_cpuid() { "$RNG_REFERENCE" cpuid | sed -n "s/^$1=//p"; }

# Which instructions execute (CPUID advertises them, or they are hidden),
# by the reference: "RDRAND RDSEED".
rh_executing_instructions() {
	"$RNG_REFERENCE" cpuid | sed -n 's/^\(rdrand\|rdseed\)_executes=1$/\1/p' | tr a-z A-Z | paste -sd' '
}

# Check that a JSON entry has every named field.
rh_has_fields() {
	local json=$1 f
	shift
	for f in $*; do
		jq -e --arg f "$f" 'has($f)' <<<"$json" >/dev/null || fail "field $f missing in: $json"
	done
}

# Send the journal entry on stdin ("FIELD=value" lines, logger --journald)
# as another user would forge one: as nobody, from a transient unit of its
# own (systemd-run -p User=nobody), whose name the entry's _SYSTEMD_UNIT
# then says (run-*.service). journald reads the sender's cgroup when it
# gets to the message: a logger that exited and was reaped by then leaves
# the entry without _SYSTEMD_UNIT (seen in container-journal-remote). As
# in rh_send_as_service, logger is a child of sleep, which never reaps it:
# a zombie whose cgroup can still be read, in a unit that lives until
# sleep ends (its stdin is the caller's, fd 3: a background job's own would
# be /dev/null). sleep's status is not logger's, so the entry is looked
# for: it must be in the journal, nobody's, from a run-*.service unit (a
# forgery that never arrived would make a test of its rejection pass
# vacuously). The entry gets RNG_HEALTH_TEST_FORGED=TAG to be found by.
rh_forge() {
	local tag entry
	tag=$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
	entry=$(cat; echo "RNG_HEALTH_TEST_FORGED=$tag")
	systemd-run -q --wait --pipe -p User=nobody /bin/sh -c 'exec 3<&0; logger --journald <&3 & exec sleep 2' \
		<<<"$entry" || fail "logger --journald as nobody failed"
	forged_arrived() {
		journalctl --sync
		journalctl -q -o json RNG_HEALTH_TEST_FORGED="$tag" |
			jq -e -s 'length == 1 and (.[0]._UID == "65534") and (.[0]._SYSTEMD_UNIT // "" | startswith("run-"))'
	}
	wait_for forged_arrived 10 ||
		fail "the forged entry did not arrive as nobody's from a run-*.service: $(journalctl -q -o json RNG_HEALTH_TEST_FORGED="$tag" |
			jq -c '{_UID, _SYSTEMD_UNIT, _TRANSPORT}')"
}

# Send the journal entry on stdin from inside rng-health.service's cgroup
# as uid $1 (default 0): what only root, or the daemon itself, can do. Its
# trusted fields then say _SYSTEMD_UNIT=rng-health.service, _UID=$1. The
# process joins the unit's cgroup in every hierarchy there is: cgroup2 at
# /sys/fs/cgroup (the VM), or, in a container on a host with hybrid
# cgroups, name=systemd (where journald looks) and the unified one.
rh_send_as_service() {
	local uid=${1:-0} cg entry
	cg=$(systemctl show -P ControlGroup rng-health.service)
	[ -n "$cg" ] || fail "rng-health.service has no cgroup"
	entry=$(mktemp)
	cat >"$entry"
	(
		joined=0
		for d in /sys/fs/cgroup /sys/fs/cgroup/systemd /sys/fs/cgroup/unified; do
			[ -w "$d$cg/cgroup.procs" ] || continue
			echo "$BASHPID" >"$d$cg/cgroup.procs" || exit 1
			joined=1
		done
		[ "$joined" = 1 ] || { echo "no writable cgroup.procs for $cg" >&2; exit 1; }
		# journald reads the sender's /proc/PID/cgroup when it gets to the
		# message: a logger already reaped would leave no _SYSTEMD_UNIT. As
		# a child of sleep, which never reaps it, logger stays a zombie
		# whose cgroup can still be read until sleep ends.
		setpriv --reuid="$uid" --regid="$uid" --clear-groups logger --journald <"$entry" &
		exec sleep 2
	) || fail "cannot send as rng-health.service (uid $uid)"
	rm -f "$entry"
}
