/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The entropy sources: one table of descriptors (sources.c), indexed by
 * RngSourceId. What differs from one source to another is a field of its
 * descriptor: its names, kind and architecture, how it is detected, its
 * widths, how the running kernel uses, credits, counts and logs it, what
 * each verdict on it weighs, and its FailOn= default on a confidential VM.
 * The kernel's reasons for disabling a source (sources.c) and the errata
 * (x86-errata.c, arm64-errata.c) are tables of their own beside it, keyed
 * by source.
 * Everything else iterates the table (FOREACH_RNG_SOURCE) and names no
 * source: the probe, the verdicts, the status, the journal events, the
 * metrics, FailOn=, the command line and the report.
 *
 * A build has the entries of its machine's architecture, then those of
 * none (the hwrng device, the boot seed). RngSourceId numbers exactly
 * those, so that every array indexed by it, every mask of sources
 * (1u << id) and every loop covers the sources present here, and a source
 * of another architecture is simply not there. A present source whose
 * draw code this build lacks (-DRNG_NO_X86_64, -DRNG_NO_ARM64) never
 * executes: unsupported.
 *
 * Adding a source: its id below, its descriptor in sources.c, its draw
 * code (x86.c for the x86-64 instructions, arm64.c for the arm64 ones;
 * hwrng.c for the device) or its
 * reader of the kernel's view (boot-seed.c), and its tests. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch.h"
#include "verdict.h"

typedef enum RngSourceId {
#if RNG_SOURCES_X86_64
        RNG_SOURCE_RDRAND,
        RNG_SOURCE_RDSEED,
#endif
#if RNG_SOURCES_ARM64
        RNG_SOURCE_RNDR,
        RNG_SOURCE_RNDRRS,
#endif
        RNG_SOURCE_HWRNG,
        RNG_SOURCE_BOOT_SEED,
        _RNG_SOURCE_MAX,
} RngSourceId;

/* Every source of this build, as a mask of 1u << RngSourceId. */
#define RNG_SOURCES_ALL ((1u << _RNG_SOURCE_MAX) - 1)

/* for (each source of this build) */
#define FOREACH_RNG_SOURCE(id) for (RngSourceId id = 0; id < _RNG_SOURCE_MAX; id++)
/* for (each source of this build of kind k) */
#define FOREACH_RNG_SOURCE_OF_KIND(id, k) \
        FOREACH_RNG_SOURCE(id) if (rng_source_desc(id)->kind != (k)) {} else

typedef enum RngSourceKind {
        RNG_KIND_CPU_INSTRUCTION,   /* an instruction of the CPU, drawn in widths */
        RNG_KIND_HWRNG_DEVICE,      /* a device of the kernel's hwrng core (/dev/hwrng) */
        RNG_KIND_BOOT_SEED,         /* a seed the boot loader or firmware hands over */
        _RNG_SOURCE_KIND_MAX,
} RngSourceKind;

const char *rng_source_kind_to_string(RngSourceKind k); /* "cpu-instruction", ... */

typedef enum RngArchitecture {
        RNG_ARCHITECTURE_ANY,    /* of no architecture: present in every build */
        RNG_ARCHITECTURE_X86_64,
        RNG_ARCHITECTURE_ARM64,
        _RNG_ARCHITECTURE_MAX,
} RngArchitecture;

const char *rng_architecture_to_string(RngArchitecture a); /* "any", "x86-64", "arm64" */

/* The operand widths of the CPU instructions, and their index (bit of a
 * widths mask). */
#define RNG_N_WIDTHS 3
extern const unsigned rng_widths[RNG_N_WIDTHS]; /* 16, 32, 64 */
#define RNG_WIDTHS_ALL ((1u << RNG_N_WIDTHS) - 1)

int rng_width_index(unsigned width); /* 0..2, -EINVAL otherwise */
/* The one parser of a width as given ("16", "32", "64"): its index, or
 * -EINVAL for anything else (the CLI and the configuration alike). */
int rng_width_from_string(const char *s);

typedef enum RngCpuidRegister {
        RNG_CPUID_EAX,
        RNG_CPUID_EBX,
        RNG_CPUID_ECX,
        RNG_CPUID_EDX,
} RngCpuidRegister;

/* How the kernel logs the exhaustion of a source's loop. */
typedef enum RngKernelLogs {
        RNG_KERNEL_LOGS_NOTHING,
        RNG_KERNEL_LOGS_ONCE_PER_BOOT,
        RNG_KERNEL_LOGS_RATE_LIMITED,
        _RNG_KERNEL_LOGS_MAX,
} RngKernelLogs;

const char *rng_kernel_logs_to_string(RngKernelLogs l); /* "once per boot", "rate-limited" */

typedef struct RngSource RngSource;
typedef struct RngSourceDesc RngSourceDesc;
typedef struct KernelSourceState KernelSourceState;
typedef struct KernelBootLog KernelBootLog;

/* What a reader of the kernel's view of a source (RngSourceDesc.kernel_view)
 * gets: the root its /sys is read below (NULL: /), the kernel command line
 * (/proc/cmdline, NULL if unreadable) and what this boot's kernel log says
 * (NULL: not read). */
typedef struct KernelViewInput {
        const char *root;
        const char *cmdline;
        size_t cmdline_len;
        const KernelBootLog *log;
} KernelViewInput;

struct RngSourceDesc {
        const char *name;         /* "rdrand": the command line, the configuration, FailOn=,
                                   * the JSON, the metrics' labels, the state file */
        const char *display_name; /* "RDRAND": the status, the journal events (RNG_INSTRUCTION,
                                   * RNG_<NAME>_VERDICT), the table, the report */
        RngSourceKind kind;
        RngArchitecture architecture;
        unsigned widths;          /* of 1u << rng_width_index(); 0: none */
        bool contention;          /* probed from every usable CPU at once too */

        /* Detection. */
        struct {
                /* x86-64: CPUID leaf, subleaf, register and bit. (arm64:
                 * HWCAP2_RNG, the draw code's.) */
                unsigned cpuid_leaf, cpuid_subleaf, cpuid_bit;
                RngCpuidRegister cpuid_register;
                /* The word of /proc/cpuinfo's "flags" (x86) or "Features"
                 * (arm64) the kernel shows while it uses the source: it
                 * clears it when it disables one (CPU instructions; NULL
                 * for the other kinds). */
                const char *cpuinfo_flag;
                /* A CPU instruction: what advertises it ("CPUID",
                 * "HWCAP2_RNG"), and that said in the kernel state's
                 * reasons where it does not (RNG_NOT_ADVERTISED()). */
                const char *advertised_by;
                struct {
                        const char *absent, *absent_sigill, *hidden_log_unreadable, *hidden_no_log;
                } not_advertised;
                /* A device: the node it is read from, and the kernel's sysfs
                 * directory that says which one it reads and how much it
                 * credits (NULL: none). A boot seed: the sysfs directory of
                 * the boot loader's data, and the type of a seed there. */
                const char *device, *sysfs;
                unsigned setup_data_type;
                /* A boot seed: the device tree's directory in sysfs (arm64,
                 * and any machine booted with one). The kernel reads
                 * /chosen/rng-seed in setup_arch() and erases it, so only
                 * the CRNG's readiness before the command line tells that
                 * one was there. NULL: none. */
                const char *device_tree;
        } detect;
        /* The kernel's view of a source that is no CPU instruction (its
         * device or seed, and whether and how much the kernel credits it),
         * from sysfs, the command line and the kernel log; NULL: a CPU
         * instruction's (/proc/cpuinfo, kernel_state_build()). */
        void (*kernel_view)(const RngSourceDesc *d, const KernelViewInput *in, KernelSourceState *ret);
        /* What the status and the events say when the source is not there
         * ("not supported by this CPU", "no device", "none passed"), and at
         * which severity the event says it. */
        const char *absent;
        Severity absent_severity;

        /* How the running kernel uses, credits, counts and logs it. */
        struct {
                /* How it credits the source's values to the CRNG, a
                 * sentence, and the kernel parameter that decides whether
                 * it does (NULL: none). */
                const char *credit, *credit_param;
                /* Tries per call of the kernel's loop: in a stock kernel,
                 * and in one with the rng-health series; why, in a sentence
                 * each (the kernel not read: a stock kernel assumed). */
                unsigned tries_stock, tries_series;
                const char *tries_stock_why, *tries_series_why, *tries_assumed_why;
                /* The series' counters: the source's directory below
                 * KERNEL_RNG_SYSFS_DIR (kernel-state.h); NULL: none. */
                const char *counters;
                /* A word of the kernel command line that turns it off
                 * (NULL: none), and that said as a reason. */
                const char *cmdline_off, *cmdline_off_reason;
                /* What the kernel uses where the source fails (its failures
                 * are routine, verdict_severity()); has_fallback false:
                 * nothing. */
                bool has_fallback;
                RngSourceId fallback;
                /* Its log lines: "<log_prefix><log_name> exhausted after N
                 * tries on CPU M" (the series; NULL prefix: none), the
                 * warning first posted in 2024 (NULL: none), the
                 * confidential-computing boot check's panic (NULL: none). */
                const char *log_prefix, *log_name;
                const char *msg_failed;
                const char *msg_defective;
                RngKernelLogs logs_exhaustion;
                /* Drivers of an hwrng device that the host feeds in a VM
                 * (a prefix of rng_current each; NULL-terminated; NULL:
                 * none): what it credits from such a device, the host chose. */
                const char *const *host_fed_drivers;
                /* How to stop the kernel from crediting the source, for the
                 * advice of a host-fed verdict (NULL: no remedy needed). */
                const char *remedy;
        } kernel;

        /* What a verdict on it weighs, from what the running kernel does
         * about it (verdict_severity()), and that in a clause
         * (verdict_consequence()); NULL: nothing to say. */
        Severity severity[_VERDICT_MAX];
        const char *consequence[_VERDICT_MAX];
        /* Where the running kernel has another input for the source's job
         * (a fact of the kernel: one of paths exists below the root the
         * kernel's view is read from, rng_source_kernel_facts_read()), the
         * verdicts in `verdicts` weigh severity[] and say consequence[]
         * instead. paths NULL: no such fact. */
        struct {
                const char *const *paths; /* NULL-terminated */
                const char *fact;         /* the fact, a clause for people */
                unsigned verdicts;        /* of 1u << Verdict */
                Severity severity[_VERDICT_MAX];
                const char *consequence[_VERDICT_MAX];
        } alt;
        /* FailOn= on a confidential VM when none is configured: of
         * 1u << Verdict. */
        unsigned fail_on_cvm;
        /* The verdicts the source can have, of 1u << Verdict: a boot seed
         * is never probed, so it is never broken (FailOn= "broken" still
         * names every source that can be). */
        unsigned verdicts;

        /* This build's draw code (NULL where it has none: the source is
         * present, but never executes): whether the CPU advertises it, and
         * its form of each width (rng_source_hardware()). */
        bool (*advertised)(const RngSourceDesc *d);
        const RngSource *forms; /* [RNG_N_WIDTHS]; a device: its one form (width 64) */
};

/* A CPU instruction's .detect.advertised_by and .detect.not_advertised,
 * for what advertises it (a string literal). */
#define RNG_NOT_ADVERTISED(by)                                                                        \
        .advertised_by = by,                                                                          \
        .not_advertised = {                                                                           \
                .absent = "not advertised by " by,                                                   \
                .absent_sigill = "not advertised by " by ", and it raises SIGILL",                   \
                .hidden_log_unreadable = "not advertised by " by ", yet it executes (kernel log not readable)", \
                .hidden_no_log = "not advertised by " by ", yet it executes (no reason in kernel log)",  \
        }

/* The table: _RNG_SOURCE_MAX entries. */
extern const RngSourceDesc rng_source_table[];

/* The descriptor of id; NULL out of range. */
const RngSourceDesc *rng_source_desc(RngSourceId id);

const char *rng_source_name(RngSourceId id);         /* "rdrand"; NULL out of range */
const char *rng_source_display_name(RngSourceId id); /* "RDRAND"; NULL out of range */
int rng_source_from_name(const char *s);             /* -EINVAL if unknown */

/* The names of every source (display: the display names), each followed
 * by suffix, joined by sep and the last by last_sep, into buf: "rdrand,
 * rdseed" (", ", ", "), "RDRAND/RDSEED" ("/", "/"), "rdrand: or rdseed:"
 * (":" after each, ", ", " or "). Only the sources in mask. Returns buf. */
char *rng_source_names_join(unsigned mask, bool display, const char *suffix, const char *sep, const char *last_sep,
                            char *buf, size_t len);

/* What the CPU says about one source. CPUID that does not advertise an
 * instruction may hide one the hardware has: the kernel clears the bit
 * itself on some CPUs (the errata), and a hypervisor may mask it. So where
 * CPUID says no, one try under a SIGILL guard (rng_source_executes())
 * tells hidden from absent. */
typedef struct RngPresence {
        bool cpuid;    /* advertised by the CPU */
        bool tried;    /* not advertised: the guarded try was made */
        bool executes; /* advertised, or the guarded try ran without SIGILL */
} RngPresence;

/* Whether the CPU advertises the source (x86-64: its CPUID bit; arm64:
 * AT_HWCAP2's HWCAP2_RNG). False
 * where this build has no draw code for it. */
bool rng_source_advertised(RngSourceId id);
/* Whether this build has draw code for some CPU instruction of the table
 * (its architecture's; the devices are read by every build). */
bool rng_arch_supported(void);

/* Whether the kernel logs or counts something of the source (its loop's
 * exhaustion, a failure, a reason for disabling it): what the kernel
 * watch follows, and keeps counts of. */
bool rng_source_kernel_logged(RngSourceId id);

/* The verdicts a source can have (its descriptor's verdicts; 0 out of
 * range). */
unsigned rng_source_verdicts(RngSourceId id);

/* Reads, below root (NULL: /), the kernel facts the descriptors' alt
 * names, for verdict_severity() and verdict_consequence() to weigh
 * verdicts by from then on (kernel_state_read() calls it; until then, and
 * for a source without such a fact, the descriptor's severity[] and
 * consequence[]). */
void rng_source_kernel_facts_read(const char *root);
/* Sets source id's fact as given (tests); false: the default weights. */
void rng_source_kernel_fact_set(RngSourceId id, bool holds);
/* Whether source id's fact held at the last read. */
bool rng_source_kernel_fact(RngSourceId id);

/* What a verdict on source id weighs (its descriptor's severity): the
 * order is the syslog order reversed, a higher Severity is worse. */
Severity verdict_severity(RngSourceId id, Verdict v);
/* The syslog priority of verdict v on source id: its severity's. */
int verdict_priority(RngSourceId id, Verdict v);
/* What the running kernel does about verdict v on source id, a clause for
 * the status line and the events; NULL where there is nothing to say (ok,
 * unsupported). */
const char *verdict_consequence(RngSourceId id, Verdict v);
