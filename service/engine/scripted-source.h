/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Deterministic scripted sources for the engine's tests. */

#include <stdatomic.h>
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
        SCRIPT_SIGILL,      /* raises SIGILL (ud2): an instruction the CPU lacks */
        SCRIPT_VALUES,      /* delivers list[0], list[1], ... (n_list of them, then again) */
} ScriptKind;

typedef struct Script Script;
struct Script {
        ScriptKind kind;
        unsigned width;
        double rate;
        uint64_t param, param2;
        uint64_t rng;      /* splitmix64 state */
        const uint64_t *list; /* SCRIPT_VALUES: the values, in order */
        size_t n_list;
        uint64_t tries;    /* draw calls so far */
        uint64_t values;   /* values delivered so far */
        /* Timing, for the window tests. Before the first draw: sleeps
         * first_delay_nsec, then waits until `after` has finished
         * after_draws draws (or a second has passed). Every draw busy-waits
         * draw_nsec, records when it ended (CLOCK_MONOTONIC) and whether it
         * delivered (up to times_cap draws), then counts itself finished. */
        uint64_t first_delay_nsec, draw_nsec;
        const struct Script *after;
        uint64_t after_draws;
        uint64_t *times;
        bool *oks;
        size_t times_cap;
        atomic_uint_fast64_t finished;
        RngSource source;
};

/* A scripted device (RngSource.read): the hwrng shapes. */
typedef enum ScriptDeviceKind {
        SCRIPT_DEVICE_HEALTHY, /* uniform bytes, as fast as asked */
        SCRIPT_DEVICE_STUCK,   /* the byte `param`, always */
        SCRIPT_DEVICE_REPEAT,  /* a uniform block of `param` bytes (at most 4096), again and again */
        SCRIPT_DEVICE_SLOW,    /* uniform bytes at `param` bytes per second */
        SCRIPT_DEVICE_SILENT,  /* nothing, until the deadline */
        SCRIPT_DEVICE_ERROR,   /* the read fails with -`param` (an errno) */
} ScriptDeviceKind;

typedef struct ScriptDevice {
        ScriptDeviceKind kind;
        uint64_t param;
        uint64_t rng;
        uint8_t block[4096];
        uint64_t reads, bytes; /* reads made, bytes given */
        RngSource source;
} ScriptDevice;

/* A device of source id (a device of the table), shaped as kind. */
void script_device_init(ScriptDevice *d, RngSourceId id, ScriptDeviceKind kind, uint64_t param, uint64_t seed);

uint64_t splitmix64(uint64_t *state);
/* Uniform double in [0, 1) from splitmix64. */
double splitmix64_double(uint64_t *state);

void script_init(Script *s, ScriptKind kind, unsigned width, double rate, uint64_t param, uint64_t param2,
                 uint64_t seed);

/* SCRIPT_VALUES: a source of width that delivers list[] (n values, not
 * copied: list must outlive the source) in order, then again. */
void script_init_values(Script *s, unsigned width, const uint64_t *list, size_t n);

/* One probe of RDRAND (CPUID says yes) on one thread: a single run over
 * values[0..n) at width, exactly n tries, its clock figures cleared
 * (script_report_clear_timing()). Aborts the test on failure. */
void script_probe_values(unsigned width, const uint64_t *values, size_t n, ProbeReport *ret);

/* Sets every figure of a report's single runs that comes from the clock
 * (wall times, rates, latencies, run start and end) to 0: two probes of
 * the same values then give the same report, and the same output. (A
 * contention run's window depends on the clock through and through.) */
void script_report_clear_timing(ProbeReport *r);

/* The table's k-th CPU instruction (0: x86-64's RDRAND, arm64's RNDR; 1:
 * RDSEED, RNDRRS): the scripted reports' sources. Aborts if none. */
RngSourceId script_cpu_instruction(unsigned k);

/* A probe report: the first CPU instruction as `first` (first_rate,
 * first_param, first_param2), the second as `second` (rate, param), single-threaded
 * runs of 2048 tries per width of each, cpuid[] as given (an instruction
 * CPUID lacks raises SIGILL: absent, unsupported; hidden: the second
 * executes as given all the same), no kernel state. Aborts the test on
 * failure. */
void script_make_report_of(ScriptKind first, double first_rate, uint64_t first_param, uint64_t first_param2,
                           ScriptKind second,
                           double rate, uint64_t param, const bool cpuid[_RNG_SOURCE_MAX], bool hidden,
                           ProbeReport *ret);
/* A probe report: RDRAND healthy, RDSEED as the script kind given (rate,
 * param), single-threaded runs of 2048 tries per width, cpuid[] as given
 * (an instruction CPUID lacks raises SIGILL: absent, unsupported), no
 * kernel state. Aborts the test on failure. */
void script_make_report(ScriptKind rdseed, double rate, uint64_t param, const bool cpuid[_RNG_SOURCE_MAX], ProbeReport *ret);
/* The same with RDSEED hidden: not in CPUID, yet it executes as given. */
void script_make_hidden_report(ScriptKind rdseed, double rate, uint64_t param, ProbeReport *ret);
