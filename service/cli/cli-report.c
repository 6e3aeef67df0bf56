/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <getopt.h>
#include <string.h>
#include <time.h>

#include "cli-report.h"
#include "cli-util.h"
#include "journal-files.h"
#include "log.h"
#include "macro.h"
#include "parse-util.h"
#include "probe-json.h"

/* Exit status of `rng-health report` (rng-health(8)): the two ways of
 * having no journal to read are sysexits.h's, distinct from every other
 * status of the program (a verdict's 3-8, monitor's 78). */
enum {
        EXIT_REPORT_OK = 0,              /* also when there are no events */
        EXIT_REPORT_ERROR = 1,           /* the journal could not be read, --boot found no boot */
        EXIT_REPORT_USAGE = 2,
        EXIT_REPORT_NO_JOURNAL = 66,     /* no journal files (EX_NOINPUT) */
        EXIT_REPORT_NO_PERMISSION = 77,  /* the journal's files are not readable by this user (EX_NOPERM) */
};

void report_help(FILE *f) {
        fprintf(f,
                "Usage: rng-health report [OPTIONS]\n"
                "\n"
                "Summarize rng-health's journal events, one block per boot: verdicts,\n"
                "failure rates, output-check failures, configuration and policy events.\n"
                "\n"
                "Options:\n"
                "  --json          Machine-readable output (schema rng-health.report/1)\n"
                "  -b --boot[=ID|OFFSET]\n"
                "                  Only one boot: the current one (no value or 0), a boot ID,\n"
                "                  or -N: the Nth boot with rng-health events before this one\n"
                "  -S --since=TIME Only events since TIME: \"2026-12-03 06:00:00\",\n"
                "                  \"2026-12-03\", today, yesterday, or -6h, -30min, -2d\n"
                "  -h --help       Show this help\n"
                "\n"
                "Exit status:\n"
                "  0   ok (also when there are no events)\n"
                "  1   the journal could not be read, or --boot found no such boot\n"
                "  2   usage error\n"
                "  66  no journal files (no systemd-journald, or none yet)\n"
                "  77  the journal's files are not readable by this user (root or the\n"
                "      systemd-journal group can read them)\n");
}

int parse_since(const char *s, uint64_t now_usec, uint64_t *ret) {
        static const char *const formats[] = { "%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d" };
        time_t now = (time_t) (now_usec / 1000000);
        struct tm tm;

        if (s[0] == '-') {
                size_t n = strlen(s);
                uint64_t v;

                /* A unit is required here: "-6h", "-30min", "-2d". */
                if (n < 3 || (s[n - 1] >= '0' && s[n - 1] <= '9') || parse_duration(s + 1, 1, UINT64_MAX, &v) < 0)
                        return -EINVAL;
                if (v > now_usec)
                        return -ERANGE;
                *ret = now_usec - v;
                return 0;
        }
        if (strcmp(s, "today") == 0 || strcmp(s, "yesterday") == 0) {
                if (!localtime_r(&now, &tm))
                        return -EINVAL;
                tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
                if (s[0] == 'y')
                        tm.tm_mday--;
                tm.tm_isdst = -1;
                *ret = (uint64_t) mktime(&tm) * 1000000u;
                return 0;
        }
        for (size_t i = 0; i < ELEMENTSOF(formats); i++) {
                const char *end;

                memset(&tm, 0, sizeof(tm));
                end = strptime(s, formats[i], &tm);
                if (end && *end == '\0') {
                        struct tm want = tm;
                        time_t t;

                        tm.tm_isdst = -1;
                        t = mktime(&tm);
                        if (t < 0)
                                return -ERANGE;
                        /* mktime() normalizes: 2026-02-30 would be March 2,
                         * 25:00 the next day, a time in a DST gap another
                         * hour. Only a time that exists is taken. */
                        if (tm.tm_year != want.tm_year || tm.tm_mon != want.tm_mon || tm.tm_mday != want.tm_mday ||
                            tm.tm_hour != want.tm_hour || tm.tm_min != want.tm_min || tm.tm_sec != want.tm_sec)
                                return -EINVAL;
                        *ret = (uint64_t) t * 1000000u;
                        return 0;
                }
        }
        return -EINVAL;
}

/* a is shown escaped (cli-util.h). */
static int usage(const char *fmt, const char *a) {
        return cli_usage_error("rng-health report", fmt, a, NULL);
}

static int parse_boot(const char *s, ReportFilter *f) {
        uint64_t u;

        f->boot = true;
        if (!s || strcmp(s, "0") == 0) {
                f->boot_offset = 0;
                return 0;
        }
        if (s[0] == '-' && parse_u64(s + 1, &u) == 0 && u > 0 && u < 100000) {
                f->boot_offset = -(int) u;
                return 0;
        }
        if (sd_id128_from_string(s, &f->boot_id) >= 0) {
                f->boot_is_id = true;
                return 0;
        }
        return usage("--boot: invalid value '%s' (expected a boot ID, 0 or -N)", s);
}

int report_parse_args(int argc, char *argv[], ReportArgs *ret) {
        enum { ARG_JSON = 0x100 };
        static const struct option options[] = {
                { "json", no_argument, NULL, ARG_JSON },
                { "boot", optional_argument, NULL, 'b' },
                { "since", required_argument, NULL, 'S' },
                { "help", no_argument, NULL, 'h' },
                {},
        };
        struct timespec ts;
        int c;

        *ret = (ReportArgs) {};
        clock_gettime(CLOCK_REALTIME, &ts);
        optind = 0;
        opterr = 0;
        while ((c = getopt_long(argc, argv, ":hb::S:", options, NULL)) >= 0)
                switch (c) {
                case 'h':
                        ret->help = true;
                        break;
                case ARG_JSON:
                        ret->json = true;
                        break;
                case 'b':
                        /* "--boot -1" as well as "--boot=-1" */
                        if (!optarg && optind < argc && argv[optind][0] == '-' && argv[optind][1] >= '0' &&
                            argv[optind][1] <= '9')
                                optarg = argv[optind++];
                        else if (!optarg && optind < argc && argv[optind][0] != '-')
                                optarg = argv[optind++];
                        if (parse_boot(optarg, &ret->filter) < 0)
                                return -EINVAL;
                        break;
                case 'S':
                        if (parse_since(optarg, (uint64_t) ts.tv_sec * 1000000u + (uint64_t) ts.tv_nsec / 1000u,
                                        &ret->filter.since_usec) < 0)
                                return usage("--since: invalid time '%s' (expected e.g. \"2026-12-03 06:00:00\", today, -6h)",
                                             optarg);
                        break;
                case ':':
                        return usage("%s: missing value", argv[optind - 1]);
                default:
                        return cli_option_error("rng-health report", argc, argv, ":hb::S:");
                }
        if (optind < argc)
                return usage("%s: unexpected argument", argv[optind]);
        return 0;
}

int verb_report(int argc, char *argv[]) {
        _cleanup_json_ struct json_object *j = NULL;
        sd_id128_t current = {};
        ReportArgs args;
        Report report;
        int r;

        if (report_parse_args(argc, argv, &args) < 0)
                return EXIT_REPORT_USAGE;
        if (args.help) {
                report_help(stdout);
                return cli_flush(stdout) < 0 ? EXIT_REPORT_ERROR : EXIT_REPORT_OK;
        }
        (void) sd_id128_get_boot(&current);

        r = report_read_journal(&args.filter, &report);
        if (r == -ENXIO) {
                fprintf(stderr, "rng-health report: --boot: no such boot with rng-health events\n");
                return EXIT_REPORT_ERROR;
        }
        /* Not "no events": there is nothing this user could read. */
        if (r == -ENOMEDIUM) {
                fprintf(stderr, "rng-health report: %s\n", JOURNAL_FILES_NONE);
                return EXIT_REPORT_NO_JOURNAL;
        }
        if (r == -EACCES) {
                fprintf(stderr, "rng-health report: %s\n", JOURNAL_FILES_DENIED);
                return EXIT_REPORT_NO_PERMISSION;
        }
        if (r < 0) {
                log_error_errno(r, "failed to read the journal: %m");
                return EXIT_REPORT_ERROR;
        }

        /* Said, never silently dropped: entries with a bad field. */
        if (report.malformed > 0)
                fprintf(stderr, "rng-health report: skipped %u journal entr%s with a malformed field (first: %s)\n",
                        report.malformed, report.malformed == 1 ? "y" : "ies", report.first_malformed_field);
        if (args.json) {
                r = report_to_json(&report, current, &j);
                if (r >= 0)
                        puts(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
        } else
                report_print(&report, current, stdout);
        report_done(&report);
        if (r < 0) {
                log_error_errno(r, "failed to build JSON: %m");
                return EXIT_REPORT_ERROR;
        }
        if (cli_flush(stdout) < 0)
                return EXIT_REPORT_ERROR;
        return EXIT_REPORT_OK;
}
