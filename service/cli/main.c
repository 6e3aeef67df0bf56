/* SPDX-License-Identifier: GPL-2.0-or-later */

/* rng-health: dispatches verbs. */

#include <stdio.h>
#include <string.h>

#include "cli-monitor.h"
#include "cli-probe.h"
#include "cli-report.h"
#include "cli-util.h"
#include "sources.h"

#ifndef PROJECT_VERSION
#define PROJECT_VERSION "unknown"
#endif

static void help(FILE *f) {
        char names[256];

        fprintf(f,
                "Usage: rng-health COMMAND [OPTIONS]\n"
                "\n"
                "Health of the CPU's hardware random number generator (%s).\n"
                "\n"
                "Commands:\n"
                "  probe        Measure exhaustion and output sanity (see 'rng-health probe --help')\n"
                "  monitor      Run as the daemon of rng-health.service (see 'rng-health monitor --help')\n"
                "  report       Summarize this and earlier boots from the journal (see 'rng-health report --help')\n"
                "\n"
                "Options:\n"
                "  -h --help    Show this help\n"
                "  --version    Show the version\n"
                "\n"
                "Exit status: 0 ok, 1 runtime error, 2 usage error, 3 exhausted, 4 broken;\n"
                "monitor and report document theirs in their --help and in rng-health(8).\n",
                rng_source_names_join(RNG_SOURCES_ALL, true, "", "/", "/", names, sizeof(names)));
}

int main(int argc, char *argv[]) {
        if (argc < 2) {
                fprintf(stderr, "rng-health: missing command (try --help)\n");
                return 2;
        }
        /* Output that cannot be written (> /dev/full) is a runtime error. */
        if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
                help(stdout);
                return cli_flush(stdout) < 0 ? 1 : 0;
        }
        if (strcmp(argv[1], "--version") == 0) {
                printf("rng-health %s\n", PROJECT_VERSION);
                return cli_flush(stdout) < 0 ? 1 : 0;
        }
        if (strcmp(argv[1], "probe") == 0)
                return verb_probe(argc - 1, argv + 1);
        if (strcmp(argv[1], "monitor") == 0)
                return verb_monitor(argc - 1, argv + 1);
        if (strcmp(argv[1], "report") == 0)
                return verb_report(argc - 1, argv + 1);

        /* "--frob" is no command that was mistyped, but an option. */
        (void) cli_usage_error("rng-health",
                               argv[1][0] == '-' ? "%s: unknown option (try --help)%s"
                                                 : "%s: unknown command (try --help)%s",
                               argv[1], NULL);
        return 2;
}
