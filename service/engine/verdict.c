/* SPDX-License-Identifier: GPL-2.0-or-later */

#include "macro.h"
#include "verdict.h"

static const char *const verdict_names[_VERDICT_MAX] = {
        [VERDICT_UNSUPPORTED] = "unsupported",
        [VERDICT_HIDDEN] = "hidden",
        [VERDICT_OK] = "ok",
        [VERDICT_DEGRADED] = "degraded",
        [VERDICT_EXHAUSTED] = "exhausted",
        [VERDICT_BROKEN] = "broken",
};

DEFINE_STRING_TABLE_TO_STRING(verdict, Verdict, verdict_names)

Verdict verdict_worst(Verdict a, Verdict b) {
        return MAX(a, b);
}

int verdict_exit_code(Verdict v) {
        switch (v) {
        case VERDICT_EXHAUSTED:
                return EXIT_PROBE_EXHAUSTED;
        case VERDICT_BROKEN:
                return EXIT_PROBE_BROKEN;
        default:
                return EXIT_PROBE_OK;
        }
}

Verdict verdict_for_run(const VerdictParams *p, uint64_t failures, uint64_t delivered,
                        uint64_t kernel_loop_failures, unsigned health_failed) {
        if (delivered == 0 || health_failed != 0)
                return VERDICT_BROKEN;
        if (kernel_loop_failures >= MAX(p->exhausted_min_loop_failures, 1u))
                return VERDICT_EXHAUSTED;
        if (failures >= MAX(p->degraded_min_failures, 1u))
                return VERDICT_DEGRADED;
        return VERDICT_OK;
}
