/* SPDX-License-Identifier: GPL-2.0-or-later */

#include "macro.h"
#include "probe-summary.h"

uint64_t probe_run_retry_exhausted(const ProbeRun *run) {
        /* Per thread: two threads ending on 5 failed tries each are not a
         * 10-try loop that ran out. */
        return run->values_over_retries + run->trailing_over_retries;
}

uint64_t probe_run_kernel_exhausted(const ProbeRun *run, RngSourceId i) {
        if (!run->have_kernel_counters || run->kernel_after.exhausted[i] < run->kernel_before.exhausted[i])
                return 0;
        return run->kernel_after.exhausted[i] - run->kernel_before.exhausted[i];
}

/* Worse verdict first; then the higher failure rate; then more threads. */
static bool run_is_worse(const ProbeRun *a, const ProbeRun *b) {
        if (a->verdict != b->verdict)
                return a->verdict > b->verdict;
        if (a->failure_rate != b->failure_rate)
                return a->failure_rate > b->failure_rate;
        return a->threads > b->threads;
}

void probe_source_summarize(ProbeSourceResult *in) {
        ProbeSummary *s = &in->summary;

        *s = (ProbeSummary) {};
        for (unsigned j = 0; j < in->n_runs; j++) {
                const ProbeRun *run = &in->runs[j];

                s->attempts += run->attempts;
                s->failures += run->failures;
                s->retry_exhausted += probe_run_retry_exhausted(run);
                s->max_fail_streak = MAX(s->max_fail_streak, run->longest_failure_streak);
                if (j > 0 && run_is_worse(run, &in->runs[s->worst]))
                        s->worst = j;
        }
        s->probed = in->selected && in->n_runs > 0;
        s->failure_rate = s->attempts > 0 ? (double) s->failures / (double) s->attempts : 0.0;
}

const ProbeRun *probe_source_worst_run(const ProbeSourceResult *in) {
        return in->summary.probed ? &in->runs[in->summary.worst] : NULL;
}

bool probe_source_unknown(const ProbeSourceResult *in) {
        return rng_source_desc(in->instruction)->kind != RNG_KIND_CPU_INSTRUCTION && !in->cpuid &&
               in->kernel.state == KERNEL_STATE_UNKNOWN;
}

int probe_source_unavailable(const ProbeSourceResult *in) {
        if (rng_source_desc(in->instruction)->kind != RNG_KIND_CPU_INSTRUCTION) {
                if (in->cpuid)
                        return in->read_error == 0 ? -ENODATA : PROBE_UNAVAILABLE_UNREADABLE;
                return probe_source_unknown(in) ? PROBE_UNAVAILABLE_UNKNOWN : PROBE_UNAVAILABLE_ABSENT;
        }
        if (in->cpuid)
                return in->kernel.state == KERNEL_STATE_DISABLED ? PROBE_UNAVAILABLE_KERNEL : -ENODATA;
        return in->executes ? PROBE_UNAVAILABLE_HIDDEN : PROBE_UNAVAILABLE_CPUID;
}

static const char *const unavailable_names[_PROBE_UNAVAILABLE_MAX] = {
        [PROBE_UNAVAILABLE_CPUID] = "cpuid",       [PROBE_UNAVAILABLE_KERNEL] = "kernel",
        [PROBE_UNAVAILABLE_HIDDEN] = "hidden",     [PROBE_UNAVAILABLE_ABSENT] = "absent",
        [PROBE_UNAVAILABLE_UNREADABLE] = "unreadable", [PROBE_UNAVAILABLE_UNKNOWN] = "unknown",
};

DEFINE_STRING_TABLE_TO_STRING(probe_unavailable, ProbeUnavailable, unavailable_names)
DEFINE_STRING_TABLE_FROM_STRING(probe_unavailable, unavailable_names)

const char *probe_source_verdict_word(const ProbeSourceResult *in) {
        int u = probe_source_unavailable(in);

        if (u == PROBE_UNAVAILABLE_UNREADABLE || u == PROBE_UNAVAILABLE_UNKNOWN)
                return probe_unavailable_to_string(u);
        return verdict_to_string(in->verdict);
}

const char *probe_source_consequence(const ProbeSourceResult *in) {
        const ProbeRun *worst = probe_source_worst_run(in);

        if (!worst)
                return NULL;
        return verdict_consequence(in->instruction, in->verdict);
}
