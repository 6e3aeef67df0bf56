/* SPDX-License-Identifier: GPL-2.0-or-later */

/* kernel_rng_msg_parse() and kernel_reason_match() on one log record's raw
 * bytes (not NUL-terminated). Checked: 1 or 0 only; a match has a known
 * kind and instruction, only an exhaustion has a CPU and tries, only a
 * disabling has a reason, whose text is in the record; an exhaustion
 * printed back in the kernel's format parses to the same message, and the
 * record is that line, or that line and a note ("; " and text); trailing
 * newlines, CRs and spaces never change the result. */

#include <errno.h>

#include "fuzz-util.h"
#include "kernel-rng-msg.h"

static bool msg_equal(const KernelRngMsg *a, const KernelRngMsg *b) {
        return a->kind == b->kind && a->instruction == b->instruction && a->have_cpu == b->have_cpu &&
               a->cpu == b->cpu && a->tries == b->tries && a->reason == b->reason;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        const char *msg = (const char *) data;
        const KernelReason *reason;
        KernelRngMsg m = {}, again = {};
        size_t trimmed = size;
        int r;

        r = kernel_rng_msg_parse(msg, size, &m);
        FUZZ_ASSERT(r == 0 || r == 1);

        reason = kernel_reason_match(msg, size);
        if (reason) {
                FUZZ_ASSERT(reason->instruction < _RNG_SOURCE_MAX);
                FUZZ_ASSERT(reason->message && memmem(msg, size, reason->message, strlen(reason->message)));
        }

        while (trimmed > 0 && (msg[trimmed - 1] == '\n' || msg[trimmed - 1] == '\r' || msg[trimmed - 1] == ' '))
                trimmed--;
        FUZZ_ASSERT(kernel_rng_msg_parse(msg, trimmed, &again) == r);
        if (r == 1)
                FUZZ_ASSERT(msg_equal(&m, &again));

        if (r == 0)
                return 0;
        FUZZ_ASSERT(m.kind < _KERNEL_RNG_MSG_MAX && kernel_rng_msg_kind_to_string(m.kind));
        FUZZ_ASSERT(m.instruction < _RNG_SOURCE_MAX);
        FUZZ_ASSERT(m.have_cpu == (m.kind == KERNEL_RNG_MSG_EXHAUSTED));
        if (m.kind != KERNEL_RNG_MSG_EXHAUSTED)
                FUZZ_ASSERT(m.cpu == 0 && m.tries == 0);
        FUZZ_ASSERT((m.reason != NULL) == (m.kind == KERNEL_RNG_MSG_DISABLED));
        if (m.reason) {
                FUZZ_ASSERT(m.reason->instruction == m.instruction);
                FUZZ_ASSERT(memmem(msg, size, m.reason->message, strlen(m.reason->message)));
        }
        if (m.kind == KERNEL_RNG_MSG_EXHAUSTED) {
                char buf[128];
                int n;

                n = snprintf(buf, sizeof(buf), "x86/rng: %s exhausted after %u tries on CPU %u",
                             m.instruction == RNG_SOURCE_RDRAND ? "RDRAND" : "RDSEED", m.tries, m.cpu);
                FUZZ_ASSERT(n > 0 && (size_t) n < sizeof(buf));
                FUZZ_ASSERT(kernel_rng_msg_parse(buf, (size_t) n, &again) == 1);
                FUZZ_ASSERT(msg_equal(&m, &again));
                /* Without leading zeros the record is exactly that line, or
                 * that line and a note: "; " and at least one byte. */
                if ((size_t) n == trimmed)
                        FUZZ_ASSERT(memcmp(buf, msg, trimmed) == 0);
                else if ((size_t) n < trimmed && memcmp(buf, msg, (size_t) n) == 0 &&
                         !(msg[n] >= '0' && msg[n] <= '9')) /* not "CPU 00" */
                        FUZZ_ASSERT(trimmed > (size_t) n + 2 && msg[n] == ';' && msg[n + 1] == ' ');
        }
        return 0;
}
