/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The daemon's verdict and status line, fed by several sources: the probe
 * now, the kernel watch (issue 5) later. Each source reports its own
 * verdict and a status fragment; the overall verdict is the worst of them
 * and the status line joins the fragments in registration order. Pure. */

#include <stdbool.h>

#include "verdict.h"

#define AGGREGATOR_MAX_SOURCES 4

typedef struct AggregatorSource {
        const char *name;  /* "probe", "kernel": RNG_SOURCE in events */
        bool reported;
        Verdict verdict;
        char *status;
} AggregatorSource;

typedef struct Aggregator {
        unsigned n_sources;
        AggregatorSource sources[AGGREGATOR_MAX_SOURCES];
} Aggregator;

/* Returns the source's index, or -E2BIG. name must stay valid. */
int aggregator_add_source(Aggregator *a, const char *name);
/* Returns 1 if the overall verdict changed, 0 if not, -errno on error. */
int aggregator_report(Aggregator *a, unsigned source, Verdict v, const char *status);
/* false until some source has reported. */
bool aggregator_verdict(const Aggregator *a, Verdict *ret);
/* The fragments of the reported sources joined by "; " (newly allocated). */
char *aggregator_status(const Aggregator *a);
void aggregator_done(Aggregator *a);
