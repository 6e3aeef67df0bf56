/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* rng-health.conf(5): the main file, then drop-ins (conf-files.h), each
 * line screened (conf-line.h) and parsed with inih; each key is an entry
 * of one table {section, key, parser, field, bounds} (config.c).
 * Later assignments override earlier ones; list keys (Instructions=,
 * Widths=, FailOn=) append, and an empty assignment resets them to the
 * default; FailOn=none (alone) empties the list. Unknown sections (also
 * one without keys) and keys are errors. */

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "conf-files.h"
#include "fail-on.h"
#include "probe.h"

typedef enum ConfidentialVmSetting {
        CVM_SETTING_AUTO,
        CVM_SETTING_YES,
        CVM_SETTING_NO,
        _CVM_SETTING_MAX,
} ConfidentialVmSetting;

#define CONFIG_REPROBE_DEFAULT_USEC (6ull * 3600 * 1000000)
/* The probe runs on the event loop, which pings the watchdog only between
 * events: every accepted budget keeps the worst-case probe well inside the
 * unit's WatchdogSec=3min. A run ends when its budget is spent and
 * MinAttempts= tries were made, so with 12 runs (2 instructions x 3 widths x
 * single + contention; the contention threads run in parallel) it takes at
 * most 12 x max(BudgetSec=, MinAttempts= x one try): 12 x 1 s = 12 s, as
 * long as a try takes under 15 us (measured: ~0.4 us on hardware, under
 * TCG a few us). MaxAttempts= only shortens a run. */
#define PROBE_BUDGET_USEC_MAX (1ull * 1000000)
#define PROBE_MIN_ATTEMPTS_MAX (1ull << 16)

/* Debian's prometheus-node-exporter textfile directory */
#define CONFIG_METRICS_PATH_DEFAULT "/var/lib/prometheus/node-exporter/rng-health.prom"

typedef struct Config {
        ProbeParams probe;       /* instructions, widths, threads, limits, verdict thresholds */
        bool instructions_set;   /* Instructions= given: the next one adds (an empty one resets) */
        bool widths_set;         /* Widths= likewise */
        uint64_t reprobe_usec;   /* ReprobeIntervalSec=, 0: off */
        bool routine_set;        /* KernelRoutineIntervalSec= given */
        uint64_t routine_usec;   /* KernelRoutineIntervalSec=, 0: record each at once */
        bool fail_on_set;        /* FailOn= given (else the default applies) */
        FailOn fail_on;          /* per source */
        ConfidentialVmSetting confidential_vm;
        char metrics_path[PATH_MAX]; /* [Metrics] Path=, "": off */
} Config;

typedef struct ConfigError {
        char file[PATH_MAX];
        unsigned line;          /* 0: the file as a whole */
        char key[64];           /* "Section.Key", or "" */
        char message[256];
} ConfigError;

void config_default(Config *ret);

/* root: NULL or "/" for the real system, else a directory prefix (tests).
 * Returns 0; -EINVAL for a bad configuration, -errno if a file cannot be
 * read; in both cases err names the file (and line and key). On error
 * *ret is left untouched. */
int config_load(const char *root, Config *ret, ConfigError *err);


/* FailOn= in effect: the configured set, else fail_on_cvm_default() (the
 * source table's: broken, and exhausted where it is not routine) on a
 * confidential VM and nothing elsewhere. */
FailOn config_fail_on(const Config *c, bool cvm);

/* The kernel watch records routine failures (those the kernel falls back
 * from: verdict_severity()) at most once per this:
 * KernelRoutineIntervalSec= if given (0: each at once), else the re-probe
 * interval, else (re-probing off) 6 h. */
uint64_t config_routine_usec(const Config *c);

/* "file:line: Section.Key: message" */
void config_error_format(const ConfigError *e, char *buf, size_t len);
