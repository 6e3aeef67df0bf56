/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* `rng-health report`: argument parsing and output. */

#include <stdint.h>
#include <stdio.h>

#include "report.h"

typedef struct ReportArgs {
        ReportFilter filter;
        bool json;
        bool help;
        bool fleet;
        const char *svg;   /* --svg FILE (with --fleet) */
} ReportArgs;

/* Frees what report_parse_args() allocated (the --file list). */
void report_args_done(ReportArgs *a);

/* "2026-12-03 06:00:00", "2026-12-03", "today", "yesterday", "-6h",
 * "-30min", "-2d" (relative to now_usec). Realtime microseconds. */
int parse_since(const char *s, uint64_t now_usec, uint64_t *ret);
/* argv[0] is "report". -EINVAL after printing one line. */
int report_parse_args(int argc, char *argv[], ReportArgs *ret);
void report_help(FILE *f);
int verb_report(int argc, char *argv[]);
