/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The kernel's RNG messages, as the kernel watch recognises them in the
 * kernel log (journal, _TRANSPORT=kernel). One pure parser; the formats are
 * verbatim from Linux 6.12 and the rng-health kernel series:
 *
 *   exhausted  "x86/rng: RDRAND exhausted after 10 tries on CPU 1"
 *              (patches 0003/0004: the early-boot RDRAND WARN and the
 *              rate-limited messages print this same line; series v2
 *              printed RDSEED's alike), optionally followed by a note:
 *              "; " and any text. Series v3 logs only the first RDSEED
 *              exhaustion of a boot, as "x86/rng: RDSEED exhausted after
 *              10 tries on CPU 1; logged once per boot, counted in
 *              /sys/devices/system/cpu/rng/rdseed/exhausted, traced by
 *              x86_rng:x86_rng_exhausted" (the counters, not the lines,
 *              give the number of exhaustions)
 *   failed     "RDRAND failed" / "RDSEED failed"
 *              (Kirill Shutemov's original warning as posted in 2024,
 *              kernels carrying it without the rest of the series; the
 *              full series never prints it)
 *   disabled   the kernel turned an instruction off: kernel_reason_match()
 *              ("RDRAND is not reliable on this platform; disabling.",
 *              "RDSEED32 is broken. ...", ...)
 *   defective  "RDRAND is defective." (the CoCo boot check's panic; only
 *              ever seen in a previous boot's log or on a console) */

#include <stdbool.h>
#include <stddef.h>

#include "kernel-state.h"
#include "rng-cpu.h"
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
 * broken. What it weighs depends on the instruction: verdict_severity(). */
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
