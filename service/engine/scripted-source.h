/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Deterministic scripted sources for the engine's tests. */

#include <stdint.h>

#include "probe.h"
#include "rng-source.h"

typedef enum ScriptKind {
        SCRIPT_HEALTHY,     /* uniform values, never fails */
        SCRIPT_ALWAYS_FAIL, /* CF=0 every time */
        SCRIPT_RANDOM_FAIL, /* fails with probability `rate` */
        SCRIPT_BURSTS,      /* `param` failures, then `param2` values, repeated */
        SCRIPT_STUCK,       /* always delivers the value `param` */
        SCRIPT_ONES_AFTER,  /* uniform for `param` values, then all ones */
        SCRIPT_ZERO_RATE,   /* delivers 0 (with CF=1) with probability `rate` */
        SCRIPT_STUCK_BIT,   /* uniform, but bit `param` always equals `param2` (0 or 1) */
} ScriptKind;

typedef struct Script {
        ScriptKind kind;
        unsigned width;
        double rate;
        uint64_t param, param2;
        uint64_t rng;      /* splitmix64 state */
        uint64_t tries;    /* draw calls so far */
        uint64_t values;   /* values delivered so far */
        RngSource source;
} Script;

uint64_t splitmix64(uint64_t *state);
/* Uniform double in [0, 1) from splitmix64. */
double splitmix64_double(uint64_t *state);

void script_init(Script *s, ScriptKind kind, unsigned width, double rate, uint64_t param, uint64_t param2,
                 uint64_t seed);

/* A probe report: RDRAND healthy, RDSEED as the script kind given (rate,
 * param), single-threaded runs of 2048 tries per width, cpuid[] as given,
 * no kernel state. Aborts the test on failure. */
void script_make_report(ScriptKind rdseed, double rate, uint64_t param, const bool cpuid[2], ProbeReport *ret);
