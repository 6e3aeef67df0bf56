/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The probe's parameters: their defaults, and the parsers of the values
 * the command line and the configuration share. */

#include <errno.h>
#include <string.h>

#include "parse-util.h"
#include "probe.h"

void probe_params_default(ProbeParams *ret) {
        *ret = (ProbeParams) {
                .instructions = (1u << _RNG_INSTRUCTION_MAX) - 1,
                .widths = (1u << RNG_N_WIDTHS) - 1,
                .threads = 0,
                .limits = PROBE_LIMITS_DEFAULT,
                .health = HEALTH_PARAMS_DEFAULT,
                .verdict = VERDICT_PARAMS_DEFAULT,
        };
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
