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
        Verdict announced_instr[_RNG_SOURCE_MAX];
} Aggregator;

/* -E2BIG past AGGREGATOR_MAX_SOURCES. s must outlive the aggregator. */
int aggregator_add_source(Aggregator *a, const VerdictSource *s);
/* false until some source has reported. */
bool aggregator_verdict(const Aggregator *a, Verdict *ret);
/* Per instruction, the worst over the reported sources; false (ret
 * untouched) until some source has reported. */
bool aggregator_instr_verdicts(const Aggregator *a, Verdict ret[_RNG_SOURCE_MAX]);
/* The worst severity of the per-instruction verdicts (SEVERITY_INFO before
 * any report). */
Severity aggregator_severity(const Aggregator *a);
/* The fragments of the reported sources joined by "; " (newly allocated). */
char *aggregator_status(const Aggregator *a);

typedef struct AggregatorChange {
        Verdict verdict;
        Verdict instr[_RNG_SOURCE_MAX];
        Severity severity;   /* the worst of the per-instruction verdicts' */
        bool first;          /* nothing was announced before */
        bool changed;        /* first, or the verdict or an instruction's differs from the announced */
        Verdict previous;    /* the announced one, when !first */
        Verdict previous_instr[_RNG_SOURCE_MAX]; /* the announced ones, when !first */
} AggregatorChange;

/* The current verdicts against the announced ones, which they then become.
 * false (and nothing announced) while no source has reported. */
bool aggregator_announce(Aggregator *a, AggregatorChange *ret);
