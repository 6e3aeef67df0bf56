/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Verdicts from measured counters, ordered worst-wins, and their
 * severities (what a verdict on a source weighs is its descriptor's:
 * sources.h). */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum Verdict {
        VERDICT_UNSUPPORTED, /* the CPU does not advertise it and it does not execute */
        VERDICT_HIDDEN,      /* the CPU does not advertise it (the kernel or a hypervisor hid
                              * it), yet it executes: what it does then is information about
                              * the CPU, not the verdict of a source anything relies on */
        VERDICT_OK,          /* no failed try, output checks passed */
        VERDICT_HOST_FED,    /* a confidential VM's kernel credits this input, and the host
                              * controls it (an hwrng device the host feeds, a boot loader's
                              * seed): the kernel credited entropy the host chose */
        VERDICT_DEGRADED,    /* failures seen, but every value came within kernel_retries tries */
        VERDICT_EXHAUSTED,   /* some value needed more: the kernel's retry loop would have failed */
        VERDICT_BROKEN,      /* an output check failed, or nothing was delivered */
        _VERDICT_MAX,
} Verdict;

typedef struct VerdictParams {
        uint64_t kernel_retries;        /* tries per call of the kernel's loop; 0: the running
                                         * kernel's, per source (kernel_retries_for()) */
        uint64_t degraded_min_failures; /* failed tries needed for "degraded": 1 */
        uint64_t exhausted_min_loop_failures; /* failed kernel-loop calls for "exhausted": 1 */
} VerdictParams;

#define VERDICT_PARAMS_DEFAULT \
        ((VerdictParams) { .kernel_retries = 0, .degraded_min_failures = 1, .exhausted_min_loop_failures = 1 })

/* The exit status of a verdict that ends a program with failure
 * (rng-health(8)): `rng-health probe` on a verdict that weighs err (or
 * one its --fail-on matches), `rng-health monitor` on any verdict FailOn=
 * matches: fail_on_exit_status(). One map for both:
 * verdict_exit_status(). The programs' other statuses (0, 1, 2, 78) are
 * theirs (cli-probe.h, monitor.h). */
enum {
        EXIT_VERDICT_EXHAUSTED = 3,
        EXIT_VERDICT_BROKEN = 4,
        EXIT_VERDICT_DEGRADED = 5,
        EXIT_VERDICT_UNSUPPORTED = 6,
        EXIT_VERDICT_OK = 7,     /* FailOn=ok: a drill of the failure path */
        EXIT_VERDICT_HIDDEN = 8,
        EXIT_VERDICT_HOST_FED = 9,
};

/* The one verdict name parser and printer. */
const char *verdict_to_string(Verdict v);
int verdict_from_string(const char *s); /* -EINVAL if unknown */
Verdict verdict_worst(Verdict a, Verdict b);
/* EXIT_VERDICT_* for v. */
int verdict_exit_status(Verdict v);

/* What a verdict weighs depends on the source: what the running kernel
 * does when it fails (its descriptor, verdict_severity() in sources.h).
 * The order is the syslog order reversed: a higher Severity is worse. */
typedef enum Severity {
        SEVERITY_INFO,
        SEVERITY_NOTICE,
        SEVERITY_WARNING,
        SEVERITY_ERR,
        _SEVERITY_MAX,
} Severity;

const char *severity_to_string(Severity s); /* "info", "notice", "warning", "err" */
int severity_priority(Severity s);          /* LOG_INFO ... LOG_ERR */

/* health_failed is a HealthCheck mask (health.h). */
Verdict verdict_for_run(const VerdictParams *p, uint64_t failures, uint64_t delivered,
                        uint64_t kernel_loop_failures, unsigned health_failed);
