/* SPDX-License-Identifier: GPL-2.0-or-later */

/* Parsers of outside input: numbers, durations, CPU lists, probe arguments. */

#include <stdarg.h>
#include <string.h>

#include "cli-probe.h"
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

        CHECK(parse_duration_usec("2s", &u) == 0 && u == 2000000, "2s");
        CHECK(parse_duration_usec("500ms", &u) == 0 && u == 500000, "500ms");
        CHECK(parse_duration_usec("1.5s", &u) == 0 && u == 1500000, "1.5s");
        CHECK(parse_duration_usec("100us", &u) == 0 && u == 100, "100us");
        CHECK(parse_duration_usec("1min", &u) == 0 && u == 60000000, "1min");
        CHECK(parse_duration_usec("5", &u) == 0 && u == 5000000, "5");
        CHECK(parse_duration_usec("0", &u) == -ERANGE, "0");
        CHECK(parse_duration_usec("0.1us", &u) == -ERANGE, "sub-us");
        CHECK(parse_duration_usec("2d", &u) == -EINVAL, "unknown unit");
        CHECK(parse_duration_usec("2 s", &u) == -EINVAL, "space");
        CHECK(parse_duration_usec("-1s", &u) == -EINVAL, "negative");
        CHECK(parse_duration_usec("abc", &u) == -EINVAL, "word");
        CHECK(parse_duration_usec("", &u) == -EINVAL, "empty");
        CHECK(parse_duration_usec("nan", &u) == -EINVAL, "nan");
        CHECK(parse_duration_usec("1e400s", &u) == -EINVAL, "inf");
        CHECK(parse_duration_usec("2000min", &u) == -ERANGE, "over a day");
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

static int parse(ProbeArgs *a, ...) {
        char *argv[16];
        int argc = 0;
        va_list ap;

        argv[argc++] = (char *) "probe";
        va_start(ap, a);
        for (char *s; (s = va_arg(ap, char *)) && argc < 15;)
                argv[argc++] = s;
        va_end(ap);
        argv[argc] = NULL;
        return probe_parse_args(argc, argv, a);
}

static void test_args(void) {
        ProbeLimits def = PROBE_LIMITS_DEFAULT;
        ProbeArgs a;

        CHECK_EQ_INT(parse(&a, NULL), 0);
        CHECK(a.params.instructions == 3 && a.params.widths == 7 && a.params.threads == 0 && !a.json, "defaults");
        CHECK(a.params.limits.budget_usec == def.budget_usec && a.params.limits.max_attempts == def.max_attempts, "limits");

        CHECK_EQ_INT(parse(&a, "--instruction", "rdseed", "--width", "32", "--threads", "2", "--json", NULL), 0);
        CHECK(a.params.instructions == 1u << RNG_RDSEED && a.params.widths == 1u << 1 && a.params.threads == 2 && a.json,
              "explicit");
        CHECK_EQ_INT(parse(&a, "--instruction=all", "--width=all", "--threads=all", NULL), 0);
        CHECK(a.params.instructions == 3 && a.params.widths == 7 && a.params.threads == 0, "all");

        /* --duration alone lifts the draw cap, --count alone the time budget. */
        CHECK_EQ_INT(parse(&a, "--duration", "3s", NULL), 0);
        CHECK(a.params.limits.budget_usec == 3000000 && a.params.limits.max_attempts == 0, "duration");
        CHECK_EQ_INT(parse(&a, "--count", "100000", NULL), 0);
        CHECK(a.params.limits.budget_usec == 0 && a.params.limits.max_attempts == 100000, "count");
        CHECK_EQ_INT(parse(&a, "--count", "10", "--duration", "1s", NULL), 0);
        CHECK(a.params.limits.budget_usec == 1000000 && a.params.limits.max_attempts == 10, "both");

        CHECK_EQ_INT(parse(&a, "--help", NULL), 0);
        CHECK(a.help, "help");

        /* Bad arguments. */
        CHECK(parse(&a, "--instruction", "rdtsc", NULL) == -EINVAL, "instruction");
        CHECK(parse(&a, "--width", "8", NULL) == -EINVAL, "width 8");
        CHECK(parse(&a, "--width", "320", NULL) == -EINVAL, "width 320");
        CHECK(parse(&a, "--width", "", NULL) == -EINVAL, "width empty");
        CHECK(parse(&a, "--threads", "0", NULL) == -EINVAL, "threads 0");
        CHECK(parse(&a, "--threads", "-2", NULL) == -EINVAL, "threads -2");
        CHECK(parse(&a, "--threads", "99999", NULL) == -EINVAL, "threads 99999");
        CHECK(parse(&a, "--duration", "soon", NULL) == -EINVAL, "duration");
        CHECK(parse(&a, "--count", "0", NULL) == -EINVAL, "count 0");
        CHECK(parse(&a, "--count", "1e6", NULL) == -EINVAL, "count 1e6");
        CHECK(parse(&a, "--width", NULL) == -EINVAL, "missing value");
        CHECK(parse(&a, "--bogus", NULL) == -EINVAL, "unknown option");
        CHECK(parse(&a, "-x", NULL) == -EINVAL, "unknown short option");
        CHECK(parse(&a, "extra", NULL) == -EINVAL, "positional");
}

int main(void) {
        test_u64();
        test_duration();
        test_cpu_list();
        test_args();
        return test_result("test-parse");
}
