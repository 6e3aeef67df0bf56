/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The probe engine: drives the source table's sources (sources.h), each of
 * its forms an RngSource (or a test's scripted one), single-threaded and
 * with one pinned thread per usable CPU, counts failures and checks the
 * delivered values. Used by `rng-health probe` and the daemon.
 *
 * Default budget (boot path), per run and per thread:
 *   budget_usec  = 2000  (2 ms)
 *   max_attempts = 4096
 *   min_attempts = 1024  (taken even past the time budget)
 * A run stops at max_attempts, or when the time budget is spent and at least
 * min_attempts tries were made. Every source x width x (single +
 * contention): 12 runs on x86-64, at most ~12 x 2 ms plus thread start-up;
 * a source at ~40 ns/try takes ~0.2 ms a run. min_attempts = 1024
 * guarantees the power goal in every single run: a source failing 1 % of
 * tries shows no failure in 1024 tries with probability 0.99^1024 = 3.4e-5.
 *
 * The contention run hammers the source from every usable CPU at once:
 * while it lasts it can itself starve its other users on the machine (the
 * generator is shared by the cores of a socket), the kernel
 * included: each run records when it began and ended and, where the kernel
 * has the series' counters, their values around it, so that the daemon can
 * tell its own load from someone else's.
 *
 * The generator is shared by the cores of a package (socket): where the
 * used CPUs span several packages (sysfs's physical_package_id), a
 * contention run is made per package, its threads pinned within that
 * package, and says which (ProbeRun.package); a package with one used CPU
 * gets none. A run across packages would measure generators that do not
 * contend with each other.
 *
 * A contention run contends only while all its threads draw: its figures
 * (failure rate, aggregate rate) come from that common window, and a run
 * whose window is under PROBE_MIN_OVERLAP of its span says so
 * (ProbeRun.contended false): its counts are still real, but it is no
 * evidence of what happens under contention. */

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>

#include "cpu-id.h"
#include "kernel-counters.h"
#include "errata.h"
#include "health.h"
#include "kernel-state.h"
#include "probe-stats.h" /* the histogram buckets, probe_wilson() */
#include "rng-source.h"
#include "verdict.h"

/* The most packages (sockets) whose contention runs are made each on its
 * own; beyond that the used CPUs are one group (ProbeCpus). */
#define PROBE_PACKAGES_MAX 8
/* Runs of one source: per width a single run and a contention run per
 * package. */
#define PROBE_RUNS_MAX (RNG_N_WIDTHS * (1 + PROBE_PACKAGES_MAX))

/* Asked by a probe at least every PROBE_STOP_POLL_NSEC while it draws,
 * and before each run: true ends the probe with -ECANCELED, whatever it
 * has measured (a daemon asked to stop). Called from the probe's threads:
 * it must be thread-safe. */
typedef bool (*ProbeStopFn)(void *userdata);
#define PROBE_STOP_POLL_NSEC 1000000u

typedef struct ProbeLimits {
        uint64_t budget_usec;  /* per run; 0: no time budget */
        uint64_t max_attempts; /* per thread per run; 0: no cap */
        uint64_t min_attempts; /* per thread per run, even past the time budget */
        /* A device's one run (probe_run_device()): at most this long (or
         * budget_usec where that is longer), and at most this many bytes;
         * 0: PROBE_DEVICE_BUDGET_USEC and PROBE_DEVICE_MAX_BYTES. Whatever
         * the device does, the run ends within the budget (and a few
         * milliseconds). */
        uint64_t device_budget_usec;
        uint64_t device_max_bytes;
        /* NULL: never stopped from outside. */
        ProbeStopFn stop;
        void *stop_userdata;
} ProbeLimits;

#define PROBE_DEVICE_BUDGET_USEC 20000
#define PROBE_DEVICE_MAX_BYTES 4096

#define PROBE_LIMITS_DEFAULT ((ProbeLimits) { .budget_usec = 2000, .max_attempts = 4096, .min_attempts = 1024 })

/* A device run's time budget under l: the longer of its own and a run's. */
uint64_t probe_limits_device_usec(const ProbeLimits *l);
/* A device run's bytes at most under l. */
uint64_t probe_limits_device_bytes(const ProbeLimits *l);

/* The limits a run keeps, and what a report shows: min_attempts never
 * above a cap (--count 1 makes 1 try, not 1024). */
ProbeLimits probe_limits_effective(const ProbeLimits *l);

typedef enum ProbeMode {
        PROBE_SINGLE,
        PROBE_CONTENTION,
} ProbeMode;

const char *probe_mode_to_string(ProbeMode m); /* "single", "contention" */

/* A contention run is evidence of contention only if every thread drew
 * through at least this share of the run's span. */
#define PROBE_MIN_OVERLAP 0.9

/* The common window of a contention run: from the last thread's first try
 * to the first thread's last try, when every thread was drawing. */
typedef struct ProbeWindow {
        uint64_t span_nsec;       /* first thread's first try to last thread's last */
        uint64_t nsec;            /* the window; 0 if the threads never all drew at once */
        double overlap;           /* nsec / span_nsec */
        /* In it, all threads: interpolated between the marks each thread
         * takes after every batch of tries, rounded. */
        uint64_t attempts, failures, delivered, kernel_loop_failures;
} ProbeWindow;

typedef struct ProbeRun {
        RngSourceId instruction;
        unsigned width;
        ProbeMode mode;
        unsigned threads;
        /* The package (physical_package_id) a contention run's threads were
         * pinned within; -1: a single run (not pinned), or the used CPUs'
         * packages are unknown (ProbeCpus.n_packages 0). */
        int package;

        uint64_t attempts, failures, delivered;  /* attempts = failures + delivered */
        uint64_t longest_failure_streak;
        uint64_t trailing_failures;              /* failed tries after each thread's last value, summed */
        uint64_t trailing_over_retries;          /* threads whose trailing streak reached kernel_retries */
        uint64_t kernel_retries;                 /* tries per call of the kernel's loop */
        uint64_t values_over_retries;            /* values that needed > kernel_retries tries */
        uint64_t kernel_loop_failures;           /* calls of the kernel loop that would fail */
        uint64_t hist[PROBE_HIST_BUCKETS];       /* tries per delivered value */

        /* Single runs: over all tries. Contention runs: over the common
         * window (over all tries if it holds none). */
        double failure_rate, failure_ci_low, failure_ci_high; /* Wilson 95 % */
        /* Calls of a kernel loop of kernel_retries tries that would fail:
         * failed calls / (failed calls + values), same tries as failure_rate. */
        double kernel_loop_failure_rate;
        /* Values per second of wall time: single runs over the draw time,
         * contention runs summed over the threads within the common window
         * (where they overlap, that sum is the machine's aggregate). */
        double values_per_sec, bytes_per_sec;
        uint64_t wall_nsec;                      /* release to last thread done */
        uint64_t start_nsec, end_nsec;           /* CLOCK_MONOTONIC, around the whole run */
        ProbeWindow window;                      /* contention runs */
        bool contended;                          /* contention run, overlap >= PROBE_MIN_OVERLAP */

        /* The kernel's counters just before and after a contention run
         * (ProbeParams.kernel_counters, kernels with the series). */
        bool have_kernel_counters;
        KernelCounters kernel_before, kernel_after;

        uint64_t bytes;                          /* a device run: bytes read (values are 8 of them) */

        uint64_t latency_samples;                /* tries timed with the TSC */
        uint64_t latency_median, latency_p99;    /* TSC cycles per try */

        HealthResult health;
        Verdict verdict;
} ProbeRun;

/* Returns the source to use for thread `thread` (0 for single runs). */
typedef const RngSource *(*ProbeSourceFn)(RngSourceId i, unsigned width, unsigned thread, void *userdata);
typedef void (*ProbeProgressFn)(const ProbeRun *starting, unsigned index, unsigned total, void *userdata);

typedef struct ProbeParams {
        unsigned instructions; /* mask of 1u << RngSourceId */
        unsigned widths;       /* mask of 1u << rng_width_index() */
        unsigned threads;      /* contention threads: 0 = every usable CPU, 1 = no contention run */
        ProbeLimits limits;
        HealthParams health;
        VerdictParams verdict;

        /* What probe_detect() found ([_RNG_SOURCE_MAX]); NULL:
         * probe_run_all() detects it itself. */
        const RngPresence *presence;
        /* Read the kernel's counters (below sysfs_root, NULL: /) around each
         * contention run. */
        bool kernel_counters;
        const char *sysfs_root;
        /* A confidential VM: a source the host controls and the kernel
         * credits has the verdict host-fed. */
        bool confidential_vm;

        /* Test hooks. NULL: hardware sources and the real CPUID. */
        ProbeSourceFn source;
        void *source_userdata;
        const bool *cpuid; /* [_RNG_SOURCE_MAX] */

        ProbeProgressFn progress;
        void *progress_userdata;
} ProbeParams;

void probe_params_default(ProbeParams *ret);

/* The values `rng-health probe` and rng-health.conf(5) share, each with
 * one parser (probe-params.c; the caller words the error) and one set of
 * bounds: */
#define PROBE_THREADS_MAX CPU_SETSIZE                  /* Threads=, --threads */
#define PROBE_MAX_ATTEMPTS_MAX (UINT64_C(1) << 32)     /* MaxAttempts=, --count */
#define PROBE_KERNEL_RETRIES_MAX 1000                  /* KernelRetries=, --kernel-retries */
/* "all": 0 (every usable CPU), else 1..PROBE_THREADS_MAX; -EINVAL. The
 * counts are parse_u64_range() within these bounds, the widths
 * rng_width_from_string(), the instructions rng_source_from_name(). */
int probe_threads_from_string(const char *s, unsigned *ret);
/* ... and what an error says each takes, in the same words for both
 * (probe-params.c checks them against the bounds at compile time):
 * "expected all or a number of threads from 1 to 1024" for --threads and
 * Threads=. */
/* --instruction, Instructions=: the table's names, into buf (returned) */
const char *probe_instructions_expect(char *buf, size_t len);
extern const char probe_widths_expect[];         /* --width, Widths= */
extern const char probe_threads_expect[];        /* --threads, Threads= */
extern const char probe_max_attempts_expect[];   /* --count, MaxAttempts= */
extern const char probe_kernel_retries_expect[]; /* --kernel-retries, KernelRetries= */

/* One instruction's runs in a few numbers, summed once by probe_run_all()
 * (probe-summary.h) for the status line, the journal events and the
 * report. */
typedef struct ProbeSummary {
        bool probed;                 /* selected, executes (CPUID, or hidden), and at least one run */
        uint64_t attempts, failures; /* totals over the runs */
        uint64_t retry_exhausted;    /* values that needed more than kernel_retries tries */
        uint64_t max_fail_streak;
        double failure_rate;         /* failures / attempts over the runs */
        unsigned worst;              /* runs[worst] decided the verdict (when probed) */
} ProbeSummary;

typedef struct ProbeSourceResult {
        RngSourceId instruction;
        bool selected;
        bool cpuid;     /* a CPU instruction: CPUID advertises it; another source: it is there */
        bool executes;  /* CPUID, or the guarded try ran, or the device is there: its runs were made */
        int read_error; /* a device that is there could not be read: -errno (0: none) */
        KernelSourceState kernel;
        /* The instruction's verdict: its worst run's; hidden for one CPUID
         * does not advertise (nothing that checks CPUID relies on it). */
        Verdict verdict;
        Verdict hardware_verdict; /* its worst run's, hidden or not */
        /* Contention runs made, and how many of them contended (overlap). */
        unsigned contention_runs, contended_runs;
        /* The tries per call of the kernel's loop its runs were judged by:
         * the running kernel's (the source's tries_stock, or tries_series
         * with the retry series), or the override. */
        uint64_t kernel_retries;
        KernelRetriesSource kernel_retries_source;
        const char *kernel_retries_why;
        /* probe_report_name_errata(): the documented erratum the result
         * matches, or one whose fix this CPU's microcode has (NULL: none). */
        const Erratum *erratum;
        const Erratum *erratum_fixed;
        uint32_t erratum_fixed_microcode;
        unsigned n_runs;
        /* per width: the single run, then a contention run per package */
        ProbeRun runs[PROBE_RUNS_MAX];
        ProbeSummary summary;
} ProbeSourceResult;

typedef struct ProbeCpus {
        cpu_set_t possible, online, allowed;
        cpu_set_t used;               /* online and allowed, at most `threads` of them */
        cpu_set_t skipped_offline;    /* possible but offline */
        cpu_set_t skipped_forbidden;  /* online but not in sched_getaffinity() */
        cpu_set_t skipped_pin_failed; /* could not be pinned to (e.g. went offline) */
        bool contention;              /* a contention run was made (a group of >= 2 CPUs) */
        /* The packages of the used CPUs, in the order of their first CPU
         * (probe_cpus_packages()): 0 where the topology is unknown
         * (topology_error says why: -ENOENT no topology in sysfs, -EBADMSG
         * a file that is not a package id, -E2BIG more than
         * PROBE_PACKAGES_MAX packages); the contention runs then use all
         * used CPUs as one group. */
        unsigned n_packages;
        int package_id[PROBE_PACKAGES_MAX];
        cpu_set_t package_cpus[PROBE_PACKAGES_MAX]; /* used CPUs of each */
        int topology_error;
} ProbeCpus;

typedef struct ProbeReport {
        bool arch_supported;
        KernelLogState kernel_log;
        ProbeLimits limits;
        HealthParams health;
        VerdictParams verdict_params;
        ProbeCpus cpus;
        ProbeSourceResult instr[_RNG_SOURCE_MAX];
        uint64_t wall_nsec;
        Verdict verdict; /* worst over the selected instructions */
        bool have_cpu;   /* cpu is known (probe_report_name_errata()) */
        CpuId cpu;
        char kernel_release[65]; /* uname -r (probe_sequence_run()); "" unknown */
        bool confidential_vm; /* judged as one (ProbeParams.confidential_vm) */
        /* This boot's kernel log on the CRNG and the seeds (boot.read: it
         * was read). */
        KernelBootLog boot;
} ProbeReport;

/* The contention runs' groups of CPUs: one per package of ProbeCpus with
 * at least 2 used CPUs, or (packages unknown) all used CPUs; ret_package
 * [PROBE_PACKAGES_MAX] the package id of each (-1: unknown). Returns how
 * many groups have >= 2 CPUs. */
unsigned probe_cpus_groups(const ProbeCpus *c, cpu_set_t ret[PROBE_PACKAGES_MAX], int ret_package[PROBE_PACKAGES_MAX]);

/* Reads the package of each used CPU below sysfs_root (NULL: /):
 * /sys/devices/system/cpu/cpuN/topology/physical_package_id. Sets
 * n_packages, package_id and package_cpus; where the topology cannot be
 * read (or is not a number, or has more packages than
 * PROBE_PACKAGES_MAX) n_packages stays 0 and topology_error says why: the
 * probe goes on with one group. Never fails. */
void probe_cpus_packages(const char *sysfs_root, ProbeCpus *c);

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
 * may be NULL: not pinned), all starting together (probe-pool.h). */
int probe_run_contention(const RngSource *const *srcs, const int *cpus, unsigned n,
                         const ProbeLimits *limits, const HealthParams *health,
                         const VerdictParams *vp, ProbeRun *ret);

/* One run of a device (src->read): at most probe_limits_device_usec() and
 * device_max_bytes, its bytes checked as 64-bit values; the rate in bytes
 * and values per second. ok, broken (an output check failed) or degraded
 * (not one value within the budget). -errno where the device could not be
 * read at all. */
int probe_run_device(const RngSource *src, const ProbeLimits *limits, const HealthParams *health, ProbeRun *ret);

/* CPUID for each instruction (p->cpuid replaces it), and for each one CPUID
 * does not advertise, one try of p's source for it (thread 0, the first
 * selected width it has, else its first) under a SIGILL guard: hidden or
 * absent. Without draw code (another architecture, -DRNG_NO_X86_64,
 * -DRNG_NO_ARM64) nothing is tried. A source that is no instruction is there as p->cpuid
 * says (NULL: not yet, the kernel's view tells: probe-sequence.h). */
void probe_detect(const ProbeParams *p, RngPresence ret[_RNG_SOURCE_MAX]);

/* Everything: per selected instruction that executes (probe_detect(), or
 * p->presence), each selected width, a single run and (with >= 2 usable
 * CPUs) a contention run. kernel may be NULL (state unknown). */
int probe_run_all(const ProbeParams *p, const KernelState *kernel, ProbeReport *ret);

/* What a probe's error r says, for a log line: -ETIMEDOUT and -ECANCELED
 * in the probe's own words, any other strerror(). */
const char *probe_error_to_string(int r);

/* `rng-health probe`'s exit status for r (fail_on_exit_status() over its
 * selected sources): by default only a verdict that weighs err fails it;
 * strict (--fail-on) non-NULL: a verdict strict matches. */
struct FailOn;
int probe_report_exit_status(const ProbeReport *r, const struct FailOn *strict);

/* `rng-health probe --sweep`: per selected instruction that executes,
 * per selected width and per group of CPUs (probe_cpus_groups(): each
 * package with >= 2 used CPUs), one contention run at 1, 2, 4, ...
 * threads up to all CPUs of the group (the last point: all of them),
 * pinned to its first CPUs. */
#define PROBE_SWEEP_MAX_POINTS 13 /* 1..512 and CPU_SETSIZE (1024) */

typedef struct ProbeSweep {
        RngSourceId instruction;
        unsigned width;
        int package;            /* the package its threads were pinned within; -1: unknown */
        uint64_t kernel_retries;
        unsigned n_points;
        ProbeRun points[PROBE_SWEEP_MAX_POINTS];
} ProbeSweep;

typedef struct ProbeSweepReport {
        ProbeLimits limits;
        ProbeCpus cpus;
        RngPresence presence[_RNG_SOURCE_MAX];
        KernelSourceState kernel[_RNG_SOURCE_MAX];
        bool selected[_RNG_SOURCE_MAX];
        unsigned n_sweeps;
        ProbeSweep sweeps[_RNG_SOURCE_MAX * RNG_N_WIDTHS * PROBE_PACKAGES_MAX];
        uint64_t wall_nsec;
} ProbeSweepReport;

/* The thread counts of a sweep over n CPUs: 1, 2, 4, ..., n. Returns how
 * many (at most PROBE_SWEEP_MAX_POINTS). */
unsigned probe_sweep_points(unsigned n, unsigned ret[PROBE_SWEEP_MAX_POINTS]);
int probe_sweep(const ProbeParams *p, const KernelState *kernel, ProbeSweepReport *ret);
