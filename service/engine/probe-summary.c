/* SPDX-License-Identifier: GPL-2.0-or-later */

#include "macro.h"
#include <string.h>

#include "probe-summary.h"

uint64_t probe_run_retry_exhausted(const ProbeRun *run) {
        return run->values_over_retries + (run->trailing_failures >= run->kernel_retries);
}

/* Worse verdict first; then the higher failure rate; then more threads. */
static bool run_is_worse(const ProbeRun *a, const ProbeRun *b) {
        if (a->verdict != b->verdict)
                return a->verdict > b->verdict;
        if (a->failure_rate != b->failure_rate)
                return a->failure_rate > b->failure_rate;
        return a->threads > b->threads;
}

void probe_summarize(const ProbeReport *r, RngInstruction i, ProbeSummary *ret) {
        const ProbeInstruction *in = &r->instr[i];

        *ret = (ProbeSummary) {
                .instruction = i,
                .verdict = in->verdict,
                .runs = in->n_runs,
        };
        for (unsigned j = 0; j < in->n_runs; j++) {
                const ProbeRun *run = &in->runs[j];

                ret->attempts += run->attempts;
                ret->failures += run->failures;
                ret->retry_exhausted += probe_run_retry_exhausted(run);
                ret->max_fail_streak = MAX(ret->max_fail_streak, run->longest_failure_streak);
                if (!ret->worst || run_is_worse(run, ret->worst))
                        ret->worst = run;
        }
        ret->probed = in->selected && in->n_runs > 0;
        ret->failure_rate = ret->attempts > 0 ? (double) ret->failures / (double) ret->attempts : 0.0;
}

const char *probe_summary_consequence(const ProbeSummary *s) {
        if (!s->probed)
                return NULL;
        if (s->verdict == VERDICT_BROKEN && s->worst && s->worst->delivered == 0)
                return verdict_consequence(s->instruction, VERDICT_EXHAUSTED);
        return verdict_consequence(s->instruction, s->verdict);
}

void health_checks_format(unsigned failed, char *buf, size_t len) {
        size_t k = 0;

        if (len == 0)
                return;
        buf[0] = '\0';
        for (unsigned b = 1; b & _HEALTH_CHECK_ALL; b <<= 1)
                if ((failed & b) && k < len)
                        k += snprintf(buf + k, len - k, "%s%s", k ? "," : "", health_check_to_string(b));
}

void health_bits_format(uint64_t bits, char *buf, size_t len) {
        size_t k = 0;

        if (len == 0)
                return;
        buf[0] = '\0';
        for (unsigned b = 0; b < 64 && k < len;) {
                unsigned e = b;

                if (!(bits & (UINT64_C(1) << b))) {
                        b++;
                        continue;
                }
                while (e + 1 < 64 && (bits & (UINT64_C(1) << (e + 1))))
                        e++;
                if (e == b)
                        k += snprintf(buf + k, len - k, "%s%u", k ? "," : "", b);
                else
                        k += snprintf(buf + k, len - k, "%s%u-%u", k ? "," : "", b, e);
                b = e + 1;
        }
}

void health_result_format(const HealthResult *h, char *buf, size_t len) {
        char bits[192];
        size_t k;

        health_checks_format(h->failed, buf, len);
        if (!(h->failed & HEALTH_BIT_BALANCE) || len == 0)
                return;
        k = strlen(buf);
        health_bits_format(h->failed_bits, bits, sizeof(bits));
        if (k < len)
                snprintf(buf + k, len - k, " (bit%s %s)",
                         __builtin_popcountll(h->failed_bits) == 1 ? "" : "s", bits);
}
