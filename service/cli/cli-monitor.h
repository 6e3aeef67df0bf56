/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* `rng-health monitor`: argument parsing and wiring of the daemon. */

#include <stdbool.h>
#include <stdio.h>

#include "probe-watch.h"

typedef struct MonitorArgs {
        const char *root; /* --root DIR, or NULL */
        bool help;
} MonitorArgs;

/* Parse `monitor` arguments (argv[0] is "monitor"); parses only, never
 * starts anything. On error prints one line naming the argument and
 * returns -EINVAL. -h/--help stops the parse (what follows is not read). */
int monitor_parse_args(int argc, char *argv[], MonitorArgs *ret);
void monitor_help(FILE *f);
/* Returns the exit status (EXIT_MONITOR_* in monitor.h). */
int verb_monitor(int argc, char *argv[]);
/* The same with scripted sources instead of the hardware: for a test
 * program only (rng-health-shaped). */
int verb_monitor_hooked(int argc, char *argv[], const ProbeSourceHook *hook);
