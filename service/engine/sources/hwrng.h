/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The hwrng core's device (sources.c's RNG_SOURCE_HWRNG): the kernel's view
 * of it from sysfs (which device the kernel reads, which it could, how much
 * it credits), and its one form, a bounded reader of /dev/hwrng. */

#include "kernel-state.h"
#include "rng-source.h"
#include "sources.h"

/* rng_current, rng_available and rng_quality below in->root's
 * d->detect.sysfs into *ret: enabled with a current device, absent with
 * none ("none", or no hwrng core), unknown where they cannot be read. The
 * credit: rng_quality > 0; host-fed where rng_current starts with one of
 * d->kernel.host_fed_drivers. */
void rng_hwrng_kernel_view(const RngSourceDesc *d, const KernelViewInput *in, KernelSourceState *ret);

/* The device's form: width 64 (values of 8 bytes for the output checks),
 * read() only. Reads d->detect.device (or the fd given by
 * rng_source_use_fd()) non-blocking, waiting 1 ms where it has nothing,
 * until the bytes asked for or the deadline. The hwrng core holds a mutex
 * while its own thread waits for the device (a blocking read): the read
 * runs in a thread of its own, left behind (its late bytes wiped) where it
 * is still inside read() shortly after the deadline, so that nothing the
 * device does makes the probe wait longer. */
extern const RngSource rng_hwrng_form;

/* Whether a device name (rng_current) is one of drivers' (prefixes,
 * NULL-terminated; NULL: none). */
bool rng_hwrng_driver_matches(const char *const *drivers, const char *name);

/* The read loop of rng_hwrng_form on fd (O_NONBLOCK set): for tests. */
ssize_t rng_hwrng_read_fd(int fd, uint8_t *buf, size_t len, uint64_t deadline_nsec);
