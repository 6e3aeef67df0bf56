/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The kernel's RNG messages, as the kernel watch recognises them in the
 * kernel log (journal, _TRANSPORT=kernel). One pure parser; what each
 * source's lines say is its descriptor's (sources.h, kernel.*), verbatim
 * from Linux 6.12 and the rng-health kernel series:
 *
 *   exhausted  "<log_prefix><log_name> exhausted after 10 tries on CPU 1"
 *              (the series' reports: patches 0003/0004's early-boot WARN
 *              and rate-limited messages print this same line), optionally
 *              followed by a note: "; " and any text. Series v3 logs only
 *              the first exhaustion of a boot of a source whose failures
 *              are routine, with a note that names its counter and
 *              tracepoint (the counters, not the lines, give the number of
 *              exhaustions: logs_exhaustion)
 *   failed     msg_failed, the whole record (the warning as first posted
 *              in 2024, kernels carrying it without the rest of the
 *              series; the full series never prints it)
 *   disabled   the kernel turned a source off: kernel_reason_match()
 *              (the reason table beside the source table)
 *   defective  msg_defective at the end of the record (the CoCo boot
 *              check's panic; only ever seen in a previous boot's log or
 *              on a console) */

#include <stdbool.h>
#include <stddef.h>

#include "kernel-state.h"
#include "sources.h"
#include "verdict.h"

typedef enum KernelRngMsgKind {
        KERNEL_RNG_MSG_EXHAUSTED,
        KERNEL_RNG_MSG_FAILED,
        KERNEL_RNG_MSG_DISABLED,
        KERNEL_RNG_MSG_DEFECTIVE,
        _KERNEL_RNG_MSG_MAX,
} KernelRngMsgKind;

const char *kernel_rng_msg_kind_to_string(KernelRngMsgKind k); /* "exhausted", ... */

/* The verdict a kind implies, for the kernel watch and report alike:
 * exhausted/failed -> exhausted, disabled -> degraded, defective ->
 * broken. What it weighs depends on the source: verdict_severity(). */
Verdict kernel_rng_msg_kind_verdict(KernelRngMsgKind k);

typedef struct KernelRngMsg {
        KernelRngMsgKind kind;
        RngSourceId instruction;
        bool have_cpu;             /* exhausted only */
        unsigned cpu;
        unsigned tries;            /* exhausted only, else 0 */
        const KernelReason *reason; /* disabled only */
} KernelRngMsg;

/* msg: one log record's MESSAGE (any bytes, not NUL-terminated, trailing
 * newlines ignored). Returns 1 and fills *ret on a match, 0 if the record
 * is not an RNG message, -EINVAL on NULL arguments. Never reads past len. */
int kernel_rng_msg_parse(const char *msg, size_t len, KernelRngMsg *ret);
