/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <string.h>

#include "cli-monitor.h"
#include "cli-util.h"
#include "log.h"
#include "macro.h"
#include "monitor.h"

void monitor_help(FILE *f) {
        char names[256];

        fprintf(f,
                "Usage: rng-health monitor [OPTIONS]\n"
                "\n"
                "Run as the daemon of rng-health.service: probe %s at start,\n"
                "report to the journal and to the service manager (STATUS=), re-probe\n"
                "periodically and on SIGHUP (reload), exit with failure on FailOn=.\n"
                "Configuration: rng-health.conf(5).\n"
                "\n"
                "Options:\n"
                "  --root DIR   Read the configuration (and /proc/cpuinfo and /sys for the\n"
                "               confidential VM detection) below DIR (for tests)\n"
                "  -h --help    Show this help\n"
                "\n"
                "Exit status:\n"
                "  0   stopped by SIGTERM or SIGINT\n"
                "  1   runtime error\n"
                "  2   usage error\n"
                "  3   FailOn= matched, verdict exhausted\n"
                "  4   FailOn= matched, verdict broken\n"
                "  5   FailOn= matched, verdict degraded\n"
                "  6   FailOn= matched, verdict unsupported\n"
                "  7   FailOn= matched, verdict ok (FailOn=ok: a drill of the failure path)\n"
                "  8   FailOn= matched, verdict hidden\n"
                "  9   FailOn= matched, verdict host-fed\n"
                "  78  bad configuration at start (file:line and key in the journal)\n",
                rng_source_names_join(RNG_SOURCES_ALL, true, "", "/", "/", names, sizeof(names)));
}

int monitor_parse_args(int argc, char *argv[], MonitorArgs *ret) {
        enum { ARG_ROOT = 0x100 };
        static const struct option options[] = {
                { "root", required_argument, NULL, ARG_ROOT },
                { "help", no_argument, NULL, 'h' },
                {},
        };
        int c;

        *ret = (MonitorArgs) {};
        optind = 0;
        opterr = 0;
        while ((c = getopt_long(argc, argv, ":h", options, NULL)) >= 0)
                switch (c) {
                case 'h':
                        ret->help = true;
                        return 0;
                case ARG_ROOT:
                        /* "" would read the configuration of the real
                         * root while the caller meant another */
                        if (!optarg[0])
                                return cli_usage_error("rng-health monitor",
                                                       "--root: empty path (expected a directory)%s%s", NULL, NULL);
                        ret->root = optarg;
                        break;
                case ':':
                        return cli_usage_error("rng-health monitor", "%s: missing value%s", argv[optind - 1], NULL);
                default:
                        return cli_option_error("rng-health monitor", argc, argv, ":h");
                }
        if (optind < argc)
                return cli_usage_error("rng-health monitor", "%s: unexpected argument%s", argv[optind], NULL);
        return 0;
}

int verb_monitor(int argc, char *argv[]) {
        return verb_monitor_hooked(argc, argv, NULL);
}

int verb_monitor_hooked(int argc, char *argv[], const ProbeSourceHook *hook) {
        _cleanup_(manager_freep) Manager *m = NULL;
        MonitorArgs args;
        sigset_t mask;
        int r;

        if (monitor_parse_args(argc, argv, &args) < 0)
                return EXIT_MONITOR_USAGE;
        if (args.help) {
                monitor_help(stdout);
                return cli_flush(stdout) < 0 ? EXIT_MONITOR_ERROR : EXIT_MONITOR_OK;
        }

        /* Before any thread exists (the probe's contention threads inherit
         * the mask): sd-event takes these through a signalfd. */
        sigemptyset(&mask);
        sigaddset(&mask, SIGTERM);
        sigaddset(&mask, SIGINT);
        sigaddset(&mask, SIGHUP);
        if (sigprocmask(SIG_BLOCK, &mask, NULL) < 0) {
                log_error_errno(negative_errno(), "failed to block signals: %m");
                return EXIT_MONITOR_ERROR;
        }

        r = manager_new(args.root, hook, &m);
        if (r == -EINVAL)
                return EXIT_MONITOR_CONFIG;
        if (r < 0)
                return EXIT_MONITOR_ERROR;
        r = manager_start(m);
        if (r < 0)
                return EXIT_MONITOR_ERROR;
        return manager_run(m);
}
