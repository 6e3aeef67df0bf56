/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Minimal assertion helpers: every failed check prints file:line and what
 * was expected; the test exits non-zero if any check failed. */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned test_failures;

#define CHECK(cond, ...)                                                                  \
        do {                                                                              \
                if (!(cond)) {                                                            \
                        fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
                        fprintf(stderr, __VA_ARGS__);                                     \
                        fputc('\n', stderr);                                              \
                        test_failures++;                                                  \
                }                                                                         \
        } while (0)

#define CHECK_EQ_U64(a, b)                                                                \
        do {                                                                              \
                uint64_t _a = (a), _b = (b);                                              \
                CHECK(_a == _b, "%s = %" PRIu64 ", expected %" PRIu64, #a, _a, _b);       \
        } while (0)

#define CHECK_EQ_INT(a, b)                                                                \
        do {                                                                              \
                long long _a = (a), _b = (b);                                             \
                CHECK(_a == _b, "%s = %lld, expected %lld", #a, _a, _b);                  \
        } while (0)

static inline int test_result(const char *name) {
        if (test_failures) {
                fprintf(stderr, "%s: %u check(s) failed\n", name, test_failures);
                return EXIT_FAILURE;
        }
        printf("%s: all checks passed\n", name);
        return EXIT_SUCCESS;
}
