/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* `rng-health probe --sweep --svg FILE`: the sweep as the figure of
 * plot-svg.h, one panel per package, one line per source and width. */

#include "cpu-id.h"
#include "plot-svg.h"
#include "probe.h"

/* The panels of a sweep into panels[PLOT_PANELS_MAX]: how many. */
size_t probe_sweep_panels(const ProbeSweepReport *r, PlotPanel *panels);
/* The figure's title: the CPU where it is known (cpu NULL: not). */
void probe_sweep_plot_title(const CpuId *cpu, char *buf, size_t len);
