/* SPDX-License-Identifier: GPL-2.0-or-later */

/* `rng-health probe`'s command line: --help, and the options into
 * ProbeArgs (cli-probe.h), through the parsers the configuration uses too. */

#include <errno.h>
#include <getopt.h>
#include <string.h>

#include "cli-probe.h"
#include "cli-util.h"
#include "log.h"
#include "macro.h"
#include "parse-util.h"
#include "time-util.h"

/* "A 10; B 1 on a stock kernel, 10 with the rng-health series": the tries
 * of each source's kernel loop, from the source table. */
static void kernel_tries(char *buf, size_t len) {
        size_t at = 0;

        buf[0] = '\0';
        FOREACH_RNG_SOURCE(i) {
                const RngSourceDesc *d = rng_source_desc(i);
                int w;

                if (at >= len)
                        break;
                if (d->kind != RNG_KIND_CPU_INSTRUCTION)
                        continue;
                if (d->kernel.tries_series == d->kernel.tries_stock)
                        w = snprintf(buf + at, len - at, "%s%s %u", at ? "; " : "", d->display_name, d->kernel.tries_stock);
                else
                        w = snprintf(buf + at, len - at, "%s%s %u on a stock kernel, %u with the rng-health series",
                                     at ? "; " : "", d->display_name, d->kernel.tries_stock, d->kernel.tries_series);
                at += w > 0 ? (size_t) w : 0;
        }
}

void probe_help(FILE *f) {
        char names[256], words[256], tries[512], retries[640];

        rng_source_names_join(RNG_SOURCES_ALL, true, "", "/", "/", names, sizeof(names));
        rng_source_names_join(RNG_SOURCES_ALL, false, "", "|", "|", words, sizeof(words));
        strncat(words, "|all", sizeof(words) - strlen(words) - 1);
        kernel_tries(tries, sizeof(tries));
        snprintf(retries, sizeof(retries),
                 "Judge by a kernel loop of N tries (1 to 1000) instead of the running kernel's (%s)", tries);

        fprintf(f,
                "Usage: rng-health probe [OPTIONS]\n"
                "\n"
                "Measure the entropy sources the kernel relies on (%s): whether the\n"
                "CPU's instructions can be driven to exhaustion, whether their output and the\n"
                "hwrng device's is sane, what the kernel credits, and when its CRNG was ready.\n"
                "Random values are never printed, only counts, and no count over so few values\n"
                "that it gives one away (per-bit counts from 41 values on).\n"
                "\n"
                "Options:\n"
                "  --instruction %-19s Source(s) to probe, repeatable (default: all)\n"
                "  --width 16|32|64|all              Operand width(s), repeatable (default: all)\n"
                "  --threads N|all                   Threads for the contention run, one pinned\n"
                "                                    per CPU: 1 to 1024 (default: all usable CPUs;\n"
                "                                    1: none; more than there are CPUs: all of\n"
                "                                    them, with a warning)\n"
                "  --duration TIME                   Time budget per run, e.g. 500ms, 2s, 1min\n"
                "                                    (default: 2ms, the boot-path budget; a\n"
                "                                    device's run: 20ms or this if longer)\n"
                "  --count N                         Max tries per thread per run, 1 to 4294967296\n"
                "                                    (default: 4096, no cap with --duration;\n"
                "                                    --count alone: no time budget)\n",
                names, words);
        fputs("  --kernel-retries N                ", f);
        cli_print_wrapped(f, 36, 36, 89, retries);
        fprintf(f,
                "  --sweep                           Measure each instruction and width at 1, 2, 4, ...\n"
                "                                    threads up to --threads (default: all usable\n"
                "                                    CPUs); 100ms per point unless --duration/--count\n"
                "  --svg FILE                        With --sweep: also draw the failed tries against the\n"
                "                                    threads as an SVG figure in FILE (one panel per\n"
                "                                    package; only a regular file is replaced)\n"
                "  --fail-on VERDICT[:...]           Exit with the worst verdict these match instead\n"
                "                                    (FailOn='s words, repeatable: exhausted,\n"
                "                                    NAME:degraded, ...); see Exit status\n"
                "  --json                            Machine-readable output (schema rng-health.probe/3)\n"
                "  -h --help                         Show this help\n"
                "\n"
                "Each run makes at least min(1024, --count) tries, even past the time budget.\n"
                "--instruction and --width add to what earlier ones chose; the other options\n"
                "take one value each.\n"
                "The contention run hammers the instruction from every CPU at once and can\n"
                "starve other users of %s on this machine while it lasts, the kernel\n"
                "included. Its figures are over the common window, when all its threads drew.\n"
                "\n"
                "Verdicts: ok, degraded (failed tries, every value within the kernel's loop),\n"
                "exhausted (a value needed more tries than the running kernel's loop makes,\n"
                "or nothing was delivered), broken (an output check failed), hidden (the CPU\n"
                "does not advertise it, yet it executes: run anyway, its result is shown but\n"
                "nothing relies on it), unsupported (it raises SIGILL, or this build has no\n"
                "draw code for it; a device or a seed: not there), host-fed (on a confidential\n"
                "VM: the host controls it and the kernel credits it).\n"
                "A device is read for at most its budget and 4096 bytes: its reads compete with\n"
                "the kernel's own hwrng thread.\n"
                "\n"
                "Exit status (--sweep: 0 when it ran). A verdict fails the probe by what the\n"
                "running kernel does about it, as it weighs in the daemon and the alerts: broken\n"
                "(any source), or exhausted where the kernel has no fallback.\n",
                names);
        FOREACH_RNG_SOURCE(i)
                if (rng_source_desc(i)->kernel.has_fallback)
                        fprintf(f, "%s exhausted is routine (the kernel falls back to %s): 0.\n", rng_source_display_name(i),
                                rng_source_display_name(rng_source_desc(i)->kernel.fallback));
        fputs("  0  no verdict that fails it (ok, degraded, hidden, host-fed, unsupported,\n"
                "     exhausted with a fallback)\n"
                "  1  runtime error\n"
                "  2  usage error\n"
                "  3  worst failing verdict exhausted\n"
                "  4  worst failing verdict broken\n"
                "  73 the --svg FILE cannot be written (not a regular file, no such directory)\n"
                "With --fail-on, the worst verdict it matches gives the status, as FailOn=\n"
                "does for the daemon: 3 exhausted, 4 broken, 5 degraded, 6 unsupported, 7 ok,\n"
                "8 hidden, 9 host-fed; 0 where none matches.\n",
              f);
}

/* opt and value are shown escaped (cli-util.h). */
static int usage_error(const char *fmt, const char *opt, const char *value) {
        return cli_usage_error("rng-health probe", fmt, opt, value);
}

enum { ARG_INSTRUCTION = 0x100, ARG_WIDTH, ARG_THREADS, ARG_DURATION, ARG_COUNT, ARG_JSON, ARG_KERNEL_RETRIES,
       ARG_SWEEP, ARG_SVG, ARG_FAIL_ON };

/* "OPT: invalid value 'VALUE' (expected EXPECT)", EXPECT in the words the
 * configuration's error uses too (probe.h). */
static int invalid_value(const char *opt, const char *value, const char *expect) {
        char fmt[256];

        /* opt and expect are this program's own text, without a '%' */
        snprintf(fmt, sizeof(fmt), "%s: invalid value '%%s' (expected %s)%%s", opt, expect);
        return cli_usage_error("rng-health probe", fmt, value, "");
}

/* "all", or one value of parse (which gives its bit), added to a mask
 * (first: the default's replaced, as a list key of rng-health.conf does). */
static int mask_from_arg(const char *arg, unsigned all, int (*parse)(const char *s), bool *given, unsigned *mask) {
        unsigned bits;
        int r;

        if (strcmp(arg, "all") == 0)
                bits = all;
        else {
                r = parse(arg);
                if (r < 0)
                        return r;
                bits = 1u << r;
        }
        *mask = (*given ? *mask : 0) | bits;
        *given = true;
        return 0;
}

/* Options seen, for the repeats: a list option adds, any other is given
 * once (the last one winning silently hid a typo). */
typedef struct Seen {
        bool instruction, width, threads, duration, count, kernel_retries;
} Seen;

/* One option with its value (getopt's optarg) into ret; the values the
 * configuration also takes go through the same parsers (probe.h), and
 * their errors say the same. */
static int parse_option(int c, const char *arg, ProbeArgs *ret, Seen *seen) {
        bool *once = NULL;
        const char *name = NULL;
        char expect[256];
        uint64_t u;
        int r;

        switch (c) {
        case ARG_THREADS:
                once = &seen->threads, name = "--threads";
                break;
        case ARG_DURATION:
                once = &seen->duration, name = "--duration";
                break;
        case ARG_COUNT:
                once = &seen->count, name = "--count";
                break;
        case ARG_KERNEL_RETRIES:
                once = &seen->kernel_retries, name = "--kernel-retries";
                break;
        }
        if (once && *once)
                return usage_error("%s: given twice (it takes one value)%s", name, "");
        if (once)
                *once = true;

        switch (c) {
        case ARG_INSTRUCTION:
                if (mask_from_arg(arg, RNG_SOURCES_ALL, rng_source_from_name,
                                  &seen->instruction, &ret->params.instructions) < 0)
                        return invalid_value("--instruction", arg, probe_instructions_expect(expect, sizeof(expect)));
                return 0;
        case ARG_WIDTH:
                if (mask_from_arg(arg, RNG_WIDTHS_ALL, rng_width_from_string, &seen->width,
                                  &ret->params.widths) < 0)
                        return invalid_value("--width", arg, probe_widths_expect);
                return 0;
        case ARG_THREADS:
                if (probe_threads_from_string(arg, &ret->params.threads) < 0)
                        return invalid_value("--threads", arg, probe_threads_expect);
                return 0;
        case ARG_KERNEL_RETRIES:
                if (parse_u64_range(arg, 1, PROBE_KERNEL_RETRIES_MAX, &ret->params.verdict.kernel_retries) < 0)
                        return invalid_value("--kernel-retries", arg, probe_kernel_retries_expect);
                return 0;
        case ARG_DURATION:
                r = parse_duration(arg, 1, USEC_PER_DAY, &u);
                if (r == -EDOM)
                        return usage_error("%s: invalid value '%s' (finer than a microsecond, the smallest step)",
                                           "--duration", arg);
                if (r < 0)
                        return usage_error("%s: invalid value '%s' (expected a time from 1us to 1 day, e.g. 500ms, 2s)",
                                           "--duration", arg);
                ret->params.limits.budget_usec = u;
                return 0;
        case ARG_COUNT:
                if (parse_u64_range(arg, 1, PROBE_MAX_ATTEMPTS_MAX, &ret->params.limits.max_attempts) < 0)
                        return invalid_value("--count", arg, probe_max_attempts_expect);
                return 0;
        default:
                return -EINVAL;
        }
}

/* --fail-on: FailOn='s words (space- or comma-separated), added to
 * what earlier ones gave; "none" is not one (no --fail-on is the default). */
static int parse_fail_on(const char *arg, ProbeArgs *ret) {
        _cleanup_free_ char *copy = strdup(arg);
        char *save = NULL, expect[384];
        unsigned n = 0;
        int r;

        if (!copy)
                return log_error_errno(-ENOMEM, "--fail-on: out of memory");
        for (char *w = strtok_r(copy, " \t,", &save); w; w = strtok_r(NULL, " \t,", &save), n++) {
                r = fail_on_add_word(&ret->fail_on, w);
                if (r == -EDOM)
                        return usage_error("%s: '%s' can never match (that source never has that verdict)",
                                           "--fail-on", w);
                if (r < 0)
                        return invalid_value("--fail-on", w, fail_on_words_expect(expect, sizeof(expect)));
        }
        if (n == 0)
                return usage_error("%s: missing value%s", "--fail-on", "");
        ret->fail_on_given = true;
        return 0;
}

int probe_parse_args(int argc, char *argv[], ProbeArgs *ret) {
        static const struct option options[] = {
                { "instruction", required_argument, NULL, ARG_INSTRUCTION },
                { "width", required_argument, NULL, ARG_WIDTH },
                { "threads", required_argument, NULL, ARG_THREADS },
                { "duration", required_argument, NULL, ARG_DURATION },
                { "count", required_argument, NULL, ARG_COUNT },
                { "json", no_argument, NULL, ARG_JSON },
                { "sweep", no_argument, NULL, ARG_SWEEP },
                { "svg", required_argument, NULL, ARG_SVG },
                { "kernel-retries", required_argument, NULL, ARG_KERNEL_RETRIES },
                { "fail-on", required_argument, NULL, ARG_FAIL_ON },
                { "help", no_argument, NULL, 'h' },
                {},
        };
        Seen seen = {};
        int c, r;

        *ret = (ProbeArgs) {};
        probe_params_default(&ret->params);

        optind = 0;
        opterr = 0;
        while ((c = getopt_long(argc, argv, ":h", options, NULL)) >= 0) {
                switch (c) {
                case 'h':
                        ret->help = true;
                        break;
                case ARG_JSON:
                        ret->json = true;
                        break;
                case ARG_SWEEP:
                        ret->sweep = true;
                        break;
                case ARG_SVG:
                        if (ret->svg)
                                return usage_error("%s: given twice (it takes one value)%s", "--svg", "");
                        if (!optarg[0])
                                return usage_error("%s: missing value%s", "--svg", "");
                        ret->svg = optarg;
                        break;
                case ARG_FAIL_ON:
                        r = parse_fail_on(optarg, ret);
                        if (r < 0)
                                return r;
                        break;
                case ARG_INSTRUCTION:
                case ARG_WIDTH:
                case ARG_THREADS:
                case ARG_KERNEL_RETRIES:
                case ARG_DURATION:
                case ARG_COUNT:
                        r = parse_option(c, optarg, ret, &seen);
                        if (r < 0)
                                return r;
                        break;
                case ':':
                        return usage_error("%s: missing value%s", argv[optind - 1], "");
                case '?':
                default:
                        return cli_option_error("rng-health probe", argc, argv, ":h");
                }
        }
        if (optind < argc)
                return usage_error("%s: unexpected argument%s", argv[optind], "");
        if (ret->svg && !ret->sweep)
                return usage_error("%s: only with --sweep (the figure is the sweep's)%s", "--svg", "");

        /* A deliberate stress test: --duration alone lifts the draw cap,
         * --count alone lifts the time budget. */
        if (seen.duration && !seen.count)
                ret->params.limits.max_attempts = 0;
        if (seen.count && !seen.duration)
                ret->params.limits.budget_usec = 0;
        /* A sweep is a measurement, not the boot path: 100 ms per point. */
        if (ret->sweep && !seen.duration && !seen.count)
                ret->params.limits = (ProbeLimits) { .budget_usec = 100000, .max_attempts = 0,
                                                     .min_attempts = ret->params.limits.min_attempts };
        return 0;
}
