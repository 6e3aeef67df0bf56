/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdbool.h>
#include <stdio.h>

#include "probe.h"

typedef struct ProbeArgs {
        ProbeParams params;
        bool json;
        bool help;
        bool sweep;
} ProbeArgs;

/* Parse `probe` arguments (argv[0] is "probe"). On error prints one line
 * naming the argument and returns -EINVAL. */
int probe_parse_args(int argc, char *argv[], ProbeArgs *ret);
void probe_help(FILE *f);
/* Returns the exit code. */
int verb_probe(int argc, char *argv[]);
