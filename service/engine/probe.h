/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The probe engine: drives RDRAND/RDSEED (or any RngSource) single-threaded
 * and with one pinned thread per usable CPU, counts failures and checks the
 * delivered values. Used by `rng-health probe` and the daemon.
 *
 * Default budget (boot path), per run and per thread:
 *   budget_usec  = 2000  (2 ms)
 *   max_attempts = 4096
 *   min_attempts = 1024  (taken even past the time budget)
 * A run stops at max_attempts, or when the time budget is spent and at least
 * min_attempts tries were made. All instructions x widths x (single +
 * contention) = 12 runs: at most ~12 x 2 ms plus thread start-up; with RDRAND
 * at ~40 ns/try the RDRAND runs take ~0.2 ms each. min_attempts = 1024
 * guarantees the power goal in every single run: a source failing 1 % of
 * tries shows no failure in 1024 tries with probability 0.99^1024 = 3.4e-5.
 *
 * The contention run hammers the instruction from every usable CPU at once:
 * while it lasts it can itself starve other users of RDSEED/RDRAND on the
 * machine (the generator is shared by the cores of a socket). */

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>

#include "cpu-id.h"
#include "errata.h"
#include "health.h"
#include "kernel-state.h"
#include "probe-stats.h" /* the histogram buckets, probe_wilson() */
#include "rng-source.h"
#include "verdict.h"

typedef struct ProbeLimits {
        uint64_t budget_usec;  /* per run; 0: no time budget */
        uint64_t max_attempts; /* per thread per run; 0: no cap */
        uint64_t min_attempts; /* per thread per run, even past the time budget */
} ProbeLimits;

#define PROBE_LIMITS_DEFAULT ((ProbeLimits) { .budget_usec = 2000, .max_attempts = 4096, .min_attempts = 1024 })

typedef enum ProbeMode {
        PROBE_SINGLE,
        PROBE_CONTENTION,
} ProbeMode;

const char *probe_mode_to_string(ProbeMode m); /* "single", "contention" */

typedef struct ProbeRun {
        RngInstruction instruction;
        unsigned width;
        ProbeMode mode;
        unsigned threads;

        uint64_t attempts, failures, delivered;  /* attempts = failures + delivered */
        uint64_t longest_failure_streak;
        uint64_t trailing_failures;              /* failed tries after the last value */
        uint64_t kernel_retries;                 /* tries per call of the kernel's loop */
        uint64_t values_over_retries;            /* values that needed > kernel_retries tries */
        uint64_t kernel_loop_failures;           /* calls of the kernel loop that would fail */
        uint64_t hist[PROBE_HIST_BUCKETS];       /* tries per delivered value */

        double failure_rate, failure_ci_low, failure_ci_high; /* Wilson 95 % */
        uint64_t wall_nsec;                      /* release to last thread done */
        double values_per_sec, bytes_per_sec;    /* sum of per-thread rates over draw time */

        uint64_t latency_samples;                /* tries timed with the TSC */
        uint64_t latency_median, latency_p99;    /* TSC cycles per try */

        HealthResult health;
        Verdict verdict;
} ProbeRun;

/* Returns the source to use for thread `thread` (0 for single runs). */
typedef const RngSource *(*ProbeSourceFn)(RngInstruction i, unsigned width, unsigned thread, void *userdata);
typedef void (*ProbeProgressFn)(const ProbeRun *starting, unsigned index, unsigned total, void *userdata);

typedef struct ProbeParams {
        unsigned instructions; /* mask of 1u << RngInstruction */
        unsigned widths;       /* mask of 1u << rng_width_index() */
        unsigned threads;      /* contention threads: 0 = every usable CPU, 1 = no contention run */
        ProbeLimits limits;
        HealthParams health;
        VerdictParams verdict;

        /* Test hooks. NULL: hardware sources and the real CPUID. */
        ProbeSourceFn source;
        void *source_userdata;
        const bool *cpuid; /* [_RNG_INSTRUCTION_MAX] */

        ProbeProgressFn progress;
        void *progress_userdata;
} ProbeParams;

void probe_params_default(ProbeParams *ret);

typedef struct ProbeInstruction {
        RngInstruction instruction;
        bool selected;
        bool cpuid;
        KernelInstructionState kernel;
        Verdict verdict;
        /* The tries per call of the kernel's loop its runs were judged by:
         * the running kernel's (stock: RDSEED 1, RDRAND 10; the retry
         * series: 10 each), or the override. */
        uint64_t kernel_retries;
        KernelRetriesSource kernel_retries_source;
        const char *kernel_retries_why;
        /* probe_report_name_errata(): the documented erratum the result
         * matches, or one whose fix this CPU's microcode has (NULL: none). */
        const Erratum *erratum;
        const Erratum *erratum_fixed;
        uint32_t erratum_fixed_microcode;
        unsigned n_runs;
        ProbeRun runs[2 * RNG_N_WIDTHS];
} ProbeInstruction;

typedef struct ProbeCpus {
        cpu_set_t possible, online, allowed;
        cpu_set_t used;               /* online and allowed, at most `threads` of them */
        cpu_set_t skipped_offline;    /* possible but offline */
        cpu_set_t skipped_forbidden;  /* online but not in sched_getaffinity() */
        cpu_set_t skipped_pin_failed; /* could not be pinned to (e.g. went offline) */
        bool contention;              /* a contention run was made (>= 2 CPUs) */
} ProbeCpus;

typedef struct ProbeReport {
        bool arch_supported;
        KernelLogState kernel_log;
        ProbeLimits limits;
        HealthParams health;
        VerdictParams verdict_params;
        ProbeCpus cpus;
        ProbeInstruction instr[_RNG_INSTRUCTION_MAX];
        uint64_t wall_nsec;
        Verdict verdict; /* worst over the selected instructions */
        bool have_cpu;   /* cpu is known (probe_report_name_errata()) */
        CpuId cpu;
} ProbeReport;

/* Which CPUs a contention run would use. -E2BIG if more threads are asked
 * for than CPUs are usable (ret->used then holds all usable ones).
 * Logs nothing; other errors: -errno of sched_getaffinity() or of reading
 * /sys/devices/system/cpu/{online,possible} (-EFBIG: too long, -EINVAL or
 * -ERANGE: not a CPU list). */
int probe_cpus_discover(unsigned threads, ProbeCpus *ret);

/* One single-thread run of a source on the calling thread. */
int probe_run_single(const RngSource *src, const ProbeLimits *limits, const HealthParams *health,
                     const VerdictParams *vp, ProbeRun *ret);

/* One contention run: thread i draws from srcs[i], pinned to cpus[i] (cpus
 * may be NULL: not pinned), all released together from a barrier. */
int probe_run_contention(const RngSource *const *srcs, const int *cpus, unsigned n,
                         const ProbeLimits *limits, const HealthParams *health,
                         const VerdictParams *vp, ProbeRun *ret);

/* Everything: per selected instruction with CPUID support, each selected
 * width, a single run and (with >= 2 usable CPUs) a contention run.
 * kernel may be NULL (state unknown). */
int probe_run_all(const ProbeParams *p, const KernelState *kernel, ProbeReport *ret);
