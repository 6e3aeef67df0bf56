/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The probe's parameters: their defaults, and the parsers of the values
 * the command line and the configuration share. */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "macro.h"
#include "parse-util.h"
#include "probe.h"

void probe_params_default(ProbeParams *ret) {
        *ret = (ProbeParams) {
                .instructions = RNG_SOURCES_ALL,
                .widths = RNG_WIDTHS_ALL,
                .threads = 0,
                .limits = PROBE_LIMITS_DEFAULT,
                .health = HEALTH_PARAMS_DEFAULT,
                .verdict = VERDICT_PARAMS_DEFAULT,
        };
}

/* The words each list takes ("all": every one): the source table's
 * names... */
const char *probe_instructions_expect(char *buf, size_t len) {
        size_t n;

        rng_source_names_join(RNG_SOURCES_ALL, false, "", ", ", ", ", buf, len);
        n = strlen(buf);
        snprintf(buf + n, len - n, " or all");
        return buf;
}

/* ... and the widths. */
const char probe_widths_expect[] = "16, 32, 64 or all";
_Static_assert(RNG_N_WIDTHS == 3, "probe_widths_expect[] names every width");
/* ... and the bounds in words: a bound that changes fails the build here. */
const char probe_threads_expect[] = "all or a number of threads from 1 to 1024";
_Static_assert(PROBE_THREADS_MAX == 1024, "probe_threads_expect[] names the bound");
const char probe_max_attempts_expect[] = "a number of tries from 1 to 4294967296";
_Static_assert(PROBE_MAX_ATTEMPTS_MAX == UINT64_C(4294967296), "probe_max_attempts_expect[] names the bound");
const char probe_kernel_retries_expect[] = "a number of tries from 1 to 1000";
_Static_assert(PROBE_KERNEL_RETRIES_MAX == 1000, "probe_kernel_retries_expect[] names the bound");

uint64_t probe_limits_device_usec(const ProbeLimits *l) {
        return MAX(l->device_budget_usec ?: PROBE_DEVICE_BUDGET_USEC, l->budget_usec);
}

uint64_t probe_limits_device_bytes(const ProbeLimits *l) {
        return l->device_max_bytes ?: PROBE_DEVICE_MAX_BYTES;
}

ProbeLimits probe_limits_effective(const ProbeLimits *l) {
        ProbeLimits e = *l;

        if (e.max_attempts > 0)
                e.min_attempts = MIN(e.min_attempts, e.max_attempts);
        return e;
}

int probe_threads_from_string(const char *s, unsigned *ret) {
        uint64_t u;

        if (s && strcmp(s, "all") == 0) {
                *ret = 0;
                return 0;
        }
        if (parse_u64_range(s, 1, PROBE_THREADS_MAX, &u) < 0)
                return -EINVAL;
        *ret = (unsigned) u;
        return 0;
}
