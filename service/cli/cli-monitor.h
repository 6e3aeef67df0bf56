/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* `rng-health monitor`: argument parsing and wiring of the daemon. */

#include <stdio.h>

void monitor_help(FILE *f);
/* Returns the exit status (EXIT_MONITOR_* in monitor.h). */
int verb_monitor(int argc, char *argv[]);
