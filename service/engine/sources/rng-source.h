/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The interface the probe draws from: one form of a source (a width of a
 * CPU instruction, or a device read in bytes), or a test's scripted source.
 * The forms of the table's sources come from their architecture's draw
 * code (x86.c), or the device's (hwrng.c). */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "sources.h"

/* The probe's counters of one stream, carried from batch to batch
 * (probe-batch.h). */
typedef struct RngBatchCounters RngBatchCounters;

/* A batch of n tries of one form, its hot loop specialised for it
 * (probe-batch.h): delivered values are appended to buf, returns how
 * many. */
typedef size_t (*RngBatchFn)(uint64_t n, uint64_t retries, uint64_t overhead, RngBatchCounters *c, uint64_t *buf,
                             uint32_t *lat);

struct RngSource {
        const char *name;
        RngSourceId instruction; /* the table's source it is a form of */
        unsigned width; /* 16, 32 or 64: values are below 2^width */
        /* One try. Returns the carry flag; on true *ret holds the value. */
        bool (*draw)(void *userdata, uint64_t *ret);
        void *userdata;
        /* Set only on a form of the draw code: the probe runs this loop,
         * specialised for the form, instead of calling draw. Last, so that
         * positional initialisers of other sources leave it NULL. */
        RngBatchFn batch;
        /* A device (draw and batch NULL): reads up to len bytes into buf,
         * returning when it has them or at deadline_nsec (CLOCK_MONOTONIC)
         * at the latest, however the device behaves. Returns the bytes
         * read, or -errno where the device could not be read at all. */
        ssize_t (*read)(void *userdata, uint8_t *buf, size_t len, uint64_t deadline_nsec);
};

/* A device form's userdata: its source (whose descriptor names the node),
 * and an fd the service manager opened for it (-1: none; OpenFile=,
 * rng_source_use_fd()). */
typedef struct RngDeviceFile {
        RngSourceId id;
        int fd;
} RngDeviceFile;

/* Read source id's device through fd (opened by someone allowed to: the
 * service manager) instead of opening its node; the fd is the caller's to
 * close. -EINVAL if id is no device of the table. */
int rng_source_use_fd(RngSourceId id, int fd);

/* Makes one try of src under a SIGILL guard: 1 if it ran (whatever the
 * carry flag said), 0 if it raised SIGILL (the CPU lacks the instruction:
 * CPUID that does not advertise one may be right, or may be hiding one that
 * executes), -errno if the guard could not be set up. The value is
 * discarded. It installs a process-wide handler for the duration of the one
 * try and restores the previous one and the signal mask: call it from one
 * thread, before threads that could fault exist. */
int rng_source_executes(const RngSource *src);

/* The form of source id × width of this build's draw code, or NULL if it
 * has none (another architecture, -DRNG_NO_X86_64) or the width is not the
 * source's; a device's one form, whatever the width. Does not check that
 * the CPU advertises it: callers must (the probe engine does). */
const RngSource *rng_source_hardware(RngSourceId id, unsigned width);
