/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The kernel's view of the sources: /proc/cpuinfo flags (the kernel
 * clears a source's flag when it disables it), a word on /proc/cmdline that
 * turns one off, and the reason from the kernel log (/dev/kmsg); for the
 * sources that are no CPU instruction, their descriptor's reader
 * (kernel_view: sysfs, the command line, the kernel log). For every
 * source: whether the kernel credits it, and whether the host controls
 * it. What each source's flag, word and reasons are is the source table's
 * (sources.h). */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel-boot-log.h"
#include "sources.h"

typedef enum KernelStateKind {
        KERNEL_STATE_UNKNOWN,  /* what tells it unreadable: /proc/cpuinfo, a sysfs file, the kernel log */
        KERNEL_STATE_ENABLED,  /* flag in /proc/cpuinfo */
        KERNEL_STATE_DISABLED, /* CPUID advertises it, the kernel cleared the flag */
        KERNEL_STATE_HIDDEN,   /* CPUID does not advertise it, yet it executes: the
                                * kernel (or a hypervisor) cleared the CPUID bit */
        KERNEL_STATE_ABSENT,   /* neither CPUID nor the hardware has it (SIGILL, or not tried) */
        _KERNEL_STATE_MAX,
} KernelStateKind;

const char *kernel_state_kind_to_string(KernelStateKind k); /* "enabled", ... */

/* Where a state's reason comes from. */
typedef enum KernelReasonSource {
        KERNEL_REASON_NONE,       /* enabled: no reason */
        KERNEL_REASON_KERNEL_LOG, /* the kernel's own message (/dev/kmsg, or the journal) */
        KERNEL_REASON_CMDLINE,    /* the source's off word on /proc/cmdline (its descriptor's cmdline_off) */
        KERNEL_REASON_ERRATA,     /* the errata table: this CPU model is one the kernel hides it on */
        KERNEL_REASON_CPU,        /* what CPUID and the guarded try say, nothing more known */
        _KERNEL_REASON_SOURCE_MAX,
} KernelReasonSource;

const char *kernel_reason_source_to_string(KernelReasonSource s); /* "kernel-log", ... */

/* Whether and how much the kernel credits a source's input to the CRNG,
 * and whether the host controls it. */
typedef struct KernelCredit {
        bool known;        /* read: the fields below say something */
        bool credited;     /* the kernel credits it (until its CRNG is ready) */
        bool host_fed;     /* in a VM the host chooses it: a device the host feeds, a boot loader's seed */
        unsigned quality;  /* credit per 1024 bits (an hwrng device's rng_quality; 1024 or 0 otherwise) */
        char device[64];   /* an hwrng device: rng_current; a boot seed: where it came from */
        char available[128]; /* an hwrng device: rng_available */
        const char *why;   /* why it is credited or not, a clause (static) */
} KernelCredit;

typedef struct KernelSourceState {
        KernelStateKind state;
        const char *reason_id; /* short machine-readable id, NULL when enabled */
        const char *reason;    /* human-readable reason, NULL when enabled */
        KernelReasonSource reason_source;
        KernelCredit credit;
} KernelSourceState;

typedef enum KernelLogState {
        KERNEL_LOG_NOT_NEEDED, /* nothing disabled or hidden: the log was not read */
        KERNEL_LOG_READ,
        KERNEL_LOG_UNREADABLE, /* e.g. EPERM without CAP_SYSLOG */
        _KERNEL_LOG_MAX,
} KernelLogState;

const char *kernel_log_state_to_string(KernelLogState s); /* "not-needed", "read", "unreadable" */

/* The rng-health kernel series' sysfs directory (counters, patch 0006):
 * two files per source it counts (kernel-counters.h). A kernel that has
 * them runs the series' loops (each source's tries_series). */
#define KERNEL_RNG_SYSFS_DIR "/sys/devices/system/cpu/rng"

typedef enum KernelRetriesSource {
        KERNEL_RETRIES_STOCK,    /* no series sysfs directory: a stock kernel's loops */
        KERNEL_RETRIES_SERIES,   /* the series' sysfs directory is there */
        KERNEL_RETRIES_ASSUMED,  /* the kernel was not read: a stock kernel's loops assumed */
        KERNEL_RETRIES_OVERRIDE, /* KernelRetries= / --kernel-retries */
        _KERNEL_RETRIES_SOURCE_MAX,
} KernelRetriesSource;

const char *kernel_retries_source_to_string(KernelRetriesSource s); /* "stock", "series", ... */

typedef struct KernelState {
        KernelSourceState instr[_RNG_SOURCE_MAX];
        KernelLogState log;
        bool retry_series; /* the series' counter files are there (kernel_retry_series_present()) */
        /* This boot's kernel log on the CRNG and the seeds (boot.read:
         * it was read). */
        KernelBootLog boot;
} KernelState;

/* Tries per call of the kernel's loop for source i: the override if
 * nonzero, else from the kernel (NULL: not read, a stock kernel assumed)
 * and the source's descriptor. *ret_source says which, *ret_why says why
 * in a sentence. */
uint64_t kernel_retries_for(const KernelState *kernel, RngSourceId i, uint64_t override,
                            KernelRetriesSource *ret_source, const char **ret_why);

/* One entry of the reason table. */
typedef struct KernelReason {
        RngSourceId instruction; /* the source it disables */
        const char *id;
        const char *message; /* verbatim kernel message, matched as a substring */
        const char *source;  /* where the kernel prints it */
} KernelReason;

/* The kernel's reasons for disabling a source, keyed by source, in the
 * order they are matched (beside the source table: sources.c). */
extern const KernelReason kernel_reason_table[];
extern const size_t kernel_reason_table_size;

/* Match one kernel log record (any bytes, not NUL-terminated, possibly
 * truncated) against the reason table. Returns the entry or NULL. */
const KernelReason *kernel_reason_match(const char *record, size_t len);

/* The one reader of ROOT/proc/cpuinfo (root NULL or "/": the real one), for
 * the kernel state, the CPU's identity and the confidential VM detection:
 * read_small_file()'s result. */
int kernel_cpuinfo_read(const char *root, char **ret, size_t *ret_len);

/* /proc/cpuinfo text: how many "flags" lines (x86) or "Features" lines
 * (arm64), one per CPU, have `flag` as a whole word (*ret_lines: how many
 * such lines there are). -EINVAL on NULL. */
int kernel_cpuinfo_count_flag(const char *text, size_t len, const char *flag, size_t *ret_lines);
/* Whether some "flags" or "Features" line has `flag`. */
bool kernel_cpuinfo_has_flag(const char *text, size_t len, const char *flag);

/* Parse /proc/cpuinfo text: ret[i] is true if every "flags" or "Features"
 * line has source i's flag (its descriptor's cpuinfo_flag; a source
 * without one is false). -EBADMSG if there is no such line. */
int kernel_cpuinfo_parse(const char *text, size_t len, bool ret[_RNG_SOURCE_MAX]);

/* Whether the kernel command line (before a "--") holds the word. */
bool kernel_cmdline_has_word(const char *cmdline, size_t len, const char *word);

/* The boolean kernel parameter name=VALUE on the command line (before a
 * "--"), as the kernel's kstrtobool() reads it (y, Y, 1, on: true; n, N,
 * 0, off: false), the last one given; def where it is absent or not a
 * boolean (the kernel keeps its default then). */
bool kernel_cmdline_bool(const char *cmdline, size_t len, const char *name, bool def);

/* The value of name=VALUE on the command line (the last one given) into
 * buf; false where it is absent. */
bool kernel_cmdline_value(const char *cmdline, size_t len, const char *name, char *buf, size_t buf_len);

/* Whether the command line holds each source's off word (its descriptor's
 * cmdline_off). */
void kernel_cmdline_parse(const char *cmdline, size_t len, bool ret[_RNG_SOURCE_MAX]);

/* Combine the pieces into per-source states. reasons[i] is the matched log
 * entry or NULL, cmdline_off[i] whether the command line turns source i
 * off. cpuinfo_ok=false means the flags are unknown. */
void kernel_state_build(KernelState *ret, const RngPresence presence[_RNG_SOURCE_MAX],
                        bool cpuinfo_ok, const bool flags[_RNG_SOURCE_MAX],
                        const bool cmdline_off[_RNG_SOURCE_MAX], KernelLogState log,
                        const KernelReason *const reasons[_RNG_SOURCE_MAX]);

/* Whether the running kernel has the rng-health series below root (NULL:
 * /): the counter directory of every source whose loop the series changes
 * (tries_series != tries_stock) is there. */
bool kernel_retry_series_present(const char *root);

/* Read kernel log records from path (/dev/kmsg: one record per read(),
 * until EAGAIN): reasons[] (NULL: not wanted) with the matches, and boot
 * (NULL: not wanted) fed every record (kernel_boot_log_feed()). Stops once
 * boot is settled where reasons are not wanted. */
KernelLogState kernel_log_scan(const char *path, const KernelReason *reasons[_RNG_SOURCE_MAX], KernelBootLog *boot);

/* A reader of this boot's kernel messages, from its start: reasons[] (NULL:
 * not wanted) with the matches of kernel_reason_match(), and boot (NULL:
 * not wanted) fed each record with its timestamp (the reader may stop once
 * boot is settled and no reasons are wanted). The CLI reads /dev/kmsg; the
 * daemon, which may not (no CAP_SYSLOG), the journal's kernel transport. */
typedef KernelLogState (*KernelLogScanFn)(const KernelReason *reasons[_RNG_SOURCE_MAX], KernelBootLog *boot,
                                          void *userdata);

/* Read everything from /proc, /sys (below root; NULL: /), and the kernel
 * log (scan, NULL: /dev/kmsg): its reasons only when a source was
 * disabled or hidden (the log can be megabytes on a long-running
 * machine), its boot records (the seeds, the CRNG) unless boot_known
 * gives them (NULL: read them). *ret is filled in any case (a problem is
 * described in the reasons); the kernel facts that weigh verdicts
 * (rng_source_kernel_facts_read()) are read below root too. Returns 0; -errno if /proc/cpuinfo cannot be
 * read, -EBADMSG if it has no "flags" or "Features" line (the state of the CPU
 * instructions is then unknown): for the caller to log. The kernel log is
 * never an error. */
int kernel_state_read(const RngPresence presence[_RNG_SOURCE_MAX], const char *root, KernelLogScanFn scan,
                      void *userdata, const KernelBootLog *boot_known, KernelState *ret);
