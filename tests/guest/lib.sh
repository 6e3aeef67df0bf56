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
