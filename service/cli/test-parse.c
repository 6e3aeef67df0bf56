/* SPDX-License-Identifier: GPL-2.0-or-later */

/* rng-health probe's argument parser. */

#include <stdarg.h>
#include <string.h>
#include <time.h>

#include "cli-monitor.h"
#include "cli-probe.h"
#include "cli-report.h"
#include "macro.h"
#include "parse-util.h"
#include "test-util.h"

static int parse(ProbeArgs *a, ...) {
        char *argv[16];
        int argc = 0;
        va_list ap;

        argv[argc++] = (char *) "probe";
        va_start(ap, a);
        for (char *s; (s = va_arg(ap, char *)) && argc < 15;)
                argv[argc++] = s;
        va_end(ap);
        argv[argc] = NULL;
        return probe_parse_args(argc, argv, a);
}

static void test_args(void) {
        ProbeLimits def = PROBE_LIMITS_DEFAULT;
        ProbeArgs a;

        CHECK_EQ_INT(parse(&a, NULL), 0);
        CHECK(a.params.instructions == RNG_SOURCES_ALL && a.params.widths == 7 && a.params.threads == 0 && !a.json, "defaults");
        CHECK(a.params.limits.budget_usec == def.budget_usec && a.params.limits.max_attempts == def.max_attempts, "limits");

        CHECK_EQ_INT(parse(&a, "--instruction", "rdseed", "--width", "32", "--threads", "2", "--json", NULL), 0);
        CHECK(a.params.instructions == 1u << RNG_SOURCE_RDSEED && a.params.widths == 1u << 1 && a.params.threads == 2 && a.json,
              "explicit");
        CHECK_EQ_INT(parse(&a, "--instruction=all", "--width=all", "--threads=all", NULL), 0);
        CHECK(a.params.instructions == RNG_SOURCES_ALL && a.params.widths == 7 && a.params.threads == 0, "all");

        /* --duration alone lifts the draw cap, --count alone the time budget. */
        CHECK_EQ_INT(parse(&a, "--duration", "3s", NULL), 0);
        CHECK(a.params.limits.budget_usec == 3000000 && a.params.limits.max_attempts == 0, "duration");
        CHECK_EQ_INT(parse(&a, "--count", "100000", NULL), 0);
        CHECK(a.params.limits.budget_usec == 0 && a.params.limits.max_attempts == 100000, "count");
        CHECK_EQ_INT(parse(&a, "--count", "10", "--duration", "1s", NULL), 0);
        CHECK(a.params.limits.budget_usec == 1000000 && a.params.limits.max_attempts == 10, "both");

        CHECK_EQ_INT(parse(&a, "--help", NULL), 0);
        CHECK(a.help, "help");

        /* The list options add, as Instructions= and Widths= do; the
         * others are given once (the last one won, silently). */
        CHECK_EQ_INT(parse(&a, "--width", "16", "--width", "64", NULL), 0);
        CHECK_EQ_INT(a.params.widths, (1u << 0) | (1u << 2));
        CHECK_EQ_INT(parse(&a, "--width", "32", "--width", "all", NULL), 0);
        CHECK_EQ_INT(a.params.widths, 7);
        CHECK_EQ_INT(parse(&a, "--instruction", "rdrand", "--instruction", "rdseed", NULL), 0);
        CHECK_EQ_INT(a.params.instructions, 3);
        CHECK_EQ_INT(parse(&a, "--instruction", "rdseed", "--instruction", "rdseed", NULL), 0);
        CHECK_EQ_INT(a.params.instructions, 1u << RNG_SOURCE_RDSEED);
        CHECK(parse(&a, "--count", "1", "--count", "2", NULL) == -EINVAL, "--count twice");
        CHECK(parse(&a, "--threads", "1", "--threads", "all", NULL) == -EINVAL, "--threads twice");
        CHECK(parse(&a, "--duration", "1s", "--duration", "2s", NULL) == -EINVAL, "--duration twice");
        CHECK(parse(&a, "--kernel-retries", "1", "--kernel-retries", "1", NULL) == -EINVAL, "--kernel-retries twice");
        /* the bound of Threads= (CPU_SETSIZE) */
        CHECK_EQ_INT(parse(&a, "--threads", "1024", NULL), 0);
        CHECK(parse(&a, "--threads", "1025", NULL) == -EINVAL, "threads 1025");

        /* Bad arguments. */
        CHECK(parse(&a, "--instruction", "rdtsc", NULL) == -EINVAL, "instruction");
        CHECK(parse(&a, "--width", "8", NULL) == -EINVAL, "width 8");
        CHECK(parse(&a, "--width", "320", NULL) == -EINVAL, "width 320");
        CHECK(parse(&a, "--width", "", NULL) == -EINVAL, "width empty");
        CHECK(parse(&a, "--threads", "0", NULL) == -EINVAL, "threads 0");
        CHECK(parse(&a, "--threads", "-2", NULL) == -EINVAL, "threads -2");
        CHECK(parse(&a, "--threads", "99999", NULL) == -EINVAL, "threads 99999");
        CHECK(parse(&a, "--duration", "soon", NULL) == -EINVAL, "duration");
        CHECK(parse(&a, "--count", "0", NULL) == -EINVAL, "count 0");
        CHECK(parse(&a, "--count", "1e6", NULL) == -EINVAL, "count 1e6");
        /* bounded: past 2^32 is refused, not wrapped */
        CHECK(parse(&a, "--count", "18446744073709551615", NULL) == -EINVAL, "count 2^64-1");
        CHECK(parse(&a, "--count", "4294967297", NULL) == -EINVAL, "count 2^32+1");
        CHECK_EQ_INT(parse(&a, "--count", "4294967296", NULL), 0);
        CHECK(parse(&a, "--width", NULL) == -EINVAL, "missing value");
        CHECK(parse(&a, "--bogus", NULL) == -EINVAL, "unknown option");
        CHECK(parse(&a, "-x", NULL) == -EINVAL, "unknown short option");
        CHECK(parse(&a, "extra", NULL) == -EINVAL, "positional");
}

/* A date that does not exist is refused, not moved. */
static void test_since(void) {
        uint64_t now = UINT64_C(1796000000) * 1000000, t;

        setenv("TZ", "UTC", 1);
        tzset();
        CHECK_EQ_INT(parse_since("2026-02-28", now, &t), 0);
        CHECK_EQ_U64(t, UINT64_C(1772236800) * 1000000);
        CHECK_EQ_INT(parse_since("2026-02-28 23:59:59", now, &t), 0);
        CHECK(parse_since("2026-02-30", now, &t) < 0, "2026-02-30 taken");
        CHECK(parse_since("2026-02-29", now, &t) < 0, "2026-02-29 taken (not a leap year)");
        CHECK_EQ_INT(parse_since("2028-02-29", now, &t), 0);
        CHECK(parse_since("2026-04-31 10:00", now, &t) < 0, "April 31 taken");
        CHECK(parse_since("2026-01-01 24:00:00", now, &t) < 0, "24:00 taken");
        CHECK(parse_since("2026-01-01 10:60", now, &t) < 0, "10:60 taken");
        CHECK(parse_since("2026-13-01", now, &t) < 0, "month 13 taken");
        CHECK(parse_since("2026-02-28x", now, &t) < 0, "junk taken");
        CHECK_EQ_INT(parse_since("-6h", now, &t), 0);
        CHECK_EQ_U64(t, now - UINT64_C(6) * 3600 * 1000000);
        CHECK(parse_since("-6", now, &t) < 0, "-6 without a unit taken");
}

/* `monitor`'s parse-only entry point (what fuzz-cli runs). */
static void test_monitor_args(void) {
        char *help_first[] = { (char *) "monitor", (char *) "-h", (char *) "--bogus", NULL };
        char *root[] = { (char *) "monitor", (char *) "--root", (char *) "/tmp/x", NULL };
        char *root_eq[] = { (char *) "monitor", (char *) "--root=/srv", NULL };
        char *missing[] = { (char *) "monitor", (char *) "--root", NULL };
        char *unknown[] = { (char *) "monitor", (char *) "--bogus", NULL };
        char *extra[] = { (char *) "monitor", (char *) "extra", NULL };
        char *none[] = { (char *) "monitor", NULL };
        char *empty_root[] = { (char *) "monitor", (char *) "--root", (char *) "", NULL };
        char *empty_root_eq[] = { (char *) "monitor", (char *) "--root=", NULL };
        MonitorArgs a;

        CHECK_EQ_INT(monitor_parse_args(1, none, &a), 0);
        CHECK(!a.root && !a.help, "no arguments: no root, no help");
        CHECK_EQ_INT(monitor_parse_args(3, root, &a), 0);
        CHECK(a.root && strcmp(a.root, "/tmp/x") == 0 && !a.help, "--root DIR");
        CHECK_EQ_INT(monitor_parse_args(2, root_eq, &a), 0);
        CHECK(a.root && strcmp(a.root, "/srv") == 0, "--root=DIR");
        /* -h stops the parse, as before the split: help, not a usage error. */
        CHECK_EQ_INT(monitor_parse_args(3, help_first, &a), 0);
        CHECK(a.help, "-h");
        CHECK_EQ_INT(monitor_parse_args(2, missing, &a), -EINVAL);
        CHECK_EQ_INT(monitor_parse_args(2, unknown, &a), -EINVAL);
        CHECK_EQ_INT(monitor_parse_args(2, extra, &a), -EINVAL);
        CHECK_EQ_INT(monitor_parse_args(3, empty_root, &a), -EINVAL);
        CHECK_EQ_INT(monitor_parse_args(2, empty_root_eq, &a), -EINVAL);
}

/* `report`'s sources and --fleet: what is taken, and the usage errors
 * (each said in one line; the file list freed by report_args_done(), which
 * ASan checks). */
static void test_report_args(void) {
        char *dir[] = { (char *) "report", (char *) "-D", (char *) "/var/log/journal/remote", (char *) "--fleet",
                        (char *) "--svg", (char *) "f.svg", (char *) "--json", NULL };
        char *files[] = { (char *) "report", (char *) "--file", (char *) "a.journal", (char *) "--file=b.journal",
                          (char *) "--boot=0123456789abcdef0123456789abcdef", NULL };
        char *bad[][5] = {
                { (char *) "report", (char *) "-D", (char *) "x", (char *) "--file=y", NULL },
                { (char *) "report", (char *) "-D", (char *) "x", (char *) "--boot=-1", NULL },
                { (char *) "report", (char *) "--file=x", (char *) "--boot", NULL },
                { (char *) "report", (char *) "--svg", (char *) "f.svg", NULL },
                { (char *) "report", (char *) "-D", (char *) "x", (char *) "-D", (char *) "y" },
                { (char *) "report", (char *) "--directory=", NULL },
                { (char *) "report", (char *) "--file=", NULL },
                { (char *) "report", (char *) "--fleet", (char *) "--svg=", NULL },
                { (char *) "report", (char *) "--fleet", (char *) "--svg=a", (char *) "--svg=b", NULL },
        };
        ReportArgs a;

        CHECK_EQ_INT(report_parse_args(7, dir, &a), 0);
        CHECK(a.filter.directory && strcmp(a.filter.directory, "/var/log/journal/remote") == 0 && a.fleet && a.json &&
              a.svg && strcmp(a.svg, "f.svg") == 0 && a.filter.n_files == 0, "-D DIR --fleet --svg --json");
        report_args_done(&a);
        CHECK_EQ_INT(report_parse_args(5, files, &a), 0);
        CHECK(a.filter.n_files == 2 && strcmp(a.filter.files[0], "a.journal") == 0 &&
              strcmp(a.filter.files[1], "b.journal") == 0 && !a.filter.files[2] && a.filter.boot_is_id,
              "--file twice, --boot=ID");
        report_args_done(&a);
        CHECK(!a.filter.files && a.filter.n_files == 0, "report_args_done() left the list");
        for (size_t k = 0; k < ELEMENTSOF(bad); k++) {
                int n = 0;
                TestStderr c;
                char err[512];

                while (n < 5 && bad[k][n])
                        n++;
                c = test_stderr_begin();
                CHECK(report_parse_args(n, bad[k], &a) == -EINVAL, "case %zu taken", k);
                test_stderr_end(&c, err, sizeof(err));
                CHECK(strncmp(err, "rng-health report: ", 19) == 0 && strchr(err, '\n') == err + strlen(err) - 1,
                      "case %zu: not one line: '%s'", k, err);
        }
}

int main(void) {
        test_args();
        test_monitor_args();
        test_report_args();
        test_since();
        return test_result("test-parse");
}
