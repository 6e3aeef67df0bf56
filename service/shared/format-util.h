/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Numbers for people: the status line, the journal, the table, report. */

#include <stddef.h>
#include <stdint.h>

/* The noun after a count: one for 1, many otherwise ("1 try", "0 tries",
 * "2 tries"); for a count shown with format_si() too. */
static inline const char *plural(uint64_t n, const char *one, const char *many) {
        return n == 1 ? one : many;
}

/* "36.9k", "1.50M", "512": three significant digits with an SI suffix. */
char *format_si(double v, char *buf, size_t len);
/* A fraction as a percentage in prose: "0 %", "<0.1 %", "3.4 %", "31 %". */
char *format_percent(double fraction, char *buf, size_t len);
/* A fraction as a table column: "0.00", "3.42", or two significant digits
 * below 0.01 % ("0.0034"); no sign. */
char *format_percent_column(double fraction, char *buf, size_t len);
/* A span of time in prose: "20 s", "15 min", "2.0 h" (whole seconds and
 * minutes below an hour). */
char *format_timespan_usec(uint64_t usec, char *buf, size_t len);
