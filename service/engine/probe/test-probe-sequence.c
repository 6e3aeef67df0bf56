/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The one probe sequence of `rng-health probe` and the daemon
 * (probe-sequence.h): presence detected, the kernel's view given or read,
 * the kernel's counters asked for, more threads than CPUs run again on
 * all of them after the caller was told, the CPU's identity handed to the
 * errata; and the sweep the same way. On scripted sources. */

#include <sched.h>
#include <string.h>

#include "macro.h"
#include "probe-sequence.h"
#include "scripted-source.h"
#include "test-util.h"

#define MAX_THREADS 64

static Script scripts[_RNG_SOURCE_MAX][RNG_N_WIDTHS][MAX_THREADS];
static ScriptDevice devices[_RNG_SOURCE_MAX];

static const RngSource *hook(RngSourceId i, unsigned width, unsigned thread, void *userdata) {
        if (thread >= MAX_THREADS)
                return NULL;
        if (rng_source_desc(i)->kind == RNG_KIND_HWRNG_DEVICE)
                return &devices[i].source;
        return &scripts[i][rng_width_index(width)][thread].source;
}

typedef struct Told {
        unsigned calls, requested, usable;
} Told;

static void told(unsigned requested, unsigned usable, void *userdata) {
        Told *t = userdata;

        t->calls++;
        t->requested = requested;
        t->usable = usable;
}

static unsigned usable_cpus(void) {
        cpu_set_t s;

        CHECK(sched_getaffinity(0, sizeof(s), &s) == 0, "sched_getaffinity");
        return (unsigned) CPU_COUNT(&s);
}

static void params(ProbeParams *p, const bool *cpuid) {
        FOREACH_RNG_SOURCE(i) {
                script_device_init(&devices[i], i, SCRIPT_DEVICE_HEALTHY, 0, 1 + i);
                for (int w = 0; w < RNG_N_WIDTHS; w++)
                        for (unsigned t = 0; t < MAX_THREADS; t++)
                                script_init(&scripts[i][w][t], SCRIPT_HEALTHY, rng_widths[w], 0, 0, 0, 1 + i + 3 * w + 9 * t);
        }
        probe_params_default(p);
        p->limits = (ProbeLimits) { .budget_usec = 0, .max_attempts = 256, .min_attempts = 256 };
        p->source = hook;
        p->cpuid = cpuid;
}

static void test_run(void) {
        bool cpuid[_RNG_SOURCE_MAX];
        KernelState kernel = { .log = KERNEL_LOG_READ };
        CpuId cpu = { .vendor = "GenuineIntel" };
        unsigned n = usable_cpus();
        ProbeReport rep;
        ProbeParams p;
        Told t = {};

        FOREACH_RNG_SOURCE(i) {
                cpuid[i] = true;
                kernel.instr[i] = (KernelSourceState) { .state = KERNEL_STATE_ENABLED, .reason_id = NULL, .reason = NULL, .reason_source = KERNEL_REASON_NONE };
        }
        params(&p, cpuid);
        CHECK_EQ_INT(probe_sequence_run(&p, &(ProbeSequence) { .kernel = &kernel, .cpu = &cpu, .threads_capped = told,
                                                               .userdata = &t },
                                        &rep),
                     0);
        CHECK_EQ_INT(t.calls, 0);
        CHECK(rep.have_cpu && strcmp(rep.cpu.vendor, "GenuineIntel") == 0, "the identity handed to the errata");
        CHECK_EQ_INT(rep.kernel_log, KERNEL_LOG_READ); /* the view given, not read */
        FOREACH_RNG_SOURCE(i) {
                RngSourceKind kind = rng_source_desc(i)->kind;

                /* A seed is there, and nothing of it is run. */
                CHECK(rep.instr[i].cpuid && rep.instr[i].executes == (kind != RNG_KIND_BOOT_SEED),
                      "%s: presence detected", rng_source_name(i));
                CHECK_EQ_INT(rep.instr[i].verdict, VERDICT_OK);
                /* An instruction: a single and a contention run per width it has. */
                CHECK_EQ_U64(rep.instr[i].n_runs, kind == RNG_KIND_BOOT_SEED    ? 0
                                                  : kind == RNG_KIND_HWRNG_DEVICE ? 1
                                                  : 2 * (unsigned) __builtin_popcount(rng_source_desc(i)->widths));
        }

        /* Threads=1024 on fewer CPUs: told once, then all of them. */
        if (n < PROBE_THREADS_MAX && n <= MAX_THREADS) {
                p.threads = PROBE_THREADS_MAX;
                CHECK_EQ_INT(probe_sequence_run(&p, &(ProbeSequence) { .kernel = &kernel, .threads_capped = told,
                                                                       .userdata = &t },
                                                &rep),
                             0);
                CHECK_EQ_INT(t.calls, 1);
                CHECK_EQ_INT(t.requested, PROBE_THREADS_MAX);
                CHECK_EQ_INT(t.usable, CPU_COUNT(&rep.cpus.used));
                CHECK(!rep.have_cpu, "no identity, no errata");
                FOREACH_RNG_SOURCE(i)
                        CHECK(rep.instr[i].n_runs > 0 || rng_source_desc(i)->kind == RNG_KIND_BOOT_SEED, "ran again");
        }

        /* Nobody told: it still runs again. */
        if (n < PROBE_THREADS_MAX && n <= MAX_THREADS) {
                p.threads = PROBE_THREADS_MAX;
                CHECK_EQ_INT(probe_sequence_run(&p, &(ProbeSequence) { .kernel = &kernel }, &rep), 0);
        }
}

static void test_sweep(void) {
        bool cpuid[_RNG_SOURCE_MAX];
        unsigned n = usable_cpus();
        ProbeSweepReport *rep = malloc(sizeof(*rep));
        ProbeParams p;
        Told t = {};

        CHECK(rep, "out of memory");
        if (!rep)
                return;
        FOREACH_RNG_SOURCE(i)
                cpuid[i] = true;
        params(&p, cpuid);
        p.widths = 1u << 2;
        p.threads = n <= MAX_THREADS ? PROBE_THREADS_MAX : 1;
        /* The kernel's view read here (this machine's /proc): never an error. */
        CHECK_EQ_INT(probe_sequence_sweep(&p, &(ProbeSequence) { .threads_capped = told, .userdata = &t }, rep), 0);
        CHECK_EQ_INT(t.calls, n <= MAX_THREADS && n < PROBE_THREADS_MAX ? 1 : 0);
        FOREACH_RNG_SOURCE(i)
                CHECK(rep->presence[i].cpuid && rep->selected[i], "presence detected");
        free(rep);
}

int main(void) {
        test_run();
        test_sweep();
        return test_result("test-probe-sequence");
}
