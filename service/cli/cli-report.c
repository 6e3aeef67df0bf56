/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli-report.h"
#include "cli-util.h"
#include "fileio.h"
#include "journal-files.h"
#include "log.h"
#include "macro.h"
#include "parse-util.h"
#include "plot-svg.h"
#include "probe-json.h"
#include "report-fleet.h"

/* Exit status of `rng-health report` (rng-health(8)): the ways of having
 * no journal to read, or one that is not what it must be, are sysexits.h's,
 * distinct from every other status of the program (a verdict's 3-8,
 * monitor's 78). */
enum {
        EXIT_REPORT_OK = 0,              /* also when there are no events */
        EXIT_REPORT_ERROR = 1,           /* the journal could not be read, --boot found no boot */
        EXIT_REPORT_USAGE = 2,
        EXIT_REPORT_DATAERR = 65,        /* -D of a non-directory, --file of a non-journal (EX_DATAERR) */
        EXIT_REPORT_NO_JOURNAL = 66,     /* no journal files (EX_NOINPUT) */
        EXIT_REPORT_NO_PERMISSION = 77,  /* the journal's files are not readable by this user (EX_NOPERM) */
};

void report_help(FILE *f) {
        fprintf(f,
                "Usage: rng-health report [OPTIONS]\n"
                "\n"
                "Summarize rng-health's journal events, one block per boot: verdicts,\n"
                "failure rates, output-check failures, configuration and policy events.\n"
                "With -D or --file (a central journal of forwarded events): one block per\n"
                "machine and boot. With --fleet: a line per machine, then machines counted\n"
                "by verdict and by CPU model and microcode.\n"
                "\n"
                "Options:\n"
                "  --json          Machine-readable output (schema rng-health.report/1;\n"
                "                  with --fleet rng-health.fleet/1)\n"
                "  -b --boot[=ID|OFFSET]\n"
                "                  Only one boot: the current one (no value or 0), a boot ID,\n"
                "                  or -N: the Nth boot with rng-health events before this one\n"
                "                  (with -D/--file: a boot ID only)\n"
                "  -S --since=TIME Only events since TIME: \"2026-12-03 06:00:00\",\n"
                "                  \"2026-12-03\", today, yesterday, or -6h, -30min, -2d\n"
                "  -D --directory=DIR\n"
                "                  Read the journal files in DIR (e.g. systemd-journal-remote's\n"
                "                  /var/log/journal/remote) instead of this machine's journal\n"
                "  --file=PATH     Read the journal file PATH (repeatable)\n"
                "  --fleet         A line per machine: its last verdict per source, CPU,\n"
                "                  microcode, kernel and last event; then the counts\n"
                "  --svg FILE      With --fleet: also draw the failed tries against the threads\n"
                "                  per CPU model and microcode as an SVG figure in FILE (only a\n"
                "                  regular file is replaced)\n"
                "  -h --help       Show this help\n"
                "\n"
                "Exit status:\n"
                "  0   ok (also when there are no events)\n"
                "  1   the journal could not be read, or --boot found no such boot\n"
                "  2   usage error\n"
                "  65  what -D names is no directory, or what --file names no journal file\n"
                "  66  no journal files (no systemd-journald, or none yet; -D/--file: none there)\n"
                "  73  the --svg FILE cannot be written\n"
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

void report_args_done(ReportArgs *a) {
        free(a->filter.files);
        a->filter.files = NULL;
        a->filter.n_files = 0;
}

static int add_file(ReportArgs *a, char *path) {
        char **f;

        /* sd_journal_open_files() wants the list NULL-terminated */
        f = realloc(a->filter.files, (a->filter.n_files + 2) * sizeof(char *));
        if (!f)
                return -ENOMEM;
        a->filter.files = f;
        f[a->filter.n_files++] = path;
        f[a->filter.n_files] = NULL;
        return 0;
}

int report_parse_args(int argc, char *argv[], ReportArgs *ret) {
        enum { ARG_JSON = 0x100, ARG_FILE, ARG_FLEET, ARG_SVG };
        static const struct option options[] = {
                { "json", no_argument, NULL, ARG_JSON },
                { "boot", optional_argument, NULL, 'b' },
                { "since", required_argument, NULL, 'S' },
                { "directory", required_argument, NULL, 'D' },
                { "file", required_argument, NULL, ARG_FILE },
                { "fleet", no_argument, NULL, ARG_FLEET },
                { "svg", required_argument, NULL, ARG_SVG },
                { "help", no_argument, NULL, 'h' },
                {},
        };
        struct timespec ts;
        int c;

        *ret = (ReportArgs) {};
        clock_gettime(CLOCK_REALTIME, &ts);
        optind = 0;
        opterr = 0;
        while ((c = getopt_long(argc, argv, ":hb::S:D:", options, NULL)) >= 0)
                switch (c) {
                case 'h':
                        ret->help = true;
                        break;
                case ARG_JSON:
                        ret->json = true;
                        break;
                case ARG_FLEET:
                        ret->fleet = true;
                        break;
                case 'b':
                        /* "--boot -1" as well as "--boot=-1" */
                        if (!optarg && optind < argc && argv[optind][0] == '-' && argv[optind][1] >= '0' &&
                            argv[optind][1] <= '9')
                                optarg = argv[optind++];
                        else if (!optarg && optind < argc && argv[optind][0] != '-')
                                optarg = argv[optind++];
                        if (parse_boot(optarg, &ret->filter) < 0)
                                return report_args_done(ret), -EINVAL;
                        break;
                case 'S':
                        if (parse_since(optarg, (uint64_t) ts.tv_sec * 1000000u + (uint64_t) ts.tv_nsec / 1000u,
                                        &ret->filter.since_usec) < 0)
                                return report_args_done(ret),
                                       usage("--since: invalid time '%s' (expected e.g. \"2026-12-03 06:00:00\", today, -6h)",
                                             optarg);
                        break;
                case 'D':
                        if (ret->filter.directory)
                                return report_args_done(ret), usage("--directory: given twice (it takes one value)%s", "");
                        if (!optarg[0])
                                return report_args_done(ret), usage("--directory: missing value%s", "");
                        ret->filter.directory = optarg;
                        break;
                case ARG_FILE:
                        if (!optarg[0])
                                return report_args_done(ret), usage("--file: missing value%s", "");
                        if (add_file(ret, optarg) < 0)
                                return report_args_done(ret), usage("--file: out of memory%s", "");
                        break;
                case ARG_SVG:
                        if (ret->svg)
                                return report_args_done(ret), usage("--svg: given twice (it takes one value)%s", "");
                        if (!optarg[0])
                                return report_args_done(ret), usage("--svg: missing value%s", "");
                        ret->svg = optarg;
                        break;
                case ':':
                        return report_args_done(ret), usage("%s: missing value", argv[optind - 1]);
                default:
                        return report_args_done(ret), cli_option_error("rng-health report", argc, argv, ":hb::S:D:");
                }
        if (optind < argc)
                return report_args_done(ret), usage("%s: unexpected argument", argv[optind]);
        if (ret->filter.directory && ret->filter.n_files > 0)
                return report_args_done(ret), usage("--directory and --file: one or the other%s", "");
        if ((ret->filter.directory || ret->filter.n_files > 0) && ret->filter.boot && !ret->filter.boot_is_id)
                return report_args_done(ret),
                       usage("--boot: a boot ID with --directory/--file (an offset counts from this machine's boot)%s", "");
        if (ret->svg && !ret->fleet)
                return report_args_done(ret), usage("--svg: only with --fleet (the figure is the fleet's)%s", "");
        return 0;
}

/* One line for an input that is not what it must be, and its exit status. */
static int input_error(int r, const char *path, const ReportFilter *filter) {
        const char *opt = !path ? NULL : filter->directory ? "--directory" : "--file";
        char fmt[256];

        if (!path) {
                if (r == -ENOMEDIUM) {
                        fprintf(stderr, "rng-health report: %s\n", JOURNAL_FILES_NONE);
                        return EXIT_REPORT_NO_JOURNAL;
                }
                fprintf(stderr, "rng-health report: %s\n", JOURNAL_FILES_DENIED);
                return EXIT_REPORT_NO_PERMISSION;
        }
        snprintf(fmt, sizeof(fmt), "%s: '%%s': %s", opt,
                 r == -ENOENT      ? "no such file or directory"
                 : r == -ENOMEDIUM ? "no journal files there"
                 : r == -EACCES    ? "not readable by this user"
                 : r == -ENOTDIR   ? "not a directory"
                 : r == -EBADMSG   ? "not a journal file"
                                   : input_error_to_string(r));
        (void) cli_usage_error("rng-health report", fmt, path, NULL);
        return r == -ENOENT || r == -ENOMEDIUM ? EXIT_REPORT_NO_JOURNAL
             : r == -EACCES                    ? EXIT_REPORT_NO_PERMISSION
                                               : EXIT_REPORT_DATAERR;
}

static int svg_error(const char *path, int r) {
        char fmt[256];

        snprintf(fmt, sizeof(fmt), "--svg: cannot write '%%s': %s", plot_path_error_to_string(r));
        (void) cli_usage_error("rng-health report", fmt, path, NULL);
        return EXIT_CANTCREAT;
}

/* --fleet: the table or JSON, and the figure. */
static int fleet_output(const ReportArgs *args, const Report *report) {
        _cleanup_(fleet_done) Fleet fleet = {};
        _cleanup_json_ struct json_object *j = NULL;
        int r;

        r = fleet_build(report, &fleet);
        if (r >= 0 && args->json) {
                r = fleet_to_json(&fleet, &j);
                if (r >= 0)
                        puts(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
        } else if (r >= 0)
                fleet_print(&fleet, stdout);
        if (r < 0) {
                log_error_errno(r, "failed to build the fleet: %m");
                return EXIT_REPORT_ERROR;
        }
        if (cli_flush(stdout) < 0)
                return EXIT_REPORT_ERROR;
        if (args->svg) {
                _cleanup_free_ PlotPanel *panels = calloc(PLOT_PANELS_MAX, sizeof(PlotPanel));
                char note[256];
                size_t n;

                if (!panels)
                        return svg_error(args->svg, -ENOMEM);
                n = fleet_panels(&fleet, panels, note, sizeof(note));
                if (n == 0) {
                        (void) cli_usage_error("rng-health report",
                                               "--svg: no probe result lists its runs, no figure written to '%s'",
                                               args->svg, NULL);
                        return EXIT_CANTCREAT;
                }
                r = plot_write(args->svg, "Failed tries vs. threads per CPU model and microcode (rng-health report --fleet)",
                               panels, n, note);
                if (r < 0)
                        return svg_error(args->svg, r);
        }
        return EXIT_REPORT_OK;
}

int verb_report(int argc, char *argv[]) {
        _cleanup_json_ struct json_object *j = NULL;
        sd_id128_t current = {};
        const char *path = NULL;
        ReportArgs args;
        Report report;
        int r, status;

        if (report_parse_args(argc, argv, &args) < 0)
                return EXIT_REPORT_USAGE;
        if (args.help) {
                report_help(stdout);
                report_args_done(&args);
                return cli_flush(stdout) < 0 ? EXIT_REPORT_ERROR : EXIT_REPORT_OK;
        }
        (void) sd_id128_get_boot(&current);
        /* Before reading: a FILE that cannot be written is said at once. */
        if (args.svg && (r = plot_check_path(args.svg)) < 0) {
                report_args_done(&args);
                return svg_error(args.svg, r);
        }

        r = report_read_journal(&args.filter, &report, &path);
        if (r == -ENXIO) {
                fprintf(stderr, "rng-health report: --boot: no such boot with rng-health events\n");
                report_args_done(&args);
                return EXIT_REPORT_ERROR;
        }
        /* Not "no events": there is nothing this user could read, or not a journal. */
        if (r == -ENOMEDIUM || r == -ENOENT || r == -EACCES || r == -ENOTDIR || r == -EBADMSG || r == -EISDIR ||
            r == -EBADFD) {
                status = input_error(r, path, &args.filter);
                report_args_done(&args);
                return status;
        }
        if (r < 0) {
                log_error_errno(r, "failed to read the journal: %m");
                report_args_done(&args);
                return EXIT_REPORT_ERROR;
        }

        /* Said, never silently dropped: entries with a bad field. */
        if (report.malformed > 0)
                fprintf(stderr, "rng-health report: skipped %u journal entr%s with a malformed field (first: %s)\n",
                        report.malformed, report.malformed == 1 ? "y" : "ies", report.first_malformed_field);
        if (args.fleet) {
                status = fleet_output(&args, &report);
                report_done(&report);
                report_args_done(&args);
                return status;
        }
        if (args.json) {
                r = report_to_json(&report, current, &j);
                if (r >= 0)
                        puts(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
        } else
                report_print(&report, current, stdout);
        report_done(&report);
        report_args_done(&args);
        if (r < 0) {
                log_error_errno(r, "failed to build JSON: %m");
                return EXIT_REPORT_ERROR;
        }
        if (cli_flush(stdout) < 0)
                return EXIT_REPORT_ERROR;
        return EXIT_REPORT_OK;
}
