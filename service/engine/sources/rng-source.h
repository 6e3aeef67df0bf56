/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The source interface the probe engine draws from. The hardware sources
 * wrap RDRAND/RDSEED; tests substitute scripted sources. */

#include <stdbool.h>
#include <stdint.h>

#include "rng-cpu.h"

typedef struct RngSource {
        const char *name;
        RngSourceId instruction;
        unsigned width; /* 16, 32 or 64: values are below 2^width */
        /* One try. Returns the carry flag; on true *ret holds the value. */
        bool (*draw)(void *userdata, uint64_t *ret);
        void *userdata;
        /* Set only by rng_source_hardware(): this source is the CPU's own
         * instruction × width, so the probe runs its loop specialised for that
         * form instead of calling draw. Last, so that positional initialisers
         * of other sources leave it false. */
        bool hardware;
} RngSource;

/* Makes one try of src under a SIGILL guard: 1 if it ran (whatever the
 * carry flag said), 0 if it raised SIGILL (the CPU lacks the instruction:
 * CPUID that does not advertise one may be right, or may be hiding one that
 * executes), -errno if the guard could not be set up. The value is
 * discarded. It installs a process-wide handler for the duration of the one
 * try and restores the previous one and the signal mask: call it from one
 * thread, before threads that could fault exist. */
int rng_source_executes(const RngSource *src);

/* The hardware source for instruction × width, or NULL if this build cannot
 * execute it (not x86-64) or the width is invalid. Does not check CPUID:
 * callers must (the probe engine does). */
const RngSource *rng_source_hardware(RngSourceId i, unsigned width);
