/* SPDX-License-Identifier: GPL-2.0-or-later */

/* A device's run: one bounded read (RngSource.read), its bytes checked as
 * 64-bit values by the same output checks as the instructions' (health.h:
 * SP 800-90B RCT and APT, the rates, bit balance). The bytes are only
 * inspected, and wiped before the buffer is freed. */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "probe.h"
#include "time-util.h"

int probe_run_device(const RngSource *src, const ProbeLimits *limits, const HealthParams *health, ProbeRun *ret) {
        _cleanup_free_ uint64_t *values = NULL;
        uint64_t max, t0, t1;
        HealthState hs;
        ssize_t n;
        int r;

        if (!src || !src->read || !limits || !health || !ret)
                return -EINVAL;
        max = probe_limits_device_bytes(limits) / 8 * 8;
        if (max == 0)
                return -EINVAL;
        values = malloc(max);
        if (!values)
                return -ENOMEM;
        r = health_init(&hs, health, 64);
        if (r < 0)
                return r;
        t0 = now_nsec();
        n = src->read(src->userdata, (uint8_t *) values, max, t0 + probe_limits_device_usec(limits) * 1000);
        t1 = now_nsec();
        if (n < 0) {
                explicit_bzero(values, max);
                return (int) n;
        }
        *ret = (ProbeRun) {
                .instruction = src->instruction,
                .width = 64,
                .mode = PROBE_SINGLE,
                .threads = 1,
                .package = -1, /* a device is no package's */
                .bytes = (uint64_t) n,
                .wall_nsec = t1 - t0,
                .start_nsec = t0,
                .end_nsec = t1,
        };
        ret->delivered = ret->attempts = ret->bytes / 8;
        /* Every value came with the read that asked for it: one try each. */
        ret->hist[0] = ret->delivered;
        health_feed(&hs, values, ret->delivered);
        explicit_bzero(values, max);
        health_finish(&hs, &ret->health);
        if (ret->wall_nsec > 0) {
                ret->bytes_per_sec = (double) ret->bytes * 1e9 / (double) ret->wall_nsec;
                ret->values_per_sec = (double) ret->delivered * 1e9 / (double) ret->wall_nsec;
        }
        /* Nothing within the budget says nothing about the values: the
         * kernel's own thread gets nothing either. */
        if (ret->delivered == 0)
                ret->verdict = VERDICT_DEGRADED;
        else
                ret->verdict = ret->health.failed ? VERDICT_BROKEN : VERDICT_OK;
        return 0;
}
