/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Verdicts from measured counters. Ordered by severity (worst wins). */

#include <stdint.h>

typedef enum Verdict {
        VERDICT_UNSUPPORTED, /* CPUID does not advertise it and it does not execute */
        VERDICT_HIDDEN,      /* CPUID does not advertise it (the kernel or a hypervisor hid it),
                              * yet it executes: what it does then is information about the
                              * CPU, not the verdict of an instruction anything relies on */
        VERDICT_OK,          /* no failed try, output checks passed */
        VERDICT_DEGRADED,    /* failures seen, but every value came within kernel_retries tries */
        VERDICT_EXHAUSTED,   /* some value needed more: the kernel's retry loop would have failed */
        VERDICT_BROKEN,      /* an output check failed, or nothing was delivered */
        _VERDICT_MAX,
} Verdict;

typedef struct VerdictParams {
        uint64_t kernel_retries;        /* tries per call of the kernel's loop; 0: the running
                                         * kernel's, per instruction (kernel_retries_for()) */
        uint64_t degraded_min_failures; /* failed tries needed for "degraded": 1 */
        uint64_t exhausted_min_loop_failures; /* failed kernel-loop calls for "exhausted": 1 */
} VerdictParams;

#define VERDICT_PARAMS_DEFAULT \
        ((VerdictParams) { .kernel_retries = 0, .degraded_min_failures = 1, .exhausted_min_loop_failures = 1 })

/* Exit codes of `rng-health probe` (documented in --help). */
enum {
        EXIT_PROBE_OK = 0,        /* ok, degraded, hidden or unsupported */
        EXIT_PROBE_ERROR = 1,     /* runtime error */
        EXIT_PROBE_USAGE = 2,     /* bad arguments */
        EXIT_PROBE_EXHAUSTED = 3, /* worst verdict exhausted */
        EXIT_PROBE_BROKEN = 4,    /* worst verdict broken */
};

const char *verdict_to_string(Verdict v);
Verdict verdict_worst(Verdict a, Verdict b);
int verdict_exit_code(Verdict v);

/* health_failed is a HealthCheck mask (health.h). */
Verdict verdict_for_run(const VerdictParams *p, uint64_t failures, uint64_t delivered,
                        uint64_t kernel_loop_failures, unsigned health_failed);
