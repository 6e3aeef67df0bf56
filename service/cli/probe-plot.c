/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <stdio.h>
#include <string.h>

#include "probe-plot.h"

/* The panel of package (-1: the used CPUs' packages unknown), added where
 * there is none yet. */
static PlotPanel *panel_for(const ProbeSweepReport *r, int package, PlotPanel *panels, size_t *n, int *ids) {
        PlotPanel *p;

        for (size_t k = 0; k < *n; k++)
                if (ids[k] == package)
                        return &panels[k];
        if (*n >= PLOT_PANELS_MAX)
                return NULL;
        ids[*n] = package;
        p = &panels[(*n)++];
        *p = (PlotPanel) {};
        if (package < 0)
                snprintf(p->title, sizeof(p->title), "%d CPUs", CPU_COUNT(&r->cpus.used));
        else
                snprintf(p->title, sizeof(p->title), "package %d", package);
        return p;
}

size_t probe_sweep_panels(const ProbeSweepReport *r, PlotPanel *panels) {
        int ids[PLOT_PANELS_MAX];
        size_t n = 0;

        for (unsigned k = 0; k < r->n_sweeps; k++) {
                const ProbeSweep *sw = &r->sweeps[k];
                PlotPanel *p = panel_for(r, sw->package, panels, &n, ids);
                PlotSeries *s;

                if (!p || p->n_series >= PLOT_SERIES_MAX)
                        continue;
                s = &p->series[p->n_series++];
                *s = (PlotSeries) {};
                snprintf(s->label, sizeof(s->label), "%s %u-bit", rng_source_display_name(sw->instruction), sw->width);
                /* one color per source and width, in every panel */
                s->color = sw->instruction * RNG_N_WIDTHS + (unsigned) rng_width_index(sw->width);
                for (unsigned j = 0; j < sw->n_points; j++)
                        (void) plot_series_add(s, sw->points[j].threads, sw->points[j].failure_rate);
        }
        return n;
}

void probe_sweep_plot_title(const CpuId *cpu, char *buf, size_t len) {
        CpuAttribution a;

        cpu_attribution_from_id(cpu, &a);
        if (!a.vendor[0] && !a.family[0]) {
                snprintf(buf, len, "Failed tries vs. threads (rng-health probe --sweep)");
                return;
        }
        snprintf(buf, len, "Failed tries vs. threads: %s%s%s %s/%s/%s, microcode %s%s", a.model_name,
                 a.model_name[0] ? " (" : "", a.vendor, a.family[0] ? a.family : "?", a.model[0] ? a.model : "?",
                 a.stepping[0] ? a.stepping : "?", a.microcode[0] ? a.microcode : "unknown", a.model_name[0] ? ")" : "");
}
