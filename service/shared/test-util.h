/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

/* Minimal assertion helpers: every failed check prints file:line and what
 * was expected; the test exits non-zero if any check failed. */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

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

/* What a call logs: stderr goes to a temporary file from
 * test_stderr_begin() to test_stderr_end(), which puts its text (up to
 * len - 1 bytes) in buf. JOURNAL_STREAM is unset: lines start with
 * "rng-health: " (log.h). */
typedef struct TestStderr {
        int fd, saved;
} TestStderr;

static inline TestStderr test_stderr_begin(void) {
        char tmp[] = "/tmp/rng-health-test-stderr.XXXXXX";
        TestStderr c = { .fd = mkstemp(tmp), .saved = dup(STDERR_FILENO) };

        CHECK(c.fd >= 0 && c.saved >= 0, "mkstemp/dup");
        if (c.fd >= 0)
                unlink(tmp);
        unsetenv("JOURNAL_STREAM");
        fflush(stderr);
        if (c.fd >= 0)
                dup2(c.fd, STDERR_FILENO);
        return c;
}

static inline void test_stderr_end(TestStderr *c, char *buf, size_t len) {
        ssize_t n = -1;

        fflush(stderr);
        if (c->saved >= 0) {
                dup2(c->saved, STDERR_FILENO);
                close(c->saved);
        }
        if (c->fd >= 0) {
                n = pread(c->fd, buf, len - 1, 0);
                close(c->fd);
        }
        buf[n > 0 ? n : 0] = '\0';
}

static inline int test_result(const char *name) {
        if (test_failures) {
                fprintf(stderr, "%s: %u check(s) failed\n", name, test_failures);
                return EXIT_FAILURE;
        }
        printf("%s: all checks passed\n", name);
        return EXIT_SUCCESS;
}
