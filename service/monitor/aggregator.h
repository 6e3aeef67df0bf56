/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The daemon's overall verdict and status line over its verdict sources
 * (verdict-source.h: the probe watch and the kernel watch): the verdict is
 * the worst reported one, the status line joins the fragments in the order
 * the sources were added. It also remembers the verdict last announced, so
 * the Manager can tell a change from a repeat. Pure: no I/O. */

#include <stdbool.h>

#include "verdict-source.h"

#define AGGREGATOR_MAX_SOURCES 4

typedef struct Aggregator {
        unsigned n_sources;
        const VerdictSource *sources[AGGREGATOR_MAX_SOURCES];
        bool announced;        /* a verdict was announced */
        Verdict announced_verdict;
} Aggregator;

/* -E2BIG past AGGREGATOR_MAX_SOURCES. s must outlive the aggregator. */
int aggregator_add_source(Aggregator *a, const VerdictSource *s);
/* false until some source has reported. */
bool aggregator_verdict(const Aggregator *a, Verdict *ret);
/* The fragments of the reported sources joined by "; " (newly allocated). */
char *aggregator_status(const Aggregator *a);

typedef struct AggregatorChange {
        Verdict verdict;
        bool first;          /* nothing was announced before */
        bool changed;        /* first, or different from the announced one */
        Verdict previous;    /* the announced one, when !first */
} AggregatorChange;

/* The current verdict against the announced one, which it then becomes.
 * false (and nothing announced) while no source has reported. */
bool aggregator_announce(Aggregator *a, AggregatorChange *ret);
