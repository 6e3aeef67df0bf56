/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stdio.h>

#include "probe.h"

/* Exit codes of `rng-health probe` (documented in --help); its worst
 * verdict gives the others: verdict_exit_code(). */
enum {
        EXIT_PROBE_OK = 0,        /* ok, degraded, hidden or unsupported */
        EXIT_PROBE_ERROR = 1,     /* runtime error */
        EXIT_PROBE_USAGE = 2,     /* bad arguments */
};

typedef struct ProbeArgs {
        ProbeParams params;
        bool json;
        bool help;
        bool sweep;
        const char *svg;  /* --svg FILE (with --sweep) */
} ProbeArgs;

/* Parse `probe` arguments (argv[0] is "probe"). On error prints one line
 * naming the argument and returns -EINVAL. */
int probe_parse_args(int argc, char *argv[], ProbeArgs *ret);
void probe_help(FILE *f);
/* Returns the exit code. */
int verb_probe(int argc, char *argv[]);
