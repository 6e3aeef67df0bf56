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
