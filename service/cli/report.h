/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* `rng-health report`: rng-health's journal events grouped per boot, like
 * `ras-mc-ctl --summary`. The model is filled from entries given as
 * EventFields (so tests feed it without a journal); report_read_journal()
 * fills it from sd-journal. */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>
#include <systemd/sd-id128.h>

#include "journal-event.h"
#include "kernel-rng-msg.h"
#include "sources.h"

/* The runs of one source a probe result lists (RNG_RUN_FAILURE_RATES): per
 * width a single run and a contention run per package (probe.h's
 * PROBE_RUNS_MAX). */
#define REPORT_RATES_MAX PROBE_RUNS_MAX

/* One run's failure ratio from RNG_RUN_FAILURE_RATES ("64/contention/4@1=0.9840"). */
typedef struct ReportRate {
        unsigned width, threads;
        bool contention;
        int package;  /* -1: not within one package */
        double ratio;
} ReportRate;

/* The CPU and kernel a boot's probe results were made on (their RNG_CPU_*
 * and RNG_KERNEL_RELEASE fields, escaped; "" where absent). */
typedef struct ReportCpu {
        char vendor[16], family[12], model[12], stepping[12], microcode[20];
        char model_name[96];
        char kernel_release[96];
} ReportCpu;

typedef struct ReportInstruction {
        bool seen;
        unsigned results;        /* probe results seen */
        char verdict[16];        /* of the last probe */
        char worst_verdict[16];  /* worst over the boot */
        uint64_t attempts, failures, retry_exhausted, max_fail_streak; /* last probe, all runs */
        uint64_t kernel_retries; /* the kernel loop's tries the last probe was judged by */
        double failure_rate;
        char unavailable[16];    /* RNG_REASON, probe_unavailable_to_string()'s, or "" */
        /* A source that is no CPU instruction (RNG_KIND set): the last
         * result's device or seed, credit and rate. */
        bool other;
        char device[64];
        char credited[4], host_fed[4]; /* "yes", "no" or "" */
        uint64_t credit_quality, bytes_per_sec;
        char erratum_status[192]; /* RNG_ERRATUM_STATUS of the last probe, escaped */
        uint64_t last_usec;      /* realtime of the last probe result */
        unsigned n_rates;        /* the last probe's runs (RNG_RUN_FAILURE_RATES) */
        ReportRate rates[REPORT_RATES_MAX];
} ReportInstruction;

typedef struct ReportBoot {
        sd_id128_t machine_id;          /* _MACHINE_ID of its entries; null if absent */
        char hostname[96];              /* _HOSTNAME of its last entry, escaped; "" if absent */
        ReportCpu cpu;                  /* of its last probe result with them */
        sd_id128_t boot_id;
        uint64_t first_usec, last_usec; /* realtime of the first and last event */
        char boot_verdict[16];          /* "" if the daemon's boot verdict is not in the journal */
        char verdict[16];               /* the last verdict (boot or changed) */
        char cvm[16];
        char fail_on[64];
        unsigned probes, verdict_changes, output_check_failures, config_errors, policy_failures;
        int exit_status;                /* of a policy failure, -1 if none */
        /* the kernel watch's events: exhausted, failed, disabled, defective */
        unsigned kernel_events[_KERNEL_RNG_MSG_MAX]; /* per KernelRngMsgKind */
        uint64_t kernel_failures;       /* sum of RNG_COUNT of exhausted/failed events */
        uint64_t kernel_own_failures;   /* of those, during rng-health's own probe (RNG_OWN_PROBE=1) */
        /* Routine failures (RNG_ROUTINE=1: of a source the kernel falls
         * back from): their count, and the count and time of the records
         * that carry an interval, for a rate. */
        uint64_t routine_failures, routine_rated, routine_interval_usec;
        /* This boot's CRNG (the boot verdict, or the CRNG-ready event):
         * ready "yes"/"no" ("": not said), when, what made it ready; the
         * virtual machine forks the kernel watch recorded (the highest
         * RNG_COUNT). */
        char crng_ready[4], crng_stage[16];
        uint64_t crng_init_usec;
        uint64_t vm_forks;
        ReportInstruction instr[_RNG_SOURCE_MAX];
} ReportBoot;

typedef struct Report {
        size_t n_boots, boots_allocated;
        ReportBoot *boots; /* in the order first seen; boots_allocated of room */
        size_t *index, index_size;      /* boots by boot ID (open addressing), for many machines */
        bool by_machine;                /* read from a directory or files: print grouped by machine */
        unsigned malformed;             /* entries refused for a bad field */
        unsigned foreign;               /* entries from other senders, ignored (journal-sender.h) */
        char first_malformed_field[32]; /* the first one's field */
} Report;

/* One journal entry of rng-health.service (report_read_journal() ignores,
 * and counts in foreign, every other sender's; journal-sender.h): its
 * boot, realtime and the fields (MESSAGE_ID, RNG_*); strings are kept
 * escaped (escape.h).
 * -EINVAL without a MESSAGE_ID; -EBADMSG, counted in r->malformed and not
 * used, if a numeric field is not an unsigned decimal within bounds, the
 * failures exceed the attempts, or the verdict is unknown. */
int report_add_entry(Report *r, sd_id128_t boot_id, uint64_t realtime_usec, const EventFields *f);
/* The same for an entry of machine machine_id (null: unknown) named
 * hostname (NULL: none; kept escaped), from a directory of forwarded
 * journals. */
int report_add_machine_entry(Report *r, sd_id128_t machine_id, const char *hostname, sd_id128_t boot_id,
                             uint64_t realtime_usec, const EventFields *f);
void report_done(Report *r);

/* RNG_RUN_FAILURE_RATES as the daemon writes it: "WIDTH/MODE/THREADS[@PACKAGE]=RATIO"
 * separated by one space, at most REPORT_RATES_MAX, WIDTH a width of the
 * table, MODE single or contention (single: 1 thread, no package),
 * THREADS 1..1024, PACKAGE 0..2147483647, RATIO a decimal in [0, 1].
 * -EBADMSG for anything else; ret may be NULL (validation only). */
int report_parse_rates(const char *s, ReportRate *ret, unsigned *ret_n);

typedef struct ReportFilter {
        /* Where from: this machine's system journal (both NULL), a
         * directory of journal files (-D, e.g. systemd-journal-remote's
         * /var/log/journal/remote), or journal files (--file). */
        const char *directory;
        char **files;
        size_t n_files;
        bool boot;            /* only one boot */
        bool boot_is_id;
        sd_id128_t boot_id;
        int boot_offset;      /* 0: the current boot, -1: the one before, ... */
        uint64_t since_usec;  /* realtime; 0: no limit */
} ReportFilter;

/* -ENOMEDIUM: there are no journal files (in the directory given, or this
 * machine's); -ENOENT: the directory or a file given does not exist;
 * -EACCES: this user may read none of them (the system journal's:
 * journal-files.h); -ENOTDIR: the directory is not one; -EISDIR, -EBADFD:
 * a file given is not a regular file; -EBADMSG: it is not a journal file;
 * -ENXIO: --boot found no such boot with events; -EINVAL: a --boot offset
 * with a directory or files; another -errno from sd-journal. *ret_path
 * (may be NULL) names the directory or file an error is about, NULL for
 * this machine's journal. */
int report_read_journal(const ReportFilter *filter, Report *ret, const char **ret_path);

/* A block per boot; grouped by machine (machine ID and hostname) where
 * r->by_machine. */
void report_print(const Report *r, sd_id128_t current_boot, FILE *f);
int report_to_json(const Report *r, sd_id128_t current_boot, struct json_object **ret);
