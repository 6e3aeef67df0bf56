/* SPDX-License-Identifier: GPL-2.0-or-later */

/* Benchmark, not a test: `rng-health report --fleet` over a central
 * journal, in its phases, each timed by this program's CLOCK_MONOTONIC:
 * reading the entries (report_read_journal(): sd-journal, matches, the
 * trust check, the fields), grouping them into machines (fleet_build()),
 * and the table, the JSON and the figure. bench/fleet-report.sh makes the
 * journal (1,000 machines) and also times the whole command from outside.
 *
 *   fleet-bench DIR [ROUNDS]     (default 5 rounds; min and median printed) */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "json-util.h"
#include "macro.h"
#include "plot-svg.h"
#include "report-fleet.h"
#include "report.h"

enum { PHASE_READ, PHASE_FLEET, PHASE_TEXT, PHASE_JSON, PHASE_SVG, _PHASE_MAX };
static const char *const phase_names[_PHASE_MAX] = {
        "read the journal (sd-journal, trust check, fields)", "group into machines and CPU models",
        "the table (text)", "the JSON", "the figure (SVG text)",
};

static double now(void) {
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b) {
        double x = *(const double *) a, y = *(const double *) b;
        return x < y ? -1 : x > y;
}

int main(int argc, char *argv[]) {
        unsigned rounds = argc > 2 ? (unsigned) atoi(argv[2]) : 5;
        double t[_PHASE_MAX][64] = {}, total[64] = {};
        size_t machines = 0, boots = 0;
        unsigned foreign = 0, malformed = 0;

        if (argc < 2 || rounds < 1 || rounds > 64) {
                fprintf(stderr, "usage: fleet-bench DIR [ROUNDS (1-64)]\n");
                return 2;
        }
        for (unsigned k = 0; k < rounds; k++) {
                ReportFilter filter = { .directory = argv[1] };
                _cleanup_free_ char *text = NULL, *svg = NULL;
                _cleanup_free_ PlotPanel *panels = calloc(PLOT_PANELS_MAX, sizeof(PlotPanel));
                _cleanup_json_ struct json_object *j = NULL;
                Fleet fleet = {};
                Report report;
                size_t size = 0, n;
                char note[256];
                FILE *f;
                double t0, t1;
                int r;

                t0 = now();
                r = report_read_journal(&filter, &report, NULL);
                t1 = now();
                if (r < 0) {
                        fprintf(stderr, "fleet-bench: reading %s: %s\n", argv[1], strerror(-r));
                        return 1;
                }
                t[PHASE_READ][k] = t1 - t0;
                t0 = now();
                r = fleet_build(&report, &fleet);
                t1 = now();
                if (r < 0 || !panels)
                        return 1;
                t[PHASE_FLEET][k] = t1 - t0;
                t0 = now();
                f = open_memstream(&text, &size);
                if (!f)
                        return 1;
                fleet_print(&fleet, f);
                fclose(f);
                t1 = now();
                t[PHASE_TEXT][k] = t1 - t0;
                t0 = now();
                if (fleet_to_json(&fleet, &j) < 0 || !json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY))
                        return 1;
                t1 = now();
                t[PHASE_JSON][k] = t1 - t0;
                t0 = now();
                n = fleet_panels(&fleet, panels, note, sizeof(note));
                if (n > 0 && plot_svg("bench", panels, n, note, &svg) < 0)
                        return 1;
                t1 = now();
                t[PHASE_SVG][k] = t1 - t0;
                for (int p = 0; p < _PHASE_MAX; p++)
                        total[k] += t[p][k];
                machines = fleet.n;
                boots = report.n_boots;
                foreign = report.foreign;
                malformed = report.malformed;
                fleet_done(&fleet);
                report_done(&report);
        }
        printf("fleet-bench: %zu machines, %zu boots (%u entries of other senders ignored, %u malformed), %u rounds\n",
               machines, boots, foreign, malformed, rounds);
        for (int p = 0; p <= _PHASE_MAX; p++) {
                double *v = p < _PHASE_MAX ? t[p] : total;

                qsort(v, rounds, sizeof(double), cmp_double);
                printf("  %-52s min %8.1f ms  median %8.1f ms\n", p < _PHASE_MAX ? phase_names[p] : "all of it",
                       v[0] * 1e3, v[rounds / 2] * 1e3);
        }
        return 0;
}
