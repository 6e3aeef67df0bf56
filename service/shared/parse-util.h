/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Strict parsers for outside input: command-line values and sysfs CPU lists. */

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A space or a tab: what separates words on a line of /proc and of the
 * configuration. */
static inline bool is_blank(char c) {
        return c == ' ' || c == '\t';
}

/* Unsigned decimal, no sign, no spaces, no trailing garbage, no overflow. */
int parse_u64(const char *s, uint64_t *ret);
/* The same within [min, max]: -ERANGE outside. */
int parse_u64_range(const char *s, uint64_t min, uint64_t max, uint64_t *ret);

#define USEC_PER_SEC UINT64_C(1000000)
#define USEC_PER_DAY (86400 * USEC_PER_SEC)

/* The one duration parser: exact decimal ("250ms", "2s", "0.0633s",
 * "1.5h", "100us"; a plain number is seconds), units us, ms, s, min, h, d;
 * a decimal point has digits on both sides (not ".5ms" or "1.").
 * No sign, spaces, hex, exponent, inf or nan. Microseconds in *ret.
 * -EINVAL on syntax, -EDOM for a value that is not a whole number of
 * microseconds (0.5us, 1.0000001s: finer than the unit it is kept in,
 * whatever the bounds), -ERANGE outside [min_usec, max_usec] or past
 * 2^64 us. */
int parse_duration(const char *s, uint64_t min_usec, uint64_t max_usec, uint64_t *ret);

/* sysfs CPU list ("0-3,8,10-11\n"), into a cpu_set_t (CPU_SETSIZE CPUs).
 * Empty input is an empty set. -EINVAL on syntax errors, -ERANGE on a CPU
 * number >= CPU_SETSIZE. */
int parse_cpu_list(const char *s, size_t len, cpu_set_t *ret);
