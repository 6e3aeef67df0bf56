/* SPDX-License-Identifier: GPL-2.0-or-later */

/* `rng-health probe`: the probe or the sweep, as a table, JSON or a figure;
 * the command line is cli-probe-args.c's. */

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "cli-probe.h"
#include "cli-util.h"
#include "cvm.h"
#include "log.h"
#include "macro.h"
#include "fileio.h"
#include "probe-json.h"
#include "probe-plot.h"
#include "probe-sequence.h"
#include "probe-table.h"
#include "time-util.h"

typedef struct Progress {
        uint64_t start_nsec;
        uint64_t planned_usec;
        bool shown;
} Progress;

static void progress_cb(const ProbeRun *run, unsigned index, unsigned total, void *userdata) {
        Progress *p = userdata;

        /* Only for runs longer than 2 s (planned or so far). */
        if (p->planned_usec <= 2000000 && now_nsec() - p->start_nsec <= 2000000000u)
                return;
        fprintf(stderr, "\r\033[K[%u/%u] %s %u-bit %s, %u thread%s...", index + 1, total,
                rng_source_display_name(run->instruction), run->width, probe_mode_to_string(run->mode),
                run->threads, run->threads == 1 ? "" : "s");
        fflush(stderr);
        p->shown = true;
}

/* More threads asked for than there are CPUs: as Threads= in
 * rng-health.conf, all CPUs, and a warning. */
static void threads_capped(unsigned requested, unsigned usable, void *userdata) {
        fprintf(stderr, "rng-health probe: --threads: %u requested but only %u CPU%s online and allowed: %s\n",
                requested, usable, usable == 1 ? " is" : "s are", (const char *) userdata);
}

/* "rng-health probe: --svg: PATH: is a directory, not a file": escaped. */
static int svg_error(const char *path, int r) {
        char what[512];

        snprintf(what, sizeof(what), "--svg: cannot write '%%s': %s", plot_path_error_to_string(r));
        (void) cli_usage_error("rng-health probe", what, path, NULL);
        return EXIT_CANTCREAT;
}

/* The sweep's figure (--svg). */
static int write_svg(const ProbeArgs *args, const ProbeSweepReport *report) {
        _cleanup_free_ PlotPanel *panels = calloc(PLOT_PANELS_MAX, sizeof(PlotPanel));
        char title[256];
        CpuId cpu;
        size_t n;
        int r;

        if (!panels)
                return svg_error(args->svg, -ENOMEM);
        n = probe_sweep_panels(report, panels);
        if (n == 0) {
                (void) cli_usage_error("rng-health probe", "--svg: nothing was swept, no figure written to '%s'", args->svg,
                                       NULL);
                return EXIT_CANTCREAT;
        }
        probe_sweep_plot_title(cpu_id_read(NULL, &cpu) >= 0 ? &cpu : NULL, title, sizeof(title));
        r = plot_write(args->svg, title, panels, n,
                       "Each point: one contention run, its threads pinned within one package, over their common window.");
        return r < 0 ? svg_error(args->svg, r) : EXIT_PROBE_OK;
}

static int run_sweep(const ProbeArgs *args, ProbeSequence *seq) {
        _cleanup_json_ struct json_object *j = NULL;
        _cleanup_free_ ProbeSweepReport *report = malloc(sizeof(ProbeSweepReport));
        int r;

        if (!report) {
                log_error_errno(-ENOMEM, "sweep: out of memory");
                return EXIT_PROBE_ERROR;
        }
        /* Before the measurement: a FILE that cannot be written is said at once. */
        if (args->svg && (r = plot_check_path(args->svg)) < 0)
                return svg_error(args->svg, r);
        seq->userdata = (void *) "the sweep goes up to all of them";
        r = probe_sequence_sweep(&args->params, seq, report);
        if (r < 0) {
                log_error_errno(r, "sweep failed: %m");
                return EXIT_PROBE_ERROR;
        }
        if (args->json) {
                r = probe_sweep_to_json(report, &j);
                if (r < 0) {
                        log_error_errno(r, "failed to build JSON: %m");
                        return EXIT_PROBE_ERROR;
                }
                puts(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
        } else
                probe_sweep_print_table(report, stdout);
        if (fflush(stdout) != 0 || ferror(stdout)) {
                log_error_errno(-EIO, "failed to write output");
                return EXIT_PROBE_ERROR;
        }
        return args->svg ? write_svg(args, report) : EXIT_PROBE_OK;
}

int verb_probe(int argc, char *argv[]) {
        return verb_probe_hooked(argc, argv, NULL);
}

int verb_probe_hooked(int argc, char *argv[], const ProbeSourceHook *hook) {
        _cleanup_json_ struct json_object *j = NULL;
        Progress progress = { .start_nsec = now_nsec() };
        ProbeSequence seq = { .threads_capped = threads_capped };
        ProbeReport report;
        ProbeArgs args;
        CpuId cpu;
        int r;

        if (probe_parse_args(argc, argv, &args) < 0)
                return EXIT_PROBE_USAGE;
        if (args.help) {
                probe_help(stdout);
                return cli_flush(stdout) < 0 ? EXIT_PROBE_ERROR : 0;
        }

        if (hook && hook->source) {
                args.params.source = hook->source;
                args.params.source_userdata = hook->userdata;
                args.params.cpuid = hook->cpuid;
                seq.kernel = hook->kernel;
        }
        if (args.sweep)
                return run_sweep(&args, &seq);

        if (!args.json && isatty(STDOUT_FILENO) && isatty(STDERR_FILENO)) {
                unsigned runs = __builtin_popcount(args.params.instructions) * __builtin_popcount(args.params.widths) * 2;

                progress.planned_usec = args.params.limits.budget_usec ? runs * args.params.limits.budget_usec : UINT64_MAX;
                args.params.progress = progress_cb;
                args.params.progress_userdata = &progress;
        }

        /* An unreadable identity names no erratum (no guess). */
        seq.cpu = cpu_id_read(NULL, &cpu) >= 0 ? &cpu : NULL;
        /* Judged as the daemon judges a detected confidential VM. */
        args.params.confidential_vm = cvm_detect(NULL) != CVM_NONE;
        seq.userdata = (void *) "the contention run uses all of them";
        r = probe_sequence_run(&args.params, &seq, &report);
        if (progress.shown)
                fprintf(stderr, "\r\033[K");
        if (r < 0) {
                log_error_errno(r, "probe failed: %s", probe_error_to_string(r));
                return EXIT_PROBE_ERROR;
        }

        if (args.json) {
                r = probe_report_to_json(&report, args.fail_on_given ? &args.fail_on : NULL, &j);
                if (r < 0) {
                        log_error_errno(r, "failed to build JSON: %m");
                        return EXIT_PROBE_ERROR;
                }
                puts(json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
        } else
                probe_report_print_table(&report, stdout);

        if (cli_flush(stdout) < 0)
                return EXIT_PROBE_ERROR;
        return probe_report_exit_status(&report, args.fail_on_given ? &args.fail_on : NULL);
}
