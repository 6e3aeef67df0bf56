/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Verdicts from measured counters, ordered worst-wins; and what a verdict
 * weighs, which depends on the instruction: what the running kernel does
 * when it fails (Severity). */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rng-cpu.h"

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

/* The exit status of a verdict that ends a program with failure
 * (rng-health(8)): `rng-health probe` on exhausted and broken,
 * `rng-health monitor` on any verdict FailOn= matches. One map for both:
 * verdict_exit_status(). The programs' other statuses (0, 1, 2, 78) are
 * theirs (cli-probe.h, monitor.h). */
enum {
        EXIT_VERDICT_EXHAUSTED = 3,
        EXIT_VERDICT_BROKEN = 4,
        EXIT_VERDICT_DEGRADED = 5,
        EXIT_VERDICT_UNSUPPORTED = 6,
        EXIT_VERDICT_OK = 7,     /* FailOn=ok: a drill of the failure path */
        EXIT_VERDICT_HIDDEN = 8,
};

/* The one verdict name parser and printer. */
const char *verdict_to_string(Verdict v);
int verdict_from_string(const char *s); /* -EINVAL if unknown */
Verdict verdict_worst(Verdict a, Verdict b);
/* EXIT_VERDICT_* for v. */
int verdict_exit_status(Verdict v);
/* `rng-health probe`'s exit status for its worst verdict: exhausted and
 * broken fail it (verdict_exit_status()), anything else is 0. */
int verdict_exit_code(Verdict v);

/* What a verdict on an instruction weighs, from what the kernel does about
 * it (drivers/char/random.c, arch/x86/coco/core.c):
 *   - a failed RDSEED is routine: extract_entropy() and random_init_early()
 *     fall back to RDRAND, then to the cycle counter: notice;
 *   - a failed RDRAND is not: the kernel's RDRAND loop returns nothing, and
 *     a confidential guest's cc_random_init() panics at boot ("RDRAND is
 *     defective."): err; RDRAND failures within the loop: warning;
 *   - broken values pass for random, whichever instruction: err;
 *   - a hidden instruction is used by nothing that checks CPUID: notice;
 *   - ok and unsupported: info.
 * The order is the syslog order reversed: a higher Severity is worse. */
typedef enum Severity {
        SEVERITY_INFO,
        SEVERITY_NOTICE,
        SEVERITY_WARNING,
        SEVERITY_ERR,
        _SEVERITY_MAX,
} Severity;

Severity verdict_severity(RngSourceId i, Verdict v);
const char *severity_to_string(Severity s); /* "info", "notice", "warning", "err" */
int severity_priority(Severity s);          /* LOG_INFO ... LOG_ERR */
/* The syslog priority of verdict v on instruction i: its severity's
 * (RDSEED exhausted is routine, notice; RDRAND exhausted and broken are
 * err; ...). */
int verdict_priority(RngSourceId i, Verdict v);
/* What the running kernel does about verdict v on instruction i, a clause
 * for the status line and the events ("the kernel seeds from RDRAND
 * instead"); NULL where there is nothing to say (ok, unsupported). */
const char *verdict_consequence(RngSourceId i, Verdict v);

/* FailOn=: per instruction, the verdicts that make the daemon fail. */
typedef struct FailOn {
        unsigned mask[_RNG_SOURCE_MAX]; /* of 1u << Verdict */
} FailOn;

/* The default on a confidential VM: broken for either instruction, and
 * RDRAND exhausted; not RDSEED exhausted, which is routine (a healthy Intel
 * Xeon fails 72 % of single RDSEED tries with nothing else running). */
#define FAIL_ON_CVM_DEFAULT                                                        \
        ((FailOn) { .mask = { [RNG_SOURCE_RDRAND] = (1u << VERDICT_EXHAUSTED) | (1u << VERDICT_BROKEN), \
                              [RNG_SOURCE_RDSEED] = (1u << VERDICT_BROKEN) } })

/* One FailOn= word into *f: a verdict (both instructions) or
 * "rdrand:VERDICT" / "rdseed:VERDICT". -EINVAL for anything else, "none"
 * included: it is no entry but the empty list (the parsers of the list,
 * config and report, take it alone). */
int fail_on_add_word(FailOn *f, const char *word);
bool fail_on_empty(const FailOn *f);
/* "broken rdrand:exhausted" (a verdict both instructions share is written
 * once, bare), "none" if empty. */
void fail_on_format(const FailOn *f, char *buf, size_t len);
/* Whether per-instruction verdicts v[] match f; *ret_verdict: the worst
 * matching verdict, *ret_instruction: its instruction. */
bool fail_on_match(const FailOn *f, const Verdict v[_RNG_SOURCE_MAX], Verdict *ret_verdict,
                   RngSourceId *ret_instruction);

/* health_failed is a HealthCheck mask (health.h). */
Verdict verdict_for_run(const VerdictParams *p, uint64_t failures, uint64_t delivered,
                        uint64_t kernel_loop_failures, unsigned health_failed);
