/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <stdio.h>

#include "format-util.h"
#include "macro.h"

char *format_si(double v, char *buf, size_t len) {
        /* up to 2^64-1 (1.8e19, "18.4E") and beyond ("1.8e+21") */
        static const char suffix[] = { ' ', 'k', 'M', 'G', 'T', 'P', 'E' };
        unsigned i = 0;

        while (v >= 999.5 && i + 1 < ELEMENTSOF(suffix)) {
                v /= 1000;
                i++;
        }
        if (v >= 999.5) /* past the last suffix */
                snprintf(buf, len, "%.1e", v * 1e18);
        else if (i == 0)
                snprintf(buf, len, "%.0f", v);
        else
                snprintf(buf, len, v < 9.995 ? "%.2f%c" : v < 99.95 ? "%.1f%c" : "%.0f%c", v, suffix[i]);
        return buf;
}

char *format_percent(double fraction, char *buf, size_t len) {
        double p = fraction * 100;

        if (p <= 0)
                snprintf(buf, len, "0 %%");
        else if (p < 0.1)
                snprintf(buf, len, "<0.1 %%");
        else if (p < 9.95)
                snprintf(buf, len, "%.1f %%", p);
        else
                snprintf(buf, len, "%.0f %%", p);
        return buf;
}

char *format_percent_column(double fraction, char *buf, size_t len) {
        double pct = fraction * 100;

        snprintf(buf, len, pct == 0 || pct >= 0.01 ? "%.2f" : "%.2g", pct);
        return buf;
}

char *format_timespan_usec(uint64_t usec, char *buf, size_t len) {
        double sec = usec / 1e6;

        if (sec < 59.5)
                snprintf(buf, len, "%.0f s", sec);
        else if (sec < 3570)
                snprintf(buf, len, "%.0f min", sec / 60);
        else
                snprintf(buf, len, "%.1f h", sec / 3600);
        return buf;
}
