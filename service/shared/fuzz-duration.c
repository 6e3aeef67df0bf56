/* SPDX-License-Identifier: GPL-2.0-or-later */

/* parse_duration(): input = [8 bytes min][8 bytes max] text (shorter: the
 * whole is the text, bounds 0..UINT64_MAX). Checked: the syntax accepted is
 * digits[.digits] (digits on both sides of a point; 0s only past the 12th
 * decimal) and one of the units; the value is exact (value × 10^k
 * equals whole × unit × 10^k + fraction × unit) and within the bounds; the
 * value printed as "<n>us" and as "<s>.<6 digits>s" parses back to itself.
 * The first 8 bytes, as a number of microseconds, round-trip the same way. */

#include <errno.h>
#include <inttypes.h>

#include "fuzz-util.h"
#include "parse-util.h"

/* The documented units (rng-health.conf(5)), written out again on purpose:
 * the reference must not share the parser's table, or a wrong entry there
 * would agree with itself. */
static const struct {
        const char *suffix;
        uint64_t usec;
} units[] = {
        { "us", 1 }, { "ms", 1000 }, { "s", 1000000 }, { "", 1000000 }, { "min", 60000000 },
        { "h", 3600000000 }, { "d", 86400000000 },
};

/* Syntax and exactness of an accepted text, independently of the parser. */
static void check_accepted(const char *s, uint64_t v) {
        unsigned __int128 whole = 0, frac = 0, scale = 1, unit = 0;
        size_t digits = 0, frac_digits = 0;
        const char *p = s;

        for (; *p >= '0' && *p <= '9'; p++, digits++) {
                whole = whole * 10 + (unsigned) (*p - '0');
                FUZZ_ASSERT(whole <= UINT64_MAX);
        }
        FUZZ_ASSERT(digits > 0);
        if (*p == '.') {
                for (p++; *p >= '0' && *p <= '9'; p++, frac_digits++) {
                        /* past the 12th decimal only 0s are exact (finer
                         * than a microsecond otherwise: -EDOM) */
                        if (frac_digits >= 12) {
                                FUZZ_ASSERT(*p == '0');
                                continue;
                        }
                        frac = frac * 10 + (unsigned) (*p - '0');
                        scale *= 10;
                }
                FUZZ_ASSERT(frac_digits > 0);
        }
        for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
                if (strcmp(p, units[i].suffix) == 0)
                        unit = units[i].usec;
        FUZZ_ASSERT(unit > 0);
        /* whole × unit ≤ v < 2^64 and scale ≤ 10^12: no overflow in 128 bits. */
        FUZZ_ASSERT(whole * unit <= v);
        FUZZ_ASSERT((unsigned __int128) v * scale == whole * unit * scale + frac * unit);
}

static void check_round_trip(uint64_t v) {
        char buf[64];
        uint64_t u = 0;

        snprintf(buf, sizeof(buf), "%" PRIu64 "us", v);
        FUZZ_ASSERT(parse_duration(buf, 0, UINT64_MAX, &u) == 0 && u == v);
        snprintf(buf, sizeof(buf), "%" PRIu64 ".%06" PRIu64 "s", v / USEC_PER_SEC, v % USEC_PER_SEC);
        FUZZ_ASSERT(parse_duration(buf, 0, UINT64_MAX, &u) == 0 && u == v);
        if (v % 1000 == 0) {
                snprintf(buf, sizeof(buf), "%" PRIu64 "ms", v / 1000);
                FUZZ_ASSERT(parse_duration(buf, 0, UINT64_MAX, &u) == 0 && u == v);
        }
        /* Bounds: exactly v is within [v, v]; outside (v+1, ...) is -ERANGE. */
        snprintf(buf, sizeof(buf), "%" PRIu64 "us", v);
        FUZZ_ASSERT(parse_duration(buf, v, v, &u) == 0 && u == v);
        if (v < UINT64_MAX)
                FUZZ_ASSERT(parse_duration(buf, v + 1, UINT64_MAX, &u) == -ERANGE);
        if (v > 0)
                FUZZ_ASSERT(parse_duration(buf, 0, v - 1, &u) == -ERANGE);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        uint64_t min = 0, max = UINT64_MAX, v = 0xdead, any = 0;
        char *s;
        int r;

        if (size >= 8)
                check_round_trip(fuzz_u64(data));
        fuzz_take_bounds(&data, &size, &min, &max);
        s = fuzz_strndup(data, size);

        r = parse_duration(s, min, max, &v);
        FUZZ_ASSERT(r == 0 || r == -EINVAL || r == -ERANGE || r == -EDOM);
        if (r == 0) {
                FUZZ_ASSERT(v >= min && v <= max);
                check_accepted(s, v);
                check_round_trip(v);
        } else
                FUZZ_ASSERT(v == 0xdead);

        /* The bounds only ever turn a success into -ERANGE; the other
         * errors (syntax, finer than a microsecond) do not depend on them. */
        {
                int unbounded = parse_duration(s, 0, UINT64_MAX, &any);

                FUZZ_ASSERT(r == unbounded || (r == -ERANGE && unbounded == 0));
                r = unbounded;
        }
        if (r == 0) {
                check_accepted(s, any);
                FUZZ_ASSERT(any < min || any > max || v == any);
        }
        free(s);
        return 0;
}
