/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>

#include "health.h"
#include "macro.h"
#include "verdict.h"

static const char *const verdict_names[_VERDICT_MAX] = {
        [VERDICT_UNSUPPORTED] = "unsupported",
        [VERDICT_HIDDEN] = "hidden",
        [VERDICT_OK] = "ok",
        [VERDICT_HOST_FED] = "host-fed",
        [VERDICT_DEGRADED] = "degraded",
        [VERDICT_EXHAUSTED] = "exhausted",
        [VERDICT_BROKEN] = "broken",
};

DEFINE_STRING_TABLE_TO_STRING(verdict, Verdict, verdict_names)

DEFINE_STRING_TABLE_FROM_STRING(verdict, verdict_names)

Verdict verdict_worst(Verdict a, Verdict b) {
        return MAX(a, b);
}

int verdict_exit_status(Verdict v) {
        static const int status[_VERDICT_MAX] = {
                [VERDICT_UNSUPPORTED] = EXIT_VERDICT_UNSUPPORTED,
                [VERDICT_HIDDEN] = EXIT_VERDICT_HIDDEN,
                [VERDICT_OK] = EXIT_VERDICT_OK,
                [VERDICT_HOST_FED] = EXIT_VERDICT_HOST_FED,
                [VERDICT_DEGRADED] = EXIT_VERDICT_DEGRADED,
                [VERDICT_EXHAUSTED] = EXIT_VERDICT_EXHAUSTED,
                [VERDICT_BROKEN] = EXIT_VERDICT_BROKEN,
        };

        return (unsigned) v < _VERDICT_MAX ? status[v] : EXIT_VERDICT_BROKEN;
}

Verdict verdict_for_run(const VerdictParams *p, uint64_t failures, uint64_t delivered,
                        uint64_t kernel_loop_failures, unsigned health_failed) {
        /* Values that pass for random but are not: the worst case. (No
         * values at all is no such value: HEALTH_EMPTY.) */
        if (health_failed & ~HEALTH_EMPTY)
                return VERDICT_BROKEN;
        /* Nothing delivered: every call of the kernel's loop fails, and the
         * kernel does what it does where the loop fails (falls back, or goes
         * without): exhausted, weighed as such. */
        if (delivered == 0)
                return VERDICT_EXHAUSTED;
        if (kernel_loop_failures >= MAX(p->exhausted_min_loop_failures, 1u))
                return VERDICT_EXHAUSTED;
        if (failures >= MAX(p->degraded_min_failures, 1u))
                return VERDICT_DEGRADED;
        return VERDICT_OK;
}

static const char *const severity_names[_SEVERITY_MAX] = {
        [SEVERITY_INFO] = "info",
        [SEVERITY_NOTICE] = "notice",
        [SEVERITY_WARNING] = "warning",
        [SEVERITY_ERR] = "err",
};

DEFINE_STRING_TABLE_TO_STRING(severity, Severity, severity_names)

int severity_priority(Severity s) {
        static const int prio[_SEVERITY_MAX] = {
                [SEVERITY_INFO] = LOG_INFO,
                [SEVERITY_NOTICE] = LOG_NOTICE,
                [SEVERITY_WARNING] = LOG_WARNING,
                [SEVERITY_ERR] = LOG_ERR,
        };

        return (unsigned) s < _SEVERITY_MAX ? prio[s] : LOG_ERR;
}
