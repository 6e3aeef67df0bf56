/* SPDX-License-Identifier: GPL-2.0-or-later */

/* The shared parsers of outside input: numbers, durations, CPU lists. */

#include <errno.h>
#include <string.h>

#include "parse-util.h"
#include "test-util.h"

#define S(x) x, sizeof(x) - 1

static void test_u64(void) {
        uint64_t u;

        CHECK(parse_u64("0", &u) == 0 && u == 0, "0");
        CHECK(parse_u64("4096", &u) == 0 && u == 4096, "4096");
        CHECK(parse_u64("18446744073709551615", &u) == 0 && u == UINT64_MAX, "max");
        CHECK(parse_u64("18446744073709551616", &u) == -ERANGE, "overflow");
        CHECK(parse_u64("", &u) == -EINVAL, "empty");
        CHECK(parse_u64("-1", &u) == -EINVAL, "negative");
        CHECK(parse_u64("+1", &u) == -EINVAL, "plus");
        CHECK(parse_u64(" 1", &u) == -EINVAL, "space");
        CHECK(parse_u64("1x", &u) == -EINVAL, "garbage");
        CHECK(parse_u64(NULL, &u) == -EINVAL, "NULL");
}

static void test_duration(void) {
        uint64_t u;

        CHECK(parse_duration("2s", 1, USEC_PER_DAY, &u) == 0 && u == 2000000, "2s");
        CHECK(parse_duration("500ms", 1, USEC_PER_DAY, &u) == 0 && u == 500000, "500ms");
        CHECK(parse_duration("1.5s", 1, USEC_PER_DAY, &u) == 0 && u == 1500000, "1.5s");
        CHECK(parse_duration("100us", 1, USEC_PER_DAY, &u) == 0 && u == 100, "100us");
        CHECK(parse_duration("1min", 1, USEC_PER_DAY, &u) == 0 && u == 60000000, "1min");
        CHECK(parse_duration("5", 1, USEC_PER_DAY, &u) == 0 && u == 5000000, "5");
        CHECK(parse_duration("1.5h", 1, USEC_PER_DAY, &u) == 0 && u == 5400000000ull, "1.5h");
        CHECK(parse_duration("1d", 1, USEC_PER_DAY, &u) == 0 && u == USEC_PER_DAY, "1d");
        /* Exact decimals (strtod gave 63299 and 1000999). */
        CHECK(parse_duration("0.0633s", 1, USEC_PER_DAY, &u) == 0 && u == 63300, "0.0633s: %llu", (unsigned long long) u);
        CHECK(parse_duration("1.001s", 1, USEC_PER_DAY, &u) == 0 && u == 1001000, "1.001s: %llu", (unsigned long long) u);
        CHECK(parse_duration("0.000001s", 1, USEC_PER_DAY, &u) == 0 && u == 1, "1us as seconds");
        /* a point needs digits on both sides */
        CHECK(parse_duration(".5s", 1, USEC_PER_DAY, &u) == -EINVAL, ".5s");
        CHECK(parse_duration(".5ms", 1, USEC_PER_DAY, &u) == -EINVAL, ".5ms");
        CHECK(parse_duration("5.", 1, USEC_PER_DAY, &u) == -EINVAL, "5.");
        CHECK(parse_duration("1.", 1, USEC_PER_DAY, &u) == -EINVAL, "1.");
        CHECK(parse_duration("1.s", 1, USEC_PER_DAY, &u) == -EINVAL, "1.s");
        CHECK(parse_duration("0.5s", 1, USEC_PER_DAY, &u) == 0 && u == 500000, "0.5s");
        CHECK(parse_duration("5.0", 1, USEC_PER_DAY, &u) == 0 && u == 5000000, "5.0");
        CHECK(parse_duration("0", 1, USEC_PER_DAY, &u) == -ERANGE, "0");
        /* finer than a microsecond: its own error, not the range's */
        CHECK(parse_duration("0.1us", 1, USEC_PER_DAY, &u) == -EDOM, "sub-us");
        CHECK(parse_duration("1.0000005s", 1, USEC_PER_DAY, &u) == -EDOM, "not a whole us");
        CHECK(parse_duration("1.0000001s", USEC_PER_SEC, 365 * USEC_PER_DAY, &u) == -EDOM, "within the range");
        CHECK(parse_duration("1.0000000000001d", 1, UINT64_MAX, &u) == -EDOM, "13th decimal");
        u = 0;
        CHECK(parse_duration("1.0000000000000000s", 1, UINT64_MAX, &u) == 0 && u == USEC_PER_SEC,
              "trailing zeros past 12 decimals: %" PRIu64, u);
        CHECK(parse_duration("2d", 1, USEC_PER_DAY, &u) == -ERANGE, "over the maximum");
        CHECK(parse_duration("2000min", 1, USEC_PER_DAY, &u) == -ERANGE, "over a day");
        CHECK(parse_duration("2 s", 1, USEC_PER_DAY, &u) == -EINVAL, "space");
        CHECK(parse_duration(" 2s", 1, USEC_PER_DAY, &u) == -EINVAL, "leading space");
        CHECK(parse_duration("-1s", 1, USEC_PER_DAY, &u) == -EINVAL, "negative");
        CHECK(parse_duration("+1s", 1, USEC_PER_DAY, &u) == -EINVAL, "plus");
        CHECK(parse_duration("abc", 1, USEC_PER_DAY, &u) == -EINVAL, "word");
        CHECK(parse_duration("", 1, USEC_PER_DAY, &u) == -EINVAL, "empty");
        CHECK(parse_duration(".", 1, USEC_PER_DAY, &u) == -EINVAL, "dot");
        CHECK(parse_duration("nan", 1, USEC_PER_DAY, &u) == -EINVAL, "nan");
        CHECK(parse_duration("inf", 1, USEC_PER_DAY, &u) == -EINVAL, "inf");
        CHECK(parse_duration("1e3ms", 1, USEC_PER_DAY, &u) == -EINVAL, "exponent");
        CHECK(parse_duration("0x10s", 1, USEC_PER_DAY, &u) == -EINVAL, "hex");
        CHECK(parse_duration("0x1p3", 1, USEC_PER_DAY, &u) == -EINVAL, "hex float");
        CHECK(parse_duration("1.2.3s", 1, USEC_PER_DAY, &u) == -EINVAL, "two dots");
        CHECK(parse_duration("99999999999999999999s", 1, UINT64_MAX, &u) == -ERANGE, "overflow");
        CHECK(parse_duration("18446744073709551615us", 1, UINT64_MAX, &u) == 0 && u == UINT64_MAX, "max");
        CHECK(parse_duration("213503983d", 1, UINT64_MAX, &u) == -ERANGE, "unit overflow");
        CHECK(parse_duration(NULL, 1, USEC_PER_DAY, &u) == -EINVAL, "NULL");
}

static void test_cpu_list(void) {
        cpu_set_t s;

        CHECK(parse_cpu_list(S("0-3,5\n"), &s) == 0 && CPU_COUNT(&s) == 5 && CPU_ISSET(5, &s) && !CPU_ISSET(4, &s), "0-3,5");
        CHECK(parse_cpu_list(S("0\n"), &s) == 0 && CPU_COUNT(&s) == 1, "0");
        CHECK(parse_cpu_list(S("\n"), &s) == 0 && CPU_COUNT(&s) == 0, "empty line");
        CHECK(parse_cpu_list(S("1023"), &s) == 0 && CPU_ISSET(1023, &s), "1023");
        CHECK(parse_cpu_list(S("1024"), &s) == -ERANGE, "1024");
        CHECK(parse_cpu_list(S("99999999999999999999"), &s) == -ERANGE, "huge");
        CHECK(parse_cpu_list(S("3-1"), &s) == -EINVAL, "reversed");
        CHECK(parse_cpu_list(S("0,,1"), &s) == -EINVAL, "double comma");
        CHECK(parse_cpu_list(S("0-"), &s) == -EINVAL, "open range");
        CHECK(parse_cpu_list(S("0-1,"), &s) == -EINVAL, "trailing comma");
        CHECK(parse_cpu_list(S("a"), &s) == -EINVAL, "letter");
        CHECK(parse_cpu_list(S("0 1"), &s) == -EINVAL, "space");
        CHECK(parse_cpu_list(S("0\n\n"), &s) == -EINVAL, "two newlines");
        CHECK(parse_cpu_list(S("0\0001"), &s) == -EINVAL, "NUL");
}

int main(void) {
        test_u64();
        test_duration();
        test_cpu_list();
        return test_result("test-parse-util");
}
