/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stdio.h>

#include "fail-on.h"
#include "probe.h"
#include "probe-watch.h"

/* Exit codes of `rng-health probe` (documented in --help); its verdicts
 * give the others: probe_report_exit_status(). */
enum {
        EXIT_PROBE_OK = 0,        /* no verdict that weighs err (or, --fail-on: none it matches) */
        EXIT_PROBE_ERROR = 1,     /* runtime error */
        EXIT_PROBE_USAGE = 2,     /* bad arguments */
};

typedef struct ProbeArgs {
        ProbeParams params;
        bool json;
        bool help;
        bool sweep;
        const char *svg;  /* --svg FILE (with --sweep) */
        bool fail_on_given; /* --fail-on: the exit status by fail_on, not by weight */
        FailOn fail_on;
} ProbeArgs;

/* Parse `probe` arguments (argv[0] is "probe"). On error prints one line
 * naming the argument and returns -EINVAL. */
int probe_parse_args(int argc, char *argv[], ProbeArgs *ret);
void probe_help(FILE *f);
/* Returns the exit code. */
int verb_probe(int argc, char *argv[]);
/* The same on hook's sources and kernel view (tests: rng-health-shaped);
 * hook NULL: the hardware's. */
int verb_probe_hooked(int argc, char *argv[], const ProbeSourceHook *hook);
