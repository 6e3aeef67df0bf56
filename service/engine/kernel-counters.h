/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* The kernel's counters of the sources it retries (kernel patch 0006),
 * sysfs, mode 0400, two files per source that has them (its descriptor's
 * kernel.counters prefix, sources.h):
 *   /sys/devices/system/cpu/rng/PREFIX_retried
 *       the kernel's requests that the CPU refused at the first attempt
 *   /sys/devices/system/cpu/rng/PREFIX_exhausted
 *       requests the CPU still refused when the kernel stopped asking (the
 *       kernel got no value)
 * Kernels without the series have no such files; a source without counters
 * counts 0. The service reads them as a member of group
 * rng-health-counters, which units/rng-health.tmpfiles gives read access
 * (0440); unprivileged, a read fails with -EACCES. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sources.h"

#include "kernel-state.h"

#define KERNEL_COUNTERS_DIR KERNEL_RNG_SYSFS_DIR

typedef struct KernelCounters {
        uint64_t retried[_RNG_SOURCE_MAX];
        uint64_t exhausted[_RNG_SOURCE_MAX];
} KernelCounters;

/* Parse one sysfs value: decimal digits, an optional trailing newline,
 * nothing else. -EINVAL on anything else (empty, sign, junk, overflow). */
int kernel_counter_parse(const char *text, size_t len, uint64_t *ret);

/* The path of one counter file below root (NULL or "/": the real one),
 * <dir>/<prefix>_<name>; name is "retried" or "exhausted".
 * -ENAMETOOLONG if it does not fit, -ENOENT if source i has no counters. */
int kernel_counter_path(const char *root, RngSourceId i, const char *name, char *buf, size_t size);

/* Read the counters of every source that has them below root (NULL: "/").
 * -ENOENT if the kernel has no counters; another -errno if one is
 * unreadable or malformed. */
int kernel_counters_read(const char *root, KernelCounters *ret);

/* Opens source i's exhausted counter below root for poll(): kernels
 * with the series wake a POLLPRI poller when it grows; each wake-up is
 * re-armed by reading from offset 0 (already done once here). Returns the
 * fd; -ENOENT without the counter. */
int kernel_counter_open_poll(const char *root, RngSourceId i);
