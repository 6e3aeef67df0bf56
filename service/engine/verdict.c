/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>

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

int verdict_from_string(const char *s) {
        if (!s)
                return -EINVAL;
        for (int v = 0; v < _VERDICT_MAX; v++)
                if (strcmp(s, verdict_names[v]) == 0)
                        return v;
        return -EINVAL;
}

Verdict verdict_worst(Verdict a, Verdict b) {
        return MAX(a, b);
}

int verdict_exit_status(Verdict v) {
        static const int status[_VERDICT_MAX] = {
                [VERDICT_UNSUPPORTED] = EXIT_VERDICT_UNSUPPORTED,
                [VERDICT_HIDDEN] = EXIT_VERDICT_HIDDEN,
                [VERDICT_OK] = EXIT_VERDICT_OK,
                [VERDICT_DEGRADED] = EXIT_VERDICT_DEGRADED,
                [VERDICT_EXHAUSTED] = EXIT_VERDICT_EXHAUSTED,
                [VERDICT_BROKEN] = EXIT_VERDICT_BROKEN,
        };

        return (unsigned) v < _VERDICT_MAX ? status[v] : EXIT_VERDICT_BROKEN;
}

int verdict_exit_code(Verdict v) {
        return v == VERDICT_EXHAUSTED || v == VERDICT_BROKEN ? verdict_exit_status(v) : 0;
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

int verdict_priority(RngSourceId i, Verdict v) {
        return severity_priority(verdict_severity(i, v));
}

Severity verdict_severity(RngSourceId i, Verdict v) {
        switch (v) {
        case VERDICT_BROKEN:
                return SEVERITY_ERR;
        case VERDICT_EXHAUSTED:
                return i == RNG_SOURCE_RDSEED ? SEVERITY_NOTICE : SEVERITY_ERR;
        case VERDICT_DEGRADED:
                return i == RNG_SOURCE_RDSEED ? SEVERITY_NOTICE : SEVERITY_WARNING;
        case VERDICT_HIDDEN:
                return SEVERITY_NOTICE;
        default:
                return SEVERITY_INFO;
        }
}

const char *verdict_consequence(RngSourceId i, Verdict v) {
        switch (v) {
        case VERDICT_BROKEN:
                return i == RNG_SOURCE_RDSEED ? "its values pass for random: the kernel mixes them into its seed"
                                       : "its values pass for random: the kernel and programs use them";
        case VERDICT_EXHAUSTED:
                return i == RNG_SOURCE_RDSEED ? "the kernel seeds from RDRAND instead"
                                       : "the kernel's RDRAND loop fails; a confidential VM's boot seeding would panic";
        case VERDICT_DEGRADED:
                return "the kernel's loop still gets every value";
        case VERDICT_HIDDEN:
                return "the kernel does not use it";
        default:
                return NULL;
        }
}

int fail_on_add_word(FailOn *f, const char *word) {
        const char *colon;
        int i = -1, v;

        if (!f || !word)
                return -EINVAL;
        colon = strchr(word, ':');
        if (colon) {
                char name[16];

                if ((size_t) (colon - word) >= sizeof(name))
                        return -EINVAL;
                memcpy(name, word, colon - word);
                name[colon - word] = '\0';
                i = rng_source_from_name(name);
                if (i < 0)
                        return -EINVAL;
                word = colon + 1;
        }
        v = verdict_from_string(word);
        if (v < 0)
                return -EINVAL;
        for (int k = 0; k < _RNG_SOURCE_MAX; k++)
                if (i < 0 || i == k)
                        f->mask[k] |= 1u << v;
        return 0;
}

bool fail_on_empty(const FailOn *f) {
        for (int k = 0; k < _RNG_SOURCE_MAX; k++)
                if (f->mask[k])
                        return false;
        return true;
}

void fail_on_format(const FailOn *f, char *buf, size_t len) {
        size_t n = 0;

        if (len == 0)
                return;
        buf[0] = '\0';
        /* The verdicts every instruction has, bare; then the rest, per instruction. */
        for (int v = 0; v < _VERDICT_MAX; v++) {
                bool all = true;

                for (int k = 0; k < _RNG_SOURCE_MAX; k++)
                        all = all && (f->mask[k] & (1u << v));
                if (all && n < len)
                        n += snprintf(buf + n, len - n, "%s%s", n ? " " : "", verdict_names[v]);
        }
        for (int k = 0; k < _RNG_SOURCE_MAX; k++)
                for (int v = 0; v < _VERDICT_MAX; v++) {
                        bool all = true;

                        if (!(f->mask[k] & (1u << v)))
                                continue;
                        for (int o = 0; o < _RNG_SOURCE_MAX; o++)
                                all = all && (f->mask[o] & (1u << v));
                        if (!all && n < len)
                                n += snprintf(buf + n, len - n, "%s%s:%s", n ? " " : "",
                                              rng_source_name(k), verdict_names[v]);
                }
        if (n == 0)
                snprintf(buf, len, "none");
}

bool fail_on_match(const FailOn *f, const Verdict v[_RNG_SOURCE_MAX], Verdict *ret_verdict,
                   RngSourceId *ret_instruction) {
        bool any = false;

        for (int k = 0; k < _RNG_SOURCE_MAX; k++) {
                if (!(f->mask[k] & (1u << v[k])))
                        continue;
                if (!any || v[k] > *ret_verdict) {
                        *ret_verdict = v[k];
                        *ret_instruction = k;
                }
                any = true;
        }
        return any;
}
