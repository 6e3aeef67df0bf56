/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "parse-util.h"

int parse_u64(const char *s, uint64_t *ret) {
        unsigned long long v;
        char *end;

        if (!s || *s < '0' || *s > '9')
                return -EINVAL;
        errno = 0;
        v = strtoull(s, &end, 10);
        if (errno == ERANGE)
                return -ERANGE;
        if (*end != '\0')
                return -EINVAL;
        *ret = v;
        return 0;
}

int parse_u64_range(const char *s, uint64_t min, uint64_t max, uint64_t *ret) {
        uint64_t v;
        int r;

        r = parse_u64(s, &v);
        if (r < 0)
                return r;
        if (v < min || v > max)
                return -ERANGE;
        *ret = v;
        return 0;
}

int parse_duration(const char *s, uint64_t min_usec, uint64_t max_usec, uint64_t *ret) {
        static const struct {
                const char *suffix;
                uint64_t usec;
        } units[] = {
                { "us", 1 }, { "ms", 1000 }, { "s", 1000000 }, { "", 1000000 }, { "min", 60000000 },
                { "h", 3600000000 }, { "d", 86400000000 },
        };
        uint64_t whole = 0, frac = 0, scale = 1, unit = 0, v;
        const char *p = s;
        size_t digits = 0;

        if (!s)
                return -EINVAL;
        for (; *p >= '0' && *p <= '9'; p++, digits++) {
                uint64_t d = (uint64_t) (*p - '0');

                if (whole > (UINT64_MAX - d) / 10)
                        return -ERANGE;
                whole = whole * 10 + d;
        }
        if (*p == '.') {
                /* digits on both sides of the point: not ".5ms", not "1." */
                if (digits == 0 || p[1] < '0' || p[1] > '9')
                        return -EINVAL;
                p++;
                for (; *p >= '0' && *p <= '9'; p++, digits++) {
                        /* A 13th decimal other than 0 is finer than a
                         * microsecond of any unit but d. */
                        if (scale >= UINT64_C(1000000000000)) {
                                if (*p != '0')
                                        return -EDOM;
                                continue;
                        }
                        frac = frac * 10 + (uint64_t) (*p - '0');
                        scale *= 10;
                }
        }
        if (digits == 0)
                return -EINVAL;
        for (size_t i = 0; i < ELEMENTSOF(units); i++)
                if (strcmp(p, units[i].suffix) == 0) {
                        unit = units[i].usec;
                        break;
                }
        if (unit == 0)
                return -EINVAL;
        /* Exact: whole * unit + frac * unit / scale, in integers. */
        if (whole > UINT64_MAX / unit)
                return -ERANGE;
        v = whole * unit;
        if (frac > 0) {
                /* frac < scale <= 10^12 and unit <= 8.64e10: 128 bits. */
                unsigned __int128 f = (unsigned __int128) frac * unit;

                if (f % scale != 0)
                        return -EDOM; /* not a whole number of microseconds */
                f /= scale;
                if (f > UINT64_MAX - v)
                        return -ERANGE;
                v += (uint64_t) f;
        }
        if (v < min_usec || v > max_usec)
                return -ERANGE;
        *ret = v;
        return 0;
}

static int parse_cpu_number(const char **p, const char *end, unsigned *ret) {
        unsigned v = 0;
        const char *q = *p;

        if (q >= end || *q < '0' || *q > '9')
                return -EINVAL;
        while (q < end && *q >= '0' && *q <= '9') {
                v = v * 10 + (unsigned) (*q - '0');
                if (v >= CPU_SETSIZE)
                        return -ERANGE;
                q++;
        }
        *p = q;
        *ret = v;
        return 0;
}

int parse_cpu_list(const char *s, size_t len, cpu_set_t *ret) {
        const char *p, *end;
        cpu_set_t set;
        int r;

        CPU_ZERO(&set);
        if (!s)
                return -EINVAL;
        p = s;
        end = s + len;
        /* One trailing newline is how sysfs ends it. */
        if (len > 0 && end[-1] == '\n')
                end--;
        while (p < end) {
                unsigned a, b;

                r = parse_cpu_number(&p, end, &a);
                if (r < 0)
                        return r;
                b = a;
                if (p < end && *p == '-') {
                        p++;
                        r = parse_cpu_number(&p, end, &b);
                        if (r < 0)
                                return r;
                        if (b < a)
                                return -EINVAL;
                }
                for (unsigned c = a; c <= b; c++)
                        CPU_SET(c, &set);
                if (p < end) {
                        if (*p != ',')
                                return -EINVAL;
                        p++;
                        if (p == end)
                                return -EINVAL; /* trailing comma */
                }
        }
        *ret = set;
        return 0;
}
