/* SPDX-License-Identifier: GPL-2.0-or-later */

#include <errno.h>
#include <math.h>
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

int parse_duration_usec(const char *s, uint64_t *ret) {
        static const struct {
                const char *suffix;
                double usec;
        } units[] = {
                { "us", 1 }, { "ms", 1e3 }, { "s", 1e6 }, { "min", 60e6 }, { "", 1e6 },
        };
        char *end;
        double v;

        if (!s || !((*s >= '0' && *s <= '9') || *s == '.'))
                return -EINVAL;
        errno = 0;
        v = strtod(s, &end);
        if (errno != 0 || end == s || !isfinite(v))
                return -EINVAL;
        for (size_t i = 0; i < ELEMENTSOF(units); i++)
                if (strcmp(end, units[i].suffix) == 0) {
                        double us = v * units[i].usec;

                        if (us < 1)
                                return -ERANGE;
                        if (us > 86400e6)
                                return -ERANGE;
                        *ret = (uint64_t) us;
                        return 0;
                }
        return -EINVAL;
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
        const char *p = s, *end = s + len;
        cpu_set_t set;
        int r;

        CPU_ZERO(&set);
        if (!s)
                return -EINVAL;
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
