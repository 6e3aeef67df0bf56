/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Strict parsers for outside input: command-line values and sysfs CPU lists. */

#include <sched.h>
#include <stddef.h>
#include <stdint.h>

/* Unsigned decimal, no sign, no spaces, no trailing garbage, no overflow. */
int parse_u64(const char *s, uint64_t *ret);

/* "250ms", "2s", "1.5s", "100us", "1min", or a plain number of seconds.
 * Result in microseconds, > 0 and at most one day. */
int parse_duration_usec(const char *s, uint64_t *ret);

/* sysfs CPU list ("0-3,8,10-11\n"), into a cpu_set_t (CPU_SETSIZE CPUs).
 * Empty input is an empty set. -EINVAL on syntax errors, -ERANGE on a CPU
 * number >= CPU_SETSIZE. */
int parse_cpu_list(const char *s, size_t len, cpu_set_t *ret);
