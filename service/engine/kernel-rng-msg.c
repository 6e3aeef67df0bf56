/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <limits.h>
#include <string.h>

#include "kernel-rng-msg.h"
#include "macro.h"

static const char *const kind_names[_KERNEL_RNG_MSG_MAX] = {
        [KERNEL_RNG_MSG_EXHAUSTED] = "exhausted",
        [KERNEL_RNG_MSG_FAILED] = "failed",
        [KERNEL_RNG_MSG_DISABLED] = "disabled",
        [KERNEL_RNG_MSG_DEFECTIVE] = "defective",
};

DEFINE_STRING_TABLE_TO_STRING(kernel_rng_msg_kind, KernelRngMsgKind, kind_names)

Verdict kernel_rng_msg_kind_verdict(KernelRngMsgKind k) {
        switch (k) {
        case KERNEL_RNG_MSG_EXHAUSTED:
        case KERNEL_RNG_MSG_FAILED:
                return VERDICT_EXHAUSTED;
        case KERNEL_RNG_MSG_DISABLED:
                return VERDICT_DEGRADED;
        case KERNEL_RNG_MSG_DEFECTIVE:
        default:
                return VERDICT_BROKEN;
        }
}

/* A cursor over a length-bounded record. */
typedef struct Scan {
        const char *p, *end;
} Scan;

static bool scan_literal(Scan *s, const char *lit) {
        size_t n = strlen(lit);

        if ((size_t) (s->end - s->p) < n || memcmp(s->p, lit, n) != 0)
                return false;
        s->p += n;
        return true;
}

/* The name of a source whose exhaustion lines start with prefix. */
static bool scan_source(Scan *s, const char *prefix, RngSourceId *ret) {
        FOREACH_RNG_SOURCE(i) {
                const RngSourceDesc *d = rng_source_desc(i);

                if (d->kernel.log_prefix && strcmp(d->kernel.log_prefix, prefix) == 0 &&
                    scan_literal(s, d->kernel.log_name)) {
                        *ret = i;
                        return true;
                }
        }
        return false;
}

/* Decimal digits without sign or leading garbage; fails on overflow. */
static bool scan_uint(Scan *s, unsigned *ret) {
        unsigned long v = 0;
        const char *start = s->p;

        while (s->p < s->end && *s->p >= '0' && *s->p <= '9') {
                v = v * 10 + (unsigned long) (*s->p - '0');
                if (v > UINT_MAX)
                        return false;
                s->p++;
        }
        if (s->p == start)
                return false;
        *ret = (unsigned) v;
        return true;
}

static bool ends_with(const char *msg, size_t len, const char *lit) {
        size_t n = strlen(lit);

        return len >= n && memcmp(msg + len - n, lit, n) == 0;
}

static bool record_equals(const char *msg, size_t len, const char *lit) {
        return len == strlen(lit) && memcmp(msg, lit, len) == 0;
}

/* A source's message of kind (failed: msg_failed, the whole record;
 * defective: msg_defective, at its end) into *m. */
static bool match_message(const char *msg, size_t len, KernelRngMsgKind kind, KernelRngMsg *m) {
        FOREACH_RNG_SOURCE(i) {
                const RngSourceDesc *d = rng_source_desc(i);
                const char *lit = kind == KERNEL_RNG_MSG_FAILED ? d->kernel.msg_failed : d->kernel.msg_defective;

                if (lit && (kind == KERNEL_RNG_MSG_FAILED ? record_equals(msg, len, lit) : ends_with(msg, len, lit))) {
                        m->kind = kind;
                        m->instruction = i;
                        return true;
                }
        }
        return false;
}

int kernel_rng_msg_parse(const char *msg, size_t len, KernelRngMsg *ret) {
        KernelRngMsg m = {};
        Scan s;

        if (!msg || !ret)
                return -EINVAL;

        while (len > 0 && (msg[len - 1] == '\n' || msg[len - 1] == '\r' || msg[len - 1] == ' '))
                len--;

        /* "<prefix><NAME> exhausted after 10 tries on CPU 1": the whole
         * record, nothing before it, and after it nothing or a note, "; "
         * and any text (series v3: "; logged once per boot, counted in
         * ..."; notes are not ABI, so their text is not checked). A record
         * that starts with a source's prefix is that or nothing. */
        FOREACH_RNG_SOURCE(i) {
                const char *prefix = rng_source_desc(i)->kernel.log_prefix;

                s = (Scan) { msg, msg + len };
                if (!prefix || !scan_literal(&s, prefix))
                        continue;
                if (scan_source(&s, prefix, &m.instruction) &&
                    scan_literal(&s, " exhausted after ") && scan_uint(&s, &m.tries) &&
                    scan_literal(&s, " tries on CPU ") && scan_uint(&s, &m.cpu) &&
                    (s.p == s.end || (scan_literal(&s, "; ") && s.p < s.end))) {
                        m.kind = KERNEL_RNG_MSG_EXHAUSTED;
                        m.have_cpu = true;
                        *ret = m;
                        return 1;
                }
                return 0;
        }

        /* The original 2024 posting's WARN_ONCE text is the whole record;
         * the CoCo check panics with its message, and the panic line
         * carries a "Kernel panic - not syncing: " prefix. */
        if (match_message(msg, len, KERNEL_RNG_MSG_FAILED, &m) || match_message(msg, len, KERNEL_RNG_MSG_DEFECTIVE, &m)) {
                *ret = m;
                return 1;
        }

        m.reason = kernel_reason_match(msg, len);
        if (m.reason) {
                m.kind = KERNEL_RNG_MSG_DISABLED;
                m.instruction = m.reason->instruction;
                *ret = m;
                return 1;
        }
        return 0;
}
